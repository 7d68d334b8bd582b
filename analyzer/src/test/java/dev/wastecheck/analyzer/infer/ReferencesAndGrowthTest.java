package dev.wastecheck.analyzer.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.Reference;
import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * References found by values, and keys narrowed from BIGINT only when their rows' own timestamps
 * leave them years: one generated mysqldump, analyzed once.
 *
 * <ul>
 *   <li>{@code account.acct_no}: 3,000 ids with gaps (1, 4, 7, ...); {@code transfer.src} holds
 *       2,000 of them under a name that names nothing: found by values.</li>
 *   <li>{@code category.cat}: dense ids 1..1,000; {@code transfer.level} holds 1..20, which any
 *       dense key contains: no evidence, no reference.</li>
 *   <li>{@code transfer.id}: BIGINT, 5,000 ids over two years of {@code made_at}: INT lasts.</li>
 *   <li>{@code event.id}: BIGINT, its counter at 100,000,000 after 30 days: x10 fits INT, but at
 *       that pace INT runs out in about two years, so it stays BIGINT.</li>
 * </ul>
 */
class ReferencesAndGrowthTest {
    static AnalysisReport report;

    @BeforeAll
    static void analyze(@TempDir Path dir) throws Exception {
        StringBuilder sql = new StringBuilder("""
                CREATE TABLE `account` (`acct_no` int NOT NULL AUTO_INCREMENT, `opened` datetime NOT NULL, PRIMARY KEY (`acct_no`)) ENGINE=InnoDB;
                CREATE TABLE `category` (`cat` int NOT NULL, `label` varchar(20) NOT NULL, PRIMARY KEY (`cat`)) ENGINE=InnoDB;
                CREATE TABLE `transfer` (`id` bigint NOT NULL AUTO_INCREMENT, `src` int NOT NULL, `level` int NOT NULL,
                  `made_at` datetime NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;
                CREATE TABLE `event` (`id` bigint NOT NULL AUTO_INCREMENT, `created_at` datetime NOT NULL, PRIMARY KEY (`id`))
                  ENGINE=InnoDB AUTO_INCREMENT=100000000;
                """);
        LocalDateTime t0 = LocalDateTime.of(2022, 1, 1, 0, 0);
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        rows(
                sql,
                "account",
                3000,
                i -> (1 + 3L * (i - 1)) + ",'" + t0.plusHours(i).format(f) + "'");
        rows(sql, "category", 1000, i -> i + ",'c" + i + "'");
        rows(
                sql,
                "transfer",
                5000,
                i -> i + "," + (1 + 3L * ((i * 7) % 2000)) + "," + (1 + i % 20) + ",'"
                        + t0.plusMinutes(i * 210L).format(f) + "'");
        rows(sql, "event", 2000, i -> i + ",'" + t0.plusMinutes(i * 21L).format(f) + "'");
        Path dump = dir.resolve("bank.sql");
        Files.writeString(dump, sql.toString());
        report = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                .analyze(List.of(dump), Progress.NONE);
    }

    private static void rows(StringBuilder sql, String table, int n, java.util.function.IntFunction<String> row) {
        sql.append("INSERT INTO `").append(table).append("` VALUES ");
        for (int i = 1; i <= n; i++) {
            sql.append(i > 1 ? "," : "").append('(').append(row.apply(i)).append(')');
        }
        sql.append(";\n");
    }

    private static ColumnReport column(String table, String column) {
        return report.table(table).column(column);
    }

    @Test
    void aColumnWhoseValuesAllLieInAKeyWithGapsRefersToIt() {
        Reference src = report.references().stream()
                .filter(r -> r.column().equals("src"))
                .findFirst()
                .orElseThrow();
        assertThat(src.to()).isEqualTo("account.acct_no");
        assertThat(src.evidence()).isEqualTo(Reference.Evidence.VALUES);
        assertThat(src.describe()).isEqualTo("by values: 2000 of 2000 distinct values found in account.acct_no");
        // It takes its key's type: the key keeps INT (the floor), so does the reference, where its
        // own range (max 5,998) would have taken a SMALLINT.
        assertThat(column("transfer", "src").suggestedType()).isEqualTo("int");
        assertThat(column("transfer", "src").findings()).anyMatch(f -> f.kind() == FindingKind.REFERENCES);
        assertThat(report.domains()).anyMatch(g -> g.containsAll(List.of("account.acct_no", "transfer.src")));
    }

    @Test
    void smallNumbersInsideADenseKeyProveNothing() {
        assertThat(report.references()).noneMatch(r -> r.column().equals("level"));
        assertThat(column("transfer", "level").suggestedType()).isEqualTo("TINYINT");
    }

    @Test
    void aBigintKeyBecomesIntWhenItsRowsTimestampsLeaveItYears() {
        ColumnReport id = column("transfer", "id");
        assertThat(id.suggestedType()).isEqualTo("INT");
        assertThat(id.findings().get(0).detail())
                .contains(
                        "max 5000, x10 room: up to 50000 fits INT",
                        "exhausts in ~",
                        "years at the observed rate",
                        "over transfer.made_at's 729 days");
    }

    @Test
    void aBigintKeyThatWouldRunOutWithinTheHorizonStaysBigint() {
        ColumnReport id = column("event", "id");
        assertThat(id.suggestedType()).isEqualTo("bigint");
        assertThat(id.findings())
                .anyMatch(
                        f -> f.kind() == FindingKind.KEPT_DECLARED
                                && f.detail()
                                        .startsWith(
                                                "a narrower type would run out within --horizon-years 10 at the observed rate"));
    }
}

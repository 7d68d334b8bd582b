package dev.wastecheck.analyzer.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The low-cardinality rule told the profile's exact distinct counts: an index one of whose columns
 * holds more than five distinct values is not grouped in SQL, and the findings are those of the
 * grouped queries. One mysqldump of 3,000 rows: {@code status} 3 values a third each (a finding),
 * {@code code} 6 values (none: one over the rule's five), {@code grade} 5 values with the rarest in
 * 1% of the rows (none: too rare), a key of {@code made} (3,000 values) and {@code status} (none,
 * from the counts), a key of {@code flag} and {@code status} (2 x 3 = 6 keys: none, from its query).
 */
class LowCardinalityFromProfileTest {
    @Test
    void theProfilesCountsSkipOnlyQueriesThatCouldFindNothing(@TempDir Path dir) throws Exception {
        StringBuilder sql = new StringBuilder("""
                CREATE TABLE `item` (`id` int NOT NULL AUTO_INCREMENT, `status` varchar(8) NOT NULL, `code` int NOT NULL,
                  `grade` int NOT NULL, `made` varchar(20) NOT NULL, `flag` tinyint NOT NULL, PRIMARY KEY (`id`),
                  KEY `by_status` (`status`), KEY `by_code` (`code`), KEY `by_grade` (`grade`),
                  KEY `by_made_status` (`made`, `status`), KEY `by_flag_status` (`flag`, `status`)) ENGINE=InnoDB;
                INSERT INTO `item` VALUES
                """);
        int n = 3000;
        for (int i = 1; i <= n; i++) {
            String status = new String[] {"new", "paid", "sent"}[i % 3];
            int grade = i <= 30 ? 4 : i % 4;
            sql.append(i > 1 ? "," : "")
                    .append('(')
                    .append(i)
                    .append(",'")
                    .append(status)
                    .append("',")
                    .append(i % 6)
                    .append(',')
                    .append(grade)
                    .append(",'m")
                    .append(i)
                    .append("',")
                    .append(i % 2)
                    .append(')');
        }
        sql.append(";\n");
        Path dump = dir.resolve("items.sql");
        Files.writeString(dump, sql.toString());

        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        AnalysisReport report = analyzer.analyze(List.of(dump), Progress.NONE);
        List<String> lowCard = report.indexFindings().stream()
                .filter(f -> f.kind() == FindingKind.LOW_CARDINALITY_INDEX)
                .map(IndexFinding::index)
                .toList();
        assertThat(lowCard).containsExactly("by_status");
        Map<String, Long> counted = IndexAnalysis.exactDistinct(report).get("item");
        assertThat(counted)
                .containsEntry("status", 3L)
                .containsEntry("code", 6L)
                .containsEntry("grade", 5L)
                .containsEntry("made", 3000L)
                .containsEntry("flag", 2L);

        try (LoadedSource source = analyzer.open(List.of(dump), false, Progress.NONE)) {
            LoadedTable t = source.tables().values().iterator().next();
            List<TableDef> defs = new ArrayList<>(List.of(t.def()));
            List<IndexEntry> candidates =
                    DeclaredIndexes.of(defs, source.catalog(), source.dialect()).indexes().stream()
                            .filter(e -> !e.unique())
                            .toList();
            assertThat(candidates).hasSize(5);
            List<String> grouped = names(LowCardinalityIndexes.find(source.rows(), t, candidates));
            List<String> told = names(LowCardinalityIndexes.find(
                    source.rows(), t, candidates, c -> counted.getOrDefault(c.toLowerCase(), -1L)));
            assertThat(told).isEqualTo(grouped).containsExactly("by_status");
            // the counts decide which queries run: told six values of status, its index is not grouped
            List<String> misled = names(LowCardinalityIndexes.find(
                    source.rows(), t, candidates, c -> c.equalsIgnoreCase("status") ? 6 : -1));
            assertThat(misled).isEmpty();
            // at five, the rule's own bound, the query runs and finds it
            List<String> atBound = names(LowCardinalityIndexes.find(
                    source.rows(), t, candidates, c -> c.equalsIgnoreCase("status") ? 5 : -1));
            assertThat(atBound).containsExactly("by_status");
        }
    }

    private static List<String> names(List<LowCardinalityIndexes.LowCardinality> found) {
        return found.stream().map(l -> l.index().name()).toList();
    }
}

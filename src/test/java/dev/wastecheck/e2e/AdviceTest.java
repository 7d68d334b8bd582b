package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.detail;
import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advice a DBA would apply, on the shipped wiki and on generated databases (the default
 * suite; AdviceRealDataTest holds the same on ../shared/data): keys and their references change
 * together and keep at least INT, and a trace's writes veto what they would break.
 */
class AdviceTest {
    static Path example() {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        return dir.resolve("examples/wiki");
    }

    @Test
    void theShippedWikiKeepsItsKeysAtIntAndFindsEveryReferenceByName() {
        JsonNode r = Cli.analyzeJson(example().resolve("dump.sql"));
        assertThat(r.get("advice_basis").asText()).startsWith("the advice rests on the snapshot only");
        Advice.keysAndReferencesKeepTheFloor(r);
        Advice.referencesTakeTheirKeysType(r);
        List<String> refs = new ArrayList<>();
        for (JsonNode x : r.get("references")) {
            refs.add(x.get("table").asText() + "." + x.get("column").asText() + " -> "
                    + x.get("key_table").asText() + "." + x.get("key_column").asText() + " "
                    + x.get("evidence").asText());
        }
        assertThat(refs)
                .contains(
                        "revision.rev_page -> page.page_id name",
                        "page.page_latest -> revision.rev_id name",
                        "revision.rev_parent_id -> revision.rev_id name",
                        "slots.slot_revision_id -> revision.rev_id name",
                        "slots.slot_origin -> revision.rev_id name",
                        "slots.slot_content_id -> content.content_id name",
                        "revision.rev_actor -> actor.actor_id name",
                        "revision.rev_comment_id -> comment.comment_id name",
                        "watchlist.wl_user -> user.user_id name");
        // 12 pages: too little evidence to narrow the page key, and every reference stays with it.
        assertThat(column(r, "page", "page_id").get("suggested_type").asText()).isEqualTo("int unsigned");
        assertThat(detail(column(r, "page", "page_id"), "kept_declared"))
                .startsWith("too little evidence (12 rows in page");
        assertThat(column(r, "revision", "rev_page").get("suggested_type").asText())
                .isEqualTo("int unsigned");
        // A generated comment pool of 1,000: its BIGINT key becomes INT, and the reference with it.
        assertThat(column(r, "comment", "comment_id").get("suggested_type").asText())
                .isEqualTo("INT UNSIGNED");
        assertThat(column(r, "revision", "rev_comment_id").get("suggested_type").asText())
                .isEqualTo("INT UNSIGNED");
        assertThat(detail(column(r, "comment", "comment_id"), "narrow_integer")).contains("headroom only");
        // A user's edit count is a counter: it keeps its width.
        assertThat(detail(column(r, "user", "user_editcount"), "kept_declared")).startsWith("a counter");
    }

    @Test
    void withTheThresholdsLoweredTheGroupsStillMoveTogether() {
        JsonNode r = Cli.analyzeJson(example().resolve("dump.sql"), "--min-rows", "0", "--key-floor", "2");
        Advice.referencesTakeTheirKeysType(r);
        assertThat(Advice.suggestedBits(r, "revision", "rev_page"))
                .isEqualTo(Advice.suggestedBits(r, "page", "page_id"))
                .isEqualTo(16);
        assertThat(Advice.suggestedBits(r, "page", "page_latest"))
                .isEqualTo(Advice.suggestedBits(r, "revision", "rev_id"));
        assertThat(Advice.suggestedBits(r, "slots", "slot_origin"))
                .isEqualTo(Advice.suggestedBits(r, "revision", "rev_id"));
        assertThat(Advice.namespaceTypes(r)).hasSize(2).containsOnly("SMALLINT");
    }

    /**
     * An account table whose credit, status and touched columns the snapshot would narrow, and a
     * trace whose writes would break each: {@code credit = credit + 40} three times carries one
     * row past TINYINT, an INSERT brings a fourth status, an UPDATE writes an empty timestamp.
     * The visits counter the trace also bumps, and the plain score it does not touch, stay tuned.
     */
    @Test
    void aTracesWritesVetoTheChangesTheyWouldBreakAndTheMigrationNamesThem(@TempDir Path dir) throws Exception {
        StringBuilder sql =
                new StringBuilder("CREATE TABLE `account` (`id` int NOT NULL AUTO_INCREMENT, `credit` int NOT NULL,"
                        + " `status` varchar(16) NOT NULL, `touched` binary(14) NOT NULL, `score` int NOT NULL, PRIMARY KEY (`id`))"
                        + " ENGINE=InnoDB;\nINSERT INTO `account` VALUES ");
        String[] status = {"active", "closed", "frozen"};
        for (int i = 1; i <= 2000; i++) {
            sql.append(i > 1 ? "," : "")
                    .append(String.format(
                            "(%d,%d,'%s','2020%02d%02d101500',%d)",
                            i, i % 51, status[i % 3], 1 + i % 12, 1 + i % 28, i % 60));
        }
        Path dump = dir.resolve("bank.sql");
        Files.writeString(dump, sql.append(";\n"));
        Path trace = dir.resolve("writes.sql");
        Files.writeString(trace, """
                UPDATE account SET credit = credit + 40 WHERE id = 10;
                UPDATE account SET score = score + 1 WHERE id = 3;
                UPDATE account SET credit = credit + 40 WHERE id = 10;
                INSERT INTO account (id, credit, status, touched, score) VALUES (2001, 1, 'refunded', '20210101000000', 1);
                UPDATE account SET touched = '' WHERE id = 9;
                UPDATE account SET credit = credit + 40 WHERE id = 10;
                UPDATE account SET touched = NOW(6) + INTERVAL 1 SECOND WHERE id = 11;
                """);

        Cli.Result plain = Cli.run("tune", "-q", "--representation", "account.touched", dump.toString());
        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(plain.out())
                .contains(
                        "-- Evidence: the advice rests on the snapshot only",
                        "MODIFY COLUMN `credit` TINYINT NOT NULL",
                        "MODIFY COLUMN `status` ENUM('active','closed','frozen') NOT NULL",
                        "MODIFY COLUMN `touched` DATETIME NOT NULL",
                        "MODIFY COLUMN `score` TINYINT NOT NULL");

        Cli.Result r = Cli.run(
                "tune", "-q", "--representation", "account.touched", dump.toString(), "--trace", trace.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // the left-out list is a comment re-flowed to the width: its items are read with their continuation lines
        // joined
        assertThat(r.out().replaceAll("\n--   (?!account\\.)", " "))
                .contains("-- Evidence: the trace's writes were replayed in DuckDB against the tuned types")
                .contains("MODIFY COLUMN `score` TINYINT NOT NULL")
                .doesNotContain("MODIFY COLUMN `credit`", "MODIFY COLUMN `status`", "MODIFY COLUMN `touched`")
                // the third increment is the one that breaks TINYINT (10 + 3 x 40 = 130): line 6
                .contains("--   account.credit int -> TINYINT: the trace's write would fail: TINYINT cannot hold '130' "
                        + "(1 value in all; first writes.sql:6: UPDATE account SET credit = credit + 40 WHERE id = 10)")
                .contains(
                        "--   account.status varchar(16) -> ENUM('active','closed','frozen'): the trace's write would fail: "
                                + "ENUM('active','closed','frozen') cannot hold 'refunded' (1 value in all; first writes.sql:4:")
                .contains(
                        "--   account.touched binary(14) -> DATETIME: the trace's write would fail: DATETIME cannot hold ''"
                                + " (1 value in all; first writes.sql:5:");
        // stderr wraps at the terminal's width: compare the words.
        assertThat(r.err().replaceAll("\\s+", " "))
                .contains(
                        "6 of 7 INSERT/UPDATE/DELETE statements on changed tables ran, 3 changes were vetoed",
                        "1 could not be replayed",
                        "not replayed: writes.sql:7: DuckDB cannot run it");
    }

    @Test
    void analyzeSaysWhatItsAdviceRestsOn() {
        Cli.Result r = Cli.run("analyze", "-q", example().resolve("dump.sql").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("evidence: the advice rests on the snapshot only")
                .containsPattern("references: \\d+ columns refer to \\d+ keys \\(by name \\d+\\)")
                .contains("kept as declared:");
        JsonNode withTrace = Cli.analyzeJson(
                example().resolve("dump.sql"), "--trace", example().resolve("trace.log"));
        assertThat(withTrace.get("advice_basis").asText()).startsWith("the snapshot, and the trace's statements");
        assertThat(kinds(column(withTrace, "revision", "rev_page"))).contains("references");
    }
}

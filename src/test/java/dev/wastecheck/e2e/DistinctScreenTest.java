package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profile's screen of distinct counts (docs/analyze.md): a table of 300,000 rows whose
 * columns have many values keeps an estimate only where no decision rests on the count. Two
 * columns that map one to one with 120,000 values each are counted exactly, so the duplicate
 * is still found; a unique column (2.5 times as many values as any other) keeps a marked
 * estimate; short lists (ENUM) and integers are exact. The screen is what SQL does for the
 * columns the loader could not count by their hashes (its memory budget set to 0 here, and
 * values shorter than 64 bytes are not hashed by default); with the budget and no least length,
 * every count of the dump is the loader's, exact.
 */
class DistinctScreenTest {
    private static final int ROWS = 300_000;
    private static final int PAIRS = 120_000;

    @Test
    void largeCountsNoDecisionRestsOnAreMarkedEstimatesTheOthersExact(@TempDir Path dir) throws Exception {
        Path dump = write(dir);
        JsonNode r;
        System.setProperty("wastecheck.distinctBytes", "0"); // no hashes in the loader: SQL's screen
        try {
            r = Cli.analyzeJson(dump);
        } finally {
            System.clearProperty("wastecheck.distinctBytes");
        }

        JsonNode token = column(r, "t", "token");
        assertThat(token.path("distinct_estimated").asBoolean()).isTrue();
        assertThat(token.get("distinct").asLong())
                .isBetween(ROWS * 8L / 10, (long) ROWS); // a sketch, capped at the rows
        assertExactCountsAndFindings(r);
    }

    @Test
    void theLoadersHashesCountEveryColumnExactly(@TempDir Path dir) throws Exception {
        JsonNode r;
        System.setProperty("wastecheck.distinctMinMean", "0"); // these short values hashed too
        try {
            r = Cli.analyzeJson(write(dir));
        } finally {
            System.clearProperty("wastecheck.distinctMinMean");
        }
        JsonNode token = column(r, "t", "token");
        assertThat(token.has("distinct_estimated")).isFalse();
        assertThat(token.get("distinct").asLong()).isEqualTo(ROWS);
        assertExactCountsAndFindings(r);
    }

    private static Path write(Path dir) throws Exception {
        Path dump = dir.resolve("screen.sql");
        String[] status = {"new", "paid", "shipped", "delivered", "returned"};
        try (BufferedWriter w = Files.newBufferedWriter(dump)) {
            w.write("CREATE TABLE `t` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,\n  `token` varchar(40) NOT NULL,\n"
                    + "  `city` varchar(40) NOT NULL,\n  `city_code` varchar(40) NOT NULL,\n"
                    + "  `status` varchar(20) NOT NULL,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB;\n");
            for (int i = 1; i <= ROWS; i++) {
                if ((i - 1) % 5000 == 0) {
                    w.write((i > 1 ? ";\n" : "") + "INSERT INTO `t` VALUES ");
                } else {
                    w.write(",");
                }
                int k = (int) ((i * 7919L) % PAIRS); // 120,000 values, each one to one with its code
                w.write("(" + i + ",'tok-" + Long.toHexString(i * 2654435761L) + "','city " + k + "','C" + (k * 3)
                        + "','" + status[i % status.length] + "')");
            }
            w.write(";\n");
        }
        return dump;
    }

    private static void assertExactCountsAndFindings(JsonNode r) {
        for (String c : new String[] {"city", "city_code"}) {
            assertThat(column(r, "t", c).has("distinct_estimated")).as(c).isFalse();
            assertThat(column(r, "t", c).get("distinct").asLong()).as(c).isEqualTo(PAIRS);
        }
        assertThat(kinds(column(r, "t", "city_code"))).contains("duplicate_column");

        assertThat(column(r, "t", "status").get("distinct").asLong()).isEqualTo(5);
        assertThat(column(r, "t", "status").get("suggested_type").asText()).startsWith("ENUM(");
        assertThat(column(r, "t", "id").get("distinct").asLong()).isEqualTo(ROWS);
        assertThat(column(r, "t", "id").has("distinct_estimated")).isFalse();
    }
}

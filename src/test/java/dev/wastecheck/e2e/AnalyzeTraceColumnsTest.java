package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.detail;
import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Column-level workload findings from a plain file of statements: unused columns and granularity waste. */
class AnalyzeTraceColumnsTest {

    @Test
    void aTimestampReadOnlyThroughYearAndAColumnNoStatementTouches(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("dump.sql"),
                "CREATE TABLE `t` (`id` int NOT NULL AUTO_INCREMENT, `created` datetime NOT NULL,"
                        + " `name` varchar(20) NOT NULL, `notes` text, PRIMARY KEY (`id`));\n"
                        + "INSERT INTO `t` VALUES (1,'2020-01-02 10:00:00','a','x'),(2,'2021-03-04 11:00:00','b',NULL),"
                        + "(3,'2022-05-06 12:00:00','c','y');\n");
        Files.writeString(
                dir.resolve("trace.sql"),
                "SELECT name FROM t WHERE id = 1;\nSELECT YEAR(created) FROM t WHERE id = 2;\n"
                        + "SELECT name, YEAR(created) FROM t WHERE id = 3;\nSELECT id FROM t WHERE YEAR(created) = 2021;\n");
        JsonNode r = Cli.analyzeJson(dir.resolve("dump.sql"), "--trace", dir.resolve("trace.sql"));
        assertThat(r.get("traces").get(0).get("format").asText()).isEqualTo("sql_statements");
        assertThat(r.get("traces").get(0).get("resolved").asLong()).isEqualTo(4);
        assertThat(kinds(column(r, "t", "created"))).contains("granularity");
        assertThat(detail(column(r, "t", "created"), "granularity"))
                .contains("YEAR")
                .contains("3 of 3 reads");
        assertThat(kinds(column(r, "t", "notes"))).contains("unused_column");
        assertThat(kinds(column(r, "t", "name"))).doesNotContain("unused_column", "granularity");

        Cli.Result md = Cli.run(
                "analyze",
                "-q",
                "--format",
                "markdown",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.sql").toString());
        assertThat(md.exitCode()).isZero();
        assertThat(md.out())
                .contains("## Workload")
                .contains("| t | 4 |")
                .contains("`granularity` read only through YEAR");
    }

    @Test
    void aTraceThatDoesNotExistIsBadInput(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("dump.sql"), "CREATE TABLE t (id int);\n");
        Cli.Result r = Cli.run(
                "analyze",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("nope.log").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("nope.log").contains("no such trace file");
    }
}

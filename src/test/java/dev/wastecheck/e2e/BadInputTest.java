package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input never crashes and never vanishes: a message with file and line, exit 2, no stack trace. */
class BadInputTest {

    @Test
    void unterminatedStringNamesFileAndLine(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("broken.sql");
        Files.writeString(dump, "CREATE TABLE t (id int, name varchar(10));\nINSERT INTO t VALUES (1,'a'),\n(2,'b);\n");
        Cli.Result r = Cli.run("analyze", dump.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains("broken.sql:3")
                .contains("expected a closing '")
                .doesNotContain("\tat ");
    }

    @Test
    void garbageBetweenRowsIsAnError(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("garbage.sql");
        Files.writeString(dump, "CREATE TABLE t (id int);\nINSERT INTO t VALUES (1),\n(2) xyz (3);\n");
        Cli.Result r = Cli.run("analyze", dump.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("garbage.sql:3").contains("expected");
    }

    @Test
    void rowsOfTheWrongWidthAreCountedAndReported(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("ragged.sql");
        Files.writeString(
                dump,
                "CREATE TABLE t (id int, name varchar(10));\n"
                        + "INSERT INTO t VALUES (1,'a'),(2,'b','extra'),(3,'c');\nINSERT INTO t VALUES (4);\n"
                        + "INSERT INTO t VALUES ('five','e');\n");
        JsonNode report = Cli.analyzeJson("--max-bad", "1", dump); // counted and reported, not failing
        assertThat(Cli.run("analyze", dump.toString()).exitCode()).isEqualTo(2); // past the default 1%
        JsonNode t = Cli.table(report, "t");
        assertThat(t.get("rows").asLong()).isEqualTo(3);
        assertThat(t.get("bad_rows").asLong()).isEqualTo(2);
        assertThat(t.get("bad_values").asLong()).isEqualTo(1);
        assertThat(t.get("problems").toString())
                .contains("ragged.sql:2")
                .contains("ragged.sql:3")
                .contains("'five'");
    }

    @Test
    void missingFileAndUnknownFormatExitTwo(@TempDir Path dir) throws Exception {
        Cli.Result missing = Cli.run("analyze", dir.resolve("nope.sql").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.sql").contains("no such file");

        Path binary = dir.resolve("blob.bin");
        Files.write(binary, new byte[] {0, 1, 2, 3, 0, 5, 6, 7});
        Cli.Result bin = Cli.run("analyze", binary.toString());
        assertThat(bin.exitCode()).isEqualTo(2);
        assertThat(bin.err()).contains("blob.bin").contains("not a format");
    }

    @Test
    void badOptionsExitTwoWithUsageHint() {
        Cli.Result r = Cli.run("analyze", "--format", "yaml", "x.sql");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--format").contains("--help");
    }

    @Test
    void rowsBeforeTheirTableAreExplained(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("data-only.sql");
        Files.writeString(dump, "INSERT INTO orphan VALUES (1,2);\n");
        Cli.Result r = Cli.run("analyze", dump.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("data-only.sql:1").contains("CREATE TABLE for orphan");
    }
}

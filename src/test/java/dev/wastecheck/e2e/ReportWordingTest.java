package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smaller things a new user reads: counts in the singular when there is one, the next step
 * after standard input, the JSON report's version and each finding's saving, and the table that
 * {@code trace generate} prints with its header.
 */
class ReportWordingTest {
    private static String dump() {
        StringBuilder sb =
                new StringBuilder("CREATE TABLE t (id int NOT NULL, status varchar(20) NOT NULL, PRIMARY KEY (id));\n");
        sb.append("INSERT INTO t VALUES ");
        for (int i = 1; i <= 2000; i++) {
            sb.append(i > 1 ? "," : "")
                    .append("(")
                    .append(i)
                    .append(",'")
                    .append(new String[] {"draft", "published", "archived"}[i % 3])
                    .append("')");
        }
        return sb.append(";\n").toString();
    }

    @Test
    void oneTableIsATableAndStandardInputSuggestsTuneDash(@TempDir Path dir) throws Exception {
        InputStream stdin = System.in;
        StringWriter out = new StringWriter();
        try {
            System.setIn(new ByteArrayInputStream(dump().getBytes(StandardCharsets.UTF_8)));
            int code = Main.run(
                    new String[] {"analyze", "-q", "-"},
                    new PrintWriter(out),
                    new PrintWriter(new StringWriter()),
                    Map.of("COLUMNS", "100"));
            assertThat(code).isZero();
        } finally {
            System.setIn(stdin);
        }
        String text = out.toString().replaceAll("\\s+", " "); // as read, whatever the line breaks
        assertThat(text)
                .contains("wastecheck analyze: 1 table, 2,000 rows, <stdin>")
                .doesNotContain("1 tables");
        assertThat(text)
                .contains("wastecheck tune - writes the migration")
                .contains("same input on standard input")
                .doesNotContain("'<stdin>'");
    }

    @Test
    void theJsonSaysItsVersionAndWhatTheExplainingFindingSaves(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("t.sql");
        Files.writeString(dump, dump());
        JsonNode r = Cli.analyzeJson(dump);
        assertThat(r.get("schema_version").asInt()).isEqualTo(1);
        JsonNode code = Cli.column(r, "t", "status");
        long saved =
                code.get("declared_bytes").asLong() - code.get("tight_bytes").asLong();
        assertThat(saved).isPositive();
        JsonNode first = code.get("findings").get(0);
        assertThat(first.get("kind").asText()).isEqualTo("low_cardinality");
        assertThat(first.get("bytes_saved").asLong()).isEqualTo(saved);
    }

    @Test
    void traceGeneratePrintsItsTableUnderAHeader(@TempDir Path dir) {
        Cli.Result r = Cli.run(
                "trace", "generate", "--scale", "20", "--seed", "1", "--requests", "100", "-q", "-o", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String header = r.out().lines().findFirst().orElseThrow();
        assertThat(header).startsWith("table").contains("rows").contains("bytes in the dump");
        assertThat(r.out()).contains("page ");
    }
}

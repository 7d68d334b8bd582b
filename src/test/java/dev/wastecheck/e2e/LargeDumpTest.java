package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump five times larger than the heap of the JVM that analyzes it: the reader streams, rows
 * travel in bounded Arrow batches, and DuckDB spills to disk. The command runs in a child JVM
 * with {@code -Xmx64m}, exactly as a user would run it.
 */
class LargeDumpTest {
    private static final int HEAP_MB = 64;
    private static final long DUMP_BYTES = 5L * HEAP_MB << 20;

    @Test
    void dumpFiveTimesTheHeapIsAnalyzedExactly(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("orders.sql");
        long rows = SyntheticDump.rowsFor(DUMP_BYTES);
        SyntheticDump.writeMysqldump(dump, rows, 7);
        assertThat(Files.size(dump)).as("dump bytes").isGreaterThan(4L * (HEAP_MB << 20));

        Path report = dir.resolve("report.json");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx" + HEAP_MB + "m",
                "-XX:MaxDirectMemorySize=128m",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.wastecheck.cli.Main",
                "analyze",
                dump.toString(),
                "--format",
                "json",
                "-o",
                report.toString(),
                "--memory-limit",
                "256MB",
                "--threads",
                "2",
                "--temp-dir",
                dir.toString(),
                "-q"));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("log.txt").toFile())
                .start();
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("finished in time").isTrue();
        String log = Files.readString(dir.resolve("log.txt"));
        assertThat(p.exitValue()).as(log).isZero();

        JsonNode r = new ObjectMapper().readTree(report.toFile());
        JsonNode orders = r.get("tables").get(0);
        assertThat(orders.get("rows").asLong()).isEqualTo(rows);
        assertThat(orders.get("bad_rows").asLong()).isZero();
        assertThat(column(orders, "order_id").get("max").asLong()).isEqualTo(rows);
        assertThat(kinds(column(orders, "order_id"))).contains("implicit_id");
        assertThat(column(orders, "quantity").get("suggested_type").asText()).isEqualTo("TINYINT");
        assertThat(column(orders, "created").get("suggested_type").asText()).isEqualTo("DATETIME");
        assertThat(column(orders, "status").get("suggested_type").asText())
                .isEqualTo("ENUM('delivered','new','paid','returned','shipped')");
        assertThat(kinds(column(orders, "flag"))).contains("constant");
        assertThat(column(orders, "note").get("nulls").asLong()).isBetween(rows / 12, rows / 8);
    }

    private static JsonNode column(JsonNode table, String name) {
        return StreamSupport.stream(table.get("columns").spliterator(), false)
                .filter(c -> c.get("name").asText().equals(name))
                .findFirst()
                .orElseThrow();
    }
}

package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wastecheck autotune} end to end: the JSON contract (docs/json.md), the text and the HTML page, and bad options. */
class AutotuneTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void generate() {
        Cli.Result gen = Cli.run(
                "trace",
                "generate",
                "--scale",
                "60",
                "--seed",
                "8",
                "--requests",
                "1200",
                "--text-median",
                "40",
                "-o",
                dir.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
    }

    private static String[] args(String... extra) {
        List<String> a = new java.util.ArrayList<>(List.of(
                "autotune",
                "--data",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.log").toString(),
                "--memory",
                "160K",
                "-q"));
        a.addAll(List.of(extra));
        return a.toArray(new String[0]);
    }

    @Test
    void theJsonKeepsTheContractAndTheHtmlDrawsThePlots() throws Exception {
        Cli.Result r = Cli.run(args("--format", "json", "--no-curve", "--repeat", "2"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode j = r.json();
        for (String key : List.of(
                "train_events",
                "held_out_events",
                "memory_bytes",
                "baseline",
                "best_uniform",
                "recommended",
                "candidates")) {
            assertThat(j.has(key)).as(key).isTrue();
        }
        assertThat(j.get("memory_bytes").asLong()).isEqualTo(160 << 10);
        for (String finalist : List.of("baseline", "best_uniform", "recommended")) {
            JsonNode run = j.get(finalist);
            for (String key : List.of(
                    "config",
                    "queries",
                    "memory_bytes",
                    "heap_bytes",
                    "index_bytes",
                    "leaf_fill",
                    "buffer_hit_rate",
                    "cache_hit_rate",
                    "pages_per_query",
                    "latency_us",
                    "device_us_per_query",
                    "cost_per_query_us",
                    "throughput_qps",
                    "speedup_vs_first",
                    "repeats",
                    "cost_per_query_us_ci95")) {
                assertThat(run.has(key)).as(finalist + "." + key).isTrue();
            }
            assertThat(run.get("queries").asLong())
                    .isEqualTo(j.get("held_out_events").asLong());
            assertThat(run.get("repeats").asInt()).isEqualTo(2);
            assertThat(run.get("results_differing").asLong()).isZero();
        }
        JsonNode tables = j.get("recommended").get("tables");
        assertThat(tables.size()).isPositive();
        for (JsonNode t : tables) {
            assertThat(t.get("name").asText()).isNotBlank();
            for (String key : List.of("layout", "cache", "cache_fields", "cluster", "tight"))
                assertThat(t.get("config").has(key)).as(key).isTrue();
        }
        JsonNode c = j.get("candidates").get(0);
        for (String key : List.of(
                "config",
                "queries",
                "cost_per_query_us",
                "working_set_bytes",
                "table",
                "status",
                "modeled_us_per_query")) {
            assertThat(c.has(key)).as("candidate " + key).isTrue();
        }
        assertThat(j.get("search").get("cost_multiple").asDouble()).isPositive();

        Path html = dir.resolve("autotune.html");
        Cli.Result h = Cli.run(args("--format", "html", "--repeat", "1", "-o", html.toString()));
        assertThat(h.exitCode()).as(h.err()).isZero();
        String page = Files.readString(html);
        assertThat(page)
                .contains(
                        "<canvas id=\"memory\">",
                        "<canvas id=\"cache\">",
                        "<canvas id=\"skew\">",
                        "Finalists",
                        "To apply it");
        // the memory curve: each finalist at half, the same and twice the budget
        assertThat(page).contains("\"memory\":81920", "\"memory\":163840", "\"memory\":327680");
    }

    @Test
    void badOptionsAreUsageErrors() {
        Cli.Result r = Cli.run(args("--train", "1.5"));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--train").doesNotContain("Exception");
        r = Cli.run(
                "autotune",
                "--data",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.log").toString(),
                "--memory",
                "lots");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("lots");
    }
}

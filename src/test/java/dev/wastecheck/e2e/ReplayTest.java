package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wastecheck replay} end to end on a generated wiki: every configuration returns the
 * baseline's results (and SQLite's and DuckDB's), the JSON keeps its contract (docs/json.md), and with a
 * memory budget far below the revision table, clustering and a hot partition cut the cost of
 * revision lookups in the order the paper reports (Fig. 3: 54% clustered < 100% < partition).
 */
class ReplayTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void generate() {
        Cli.Result gen = Cli.run(
                "trace",
                "generate",
                "--scale",
                "2000",
                "--seed",
                "3",
                "--requests",
                "12000",
                "--text-median",
                "60",
                "-o",
                dir.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
    }

    private static JsonNode replay(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "replay",
                "--data",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.log").toString(),
                "--format",
                "json",
                "-q"));
        args.addAll(List.of(extra));
        Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.json();
    }

    @Test
    void arrowBlocksHotAndFrozenReturnTheBaselinesResults() {
        JsonNode runs = replay(
                        "--config",
                        "layout=nsm",
                        "--config",
                        "layout=arrow,freeze=off",
                        "--config",
                        "layout=arrow,cold_after=100",
                        "--max-events",
                        "8000",
                        "--check")
                .get("runs");
        assertThat(runs).hasSize(3);
        assertThat(runs.get(2).get("settings").asText()).startsWith("layout=arrow,freeze=on,cold_after=100");
        for (JsonNode run : runs) {
            assertThat(run.get("results_differing").asLong())
                    .as(run.get("config").asText())
                    .isZero();
            assertThat(run.get("heap_bytes").asLong()).isPositive();
        }
        // Arrow blocks live beside the buffer pool: their memory adds to the pool's.
        assertThat(runs.get(1).get("memory_bytes").asLong())
                .isEqualTo(runs.get(0).get("memory_bytes").asLong()
                        + runs.get(1).get("heap_bytes").asLong());
    }

    /**
     * {@code log=on}: every operation logged and forced (Li et al., VLDB 2020, §3.4) changes no result
     * (that the log reads back, and its directory goes, is {@code ArrowStorageLogTest}'s).
     */
    @Test
    void arrowBlocksWithAWriteAheadLogReturnTheBaselinesResults() {
        JsonNode runs = replay(
                        "--config",
                        "layout=nsm",
                        "--config",
                        "layout=arrow,freeze=off,log=on",
                        "--max-events",
                        "4000",
                        "--check")
                .get("runs");
        assertThat(runs).hasSize(2);
        assertThat(runs.get(1).get("settings").asText()).startsWith("layout=arrow,freeze=off,log=on");
        assertThat(runs.get(1).get("results_differing").asLong()).isZero();
        assertThat(runs.get(1).get("rows_returned").asLong())
                .isPositive()
                .isEqualTo(runs.get(0).get("rows_returned").asLong());
    }

    @Test
    void everyConfigurationAndEngineReturnsTheBaselinesResults() {
        JsonNode r = replay(
                "--config",
                "layout=nsm",
                "--config",
                "layout=pax,cache=swap",
                "--config",
                "tight=on",
                "--config",
                "layout=hpl,cluster=partition,cache=shrink",
                "--compare",
                "sqlite,duckdb",
                "--max-events",
                "8000",
                "--check");
        JsonNode runs = r.get("runs");
        assertThat(runs).hasSize(4);
        for (JsonNode run : runs) {
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
                    "speedup_vs_first")) {
                assertThat(run.has(key)).as(key).isTrue();
            }
            for (String p : List.of("p50", "p95", "p99", "mean"))
                assertThat(run.get("latency_us").get(p).asDouble()).isPositive();
            assertThat(run.get("results_differing").asLong())
                    .as(run.get("config").asText())
                    .isZero();
            assertThat(run.get("queries").asLong()).isGreaterThan(5_000);
            assertThat(run.get("leaf_fill").asDouble()).isBetween(0.3, 1.0);
        }
        assertThat(runs.get(0).get("speedup_vs_first").asDouble()).isEqualTo(1.0);
        assertThat(runs.get(1).get("cache_hit_rate").asDouble()).isGreaterThan(0.5);
        // tight types, same layout: narrower fields, fewer pages
        assertThat(runs.get(2).get("heap_bytes").asLong())
                .isLessThan(runs.get(0).get("heap_bytes").asLong());
        assertThat(r.get("engines")).hasSize(2);
        for (JsonNode e : r.get("engines")) {
            assertThat(e.get("results_differing").asLong())
                    .as(e.get("engine").asText())
                    .isZero();
            assertThat(e.get("queries").asLong())
                    .isEqualTo(runs.get(0).get("executed").asLong());
        }
    }

    @Test
    void clusteringAndAHotPartitionCutTheCostOfRevisionLookups() {
        JsonNode runs = replay(
                        "--tables",
                        "revision",
                        "--memory",
                        "1M",
                        "--config",
                        "cluster=none",
                        "--config",
                        "cluster=0.54",
                        "--config",
                        "cluster=1",
                        "--config",
                        "cluster=partition")
                .get("runs");
        // The order is asserted on device time, which is modeled from counted buffer-pool misses and
        // so is the same on every run; the measured CPU part of the cost moves with the machine's
        // load (a CI run saw cluster=1 cost more than cluster=0.54 by CPU alone). Timings are for
        // docs/benchmarks.md, not for tests.
        double none = runs.get(0).get("device_us_per_query").asDouble();
        double half = runs.get(1).get("device_us_per_query").asDouble();
        double all = runs.get(2).get("device_us_per_query").asDouble();
        double part = runs.get(3).get("device_us_per_query").asDouble();
        assertThat(half).isLessThan(none);
        assertThat(all).isLessThan(half);
        assertThat(part).isLessThan(all);
        for (JsonNode run : runs) {
            assertThat(run.get("cost_per_query_us").asDouble())
                    .isGreaterThan(run.get("device_us_per_query").asDouble());
        }
        assertThat(runs.get(3).get("buffer_hit_rate").asDouble())
                .isGreaterThan(runs.get(0).get("buffer_hit_rate").asDouble());
        assertThat(runs.get(3).get("working_set_bytes").asLong())
                .isLessThan(runs.get(0).get("working_set_bytes").asLong());
        assertThat(runs.get(3).get("tuples_moved").get("revision").asLong()).isPositive();
    }

    @Test
    void badConfigurationsAreUsageErrors() {
        String data = dir.resolve("dump.sql").toString(),
                trace = dir.resolve("trace.log").toString();
        Cli.Result r = Cli.run("replay", "--data", data, "--trace", trace, "--config", "layout=columnar");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains("layout=columnar")
                .contains("expected nsm, pax, hpl or arrow")
                .doesNotContain("Exception");
        r = Cli.run("replay", "--data", data, "--trace", trace, "--config", "layout=nsm,log=on");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("log applies to layout=arrow only").doesNotContain("Exception");
        r = Cli.run("replay", "--data", data, "--trace", trace, "--config", "memory=lots");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("memory=lots");
        r = Cli.run("replay", "--data", data, "--trace", trace, "--tables", "no_such_table");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no_such_table");
        r = Cli.run(
                "replay", "--data", data, "--trace", dir.resolve("missing.log").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(Files.exists(dir.resolve("missing.log"))).isFalse();
    }

    @Test
    void theTextReportShowsEveryConfigurationSideBySide() {
        Cli.Result r = Cli.run(
                "replay",
                "--data",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.log").toString(),
                "--tables",
                "page",
                "--config",
                "cache=off",
                "--config",
                "cache=swap",
                "--cache-fields",
                "page.name_title=page_id+page_latest+page_title",
                "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("page_title is not cached"); // a key column: the key already answers it
        assertThat(r.out())
                .contains("cache=off")
                .contains("cache=swap")
                .contains("cost/query")
                .contains("speedup");
    }

    @Test
    void hotByReferenceLearnsThatTheLatestRevisionIsHotAndKeepsTheResults() {
        // Held out: the views of pages first seen after the split read their latest revision from the cold partition
        // under cluster=partition; with hot=refs a rule learned on the training (page_latest names the hot revisions)
        // puts every page's latest revision in the hot partition.
        JsonNode r = replay(
                "--config",
                "layout=nsm",
                "--config",
                "cluster=partition",
                "--config",
                "cluster=partition,hot=refs",
                "--train",
                "0.5",
                "--memory",
                "2M",
                "--check");
        JsonNode read = r.get("runs").get(1), refs = r.get("runs").get(2);
        assertThat(read.get("hot_rules").size()).isZero();
        List<String> rules = new java.util.ArrayList<>();
        refs.get("hot_rules").forEach(n -> rules.add(n.asText()));
        assertThat(rules)
                .anySatisfy(x -> assertThat(x)
                        .startsWith("revision: hot when referenced by page.page_latest -> revision.rev_id: 2,000 of"));
        assertThat(rules).anySatisfy(x -> assertThat(x).startsWith("slots: hot when referencing hot"));
        assertThat(refs.get("results_differing").asLong()).isZero();
        assertThat(refs.get("tuples_moved").get("revision").asLong())
                .isGreaterThan(read.get("tuples_moved").get("revision").asLong());
        assertThat(refs.get("device_reads").asLong())
                .isLessThan(read.get("device_reads").asLong());
        assertThat(refs.get("working_set_bytes").asLong())
                .isLessThan(read.get("working_set_bytes").asLong());
    }

    @Test
    void aSplitTraceWithRepeatsReportsIntervalsAndSkipsNothing() throws Exception {
        JsonNode r = replay(
                "--config",
                "tight=off",
                "--config",
                "tight=on,cluster=partition,revision.split=cold",
                "--train",
                "0.5",
                "--repeat",
                "2",
                "--warmup-rounds",
                "1",
                "--max-events",
                "6000",
                "--memory",
                "2M",
                "--check");
        // the warm-up round is run and not reported
        assertThat(r.get("repeats").asInt()).isEqualTo(2);
        assertThat(r.get("train_events").asLong() + r.get("measured_events").asLong())
                .isEqualTo(6000);
        for (JsonNode run : r.get("runs")) {
            assertThat(run.get("repeats").asInt()).isEqualTo(2);
            JsonNode ci = run.get("cost_per_query_us_ci95");
            assertThat(ci.get(0).asDouble())
                    .isLessThanOrEqualTo(run.get("cost_per_query_us").asDouble());
            assertThat(ci.get(1).asDouble())
                    .isGreaterThanOrEqualTo(run.get("cost_per_query_us").asDouble());
            JsonNode byRound = run.get("cost_per_query_us_by_round");
            assertThat(byRound).hasSize(2);
            assertThat((byRound.get(0).asDouble() + byRound.get(1).asDouble()) / 2)
                    .as("the median of two rounds")
                    .isCloseTo(run.get("cost_per_query_us").asDouble(), within(1e-9));
            assertThat(run.get("jit_compile_ms_by_round")).hasSize(2);
            assertThat(run.get("gc_ms_by_round")).hasSize(2);
            assertThat(run.get("queries").asLong())
                    .as("only the held-out events are measured")
                    .isEqualTo(r.get("measured_events").asLong());
            // the slots JOIN content lookups run as nested loops: nothing is skipped
            assertThat(run.get("skipped").asLong()).isZero();
            assertThat(run.get("skipped_by_reason").size()).isZero();
        }
        JsonNode part = r.get("runs").get(1);
        assertThat(part.get("speedup_vs_first_ci95").get(0).asDouble())
                .isLessThanOrEqualTo(part.get("speedup_vs_first").asDouble());
        assertThat(part.get("working_set_by_structure").has("revision.hot_heap"))
                .isTrue();
        assertThat(r.get("access_skew").get("revision")).hasSize(10);

        Path html = dir.resolve("replay.html");
        Cli.Result h = Cli.run(
                "replay",
                "--data",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.log").toString(),
                "--config",
                "memory=1M",
                "--config",
                "memory=4M",
                "--config",
                "cache=swap",
                "--train",
                "0.5",
                "--max-events",
                "3000",
                "--format",
                "html",
                "-o",
                html.toString(),
                "-q");
        assertThat(h.exitCode()).as(h.err()).isZero();
        String page = Files.readString(html);
        assertThat(page)
                .contains("<canvas id=\"memory\">", "<canvas id=\"cache\">", "<canvas id=\"skew\">", "new Chart(")
                .contains("\"memory\":[{\"config\"")
                .doesNotContain("<script src=");
    }
}

package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trace generate, then analyze --trace, end to end ("No Bits Left Behind" §2.1.4, §3.1): a
 * Wikipedia-style workload is skewed, its hot revisions lie scattered in insertion order, and
 * page lookups by title want page_id and page_latest cached in the name_title index.
 */
class AnalyzeTraceTest {
    @TempDir
    static Path dir;

    static Map<String, Long> generated = new LinkedHashMap<>();
    static JsonNode report;

    @BeforeAll
    static void generateAndAnalyze() {
        Cli.Result gen = Cli.run(
                "trace",
                "generate",
                "--scale",
                "1500",
                "--seed",
                "5",
                "--requests",
                "30000",
                "--text-median",
                "200",
                "-o",
                dir.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
        // under the header "table rows bytes in the dump": a table, its rows (1,500), its bytes
        for (String line : gen.out().split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length >= 2 && parts[1].matches("[\\d,]+")) {
                generated.put(parts[0], Long.parseLong(parts[1].replace(",", "")));
            }
        }
        assertThat(generated).containsKeys("page", "revision", "text", "actor", "watchlist");
        report = Cli.analyzeJson(dir.resolve("dump.sql"), "--trace", dir.resolve("trace.log"));
    }

    @Test
    void theDumpReadsBackWithTheRowCountsTheGeneratorPrinted() {
        generated.forEach(
                (table, rows) -> assertThat(Cli.table(report, table).get("rows").asLong())
                        .as(table)
                        .isEqualTo(rows));
    }

    @Test
    void revisionAccessesAreConcentratedAndScattered() {
        JsonNode access = Cli.table(report, "revision").get("access");
        assertThat(access.get("events").asLong()).isPositive();
        assertThat(access.get("share_top_5pct").asDouble()).isGreaterThanOrEqualTo(0.90);
        assertThat(access.get("share_top_1pct").asDouble())
                .isLessThanOrEqualTo(access.get("share_top_5pct").asDouble());
        // Each page's latest revision is hot, and revisions are stored in time order across pages.
        assertThat(access.get("page_hot_density").asDouble()).isBetween(0.0001, 0.10);
        assertThat(access.get("hot_rows").asLong()).isPositive().isLessThan(generated.get("revision") / 5);
    }

    @Test
    void nameTitleShouldCachePageIdAndPageLatest() {
        JsonNode nameTitle = StreamSupport.stream(report.get("indexes").spliterator(), false)
                .filter(i -> i.get("table").asText().equals("page")
                        && i.get("name").asText().equals("name_title"))
                .findFirst()
                .orElseThrow();
        List<String> fields = StreamSupport.stream(
                        nameTitle.get("cacheable_fields").spliterator(), false)
                .map(f -> f.get("column").asText())
                .toList();
        assertThat(fields).contains("page_id", "page_latest");
        JsonNode last = nameTitle.get("cacheable_fields").get(fields.size() - 1);
        assertThat(last.get("answerable_share").asDouble()).isGreaterThan(0.95);
    }

    @Test
    void everyStatementResolvesAndUnusedColumnsAreNamed() {
        JsonNode trace = report.get("traces").get(0);
        assertThat(trace.get("unresolved").asLong()).isZero();
        assertThat(trace.get("resolved").asLong())
                .isEqualTo(trace.get("statements").asLong());
        // The generator's page views never read page_random.
        assertThat(kinds(Cli.column(report, "page", "page_random"))).contains("unused_column");
        assertThat(kinds(Cli.column(report, "page", "page_title"))).doesNotContain("unused_column");
    }
}

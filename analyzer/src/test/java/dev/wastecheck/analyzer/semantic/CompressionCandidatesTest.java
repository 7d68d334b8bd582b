package dev.wastecheck.analyzer.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.ProfilingOptions;
import dev.wastecheck.traces.generate.WikiGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compression candidates (§4.1) on a generated wiki and its trace, and the measurement itself. */
class CompressionCandidatesTest {
    @TempDir
    static Path dir;

    static AnalysisReport wiki;

    @BeforeAll
    static void analyze() throws Exception {
        new WikiGenerator(WikiGenerator.Config.defaults(120, 3)).generate(dir);
        wiki = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                .analyze(
                        Sources.ofFiles(List.of(dir.resolve("dump.sql"))),
                        List.of(dir.resolve("trace.log")),
                        Progress.NONE);
    }

    static List<String> candidates(AnalysisReport r) {
        List<String> out = new ArrayList<>();
        for (TableReport t : r.tables()) {
            for (ColumnReport c : t.columns()) {
                if (c.has(FindingKind.COMPRESSION_CANDIDATE)) {
                    out.add(t.name() + "." + c.name());
                }
            }
        }
        return out;
    }

    static Finding finding(AnalysisReport r, String table, String column) {
        return r.table(table).column(column).findings().stream()
                .filter(f -> f.kind() == FindingKind.COMPRESSION_CANDIDATE)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theWikisLargeFieldsThatAreOnlyProjectedComeOutWithMeasuredBytes() {
        // old_text (the article's wikitext) and the two base-36 SHA-1s are only ever returned; page_title is
        // compared by equality but averages under 32 bytes; rev_timestamp and the counters are written
        assertThat(candidates(wiki))
                .containsExactlyInAnyOrder("text.old_text", "revision.rev_sha1", "content.content_sha1");
        Finding text = finding(wiki, "text", "old_text");
        assertThat(text.detail())
                .startsWith("only projected: ")
                .contains("chunks of 16384 bytes (the engine's page)", " with zstd (", " with LZ4 (");
        // generated wikitext is words from a small vocabulary: zstd halves it, or better
        long raw = Long.parseLong(text.detail().replaceAll(".*its (\\d+) bytes of values.*", "$1"));
        assertThat(text.bytes()).isGreaterThan(raw * 4 / 10).isLessThan(raw);
    }

    @Test
    void theMeasureIsZstdOnPageSizedChunksOfTheValues() throws Exception {
        // 600 rows of one 100-byte value and 600 of random bytes (hex, 100 characters): 16 KiB pages
        Random rnd = new Random(5);
        StringBuilder sql =
                new StringBuilder("CREATE TABLE t (id INT PRIMARY KEY, same VARCHAR(200), noise VARCHAR(200));\n");
        String same = "x".repeat(40) + "0123456789".repeat(6);
        List<String> noise = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            StringBuilder hex = new StringBuilder();
            for (int k = 0; k < 100; k++) {
                hex.append(Character.forDigit(rnd.nextInt(16), 16));
            }
            noise.add(hex.toString());
            sql.append("INSERT INTO t VALUES (")
                    .append(i)
                    .append(",'")
                    .append(same)
                    .append("','")
                    .append(hex)
                    .append("');\n");
        }
        Path dump = dir.resolve("t.sql");
        Files.writeString(dump, sql.toString());
        Path trace = dir.resolve("t.log");
        Files.writeString(trace, "SELECT same, noise FROM t WHERE id = 7;\n");
        AnalysisReport r = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                .analyze(Sources.ofFiles(List.of(dump)), List.of(trace), Progress.NONE);
        // the noise column: the expected bytes, zstd level 3 on each 16 KiB chunk of the concatenated values
        byte[] all = String.join("", noise).getBytes(StandardCharsets.UTF_8);
        long compressed = 0;
        for (int off = 0; off < all.length; off += 16384) {
            int n = Math.min(16384, all.length - off);
            byte[] chunk = Arrays.copyOfRange(all, off, off + n);
            compressed += Math.min(n, Zstd.compress(chunk, 3).length);
        }
        assertThat(finding(r, "t", "noise").bytes()).isEqualTo(all.length - compressed);
        assertThat(finding(r, "t", "noise").detail())
                .contains("its 120000 bytes of values in 8 chunks of 16384 bytes (the engine's page) compress to "
                        + compressed + " with zstd");
        assertThat(finding(r, "t", "same").bytes()).isGreaterThan(119_000);
    }
}

package dev.wastecheck.analyzer.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.ColumnNotLoaded;
import dev.wastecheck.sources.load.DumpLoader;
import dev.wastecheck.sources.load.LoadStats;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump's column whose every profiled figure the loader counts (its distinct values by 128-bit
 * hashes, unique in the first batch) stays out of DuckDB's table, and the analysis says the same
 * as with every column loaded: when no later step reads it, and when one does (the sources are
 * then loaded again whole).
 */
class LeftOutColumnsTest {
    @TempDir
    Path dir;

    /** Long unique text ({@code body}), short repeated text ({@code title}), long repeated text ({@code note}). */
    private static String uniqueBody(int rows) {
        StringBuilder sb = new StringBuilder(
                "CREATE TABLE `posts` (`id` int NOT NULL, `title` varchar(40) NOT NULL, `body` text NOT NULL,"
                        + " `note` text, PRIMARY KEY (`id`));\nINSERT INTO `posts` VALUES ");
        String pad = "ä".repeat(40); // past DistinctHashes.minMeanBytes
        for (int i = 0; i < rows; i++) {
            sb.append(i > 0 ? "," : "")
                    .append('(')
                    .append(i)
                    .append(",'title ")
                    .append(i % 7)
                    .append("','")
                    .append(pad)
                    .append(" body ")
                    .append(i)
                    .append(" 😀','")
                    .append(pad)
                    .append(" note ")
                    .append(i % 300)
                    .append("')");
        }
        return sb.append(";\n").toString();
    }

    @Test
    void aFullyCountedUniqueColumnIsLeftOutAndProfilesAlike() throws Exception {
        byte[] dump = uniqueBody(3000).getBytes(StandardCharsets.UTF_8);
        try (ProfilingDatabase lean =
                        new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true));
                ProfilingDatabase whole = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable t = load(lean, dump).get("posts");
            LoadedTable all = load(whole, dump).get("posts");
            assertThat(t.present(0)).isTrue();
            assertThat(t.present(1)).isTrue(); // seven values: the short list, not hashes
            assertThat(t.present(2)).as("body: hashed, unique").isFalse();
            assertThat(t.present(3)).as("note: hashed, repeated").isTrue();
            assertThat(all.absent()).isNull();
            assertThat(columns(lean, t)).containsExactly("c0", "c1", "c3");
            assertThatThrownBy(() -> t.physicalColumn(2)).isInstanceOf(ColumnNotLoaded.class);
            assertThat(t.facts(2).exactDistinct()).isEqualTo(3000L);
            assertSameProfiles(
                    new Profiler(lean, false, false).profile(t), new Profiler(whole, false, false).profile(all));
        }
    }

    @Test
    void theReportIsTheSameWithTheColumnLeftOut() throws Exception {
        Path file = dir.resolve("posts.sql");
        Files.writeString(file, uniqueBody(3000));
        assertThat(tables(file, true)).isEqualTo(tables(file, false));
    }

    /**
     * {@code body} and its {@code copy} are unique in the first batch (16,384 rows) and repeat
     * after it: left out, then read by the duplicate-column check, so the analysis loads again
     * whole and finds the copy, as it does with every column loaded.
     */
    @Test
    void aStepThatReadsALeftOutColumnHasTheSourcesLoadedAgain() throws Exception {
        Path file = dir.resolve("d.sql");
        Files.writeString(file, bodyRepeatingAfterTheFirstBatch());
        byte[] dump = Files.readAllBytes(file);
        try (ProfilingDatabase lean =
                new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true))) {
            LoadedTable t = load(lean, dump).get("d");
            assertThat(t.present(1)).isFalse();
            assertThat(t.present(2)).isFalse();
        }
        List<TableReport> leaving = tables(file, true);
        assertThat(leaving.get(0).columns().get(2).findings()).anyMatch(f -> f.kind() == FindingKind.DUPLICATE_COLUMN);
        assertThat(leaving).isEqualTo(tables(file, false));
    }

    /** {@code body} and its {@code copy}: unique in the first 17,000 rows, repeating in the last 3,000. */
    private static String bodyRepeatingAfterTheFirstBatch() {
        StringBuilder sb =
                new StringBuilder("CREATE TABLE `d` (`id` int NOT NULL, `body` text NOT NULL, `copy` text NOT NULL,"
                        + " PRIMARY KEY (`id`));\nINSERT INTO `d` VALUES ");
        String pad = "x".repeat(64);
        for (int i = 0; i < 20_000; i++) {
            String v = pad + (i < 17_000 ? i : i % 100);
            sb.append(i > 0 ? "," : "")
                    .append('(')
                    .append(i)
                    .append(",'")
                    .append(v)
                    .append("','")
                    .append(v)
                    .append("')");
        }
        return sb.append(";\n").toString();
    }

    /**
     * Standard input is read once, so the second load could not happen: from {@code -} every
     * column is loaded from the start, and the duplicate found beyond the first batch is found.
     */
    @Test
    void standardInputKeepsEveryColumn() throws Exception {
        Path file = dir.resolve("d.sql");
        Files.writeString(file, bodyRepeatingAfterTheFirstBatch());
        assertThat(Sources.of(List.of("-")).rereadable()).isFalse();
        assertThat(Sources.ofFiles(List.of(file)).rereadable()).isTrue();
        var before = System.in;
        List<TableReport> piped;
        try {
            System.setIn(new ByteArrayInputStream(Files.readAllBytes(file)));
            piped = tables(Sources.of(List.of("-")), true);
        } finally {
            System.setIn(before);
        }
        assertThat(piped.get(0).columns().get(2).findings()).anyMatch(f -> f.kind() == FindingKind.DUPLICATE_COLUMN);
        assertThat(piped).isEqualTo(tables(file, false));
    }

    /** Every figure of every column the same. */
    static void assertSameProfiles(List<ColumnProfile> a, List<ColumnProfile> b) throws Exception {
        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.size(); i++) {
            for (Field f : ColumnProfile.class.getFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    assertThat(f.get(a.get(i)))
                            .as("column %d, %s", i, f.getName())
                            .isEqualTo(f.get(b.get(i)));
                }
            }
        }
    }

    private static List<TableReport> tables(Path file, boolean leaveOut) throws Exception {
        return tables(Sources.ofFiles(List.of(file)), leaveOut);
    }

    private static List<TableReport> tables(Sources sources, boolean leaveOut) throws Exception {
        String before = System.getProperty("wastecheck.leaveOut");
        System.setProperty("wastecheck.leaveOut", String.valueOf(leaveOut));
        try {
            AnalysisReport r = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                    .analyze(sources, List.of(), Progress.NONE);
            return r.tables();
        } finally {
            if (before == null) {
                System.clearProperty("wastecheck.leaveOut");
            } else {
                System.setProperty("wastecheck.leaveOut", before);
            }
        }
    }

    private static List<String> columns(ProfilingDatabase db, LoadedTable t) throws Exception {
        List<String> out = new ArrayList<>();
        try (var st = db.connection().createStatement();
                var rs = st.executeQuery("SELECT column_name FROM (DESCRIBE " + t.relation() + ")")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static Map<String, LoadedTable> load(ProfilingDatabase db, byte[] dump) throws Exception {
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        try (SqlScriptReader reader = new SqlScriptReader(new ByteArrayInputStream(dump), "left-out.sql", true)) {
            new DumpLoader(db, new DdlCatalog(Dialect.MYSQL), new LoadStats(), loaded, pos -> {}).load(reader);
        }
        return loaded;
    }
}

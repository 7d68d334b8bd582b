package dev.wastecheck.analyzer.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.Sources;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump's FLOAT and DOUBLE columns go to DuckDB as 8-byte doubles, the spellings a double does
 * not give back kept as text beside them, and the analysis reads every value as the dump spelled
 * it: the profile (its estimated distinct counts too, which hash the text) and the report are the
 * same as with the values loaded as text. Spellings taken as doubles and not: {@code 1.0} and
 * {@code 1}, {@code 1e3}, {@code -0.0}, {@code NaN}, 0.1 + 0.2's {@code 0.30000000000000004},
 * trailing zeros, pandas' 16-17 digits, an exponent as Java writes it.
 */
class DoublesAsDoublesTest {
    @TempDir
    Path dir;

    /** Spellings of {@code a}: the plain ones DuckDB gives back, and the others. */
    static final List<String> SPELLINGS = List.of(
            "1.0",
            "1",
            "1e3",
            "1000",
            "-0.0",
            "-0",
            "0",
            "0.30000000000000004",
            "0.1",
            "2.50",
            "2.5",
            "8.985969669871308E-4",
            "0.0008985969669871308",
            "0.10000000000000001",
            "-7.95088919292607",
            "123456789012345.6",
            "1000000000000000",
            "0.00001");

    /** Which of {@link #SPELLINGS} are taken as doubles. */
    static final List<String> TAKEN =
            List.of("1", "1000", "0", "0.30000000000000004", "0.1", "2.5", "-7.95088919292607", "123456789012345.6");

    /**
     * {@code id}, {@code a} (the spellings above, NULL every seventh row), {@code b} (a random
     * double's shortest text, as pandas writes them, all distinct: its count is estimated),
     * {@code f} (a FLOAT of few values), {@code s} (text).
     */
    static String dump(int rows) {
        StringBuilder sb = new StringBuilder("CREATE TABLE `m` (`id` int NOT NULL, `a` double DEFAULT NULL,"
                + " `b` double DEFAULT NULL, `f` float DEFAULT NULL, `s` varchar(8) DEFAULT NULL,"
                + " PRIMARY KEY (`id`));\n");
        Random r = new Random(42);
        for (int i = 0; i < rows; i++) {
            sb.append(i % 1000 == 0 ? (i > 0 ? ";\n" : "") + "INSERT INTO `m` VALUES " : ",")
                    .append('(')
                    .append(i)
                    .append(',')
                    .append(i % 7 == 6 ? "NULL" : i % 23 == 5 ? "'NaN'" : SPELLINGS.get(i % SPELLINGS.size()))
                    .append(',')
                    .append(Double.toString(r.nextDouble() * 40 - 20 + 0.01))
                    .append(',')
                    .append(i % 3 == 0 ? "1.1" : i % 3 == 1 ? "2.5" : "3")
                    .append(",'s")
                    .append(i % 5)
                    .append("')");
        }
        return sb.append(";\n").toString();
    }

    @Test
    void theDoublesAreDoublesInDuckDbAndReadBackAsSpelled() throws Exception {
        byte[] dump = dump(3000).getBytes(StandardCharsets.UTF_8);
        try (ProfilingDatabase lean =
                        new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true));
                ProfilingDatabase whole = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable t = load(lean, dump).get("m");
            LoadedTable all = load(whole, dump).get("m");
            Map<String, String> types = types(lean, t.relation() + "_d");
            assertThat(types)
                    .containsEntry("c1", "DOUBLE")
                    .containsEntry("c2", "DOUBLE")
                    .containsEntry("c3", "DOUBLE")
                    .containsEntry("x1", "VARCHAR")
                    .containsEntry("c4", "VARCHAR");
            assertThat(types(whole, all.relation())).containsEntry("c1", "VARCHAR");
            // every value's text as the dump spelled it, through the view
            for (int c = 1; c <= 3; c++) {
                assertThat(values(lean, t, c)).as("column %d", c).isEqualTo(values(whole, all, c));
            }
            List<String> a = values(lean, t, 1);
            for (int i = 0; i < a.size(); i++) {
                String want = i % 7 == 6 ? null : i % 23 == 5 ? "NaN" : SPELLINGS.get(i % SPELLINGS.size());
                assertThat(a.get(i)).as("row %d", i).isEqualTo(want);
            }
            // the spellings kept as text beside the doubles: those the check refuses, and no other
            try (var st = lean.connection().createStatement();
                    var rs = st.executeQuery("SELECT DISTINCT x1 FROM " + t.relation() + "_d WHERE x1 IS NOT NULL")) {
                List<String> kept = new ArrayList<>();
                while (rs.next()) {
                    kept.add(rs.getString(1));
                }
                List<String> refused = new ArrayList<>(SPELLINGS);
                refused.removeAll(TAKEN);
                refused.add("NaN");
                assertThat(kept).containsExactlyInAnyOrderElementsOf(refused);
            }
        }
    }

    /**
     * 120,000 rows: {@code b}'s 120,000 distinct doubles are past the profile's screen, so DuckDB
     * estimates their count, over the view's text; every profiled figure is the same as on text.
     */
    @Test
    void theProfileIsTheSameAsOnText() throws Exception {
        byte[] dump = dump(120_000).getBytes(StandardCharsets.UTF_8);
        try (ProfilingDatabase lean =
                        new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true));
                ProfilingDatabase whole = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable t = load(lean, dump).get("m");
            LoadedTable all = load(whole, dump).get("m");
            assertThat(types(lean, t.relation() + "_d")).containsEntry("c2", "DOUBLE");
            List<ColumnProfile> p = new Profiler(lean, false, false).profile(t);
            List<ColumnProfile> q = new Profiler(whole, false, false).profile(all);
            assertThat(p.get(2).distinctEstimated).as("b's count estimated").isTrue();
            for (int i = 0; i < p.size(); i++) {
                for (Field f : ColumnProfile.class.getFields()) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        assertThat(f.get(p.get(i)))
                                .as("column %d, %s", i, f.getName())
                                .isEqualTo(f.get(q.get(i)));
                    }
                }
            }
        }
    }

    @Test
    void theReportOfADumpIsTheSame() throws Exception {
        Path file = dir.resolve("m.sql");
        Files.writeString(file, dump(5000));
        List<TableReport> doubles = tables(file, true);
        assertThat(doubles).isEqualTo(tables(file, false));
        assertThat(doubles.get(0).columns()).hasSize(5);
    }

    /** A CSV of the same spellings: DuckDB's own reader types it, either way; the report is the same. */
    @Test
    void theReportOfACsvIsTheSame() throws Exception {
        StringBuilder sb = new StringBuilder("id,a,b\n");
        for (int i = 0; i < 2000; i++) {
            sb.append(i)
                    .append(',')
                    .append(i % 7 == 6 ? "" : SPELLINGS.get(i % SPELLINGS.size()))
                    .append(',')
                    .append(Double.toString(i / 7.0))
                    .append('\n');
        }
        Path file = dir.resolve("m.csv");
        Files.writeString(file, sb.toString());
        List<TableReport> doubles = tables(file, true);
        assertThat(doubles).isEqualTo(tables(file, false));
        assertThat(doubles.get(0).columns()).hasSize(3);
    }

    private static List<TableReport> tables(Path file, boolean leaveOut) throws Exception {
        String before = System.getProperty("wastecheck.leaveOut");
        System.setProperty("wastecheck.leaveOut", String.valueOf(leaveOut));
        try {
            AnalysisReport r = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                    .analyze(Sources.ofFiles(List.of(file)), List.of(), Progress.NONE);
            return r.tables();
        } finally {
            if (before == null) {
                System.clearProperty("wastecheck.leaveOut");
            } else {
                System.setProperty("wastecheck.leaveOut", before);
            }
        }
    }

    private static Map<String, String> types(ProfilingDatabase db, String relation) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (var st = db.connection().createStatement();
                var rs = st.executeQuery("SELECT column_name, column_type FROM (DESCRIBE " + relation + ")")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    private static List<String> values(ProfilingDatabase db, LoadedTable t, int col) throws Exception {
        List<String> out = new ArrayList<>();
        try (var st = db.connection().createStatement();
                var rs = st.executeQuery("SELECT " + t.physicalColumn(col) + " FROM " + t.relation() + " ORDER BY "
                        + t.physicalColumn(0))) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static Map<String, LoadedTable> load(ProfilingDatabase db, byte[] dump) throws Exception {
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        try (SqlScriptReader reader = new SqlScriptReader(new ByteArrayInputStream(dump), "doubles.sql", true)) {
            new DumpLoader(db, new DdlCatalog(Dialect.MYSQL), new LoadStats(), loaded, pos -> {}).load(reader);
        }
        return loaded;
    }
}

package dev.wastecheck.analyzer.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.DumpLoader;
import dev.wastecheck.sources.load.LoadOptions;
import dev.wastecheck.sources.load.LoadStats;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Past the rows up to which a table keeps every column its dependency search reads ({@link
 * ProfilingOptions#wholeUpTo}), the rest of a run leaves out the columns the loader counts every
 * figure of (a short list of text, numbers counted by their bits, text past the short list when
 * every column's first batch is parted) unless an index that is not unique names them and they
 * hold no more values than a low-cardinality index's key, or another column parts the first batch
 * alike (a possible duplicate); the profile and the report, its index findings too, are the same
 * as with every column loaded.
 */
class LateLeftOutColumnsTest {
    private static final int WHOLE_UP_TO = 20_000;

    @TempDir
    Path dir;

    /**
     * {@code status}: five codes; {@code amount}: decimals; {@code customer}: integers under a
     * KEY; {@code flag} and its copy {@code flag2} (1 and 0 for {@code flag}'s 0 and 1);
     * {@code other}: 0/1 at random, parted unlike {@code flag}; {@code note}: text of many values;
     * {@code kind}: three values under a KEY (a low-cardinality index).
     */
    private static String orders(String table, int from, int rows, boolean create) {
        StringBuilder sb = new StringBuilder();
        if (create) {
            sb.append("CREATE TABLE `")
                    .append(table)
                    .append("` (`id` int NOT NULL, `status` varchar(10) NOT NULL, `amount` decimal(8,2) NOT NULL,"
                            + " `customer` int NOT NULL, `flag` tinyint NOT NULL, `flag2` tinyint NOT NULL,"
                            + " `other` tinyint NOT NULL, `note` varchar(40), `kind` tinyint NOT NULL,"
                            + " PRIMARY KEY (`id`), KEY `by_customer` (`customer`), KEY `by_kind` (`kind`));\n");
        }
        sb.append("INSERT INTO `").append(table).append("` VALUES ");
        Random r = new Random(from);
        String[] codes = {"paid", "shipped", "new", "returned", "lost"};
        for (int i = from; i < from + rows; i++) {
            int flag = r.nextInt(2);
            sb.append(i > from ? "," : "")
                    .append('(')
                    .append(i)
                    .append(",'")
                    .append(codes[r.nextInt(codes.length)])
                    .append("',")
                    .append(r.nextInt(100_000))
                    .append('.')
                    .append(10 + r.nextInt(90))
                    .append(',')
                    .append(r.nextInt(3_000))
                    .append(',')
                    .append(flag)
                    .append(',')
                    .append(1 - flag)
                    .append(',')
                    .append(r.nextInt(2))
                    .append(',')
                    .append(i % 10 == 0 ? "NULL" : "'note " + r.nextInt(1_000_000) + "'")
                    .append(',')
                    .append(r.nextInt(3))
                    .append(')');
        }
        return sb.append(";\n").toString();
    }

    @ParameterizedTest(name = "held back up to the cut: {0}")
    @ValueSource(booleans = {true, false})
    void theRestOfALongRunLeavesOutWhatIsCountedWholeAndProfilesAlike(boolean held) throws Exception {
        byte[] dump = orders("o", 0, 60_000, true).getBytes(StandardCharsets.UTF_8);
        loadBoth(dump, "o", held, (lean, t, whole, all) -> {
            assertThat(t.rows()).isEqualTo(60_000).isEqualTo(all.rows());
            assertThat(t.present(1)).as("status: a short list").isFalse();
            assertThat(t.present(2)).as("amount: decimals by their bits").isFalse();
            assertThat(t.present(3))
                    .as("customer: under a KEY, but of more values than a low-cardinality index's key")
                    .isFalse();
            assertThat(t.present(8)).as("kind: under a KEY, three values").isTrue();
            assertThat(t.present(4)).as("flag: parted as flag2").isTrue();
            assertThat(t.present(5)).as("flag2: parted as flag").isTrue();
            assertThat(t.present(6)).as("other: parted unlike any").isFalse();
            assertThat(t.present(7))
                    .as("note: past the short list, parted unlike any")
                    .isFalse();
            LeftOutColumnsTest.assertSameProfiles(
                    new Profiler(lean, false, false).profile(t), new Profiler(whole, false, false).profile(all));
            assertThat(t.facts(4).partsDifferently(t.facts(5))).isFalse();
            assertThat(t.facts(4).partsDifferently(t.facts(6))).isTrue();
        });
    }

    /**
     * Held back up to the cut, the run goes to one table of the columns still read; streamed to
     * DuckDB from its first batch, the rest of the run past the cut goes to a second table of
     * those columns, behind a view that puts the two tables' rows one after the other. Either
     * way: every row once, the rows' {@code rowid}s as one table's would be, the kept columns'
     * values those of a whole load.
     */
    @ParameterizedTest(name = "held back up to the cut: {0}")
    @ValueSource(booleans = {true, false})
    void theRestOfALongRunIsStoredWithoutTheLeftOutColumns(boolean held) throws Exception {
        byte[] dump = orders("o", 0, 60_000, true).getBytes(StandardCharsets.UTF_8);
        loadBoth(dump, "o", held, (lean, t, whole, all) -> {
            assertThat(tableExists(lean, t.relation() + "_2")).isEqualTo(!held);
            List<String> rest = columnsOf(lean, t.relation() + (held ? "" : "_2"));
            for (int i = 0; i < t.def().columns().size(); i++) {
                assertThat(rest.contains("c" + i)) // DuckDB's tables name the columns by position
                        .as("column %d in the rest's table", i)
                        .isEqualTo(t.present(i));
            }
            String kept = t.physicalColumn(8) + ", " + t.physicalColumn(4) + ", " + t.physicalColumn(5);
            String check = "SELECT count(*), count(DISTINCT rowid), min(rowid), max(rowid),"
                    + " sum(hash(" // the rows' order is DuckDB's (preserve_insertion_order off): their values as a
                    // multiset
                    + kept + ")) FROM ";
            assertThat(row(lean, check + t.relation()))
                    .containsExactly(60_000L, 60_000L, 0L, 59_999L, row(whole, check + all.relation())[4]);
        });
    }

    /**
     * With no column still read past the cut, the rest of the run is counted, not stored; held
     * back up to the cut, none of its rows is.
     */
    @ParameterizedTest(name = "held back up to the cut: {0}")
    @ValueSource(booleans = {true, false})
    void aRunWhoseColumnsAreAllCountedStoresNoRest(boolean held) throws Exception {
        // long enough that the fillers hear the run is unstored and fill a scratch batch
        final int ROWS = 400_000;
        StringBuilder sb = new StringBuilder("CREATE TABLE `c` (`id` int NOT NULL, `status` varchar(10),"
                + " `qty` int, PRIMARY KEY (`id`));\nINSERT INTO `c` VALUES ");
        Random r = new Random(7);
        for (int i = 0; i < ROWS; i++) {
            sb.append(i > 0 ? "," : "")
                    .append('(')
                    .append(i)
                    .append(",'s")
                    .append(r.nextInt(6))
                    .append("',")
                    .append(r.nextInt(500))
                    .append(')');
        }
        byte[] dump = sb.append(";\n").toString().getBytes(StandardCharsets.UTF_8);
        loadBoth(dump, "c", held, (lean, t, whole, all) -> {
            assertThat(t.rows()).isEqualTo(ROWS);
            for (int i = 0; i < 3; i++) {
                assertThat(t.present(i)).as("column %d", i).isFalse();
            }
            long stored = (long) row(lean, "SELECT count(*) FROM " + t.relation())[0];
            if (held) {
                assertThat(stored).as("the table holds none of the rows").isZero();
            } else {
                assertThat(stored).as("the table holds the rows up to the cut").isBetween(1L, ROWS - 1L);
            }
            LeftOutColumnsTest.assertSameProfiles(
                    new Profiler(lean, false, false).profile(t), new Profiler(whole, false, false).profile(all));
        });
    }

    /**
     * A table with doubles (its relation a view of each value's text over the stored table) is
     * cut as the others; streamed, a column named {@code rowid}, which the view of two tables
     * names, keeps the rest in one table with the left-out columns NULL; held, no table is cut in two.
     */
    @ParameterizedTest(name = "held back up to the cut: {0}")
    @ValueSource(booleans = {true, false})
    void doublesAreCutAlikeAndAColumnNamedRowidIsNot(boolean held) throws Exception {
        for (String name : List.of("score", "rowid")) {
            StringBuilder sb = new StringBuilder("CREATE TABLE `d` (`k` int, `" + name + "` double,"
                    + " `code` varchar(4), KEY `by_k` (`k`));\nINSERT INTO `d` VALUES ");
            Random r = new Random(11);
            for (int i = 0; i < 60_000; i++) {
                sb.append(i > 0 ? "," : "")
                        .append('(')
                        .append(r.nextInt(4))
                        .append(',')
                        .append(i % 7 == 0 ? "NULL" : String.valueOf(r.nextInt(100_000) / 100.0))
                        .append(",'")
                        .append((char) ('a' + r.nextInt(5)))
                        .append("')");
            }
            byte[] dump = sb.append(";\n").toString().getBytes(StandardCharsets.UTF_8);
            loadBoth(dump, "d", held, (lean, t, whole, all) -> {
                assertThat(t.rows()).isEqualTo(60_000);
                assertThat(t.present(0)).as("k: under a KEY, four values").isTrue();
                assertThat(t.present(2)).as("code: a short list").isFalse();
                assertThat(row(lean, "SELECT count(*), sum(" + t.physicalColumn(0) + ") FROM " + t.relation()))
                        .containsExactly(row(
                                whole, "SELECT count(*), sum(" + all.physicalColumn(0) + ") FROM " + all.relation()));
                boolean cut = !held && name.equals("score");
                assertThat(tableExists(lean, t.relation() + "_d_2")).as(name).isEqualTo(cut);
                LeftOutColumnsTest.assertSameProfiles(
                        new Profiler(lean, false, false).profile(t), new Profiler(whole, false, false).profile(all));
            });
        }
    }

    private static List<String> columnsOf(ProfilingDatabase db, String table) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        try (var st = db.connection().createStatement();
                var rs = st.executeQuery("DESCRIBE " + table)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static boolean tableExists(ProfilingDatabase db, String table) throws Exception {
        Object[] n = row(db, "SELECT count(*) FROM information_schema.tables WHERE table_name = '" + table + "'");
        return ((Number) n[0]).longValue() > 0;
    }

    private static Object[] row(ProfilingDatabase db, String sql) throws Exception {
        try (var st = db.connection().createStatement();
                var rs = st.executeQuery(sql)) {
            rs.next();
            Object[] out = new Object[rs.getMetaData().getColumnCount()];
            for (int i = 0; i < out.length; i++) {
                Object v = rs.getObject(i + 1);
                out[i] = v instanceof Number x && !(v instanceof Double) ? (Object) x.longValue() : v;
            }
            return out;
        }
    }

    @Test
    void aTableNoLongerThanTheSearchedRowsKeepsEveryColumn() throws Exception {
        byte[] dump = orders("o", 0, WHOLE_UP_TO, true).getBytes(StandardCharsets.UTF_8);
        try (ProfilingDatabase lean =
                new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true, WHOLE_UP_TO))) {
            assertThat(load(lean, dump).get("o").absent()).isNull();
        }
    }

    /**
     * A later run of the table (after another table's rows) inserts into the first run's columns,
     * NULL where the first run left a column out; its text past the short list is counted by SQL
     * (a later run's values are not hashed), so the analysis loads again whole and says the same.
     */
    @Test
    void aLaterRunOfTheTableInsertsIntoTheSameColumns() throws Exception {
        String dump = orders("o", 0, 40_000, true) + "CREATE TABLE `u` (`x` int);\nINSERT INTO `u` VALUES (1);\n"
                + orders("o", 40_000, 10_000, false);
        try (ProfilingDatabase lean =
                new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true, WHOLE_UP_TO))) {
            LoadedTable t = load(lean, dump.getBytes(StandardCharsets.UTF_8)).get("o");
            assertThat(t.rows()).isEqualTo(50_000);
            assertThat(t.present(1)).isFalse();
            try (var st = lean.connection().createStatement();
                    var rs = st.executeQuery(
                            "SELECT count(" + t.physicalColumn(8) + "), count(*) FROM " + t.relation())) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(50_000);
                assertThat(rs.getLong(2)).isEqualTo(50_000);
            }
        }
        Path file = dir.resolve("runs.sql");
        Files.writeString(file, dump);
        assertThat(tables(file, true)).isEqualTo(tables(file, false));
    }

    /**
     * A table whose rows come in two files (a dump in chunks, as mydumper writes one): each
     * file has a loader of its own, the second appends to the first's cut table and continues
     * its facts; the report is the same as with every column loaded.
     */
    @Test
    void aTableInTwoFilesAppendsToTheCutTable() throws Exception {
        Path first = dir.resolve("o.00000.sql");
        Path second = dir.resolve("o.00001.sql");
        Files.writeString(first, orders("o", 0, 40_000, true));
        Files.writeString(second, orders("o", 40_000, 30_000, false));
        List<TableReport> leaving = tables(List.of(first, second), true);
        assertThat(leaving.get(0).rows()).isEqualTo(70_000);
        assertThat(leaving).isEqualTo(tables(List.of(first, second), false));
    }

    /**
     * The whole analysis, its dependency search up to {@code WHOLE_UP_TO} rows: the same report
     * either way, its index findings too: {@code by_kind} found of low cardinality from the kept
     * column, {@code by_customer} passed over on the loader's count with its column left out.
     */
    @Test
    void theReportIsTheSameWithTheRestLeftOut() throws Exception {
        Path file = dir.resolve("o.sql");
        Files.writeString(file, orders("o", 0, 60_000, true));
        AnalysisReport leaving = report(List.of(file), true);
        assertThat(leaving.tables().get(0).columns().get(5).findings())
                .anyMatch(f -> f.kind() == FindingKind.DUPLICATE_COLUMN);
        assertThat(leaving.indexFindings())
                .anyMatch(f -> f.index().equals("by_kind") && f.kind() == FindingKind.LOW_CARDINALITY_INDEX)
                .noneMatch(f -> f.index().equals("by_customer"));
        AnalysisReport whole = report(List.of(file), false);
        assertThat(leaving.tables()).isEqualTo(whole.tables());
        assertThat(leaving.indexFindings()).isEqualTo(whole.indexFindings());
    }

    private static List<TableReport> tables(Path file, boolean leaveOut) throws Exception {
        return tables(List.of(file), leaveOut);
    }

    private static List<TableReport> tables(List<Path> files, boolean leaveOut) throws Exception {
        return report(files, leaveOut).tables();
    }

    private static AnalysisReport report(List<Path> files, boolean leaveOut) throws Exception {
        String before = System.getProperty("wastecheck.leaveOut");
        System.setProperty("wastecheck.leaveOut", String.valueOf(leaveOut));
        try {
            FunctionalDependencies.Options deps = new FunctionalDependencies.Options(
                    Duration.ofSeconds(2),
                    WHOLE_UP_TO,
                    FunctionalDependencies.Mode.AUTO,
                    FunctionalDependencies.Options.defaults().strategy());
            return new Analyzer(InferenceOptions.defaults(), LoadOptions.of(ProfilingOptions.defaults()), deps, n -> {})
                    .analyze(Sources.ofFiles(files), List.of(), Progress.NONE);
        } finally {
            if (before == null) {
                System.clearProperty("wastecheck.leaveOut");
            } else {
                System.setProperty("wastecheck.leaveOut", before);
            }
        }
    }

    /** What a test checks of a table loaded both ways. */
    private interface Check {
        void run(ProfilingDatabase lean, LoadedTable t, ProfilingDatabase whole, LoadedTable all) throws Exception;
    }

    /**
     * Loads {@code dump} leaving columns out past {@code WHOLE_UP_TO} rows and whole, and checks
     * table {@code name}; {@code held}: each run held back from DuckDB up to its cut ({@link
     * DumpLoader#holdingUpTo}), as by default, or streamed to it from its first batch.
     */
    private static void loadBoth(byte[] dump, String name, boolean held, Check check) throws Exception {
        try (ProfilingDatabase lean =
                        new ProfilingDatabase(ProfilingOptions.defaults().leavingOutCounted(true, WHOLE_UP_TO));
                ProfilingDatabase whole = new ProfilingDatabase(ProfilingOptions.defaults())) {
            check.run(
                    lean,
                    load(lean, dump, held).get(name),
                    whole,
                    load(whole, dump, held).get(name));
        }
    }

    private static Map<String, LoadedTable> load(ProfilingDatabase db, byte[] dump) throws Exception {
        return load(db, dump, true);
    }

    private static Map<String, LoadedTable> load(ProfilingDatabase db, byte[] dump, boolean held) throws Exception {
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        try (SqlScriptReader reader = new SqlScriptReader(new ByteArrayInputStream(dump), "late.sql", true)) {
            DumpLoader loader = new DumpLoader(db, new DdlCatalog(Dialect.MYSQL), new LoadStats(), loaded, pos -> {});
            if (!held) {
                loader.holdingUpTo(0);
            }
            // each way on another number of fillers: both fill paths (one filler's batches, two's
            // shared ones) meet the cut and the unstored run
            loader.fillers(held ? 1 : 2);
            loader.load(reader);
        }
        return loaded;
    }
}

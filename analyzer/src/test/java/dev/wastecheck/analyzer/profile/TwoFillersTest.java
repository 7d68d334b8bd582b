package dev.wastecheck.analyzer.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.load.ColumnFacts;
import dev.wastecheck.sources.load.DumpLoader;
import dev.wastecheck.sources.load.LoadStats;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A table filled by two threads ({@link DumpLoader#fillers}, each its own columns of the same
 * rows), or by one while the reader counts its heavy text column ({@link
 * DumpLoader#readerCounts}), gives what one filler alone gives: the same rows in the same order, every column's
 * {@link ColumnFacts} getter, every field of its profile, and the same bad rows, bad values and
 * recoded values, counted in the same order (the first five examples, the first bad value per
 * column). The dumps are long enough (several chunks and Arrow batches) to be split, and mix
 * what each fact is sensitive to: null markers, ISO timestamps in one spelling then another,
 * decimals of growing scale, doubles, values out of their declared type, bytes that are not
 * UTF-8, rows of the wrong width, columns left out to their DEFAULT or AUTO_INCREMENT.
 */
class TwoFillersTest {

    @Property(tries = 6)
    void twoFillersCountWhatOneCounts(
            @ForAll long seed, @ForAll @IntRange(min = 5_000, max = 40_000) int rows, @ForAll boolean badRows)
            throws Exception {
        byte[] dump = dump(new Random(seed), rows, badRows);
        LoadStats oneStats = oneAndTwoTheSame(dump);
        // the dump holds what the facts are sensitive to: bad values and recoded bytes were seen
        assertThat(oneStats.table("t").badValues()).isPositive();
        assertThat(oneStats.table("t").recodedValues()).isPositive();
    }

    /**
     * A text column heavier than all the others together (long UTF-8 values, as the bench's text
     * shape): the second filler counts its values' characters from each chunk's end while the
     * first fills it from the start; with one filler, the reader counts them so while the filler
     * is behind. Values the tokenizer saw as ASCII, NULLs, values that are not UTF-8 (recoded) and
     * rows of the wrong width among them; the same rows, facts and counts.
     */
    @Property(tries = 4)
    void aHeavyTextColumnCountedFromBothEndsCountsWhatOneCounts(
            @ForAll long seed, @ForAll @IntRange(min = 4_000, max = 10_000) int rows) throws Exception {
        Random r = new Random(seed);
        String[] pieces = {"über", "データ", "😀", "café", "the", "quick", "it\\'s", "Москва", "a", "東京"};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, "CREATE TABLE `doc` (`id` int NOT NULL, `body` text, `lang` varchar(5), PRIMARY KEY (`id`));\n");
        int done = 0;
        int statement = 0;
        while (done < rows) {
            // runs of several statements (a run's first chunk, 1 MB here, must be full to be split),
            // then a statement with a column list, which starts a run of its own
            boolean list = statement++ % 4 == 3;
            // the first run long enough to be split whatever the draw (two statements of 2,000
            // rows, a megabyte each): the reader counts a chunk of a run only once it is split
            int n = Math.min(rows - done, statement <= 2 ? 2_000 : 300 + r.nextInt(1500));
            write(out, list ? "INSERT INTO `doc` (`id`,`lang`,`body`) VALUES " : "INSERT INTO `doc` VALUES ");
            for (int i = 0; i < n; i++) {
                out.write(i > 0 ? ',' : '(');
                if (i > 0) {
                    out.write('(');
                }
                write(out, Integer.toString(done + i));
                String lang = r.nextInt(7) == 0 ? "NULL" : "'" + (r.nextBoolean() ? "en" : "ja") + "'";
                if (list) {
                    write(out, "," + lang);
                }
                out.write(',');
                int kind = r.nextInt(40);
                if (kind == 0) {
                    write(out, "NULL");
                } else {
                    out.write('\'');
                    // longer toward a statement's end: a chunk's longest values lie near its end,
                    // where the second filler counts first
                    int words = 20 + r.nextInt(50) + i / 6;
                    boolean ascii = kind == 1;
                    for (int k = 0; k < words; k++) {
                        write(out, (ascii ? "word" : pieces[r.nextInt(pieces.length)]) + " ");
                    }
                    if (kind == 2) {
                        out.write(0xe9); // not UTF-8: recoded as Latin-1
                    }
                    out.write('\'');
                }
                if (!list) {
                    write(out, "," + lang);
                }
                if (r.nextInt(2000) == 0) {
                    write(out, ",7"); // a row of the wrong width
                }
                out.write(')');
            }
            write(out, ";\n");
            done += n;
        }
        byte[] dump = out.toByteArray();
        LoadStats stats = oneAndTwoTheSame(dump);
        assertThat(stats.table("doc").recodedValues()).isPositive();
        sameAsOne(dump, 1, true); // one filler, the reader counting every chunk as the filler fills it
        assertThat(lastReaderCounted).as("chunks the reader counted").isPositive();
    }

    /** Loads {@code dump} with one filler and with two and compares everything; the one filler's stats. */
    private static LoadStats oneAndTwoTheSame(byte[] dump) throws Exception {
        return sameAsOne(dump, 2, true);
    }

    /**
     * Loads {@code dump} with one filler alone and with {@code fillers} ({@code readerCounts}:
     * the reader counting a heavy column) and compares everything; the one filler's stats.
     */
    private static LoadStats sameAsOne(byte[] dump, int fillers, boolean readerCounts) throws Exception {
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadStats oneStats = new LoadStats();
            LoadStats twoStats = new LoadStats();
            Map<String, LoadedTable> one = load(db, dump, 1, false, oneStats);
            Map<String, LoadedTable> two = load(db, dump, fillers, readerCounts, twoStats);
            assertThat(two.keySet()).containsExactlyElementsOf(one.keySet());
            for (String name : one.keySet()) {
                LoadedTable a = one.get(name);
                LoadedTable b = two.get(name);
                assertThat(b.rows()).as(name).isEqualTo(a.rows());
                assertThat(rows(db, b)).as(name).isEqualTo(rows(db, a));
                for (int i = 0; i < a.def().columns().size(); i++) {
                    assertSameFacts(name + "." + a.def().columns().get(i).name(), a.facts(i), b.facts(i));
                }
                Profiler profiler = new Profiler(db, false, false);
                List<ColumnProfile> pa = profiler.profile(a);
                List<ColumnProfile> pb = profiler.profile(b);
                for (int i = 0; i < pa.size(); i++) {
                    for (Field f : ColumnProfile.class.getFields()) {
                        if (!Modifier.isStatic(f.getModifiers())) {
                            assertThat(f.get(pb.get(i)))
                                    .as("%s column %d %s", name, i, f.getName())
                                    .isEqualTo(f.get(pa.get(i)));
                        }
                    }
                }
                LoadStats.TableStats sa = oneStats.table(name);
                LoadStats.TableStats sb = twoStats.table(name);
                assertThat(sb.badRows()).isEqualTo(sa.badRows());
                assertThat(sb.badValues()).isEqualTo(sa.badValues());
                assertThat(sb.recodedValues()).isEqualTo(sa.recodedValues());
                assertThat(sb.examples()).containsExactlyElementsOf(sa.examples());
                assertThat(List.copyOf(sb.badValuesByColumn().entrySet()))
                        .containsExactlyElementsOf(sa.badValuesByColumn().entrySet());
                assertThat(List.copyOf(sb.firstBadValues().entrySet()))
                        .containsExactlyElementsOf(sa.firstBadValues().entrySet());
                assertThat(List.copyOf(sb.outOfTypeValues().entrySet()))
                        .containsExactlyElementsOf(sa.outOfTypeValues().entrySet());
            }
            assertThat(twoStats.warnings()).containsExactlyElementsOf(oneStats.warnings());
            return oneStats;
        }
    }

    /**
     * A row of the wrong width leaves its values in the slot the next row takes: a NULL there
     * clears the value's validity bit (the writers skip that write only for a slot never
     * written, whose bit Arrow allocated as zero), with one filler and with two.
     */
    @Test
    void aNullInTheSlotOfABadRowIsNull() throws Exception {
        byte[] dump = ("CREATE TABLE t (id BIGINT, name VARCHAR(10), note TEXT);\n"
                        + "INSERT INTO t VALUES (1,'a','x'),(2,'b','y','extra'),(NULL,NULL,NULL),(4,'d',NULL);\n"
                        + "INSERT INTO t (id, name) VALUES (5,'e'),(6,'f','g'),(NULL,NULL);\n")
                .getBytes(StandardCharsets.UTF_8);
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            for (int fillers = 1; fillers <= 2; fillers++) {
                LoadStats stats = new LoadStats();
                LoadedTable t = load(db, dump, fillers, false, stats).get("t");
                assertThat(rows(db, t))
                        .as("%d fillers", fillers)
                        .containsExactly("1|a|x|", "null|null|null|", "4|d|null|", "5|e|null|", "null|null|null|");
                assertThat(stats.table("t").badRows()).isEqualTo(2);
            }
        }
    }

    /**
     * Loads {@code dump} on {@code fillers} threads; {@code readerCounts}: the reader counts a
     * heavy column, with one filler at every chunk ({@link DumpLoader#readerCountsAlways}).
     */
    private static Map<String, LoadedTable> load(
            ProfilingDatabase db, byte[] dump, int fillers, boolean readerCounts, LoadStats stats) throws Exception {
        DdlCatalog catalog = new DdlCatalog(Dialect.MYSQL);
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        try (SqlScriptReader reader = new SqlScriptReader(new ByteArrayInputStream(dump), "two.sql", true)) {
            DumpLoader loader = new DumpLoader(db, catalog, stats, loaded, pos -> {})
                    .fillers(fillers)
                    .readerCounts(readerCounts);
            if (readerCounts && fillers == 1) {
                loader.readerCountsAlways();
            }
            loader.load(reader);
            lastReaderCounted = loader.readerCountedChunks();
        }
        return loaded;
    }

    /** {@link DumpLoader#readerCountedChunks} of the last {@link #load}. */
    private static long lastReaderCounted;

    /** Every row as text, in the order DuckDB keeps them. */
    private static List<String> rows(ProfilingDatabase db, LoadedTable t) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + t.relation())) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    sb.append(rs.getString(i)).append('|');
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    /** Every public getter of the facts (null when the facts were dropped: then both). */
    private static void assertSameFacts(String column, ColumnFacts a, ColumnFacts b) throws Exception {
        assertThat(b == null).as(column + " facts dropped").isEqualTo(a == null);
        if (a == null) {
            return;
        }
        int compared = 0;
        for (Method m : ColumnFacts.class.getMethods()) {
            if (m.getParameterCount() == 0
                    && !Modifier.isStatic(m.getModifiers())
                    && m.getDeclaringClass() == ColumnFacts.class) {
                assertThat(m.invoke(b)).as(column + "." + m.getName()).isEqualTo(m.invoke(a));
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(40);
    }

    /** Stands for a value of one byte 0xE9. */
    private static final String LATIN1 = "<latin1>";

    private static final String[] WORDS = {"paid", "open", "NULL", "NA", "", "x ", "日本", "é", "None", "zz"};

    private static byte[] dump(Random r, int rows, boolean badRows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(
                out,
                "CREATE TABLE `t` (`id` int NOT NULL AUTO_INCREMENT, `n` int, `u` bigint unsigned,"
                        + " `d` decimal(12,4), `f` double, `s` varchar(40), `ts` varchar(40),"
                        + " `b` blob, `tiny` tinyint unsigned, `dt` date, `k` varchar(10) DEFAULT 'dflt',"
                        + " `code` varchar(4), PRIMARY KEY (`id`));\n");
        write(out, "CREATE TABLE `small` (`a` int, `b` varchar(10));\n");
        write(out, "INSERT INTO `small` VALUES (1,'x'),(2,NULL),(3,'y');\n");
        int done = 0;
        int statement = 0;
        while (done < rows) {
            // a run with every column, then one that leaves id and k out (AUTO_INCREMENT, DEFAULT)
            boolean list = statement++ % 3 == 2;
            int n = Math.min(rows - done, 200 + r.nextInt(3000));
            write(
                    out,
                    list
                            ? "INSERT INTO `t` (`n`,`u`,`d`,`f`,`s`,`ts`,`b`,`tiny`,`dt`,`code`) VALUES "
                            : "INSERT INTO `t` VALUES ");
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    out.write(',');
                }
                List<String> v = new ArrayList<>();
                if (!list) {
                    v.add(Integer.toString(done + i + 1));
                }
                v.add(r.nextInt(500) == 0 ? "'x" + r.nextInt(9) + "'" : Integer.toString(r.nextInt(100_000) - 500));
                v.add(r.nextInt(20) == 0 ? "NULL" : Long.toString(r.nextLong() >>> (1 + r.nextInt(60))));
                v.add(decimal(r));
                v.add(r.nextInt(10) == 0 ? "NULL" : floating(r));
                v.add(
                        r.nextInt(900) == 0
                                ? LATIN1
                                : r.nextInt(8) == 0
                                        ? "NULL"
                                        : "'" + WORDS[r.nextInt(WORDS.length)] + r.nextInt(50) + "'");
                v.add(timestamp(r, done + i, rows));
                v.add(r.nextInt(10) == 0 ? "NULL" : "'" + (char) ('a' + r.nextInt(26)) + r.nextInt(1000) + "'");
                v.add(Integer.toString(r.nextInt(1000) == 0 ? 300 : r.nextInt(256)));
                v.add(
                        r.nextInt(700) == 0
                                ? "'2023-02-30'"
                                : "'20" + (10 + r.nextInt(15)) + "-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(10)
                                        + "'");
                if (!list) {
                    v.add(r.nextInt(5) == 0 ? "NULL" : "'k" + r.nextInt(300) + "'");
                }
                v.add("'" + (char) ('A' + r.nextInt(5)) + "'");
                if (badRows && r.nextInt(4000) == 0) {
                    v.remove(v.size() - 1); // a row of the wrong width
                }
                out.write('(');
                for (int j = 0; j < v.size(); j++) {
                    if (j > 0) {
                        out.write(',');
                    }
                    if (v.get(j).equals(LATIN1)) {
                        out.write('\'');
                        out.write(0xe9); // not UTF-8: stored as Latin-1, counted as recoded
                        out.write('\'');
                    } else {
                        write(out, v.get(j));
                    }
                }
                out.write(')');
            }
            write(out, ";\n");
            done += n;
        }
        // a value that is not UTF-8, in its own statement (recoded as Latin-1)
        write(out, "INSERT INTO `t` (`n`,`u`,`d`,`f`,`s`,`ts`,`b`,`tiny`,`dt`,`code`) VALUES (1,2,'3.5',4,'");
        out.write(0xe9);
        write(out, "',NULL,NULL,1,'2020-01-01','A');\n");
        return out.toByteArray();
    }

    private static String decimal(Random r) {
        if (r.nextInt(10) == 0) {
            return "NULL";
        }
        int scale = r.nextInt(5);
        StringBuilder sb = new StringBuilder("'");
        if (r.nextBoolean()) {
            sb.append('-');
        }
        sb.append(r.nextInt(100_000));
        if (scale > 0) {
            sb.append('.');
            for (int i = 0; i < scale; i++) {
                sb.append(r.nextInt(10));
            }
        }
        return sb.append('\'').toString();
    }

    private static String floating(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> Integer.toString(r.nextInt(2400));
            case 1 -> Double.toString(r.nextGaussian() * 1e6);
            case 2 -> Float.toString(r.nextFloat());
            default -> "1e" + (r.nextInt(40) - 20);
        };
    }

    /** ISO-8601 text: the first half in one spelling, the second (sometimes) in another. */
    private static String timestamp(Random r, int row, int rows) {
        if (r.nextInt(10) == 0) {
            return "NULL";
        }
        String day = "2013-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(10);
        String time = "1" + r.nextInt(10) + ":" + (10 + r.nextInt(50)) + ":" + (10 + r.nextInt(50));
        if (row > rows / 2 && r.nextInt(3) == 0) {
            return "'" + day + "T" + time + "+01:00'";
        }
        return r.nextInt(50) == 0 ? "'" + day + " " + time + "'" : "'" + day + "T" + time + "Z'";
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
}

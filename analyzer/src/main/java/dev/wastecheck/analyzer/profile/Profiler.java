package dev.wastecheck.analyzer.profile;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.load.ColumnFacts;
import dev.wastecheck.sources.load.ColumnNotLoaded;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.NullMarkers;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.RowStore;
import dev.wastecheck.sources.sql.IsoTimestamps;
import dev.wastecheck.sources.sql.ProfileDialect;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Profiles a table with aggregate queries: every aggregate of a column in a single scan, exact
 * (count(DISTINCT), not an estimate). Like DuckDB's SUMMARIZE, but asking what the type inference
 * needs: canonical spellings that round-trip, null markers, storage-model sums.
 *
 * <p>What is measured is described here once; a {@link ProfileDialect} spells it for the engine
 * that holds the rows: the local DuckDB for files and dumps, or the live server itself
 * (PostgreSQL, MariaDB, Trino), so that only the aggregates cross the wire.
 */
public final class Profiler {
    /** Longest text value that the pattern checks look at (longer ones are not numbers or dates). */
    static final int PATTERN_MAX = 40;

    private final Connection connection;
    private final ProfileDialect sql;
    private final boolean postgres;
    private final boolean sqlite;
    /** Distinct counts estimated below this are counted exactly ({@link #exactDistinctBelow}). */
    private long screenBelow = SCREEN_MIN;

    /**
     * The least distinct count the profile leaves an estimate, where the engine estimates
     * ({@link ProfileDialect#approxDistinct}): every decision on a count (an ENUM of at most
     * {@code --enum-max} values, a boolean, a constant) is about far fewer values, and a sketch's
     * error (DuckDB's: +6.5% on 11.2 M blobs) is far from turning 100,000 into them.
     */
    public static final long SCREEN_MIN = 100_000;

    /**
     * Counts exactly every column whose estimate is below {@code n} (at least {@link
     * #SCREEN_MIN}): the caller's own decisions on counts, such as its ENUM cap, stay exact.
     */
    public Profiler exactDistinctBelow(long n) {
        screenBelow = Math.max(SCREEN_MIN, n);
        return this;
    }

    /**
     * Profiles the rows loaded into the local profiling database.
     *
     * @param postgres also sum PostgreSQL's numeric storage sizes (only its storage model needs them)
     * @param sqlite   also sum SQLite's value-sized integer storage (likewise)
     */
    public Profiler(ProfilingDatabase db, boolean postgres, boolean sqlite) {
        this(db.connection(), ProfileDialect.DUCKDB, postgres, sqlite);
    }

    /** Profiles relations of the database behind {@code connection}, in its dialect. */
    public Profiler(Connection connection, ProfileDialect sql, boolean postgres, boolean sqlite) {
        this.connection = connection;
        this.sql = sql;
        this.postgres = postgres;
        this.sqlite = sqlite;
    }

    private interface Setter extends BiConsumer<ColumnProfile, Object> {}

    /**
     * One aggregate of a column: its SQL, and where the result goes. {@code known}, when not
     * null, gives the very value the SQL would return, from what the loader counted
     * ({@link ColumnFacts}); then no SQL runs for it.
     */
    private record Agg(int column, String sql, Setter setter, Supplier<Object> known) {
        Agg(int column, String sql, Setter setter) {
            this(column, sql, setter, null);
        }
    }

    /** The aggregate, or the loader's value of it when {@code facts} holds one. */
    private static Agg agg(int column, String sql, Setter setter, ColumnFacts facts, Function<ColumnFacts, Object> f) {
        return new Agg(column, sql, setter, facts == null ? null : () -> f.apply(facts));
    }

    /**
     * The profiling query: aggregates over a derived table that computes each column's text,
     * length and pattern flags once per row (each flag behind a CASE guard, so the costly parse
     * runs only on values of the right length).
     */
    private static final class Query {
        final List<Agg> aggs = new ArrayList<>();
        /** Per column, its derived expressions as {@code expr AS alias}, in the order made. */
        final Map<Integer, List<String>> derived = new TreeMap<>();
        /** Per column, each derived expression's level (1 + the deepest level it names); {@link #lateral} false only. */
        final Map<Integer, List<Integer>> levels = new TreeMap<>();

        final Map<String, Integer> levelOf = new HashMap<>();
        /** Whether a derived expression may name one before it in the same SELECT list (DuckDB). */
        final boolean lateral;

        int column;

        Query(ProfileDialect sql) {
            this.lateral = sql.lateralAliases();
        }

        void add(Agg a) {
            aggs.add(a);
        }

        /** Subsequent expressions are for column {@code i}. */
        void column(int i) {
            column = i;
        }

        /**
         * A per-row expression computed once in the derived table; returns its alias. Where the
         * engine cannot name an earlier alias of the same SELECT list, the expressions are
         * computed in nested derived tables, one level per step of dependence (an expression on
         * level 2 names aliases of level 1), so that each is still computed once a row.
         */
        String derive(String alias, String expr) {
            if (!lateral && expr.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                return expr; // a column of the relation itself
            }
            derived.computeIfAbsent(column, k -> new ArrayList<>()).add(expr + " AS " + alias);
            if (!lateral) {
                int level = 1;
                for (Map.Entry<String, Integer> e : levelOf.entrySet()) {
                    if (Pattern.compile("\\b" + e.getKey() + "\\b")
                            .matcher(expr)
                            .find()) {
                        level = Math.max(level, e.getValue() + 1);
                    }
                }
                levelOf.put(alias, level);
                levels.computeIfAbsent(column, k -> new ArrayList<>()).add(level);
            }
            return alias;
        }

        /**
         * The FROM clause for the columns of one query: the relation itself, the derived table
         * DuckDB computes in one list, or the nested levels of the other engines, each behind the
         * dialect's fence (PostgreSQL would otherwise fold a level into its user and compute an
         * expression once for each use).
         */
        String from(String relation, IntPredicate inGroup, ProfileDialect sql) {
            if (lateral) {
                List<String> list = new ArrayList<>();
                derived.forEach((c, d) -> {
                    if (inGroup.test(c)) {
                        list.addAll(d);
                    }
                });
                return list.isEmpty()
                        ? relation
                        : "(SELECT " + String.join(",\n    ", list) + "\n  FROM " + relation + ")" + sql.alias("d");
            }
            Map<Integer, List<String>> byLevel = new TreeMap<>();
            derived.forEach((c, d) -> {
                if (inGroup.test(c)) {
                    for (int i = 0; i < d.size(); i++) {
                        byLevel.computeIfAbsent(levels.get(c).get(i), k -> new ArrayList<>())
                                .add(d.get(i));
                    }
                }
            });
            // the relation's columns (a server's text casts among them) computed once, then each level
            String from = "(SELECT * FROM " + relation + sql.fence() + ")" + sql.alias("v0");
            String previous = "v0";
            for (Map.Entry<Integer, List<String>> e : byLevel.entrySet()) {
                String name = "v" + e.getKey();
                from = "(SELECT " + previous + ".*, " + String.join(",\n    ", e.getValue()) + "\n  FROM " + from
                        + sql.fence() + ")" + sql.alias(name);
                previous = name;
            }
            return from;
        }

        int size() {
            return aggs.size();
        }

        Agg get(int i) {
            return aggs.get(i);
        }
    }

    public List<ColumnProfile> profile(LoadedTable table) throws SQLException {
        List<ColumnDef> cols = table.def().columns();
        List<ColumnProfile> out = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            ColumnProfile p = new ColumnProfile();
            p.rows = table.rows();
            out.add(p);
        }
        if (table.relation() == null || table.rows() == 0) {
            return out;
        }
        Query aggs = new Query(sql);
        List<Integer> byBits = new ArrayList<>();
        // a table smaller than the screen's threshold has no count worth estimating
        List<Integer> screened = table.rows() >= screenBelow ? new ArrayList<>() : null;
        for (int i = 0; i < cols.size(); i++) {
            aggs.column(i);
            columnAggregates(
                    i,
                    cols.get(i),
                    table.storage()[i],
                    table.physicalName(i), // a left-out column's SQL is never run: run() checks
                    aggs,
                    byBits,
                    screened,
                    table.facts(i));
        }
        run(table, aggs, out);
        for (int i : byBits) {
            out.get(i).distinct = distinctIntegers(table, i, out.get(i));
        }
        if (screened != null) {
            countWhereDecided(table, screened, out);
        }

        // Then what the strings hold: dates, timestamps and UUIDs first; numbers and booleans only
        // for columns that are not wholly one of those (a timestamp column is not asked if it is
        // also a valid integer: the inference would take the timestamp anyway).
        for (boolean numeric : new boolean[] {false, true}) {
            Query patterns = new Query(sql);
            boolean any = false;
            for (int i = 0; i < cols.size(); i++) {
                TypeFamily f = cols.get(i).type().family();
                ColumnStorage storage = table.storage()[i];
                boolean text = (f.isString()
                                || f == TypeFamily.OTHER
                                || (f == TypeFamily.INTEGER && storage == ColumnStorage.TEXT))
                        && storage != ColumnStorage.INT64;
                ColumnProfile p = out.get(i);
                long real = p.nonNull - p.markers;
                if (!text
                        || (numeric
                                && real > 0
                                && (p.dates == real
                                        || p.timestamps == real
                                        || p.mwTimestamps == real
                                        || p.uuids == real))) {
                    continue;
                }
                boolean bytes = storage == ColumnStorage.BYTES || (storage == ColumnStorage.NATIVE && f.isBinary());
                patterns.column(i);
                String c = patterns.derive("c" + i, table.physicalName(i));
                String s = bytes ? patterns.derive("s" + i, sql.bytesAsText(c)) : c;
                String len = patterns.derive("l" + i, bytes ? sql.binaryLength(c) : sql.byteLength(c));
                any |= patternAggregates(i, p, s, len, patterns, numeric, table.facts(i));
            }
            if (any) {
                run(table, patterns, out);
            }
        }
        return out;
    }

    /**
     * Runs the aggregates in groups of {@link ProfileDialect#columnsPerQuery} columns: one column
     * a query in DuckDB's in-memory tables (each query's distinct-count hash table alone; one
     * query with every column's count(DISTINCT) was 1.6x slower on 11 M rows), all of a table's
     * in one query on a row store, which reads whole rows on every scan.
     */
    private void run(LoadedTable table, Query aggs, List<ColumnProfile> out) throws SQLException {
        Map<Integer, List<Agg>> byColumn = new TreeMap<>();
        for (Agg a : aggs.aggs) {
            if (a.known() != null) {
                a.setter().accept(out.get(a.column()), a.known().get());
            } else if (a.column() >= 0) {
                byColumn.computeIfAbsent(a.column() / sql.columnsPerQuery(), k -> new ArrayList<>())
                        .add(a);
            }
        }
        for (Map.Entry<Integer, List<Agg>> e : byColumn.entrySet()) {
            List<Agg> list = e.getValue();
            int group = e.getKey();
            for (int c : aggs.derived.keySet()) {
                if (c / this.sql.columnsPerQuery() == group && !table.present(c)) {
                    throw new ColumnNotLoaded(table, c); // the loader's facts did not answer all: load it again
                }
            }
            for (Agg a : list) {
                if (!table.present(a.column())) {
                    throw new ColumnNotLoaded(table, a.column());
                }
            }
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sql.append(",\n  ");
                }
                sql.append(list.get(i).sql());
            }
            sql.append("\nFROM ")
                    .append(aggs.from(table.relation(), c -> c / this.sql.columnsPerQuery() == group, this.sql));
            long t0 = System.nanoTime();
            try (Statement st = connection.createStatement();
                    ResultSet rs = st.executeQuery(sql.toString())) {
                rs.next();
                for (int i = 0; i < list.size(); i++) {
                    list.get(i).setter().accept(out.get(list.get(i).column()), rs.getObject(i + 1));
                }
                RowStore.drain(rs);
            }
            if (Boolean.getBoolean("wastecheck.logSql")) {
                System.err.printf("-- %d ms%n%s%n", (System.nanoTime() - t0) / 1_000_000, sql);
            }
        }
    }

    /**
     * Integer columns stored as integers whose range is at most this many values times their
     * rows (and at most {@link #BITS_MAX}) count their distinct values with one bit a value of
     * the range, after the first query has found the range: 85 ms against 1.2-1.5 s for the
     * hash table of {@code count(DISTINCT)} on 11.4 M keys, the same exact count.
     */
    static final long BITS_PER_ROW = 8;

    /** The most bits of such a count: 32 MB, for each of the engine's threads. */
    static final long BITS_MAX = 1L << 28;

    private long distinctIntegers(LoadedTable table, int i, ColumnProfile p) throws SQLException {
        if (p.nonNull == 0) {
            return 0;
        }
        if (table.storage()[i] == ColumnStorage.INT64
                && table.facts(i) != null
                && table.facts(i).integerDistinct() != null) {
            return table.facts(i).integerDistinct(); // the loader's bits
        }
        String c = table.physicalColumn(i);
        String expr = "count(DISTINCT " + c + ")";
        if (p.minInt != null && p.maxInt != null && p.minInt.bitLength() < 64 && p.maxInt.bitLength() < 64) {
            BigInteger range = p.maxInt.subtract(p.minInt).add(BigInteger.ONE);
            if (range.compareTo(BigInteger.valueOf(Math.min(BITS_MAX, Math.max(1 << 16, BITS_PER_ROW * p.nonNull))))
                    <= 0) {
                String bits = sql.distinctIntegersByBits(c, p.minInt.longValueExact(), p.maxInt.longValueExact());
                expr = bits == null ? expr : bits;
            }
        }
        String query = "SELECT " + expr + " FROM " + table.relation();
        long t0 = System.nanoTime();
        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            rs.next();
            long n = asLong(rs.getObject(1));
            RowStore.drain(rs);
            if (Boolean.getBoolean("wastecheck.logSql")) {
                System.err.printf("-- %d ms%n%s%n", (System.nanoTime() - t0) / 1_000_000, query);
            }
            return n;
        }
    }

    /**
     * The exact count of each screened column whose estimate a decision could depend on: below
     * the screen's threshold (ENUM, boolean, constant), or within the estimates' margin ({@link
     * #margin}: a factor of two where DuckDB estimated either, a few percent between the loader's
     * sketch and a count) of another column of the table with as many values that is not known
     * to be unique (two columns that
     * map one to one have equal counts, which the duplicate-column check compares exactly; it
     * leaves unique columns out, since they map onto every other unique one). The others keep their
     * estimate, marked {@link ColumnProfile#distinctEstimated}, capped at their values.
     */
    private void countWhereDecided(LoadedTable table, List<Integer> screened, List<ColumnProfile> out)
            throws SQLException {
        for (int i : screened) {
            ColumnProfile p = out.get(i);
            boolean decided = p.distinct < screenBelow;
            for (int k = 0; k < out.size() && !decided; k++) {
                ColumnProfile q = out.get(k);
                double f = Math.min(2, margin(table, i, p) * margin(table, k, q));
                decided = k != i
                        && !parted(table, i, k)
                        && q.nonNull == p.nonNull
                        && q.distinct <= f * p.distinct
                        && p.distinct <= f * q.distinct
                        // a column known to be unique pairs with none: the check skips it
                        && (q.distinctEstimated || q.distinct < q.nonNull);
            }
            if (!decided) {
                p.distinct = Math.min(p.distinct, p.nonNull);
                continue;
            }
            String query = "SELECT count(DISTINCT " + table.physicalColumn(i) + ") FROM " + table.relation();
            long t0 = System.nanoTime();
            try (Statement st = connection.createStatement();
                    ResultSet rs = st.executeQuery(query)) {
                rs.next();
                p.distinct = asLong(rs.getObject(1));
                p.distinctEstimated = false;
                RowStore.drain(rs);
            }
            if (Boolean.getBoolean("wastecheck.logSql")) {
                System.err.printf("-- %d ms%n%s%n", (System.nanoTime() - t0) / 1_000_000, query);
            }
        }
    }

    /**
     * Whether the first batch's rows part by columns {@code i} and {@code k} differently (the
     * loader's {@link ColumnFacts#partsDifferently}): they map one to one nowhere, so neither
     * count decides the duplicate check for the pair.
     */
    private static boolean parted(LoadedTable table, int i, int k) {
        return table.facts(i) != null && table.facts(i).partsDifferently(table.facts(k));
    }

    /**
     * The factor column {@code i}'s distinct count may be off by: none for a count, {@link
     * ColumnFacts#ESTIMATE_MARGIN} for the loader's sketch of 2^14 registers, two for the
     * engine's estimate (DuckDB's sketch keeps 64 registers: about 16% of standard error).
     */
    private static double margin(LoadedTable table, int i, ColumnProfile p) {
        if (!p.distinctEstimated) {
            return 1;
        }
        ColumnFacts facts = table.facts(i);
        return facts != null && facts.estimatedDistinct() != null ? ColumnFacts.ESTIMATE_MARGIN : 2;
    }

    private void columnAggregates(
            int i,
            ColumnDef col,
            ColumnStorage storage,
            String physical,
            Query aggs,
            List<Integer> byBits,
            List<Integer> screened,
            ColumnFacts known) {
        TypeFamily f = col.type().family();
        String c = aggs.derive("c" + i, physical);
        aggs.add(agg(i, "count(" + c + ")", (p, v) -> p.nonNull = asLong(v), known, ColumnFacts::nonNull));
        boolean integers = f == TypeFamily.INTEGER
                && (storage == ColumnStorage.INT64 || storage == ColumnStorage.NATIVE)
                && sql.distinctIntegersByBits("x", 0, 1) != null;
        if (integers) {
            byBits.add(i); // after the range is known
        } else if (known != null && known.exactDistinct() != null) {
            // a short list, or numbers spelled one way each: the loader counted them exactly
            aggs.add(agg(i, null, (p, v) -> p.distinct = asLong(v), known, ColumnFacts::exactDistinct));
        } else if (screened != null && known != null && known.estimatedDistinct() != null) {
            // every value sketched by the loader: an estimate within ESTIMATE_MARGIN, not DuckDB's 16%
            aggs.add(agg(
                    i,
                    null,
                    (p, v) -> {
                        p.distinct = asLong(v);
                        p.distinctEstimated = true;
                    },
                    known,
                    ColumnFacts::estimatedDistinct));
            screened.add(i);
        } else if (screened != null && f != TypeFamily.INTEGER && sql.approxDistinct(c) != null) {
            aggs.add(new Agg(i, sql.approxDistinct(c), (p, v) -> {
                p.distinct = asLong(v);
                p.distinctEstimated = true;
            }));
            screened.add(i); // counted exactly after, if a decision depends on the count
        } else {
            aggs.add(new Agg(i, "count(DISTINCT " + c + ")", (p, v) -> p.distinct = asLong(v)));
        }
        if (f == TypeFamily.INTEGER) {
            String n = storage == ColumnStorage.INT64 || storage == ColumnStorage.NATIVE
                    ? c
                    : aggs.derive("n" + i, sql.tryInteger(c));
            // the text of an integer column: the loader's bounds when every value is a canonical integer
            ColumnFacts textInts = known != null && known.integerTextFacts() ? known : null;
            integerAggregates(i, n, aggs, storage == ColumnStorage.INT64 ? known : textInts);
            if (storage == ColumnStorage.TEXT) {
                aggs.add(agg(
                        i,
                        "count(" + c + ") - count(" + n + ")",
                        (p, v) -> p.castFailures = asLong(v),
                        textInts,
                        k -> 0L));
                textAggregates(i, c, aggs.derive("l" + i, sql.byteLength(c)), aggs, known);
            }
            return;
        }
        if (storage == ColumnStorage.NATIVE && !(f.isString() || f == TypeFamily.OTHER)) {
            String s = aggs.derive("s" + i, sql.text(c));
            lengthAggregates(i, s, aggs.derive("l" + i, sql.byteLength(s)), aggs, null);
            nativeAggregates(i, f, s, aggs);
            return;
        }
        boolean bytes = storage == ColumnStorage.BYTES || (storage == ColumnStorage.NATIVE && f.isBinary());
        boolean plainBytes = bytes
                && !(f == TypeFamily.DECIMAL || f == TypeFamily.FLOAT || f == TypeFamily.DOUBLE || f.isTemporal());
        String s = bytes && !plainBytes ? aggs.derive("s" + i, sql.bytesAsText(c)) : c;
        String len = aggs.derive("l" + i, bytes ? sql.binaryLength(c) : sql.byteLength(c));
        // the loader's counts hold for text as stored and for plain bytes (not for bytes shown as text)
        ColumnFacts lengths = bytes && !plainBytes ? null : known;
        switch (f) {
            case DECIMAL -> {
                lengthAggregates(i, s, len, aggs, lengths);
                decimalAggregates(i, s, aggs, postgres, lengths);
            }
            case FLOAT, DOUBLE -> {
                lengthAggregates(i, s, len, aggs, lengths);
                floatAggregates(i, s, aggs, lengths != null && lengths.floatFacts() ? lengths : null);
            }
            case DATE, DATETIME, TIMESTAMP, TIME, YEAR -> {
                lengthAggregates(i, s, len, aggs, lengths);
                if (!bytes && timestampFacts(f, lengths)) {
                    loaderTimestamps(i, aggs, lengths);
                } else {
                    temporalAggregates(i, f, s, aggs);
                }
            }
            default -> {
                if (bytes) {
                    bytesAggregates(i, c, len, aggs, lengths);
                } else {
                    textAggregates(i, s, len, aggs, lengths);
                }
            }
        }
    }

    /**
     * Byte strings ({@code binary}, {@code varbinary}, {@code blob}): the same facts as for text,
     * computed on the bytes, casting to text only short values and the min/max results (a cast
     * of every value cost a third of the profile of a 1 GB dump). Trailing spaces are checked on
     * the few values an ENUM would list, not here.
     */
    private void bytesAggregates(int i, String c, String len, Query aggs, ColumnFacts k) {
        aggs.add(agg(i, "min(" + len + ")", (p, v) -> p.minLen = asLong(v), k, ColumnFacts::minLen));
        aggs.add(agg(i, "max(" + len + ")", (p, v) -> p.maxLen = asLong(v), k, ColumnFacts::maxLen));
        aggs.add(agg(i, "sum(" + len + ")", (p, v) -> p.sumLen = asLong(v), k, ColumnFacts::sumLen));
        aggs.add(agg(i, sql.countIf(len + " >= 127"), (p, v) -> p.long127 = asLong(v), k, ColumnFacts::long127));
        aggs.add(agg(i, sql.bytesShown("min(" + c + ")"), (p, v) -> p.minText = asString(v), k, ColumnFacts::minText));
        aggs.add(agg(i, sql.bytesShown("max(" + c + ")"), (p, v) -> p.maxText = asString(v), k, ColumnFacts::maxText));
        aggs.add(agg(i, "max(" + len + ")", (p, v) -> p.maxChars = asLong(v), k, ColumnFacts::maxChars));
        realBounds(i, c, len, sql.bytesAsText(c), sql::bytesShown, aggs, k);
    }

    private void integerAggregates(int i, String n, Query aggs, ColumnFacts k) {
        boolean text = k != null && k.integerTextFacts();
        aggs.add(agg(
                i,
                sql.integerText("min(" + n + ")"),
                (p, v) -> p.minInt = asBig(v),
                k,
                text ? ColumnFacts::strIntMin : ColumnFacts::intMin));
        aggs.add(agg(
                i,
                sql.integerText("max(" + n + ")"),
                (p, v) -> p.maxInt = asBig(v),
                k,
                text ? ColumnFacts::strIntMax : ColumnFacts::intMax));
        if (sqlite) {
            aggs.add(new Agg(i, "sum(" + sqliteIntSize(n) + ")", (p, v) -> p.sqliteIntBytes = asLong(v)));
        }
    }

    /** SQLite record format: serial types 8/9 (0 and 1) take no bytes; then 1, 2, 3, 4, 6 or 8. */
    static String sqliteIntSize(String n) {
        return "CASE WHEN " + n + " IS NULL THEN 0 WHEN " + n + " BETWEEN 0 AND 1 THEN 0"
                + " WHEN " + n + " BETWEEN -128 AND 127 THEN 1 WHEN " + n + " BETWEEN -32768 AND 32767 THEN 2"
                + " WHEN " + n + " BETWEEN -8388608 AND 8388607 THEN 3 WHEN " + n
                + " BETWEEN -2147483648 AND 2147483647 THEN 4"
                + " WHEN " + n + " BETWEEN -140737488355328 AND 140737488355327 THEN 6 ELSE 8 END";
    }

    private void lengthAggregates(int i, String s, String len, Query aggs, ColumnFacts k) {
        aggs.add(agg(i, "min(" + len + ")", (p, v) -> p.minLen = asLong(v), k, ColumnFacts::minLen));
        aggs.add(agg(i, "max(" + len + ")", (p, v) -> p.maxLen = asLong(v), k, ColumnFacts::maxLen));
        aggs.add(agg(i, "sum(" + len + ")", (p, v) -> p.sumLen = asLong(v), k, ColumnFacts::sumLen));
        aggs.add(agg(i, sql.countIf(len + " >= 127"), (p, v) -> p.long127 = asLong(v), k, ColumnFacts::long127));
        aggs.add(agg(i, sql.left("min(" + s + ")", 60), (p, v) -> p.minText = asString(v), k, ColumnFacts::minText));
        aggs.add(agg(i, sql.left("max(" + s + ")", 60), (p, v) -> p.maxText = asString(v), k, ColumnFacts::maxText));
    }

    private void textAggregates(int i, String s, String len, Query aggs, ColumnFacts k) {
        lengthAggregates(i, s, len, aggs, k);
        aggs.add(agg(i, "max(" + sql.charLength(s) + ")", (p, v) -> p.maxChars = asLong(v), k, ColumnFacts::maxChars));
        aggs.add(agg(
                i,
                sql.countIf(sql.endsWithSpace(s)),
                (p, v) -> p.trailingSpace = asLong(v),
                k,
                ColumnFacts::trailingSpace));
        realBounds(i, s, len, s, x -> sql.left(x, 60), aggs, k);
    }

    /**
     * The null markers among a column's values ({@code markerText}, as text, is one of the list)
     * and the bounds of the other, real values, which decide the pattern checks that can
     * succeed; {@code shown} spells a least or greatest value for the report.
     */
    private void realBounds(
            int i,
            String value,
            String len,
            String markerText,
            UnaryOperator<String> shown,
            Query aggs,
            ColumnFacts k) {
        // Every marker is at most 4 bytes long: the list is checked only for short values.
        String marker = k != null
                ? "false"
                : aggs.derive(
                        "mk" + i,
                        "CASE WHEN " + len + " <= 4 THEN " + markerText + " IN (" + markerList() + ") ELSE false END");
        aggs.add(agg(i, sql.countIf(marker), (p, v) -> p.markers = asLong(v), k, ColumnFacts::markers));
        aggs.add(agg(
                i,
                sql.aggIf("min", len, "NOT " + marker),
                (p, v) -> p.realMinLen = asLong(v),
                k,
                ColumnFacts::realMinLen));
        aggs.add(agg(
                i,
                sql.aggIf("max", len, "NOT " + marker),
                (p, v) -> p.realMaxLen = asLong(v),
                k,
                ColumnFacts::realMaxLen));
        aggs.add(agg(
                i,
                shown.apply(sql.aggIf("min", value, "NOT " + marker)),
                (p, v) -> p.realMinText = asString(v),
                k,
                ColumnFacts::realMinText));
        aggs.add(agg(
                i,
                shown.apply(sql.aggIf("max", value, "NOT " + marker)),
                (p, v) -> p.realMaxText = asString(v),
                k,
                ColumnFacts::realMaxText));
    }

    /**
     * The second pass: what the strings hold, checked only where the first pass leaves it
     * possible (every real value 14 characters long and starting with a digit, say). A check
     * that cannot succeed for every value is not run; its count stays 0, which is all the
     * inference needs to know.
     */
    private boolean patternAggregates(
            int i, ColumnProfile p, String s, String len, Query aggs, boolean numeric, ColumnFacts k) {
        boolean any = false;
        if (p.markers > 0 && !numeric) {
            aggs.add(new Agg(
                    i, sql.countDistinctIf(s, s + " IN (" + markerList() + ")"), (q, v) -> q.markerKinds = asLong(v)));
            any = true;
        }
        long real = p.nonNull - p.markers;
        if (real <= 0) {
            return any;
        }
        boolean startsNumeric = p.realMinText != null
                && p.realMaxText != null
                && p.realMinText.compareTo("-") >= 0
                && p.realMaxText.compareTo(":") < 0
                && p.realMaxLen <= PATTERN_MAX;
        boolean fixed = p.realMinLen == p.realMaxLen;
        // the loader read every value as a number, or as none (ColumnFacts.numberFacts)
        ColumnFacts nk = k != null && k.numberFacts() ? k : null;
        if (numeric && startsNumeric && p.realMaxLen <= 20) {
            String iv = nk != null
                    ? null
                    : aggs.derive("iv" + i, "CASE WHEN " + len + " <= 20 THEN " + sql.tryBigint(s) + " END");
            String intOk = nk != null ? null : aggs.derive("fi" + i, sql.text(iv) + " = " + s);
            aggs.add(agg(i, sql.countIf(intOk), (q, v) -> q.intCanonical = asLong(v), nk, ColumnFacts::intCanonical));
            aggs.add(agg(
                    i,
                    sql.integerText(sql.aggIf("min", iv, intOk)),
                    (q, v) -> q.strIntMin = asBig(v),
                    nk,
                    ColumnFacts::strIntMin));
            aggs.add(agg(
                    i,
                    sql.integerText(sql.aggIf("max", iv, intOk)),
                    (q, v) -> q.strIntMax = asBig(v),
                    nk,
                    ColumnFacts::strIntMax));
            any = true;
        }
        if (numeric && startsNumeric) {
            String decOk = nk != null ? null : aggs.derive("fd" + i, sql.fullMatch(s, "-?(0|[1-9][0-9]*)\\.[0-9]+"));
            aggs.add(agg(
                    i,
                    sql.countIf(decOk),
                    (q, v) -> q.decimalCanonical = asLong(v),
                    nk,
                    ColumnFacts::decimalCanonical));
            aggs.add(agg(
                    i,
                    sql.aggIf("max", sql.integerDigits(s), decOk),
                    (q, v) -> q.decimalIntDigits = (int) asLong(v),
                    nk,
                    ColumnFacts::decimalIntDigits));
            aggs.add(agg(
                    i,
                    sql.aggIf("min", sql.fractionDigits(s), decOk),
                    (q, v) -> q.decimalFracMin = (int) asLong(v),
                    nk,
                    ColumnFacts::decimalFracMin));
            aggs.add(agg(
                    i,
                    sql.aggIf("max", sql.fractionDigits(s), decOk),
                    (q, v) -> q.decimalFracMax = (int) asLong(v),
                    nk,
                    ColumnFacts::decimalFracMax));
            any = true;
        }
        if (numeric && p.distinct <= 2 + (p.markers > 0 ? NullMarkers.SPELLINGS.size() : 0)) {
            String bools = "('true','false','TRUE','FALSE','t','f','yes','no','Y','N')";
            aggs.add(new Agg(i, sql.countIf(s + " IN " + bools), (q, v) -> q.booleans = asLong(v)));
            aggs.add(new Agg(i, sql.countDistinctIf(s, s + " IN " + bools), (q, v) -> q.booleanKinds = asLong(v)));
            any = true;
        }
        // (the loader checks each value of 10 to 36 bytes as it fills it in: ColumnFacts.times)
        if (!numeric && startsNumeric && fixed && p.realMaxLen == 10) {
            String date = k != null
                    ? null
                    : aggs.derive("fdt" + i, sql.roundTripTime(s, len, ProfileDialect.TimeFormat.DATE));
            aggs.add(agg(i, sql.countIf(date), (q, v) -> q.dates = asLong(v), k, ColumnFacts::dates));
            any = true;
        }
        if (!numeric && startsNumeric && fixed && p.realMaxLen == 19) {
            String iso = k != null
                    ? null
                    : aggs.derive("fts" + i, sql.roundTripTime(s, len, ProfileDialect.TimeFormat.TIMESTAMP));
            aggs.add(agg(i, sql.countIf(iso), (q, v) -> q.timestamps = asLong(v), k, ColumnFacts::timestamps));
            aggs.add(agg(
                    i, sql.aggIf("min", s, iso), (q, v) -> q.timestampMin = asString(v), k, ColumnFacts::timestampMin));
            aggs.add(agg(
                    i, sql.aggIf("max", s, iso), (q, v) -> q.timestampMax = asString(v), k, ColumnFacts::timestampMax));
            any = true;
        }
        String isoFormat = numeric || !startsNumeric || !fixed ? null : IsoTimestamps.format(p.realMinText);
        String isoCheck = isoFormat == null ? null : sql.roundTripIsoTimestamp(s, len, isoFormat);
        if (isoCheck != null && p.realMaxLen == IsoTimestamps.width(isoFormat)) {
            // ISO-8601 text (2013-01-01T10:00:00Z): counted in the spelling of the least value, by
            // the loader when the first value it saw had that spelling
            ColumnFacts ik = k != null && isoFormat.equals(k.isoFormat()) ? k : null;
            String iso = ik != null ? null : aggs.derive("fiso" + i, isoCheck);
            aggs.add(agg(
                    i,
                    sql.countIf(iso),
                    (q, v) -> {
                        q.timestamps = asLong(v);
                        q.timestampFormat = isoFormat;
                    },
                    ik,
                    ColumnFacts::isoTimestamps));
            aggs.add(agg(i, sql.aggIf("min", s, iso), (q, v) -> q.timestampMin = asString(v), ik, ColumnFacts::isoMin));
            aggs.add(agg(i, sql.aggIf("max", s, iso), (q, v) -> q.timestampMax = asString(v), ik, ColumnFacts::isoMax));
            any = true;
        }
        if (!numeric && startsNumeric && fixed && p.realMaxLen == 14) {
            // MediaWiki's 14-character timestamps, YYYYMMDDHHMMSS.
            // (the loader checks each 14-byte value as it fills it in: ColumnFacts.compactTimestamp)
            String mw = k != null
                    ? null
                    : aggs.derive("fmw" + i, sql.roundTripTime(s, len, ProfileDialect.TimeFormat.COMPACT));
            aggs.add(agg(i, sql.countIf(mw), (q, v) -> q.mwTimestamps = asLong(v), k, ColumnFacts::mwTimestamps));
            aggs.add(agg(
                    i,
                    sql.aggIf("min", s, mw),
                    (q, v) -> q.mwTimestampMin = asString(v),
                    k,
                    ColumnFacts::mwTimestampMin));
            aggs.add(agg(
                    i,
                    sql.aggIf("max", s, mw),
                    (q, v) -> q.mwTimestampMax = asString(v),
                    k,
                    ColumnFacts::mwTimestampMax));
            any = true;
        }
        if (!numeric && fixed && p.realMaxLen == 36) {
            String uuid = k != null ? null : aggs.derive("fu" + i, sql.roundTripUuid(s, len));
            aggs.add(agg(i, sql.countIf(uuid), (q, v) -> q.uuids = asLong(v), k, ColumnFacts::uuids));
            any = true;
        }
        return any;
    }

    /**
     * Declared DECIMAL/NUMERIC: digits used on each side of the point, computed on the number
     * (string splitting was 5x slower): the integer digits come from the largest magnitude, the
     * scale used from the smallest rounding that keeps every value.
     */
    private void decimalAggregates(int i, String s, Query aggs, boolean postgres, ColumnFacts k) {
        if (k != null && k.decimalFacts() && !postgres) {
            // every value a plain decimal: the loader's figures are the cast's (PostgreSQL's
            // numeric sizes, a logarithm a row, stay in SQL)
            aggs.add(agg(i, null, (p, v) -> p.castFailures = asLong(v), k, ColumnFacts::castFailures));
            aggs.add(agg(i, null, (p, v) -> p.usedScale = (int) asLong(v), k, ColumnFacts::usedScale));
            aggs.add(agg(i, null, (p, v) -> p.minNumber = asString(v), k, ColumnFacts::minNumber));
            aggs.add(agg(i, null, (p, v) -> p.maxNumber = asString(v), k, ColumnFacts::maxNumber));
            aggs.add(agg(i, null, (p, v) -> p.integral = asLong(v), k, ColumnFacts::integral));
            aggs.add(agg(i, null, (p, v) -> minWhole(p, asBig(v)), k, ColumnFacts::minWhole));
            aggs.add(agg(i, null, (p, v) -> maxWhole(p, asBig(v)), k, ColumnFacts::maxWhole));
            return;
        }
        String d = aggs.derive("dd" + i, sql.tryDecimal("trim(" + s + ")"));
        aggs.add(new Agg(i, "count(" + s + ") - count(" + d + ")", (p, v) -> p.castFailures = asLong(v)));
        // Digits after the point, trailing zeros dropped: "12.50" has scale 1, "12.00" and "100" scale 0.
        String t = aggs.derive("dt" + i, "trim(" + s + ")");
        String sc = aggs.derive("ds" + i, sql.usedScale(t));
        aggs.add(new Agg(i, "max(" + sc + ")", (p, v) -> p.usedScale = (int) asLong(v)));
        // The smallest and largest by value, in the dump's own spelling: as text '10.00' sorts before '9.91'.
        aggs.add(new Agg(i, sql.argMin(t, d), (p, v) -> p.minNumber = asString(v)));
        aggs.add(new Agg(i, sql.argMax(t, d), (p, v) -> p.maxNumber = asString(v)));
        aggs.add(new Agg(i, sql.countIf(sc + " = 0"), (p, v) -> p.integral = asLong(v)));
        aggs.add(new Agg(i, sql.integerText("min(" + sql.truncate(d) + ")"), (p, v) -> minWhole(p, asBig(v))));
        aggs.add(new Agg(i, sql.integerText("max(" + sql.truncate(d) + ")"), (p, v) -> maxWhole(p, asBig(v))));
        if (postgres) {
            // PostgreSQL numeric on disk: 1-byte short varlena header + 2-byte header + 2 bytes per base-10000 digit.
            String intDigits =
                    "CASE WHEN abs(" + d + ") < 1 THEN 0 ELSE floor(log10(abs(" + sql.toDouble(d) + "))) + 1 END";
            aggs.add(new Agg(
                    i,
                    "sum(3 + 2 * (ceil((" + intDigits + ") / 4.0) + ceil(" + sc + " / 4.0)))",
                    (p, v) -> p.pgNumericBytes = asLong(v)));
        }
    }

    private static void minWhole(ColumnProfile p, BigInteger v) {
        p.minInt = v;
        p.usedIntDigits = Math.max(p.usedIntDigits, digits(v));
    }

    private static void maxWhole(ColumnProfile p, BigInteger v) {
        p.maxInt = v;
        p.usedIntDigits = Math.max(p.usedIntDigits, digits(v));
    }

    private static int digits(BigInteger v) {
        return v == null || v.signum() == 0 ? 0 : v.abs().toString().length();
    }

    /** FLOAT and DOUBLE: from the loader's facts ({@code k}, every value plain and finite) or the cast's. */
    private void floatAggregates(int i, String s, Query aggs, ColumnFacts k) {
        String d = k != null ? null : aggs.derive("fl" + i, sql.tryDouble(s));
        aggs.add(agg(i, "count(" + s + ") - count(" + d + ")", (p, v) -> p.castFailures = asLong(v), k, f -> 0L));
        aggs.add(agg(i, sql.argMin(s, d), (p, v) -> p.minNumber = asString(v), k, ColumnFacts::floatMinNumber));
        aggs.add(agg(i, sql.argMax(s, d), (p, v) -> p.maxNumber = asString(v), k, ColumnFacts::floatMaxNumber));
        aggs.add(agg(
                i,
                sql.countIf(sql.floatRoundTrips(d)),
                (p, v) -> p.floatRoundTrip = asLong(v),
                k,
                ColumnFacts::floatRoundTrip));
        String integral = d + " = " + sql.truncate(d) + " AND abs(" + d + ") < 9007199254740992";
        aggs.add(agg(i, sql.countIf(integral), (p, v) -> p.integral = asLong(v), k, ColumnFacts::floatIntegral));
        aggs.add(agg(
                i,
                sql.integerText(sql.aggIf("min", d, integral)),
                (p, v) -> p.minInt = asBig(v),
                k,
                ColumnFacts::floatIntMin));
        aggs.add(agg(
                i,
                sql.integerText(sql.aggIf("max", d, integral)),
                (p, v) -> p.maxInt = asBig(v),
                k,
                ColumnFacts::floatIntMax));
    }

    /**
     * Whether the loader's facts give a DATETIME or TIMESTAMP column's temporal aggregates: every
     * value a plain {@code YYYY-MM-DD HH:MM:SS} ({@link ColumnFacts#timestamps}), or every value
     * in one ISO-8601 spelling with a space, a fraction and no offset ({@link
     * ColumnFacts#isoTimestamps}, MySQL's {@code DATETIME(6)}), each checked as a day and a time
     * of it, so that {@code TRY_CAST(c AS TIMESTAMP)} reads every one and orders them as their
     * bytes do (one width, digits in place). Not where the least is of year 0, which DuckDB
     * prints as {@code 0001-01-01 (BC)}.
     */
    static boolean timestampFacts(TypeFamily f, ColumnFacts k) {
        if (k == null || (f != TypeFamily.DATETIME && f != TypeFamily.TIMESTAMP) || k.nonNull() == 0) {
            return false;
        }
        String min;
        if (k.timestamps() == k.nonNull()) {
            min = k.timestampMin();
        } else if (k.isoTimestamps() == k.nonNull()
                && k.isoFormat() != null
                && k.isoFormat().startsWith("%Y-%m-%d %H:%M:%S.")
                && IsoTimestamps.offset(k.isoFormat()).isEmpty()) {
            min = k.isoMin();
        } else {
            return false;
        }
        return min != null && !min.startsWith("0000");
    }

    /**
     * The temporal aggregates of {@link #temporalAggregates} from the loader's facts ({@link
     * #timestampFacts}): no value fails the cast; the least and greatest as DuckDB prints a
     * TIMESTAMP (a fraction's trailing zeros dropped, and its point with them); the values at
     * the start of their day. ORM's three DATETIME(6) columns took a TRY_CAST of every value in
     * SQL (docs/benchmarks.md, issue 32).
     */
    private static void loaderTimestamps(int i, Query aggs, ColumnFacts k) {
        boolean plain = k.timestamps() == k.nonNull();
        aggs.add(agg(i, null, (p, v) -> p.castFailures = asLong(v), k, f -> 0L));
        aggs.add(agg(
                i,
                null,
                (p, v) -> p.minTemporal = asString(v),
                k,
                f -> printed(plain ? f.timestampMin() : f.isoMin())));
        aggs.add(agg(
                i,
                null,
                (p, v) -> p.maxTemporal = asString(v),
                k,
                f -> printed(plain ? f.timestampMax() : f.isoMax())));
        aggs.add(agg(i, null, (p, v) -> p.midnight = asLong(v), k, ColumnFacts::midnights));
    }

    /** A timestamp's text as DuckDB casts the TIMESTAMP back: the fraction without trailing zeros. */
    static String printed(String t) {
        if (t == null || t.length() <= 19) {
            return t;
        }
        int end = t.length();
        while (end > 20 && t.charAt(end - 1) == '0') {
            end--;
        }
        return t.charAt(end - 1) == '.' ? t.substring(0, end - 1) : t.substring(0, end);
    }

    private void temporalAggregates(int i, TypeFamily f, String s, Query aggs) {
        String cast = aggs.derive("tm" + i, sql.tryTemporal(s, f));
        aggs.add(new Agg(i, "count(" + s + ") - count(" + cast + ")", (p, v) -> p.castFailures = asLong(v)));
        aggs.add(new Agg(i, sql.temporalText("min(" + cast + ")"), (p, v) -> p.minTemporal = asString(v)));
        aggs.add(new Agg(i, sql.temporalText("max(" + cast + ")"), (p, v) -> p.maxTemporal = asString(v)));
        if (f == TypeFamily.DATETIME || f == TypeFamily.TIMESTAMP) {
            aggs.add(new Agg(i, sql.countIf(sql.isMidnight(cast)), (p, v) -> p.midnight = asLong(v)));
        }
        if (f == TypeFamily.YEAR) {
            aggs.add(new Agg(i, sql.text("min(" + cast + ")"), (p, v) -> p.minInt = asBig(v)));
            aggs.add(new Agg(i, sql.text("max(" + cast + ")"), (p, v) -> p.maxInt = asBig(v)));
        }
    }

    /** Typed columns DuckDB read itself (CSV, Parquet, DuckDB files). */
    private void nativeAggregates(int i, TypeFamily f, String s, Query aggs) {
        switch (f) {
            case FLOAT, DOUBLE -> floatAggregates(i, s, aggs, null);
            case DECIMAL -> decimalAggregates(i, s, aggs, false, null);
            case DATE, DATETIME, TIMESTAMP, TIME -> temporalAggregates(i, f, s, aggs);
            default -> {}
        }
    }

    private String markerList() {
        StringBuilder sb = new StringBuilder();
        for (String m : NullMarkers.SPELLINGS) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(sql.literal(m));
        }
        return sb.toString();
    }

    static long asLong(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n instanceof BigDecimal bd ? bd.longValue() : n.longValue();
        }
        return Long.parseLong(v.toString());
    }

    static BigInteger asBig(Object v) {
        if (v == null) {
            return null;
        }
        return new BigInteger(v.toString());
    }

    static String asString(Object v) {
        if (v instanceof byte[] bytes) {
            return shown(bytes);
        }
        return v == null ? null : v.toString();
    }

    /** Bytes as DuckDB casts a BLOB to text, cut to 60 characters ({@link ColumnFacts#shownBlob}). */
    static String shown(byte[] bytes) {
        return ColumnFacts.shownBlob(bytes);
    }
}

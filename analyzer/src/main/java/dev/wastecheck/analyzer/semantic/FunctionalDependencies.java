package dev.wastecheck.analyzer.semantic;

import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Functional dependencies X -> Y (|X| <= 2) in every loaded table, as {@code functional_dependency}
 * findings on Y with the bytes normalizing Y out would save ("No Bits Left Behind" §4.2: "if there
 * is a functional dependency X -> Y and the semantic properties of Y can be directly inferred from
 * X, then Y can be dropped").
 *
 * <p>Each table's columns are read once from the profiling database as 63-bit value hashes
 * (DuckDB's {@code hash}, NULL hashing to one value), turned into dense codes, and searched in
 * memory ({@link DependencySearch}). Every dependency the search finds is then checked exactly in
 * DuckDB on the values themselves ({@code count(DISTINCT (X)) = count(DISTINCT (X, Y))}), so a
 * hash collision can never report one that does not hold. docs/benchmarks.md measures this against
 * running the whole search as DuckDB aggregates ({@link Strategy#AGGREGATES}).
 *
 * <p>What normalizing saves, in the source engine's storage model as the report counts bytes: Y's
 * declared bytes in the table, less a lookup table keyed by X with one row per distinct X, each the
 * average declared bytes of X and Y per row plus the engine's per-row overhead
 * ({@link #rowOverhead}). Only dependencies that save bytes become findings.
 */
public final class FunctionalDependencies {

    /** How the search runs: in memory on partition codes (the default), or as DuckDB aggregates. */
    public enum Strategy {
        PARTITIONS,
        AGGREGATES
    }

    /**
     * Which tables are searched: {@code AUTO} those of up to {@link Options#maxRows()} rows (a larger
     * table is named in a note); {@code ON} every table, a larger one on a random sample of that many
     * rows, each dependency found checked on every row; {@code OFF} none.
     */
    public enum Mode {
        AUTO,
        ON,
        OFF
    }

    /**
     * @param perTable the search's time budget per table (reading the codes aside)
     * @param maxRows  the most rows read into memory for one table (about 4 bytes a column a row)
     */
    public record Options(Duration perTable, long maxRows, Mode mode, Strategy strategy) {
        public static final long DEFAULT_MAX_ROWS = 250_000;

        public static Options defaults() {
            return new Options(Duration.ofSeconds(2), DEFAULT_MAX_ROWS, Mode.AUTO, Strategy.PARTITIONS);
        }

        public Options withMode(Mode m) {
            return new Options(perTable, maxRows, m, strategy);
        }
    }

    /**
     * One table's outcome.
     *
     * @param note null, or why the search stopped short (the deadline, the size) and where
     */
    public record TableResult(
            String table,
            List<DependencySearch.Dependency> exact,
            List<DependencySearch.Dependency> near,
            String note,
            long millis) {}

    private final Connection db;
    private final Dialect dialect;
    private final Options options;

    public FunctionalDependencies(Connection db, Dialect dialect, Options options) {
        this.db = db;
        this.dialect = dialect;
        this.options = options;
    }

    /**
     * The tables' reports with {@code functional_dependency} findings (and {@code near_dependency}
     * notes) added to the dependent columns; where a table's search stopped short, a sentence in
     * {@code notes}.
     */
    public List<TableReport> addFindings(Map<String, LoadedTable> loaded, List<TableReport> tables, List<String> notes)
            throws SQLException {
        List<TableReport> out = new ArrayList<>();
        for (TableReport report : tables) {
            LoadedTable t = loaded.get(report.name().toLowerCase(Locale.ROOT));
            if (t == null || t.relation() == null || t.rows() < 2) {
                out.add(report);
                continue;
            }
            TableResult r = search(t, report);
            if (r.note() != null) {
                notes.add(r.note());
            }
            out.add(withFindings(t, report, r));
        }
        return out;
    }

    /** The search over one table. */
    public TableResult search(LoadedTable t, TableReport report) throws SQLException {
        long start = System.nanoTime();
        long deadline = start + options.perTable().toNanos();
        TableDef def = t.def();
        Set<String> keyParts = new HashSet<>();
        Set<String> singleKeys = new HashSet<>();
        for (IndexDef ix : def.uniqueKeys()) {
            ix.columns().forEach(c -> keyParts.add(c.toLowerCase(Locale.ROOT)));
            if (ix.columns().size() == 1) {
                singleKeys.add(ix.columns().get(0).toLowerCase(Locale.ROOT));
            }
        }
        // Columns that can take part: not unique, not constant (as the profile counted them).
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < def.columns().size(); i++) {
            ColumnReport c = report.columns().get(i);
            String name = c.name().toLowerCase(Locale.ROOT);
            long groups = c.distinct() + (c.nulls() > 0 ? 1 : 0);
            if (singleKeys.contains(name) || groups < 2 || (!c.distinctEstimated() && groups >= t.rows())) {
                continue;
            }
            candidates.add(i);
        }
        if (candidates.size() < 2) {
            return new TableResult(def.name(), List.of(), List.of(), null, 0);
        }
        boolean sampled = t.rows() > options.maxRows();
        if (options.mode() == Mode.OFF || (sampled && options.mode() == Mode.AUTO)) {
            return new TableResult(
                    def.name(),
                    List.of(),
                    List.of(),
                    options.mode() == Mode.OFF
                            ? null
                            : "functional dependencies: table " + def.name() + " (" + t.rows()
                                    + " rows) not searched, being above " + options.maxRows()
                                    + " rows; --dependencies on searches a sample of that many rows and checks what"
                                    + " it finds on every row",
                    ms(start));
        }
        DependencySearch.Result found;
        if (options.strategy() == Strategy.AGGREGATES) {
            found = aggregateSearch(t, candidates, keyParts, deadline);
        } else {
            List<DependencySearch.Column> codes = columns(t, candidates, keyParts, sampled);
            // the budget is the search's: reading the codes is bounded by maxRows instead
            deadline = System.nanoTime() + options.perTable().toNanos();
            found = DependencySearch.search(codes, codes.get(0).codes().length, deadline);
        }
        List<DependencySearch.Dependency> exact = new ArrayList<>();
        for (int from = 0; from < found.exact().size(); from += CHECKS_PER_QUERY) {
            exact.addAll(checked(
                    t, found.exact().subList(from, Math.min(found.exact().size(), from + CHECKS_PER_QUERY))));
        }
        String note = found.stoppedAt() == null
                ? null
                : "functional dependencies: the search of table " + def.name() + " stopped at its "
                        + options.perTable().toMillis() + " ms budget in " + found.stoppedAt() + " ("
                        + found.checks() + " checks done)";
        // a sample's near-dependencies say nothing of the rows it left out
        return new TableResult(def.name(), exact, sampled ? List.of() : found.near(), note, ms(start));
    }

    private static long ms(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** Each candidate column's values as dense codes, read in one scan. */
    private List<DependencySearch.Column> columns(
            LoadedTable t, List<Integer> candidates, Set<String> keyParts, boolean sampled) throws SQLException {
        // a sample takes whole vectors of rows (DuckDB's system sampling reads only those), about
        // maxRows of them; a reservoir sample would scan the whole table
        int rows = (int) (sampled ? options.maxRows() + options.maxRows() / 2 + 4096 : t.rows());
        int n = candidates.size();
        int[][] codes = new int[n][rows];
        LongIntMap[] maps = new LongIntMap[n];
        for (int j = 0; j < n; j++) {
            maps[j] = new LongIntMap(1024);
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int j = 0; j < n; j++) {
            sql.append(j > 0 ? ", " : "")
                    .append("CAST(hash(")
                    .append(t.physicalColumn(candidates.get(j)))
                    .append(") >> 1 AS BIGINT)");
        }
        sql.append(" FROM ").append(t.relation());
        if (sampled) {
            sql.append(String.format(
                    Locale.ROOT,
                    " USING SAMPLE %.6f%% (system, 1)",
                    Math.min(100.0, 100.0 * options.maxRows() / t.rows())));
        }
        int r = 0;
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next() && r < rows) {
                for (int j = 0; j < n; j++) {
                    codes[j][r] = maps[j].codeOf(rs.getLong(j + 1));
                }
                r++;
            }
        }
        if (r < rows) {
            for (int j = 0; j < n; j++) {
                codes[j] = Arrays.copyOf(codes[j], r);
            }
        }
        List<DependencySearch.Column> out = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            String name = t.def().columns().get(candidates.get(j)).name();
            boolean key = keyParts.contains(name.toLowerCase(Locale.ROOT));
            // a part of a composite key may determine (the whole key never does: it is unique);
            // dropping a key's part would break the key, so it is never the dependent
            out.add(new DependencySearch.Column(name, codes[j], maps[j].size(), true, !key));
        }
        return out;
    }

    /** Dependencies checked by one aggregate query (one scan of the table). */
    static final int CHECKS_PER_QUERY = 64;

    /**
     * X -> Y checked on the values themselves (not their hashes) and on every row (not a sample),
     * with the evidence counted there: one scan for a batch, each distinct count asked once. Those
     * that hold.
     */
    private List<DependencySearch.Dependency> checked(LoadedTable t, List<DependencySearch.Dependency> ds)
            throws SQLException {
        Map<String, Integer> counts = new LinkedHashMap<>();
        List<int[]> asks = new ArrayList<>();
        for (DependencySearch.Dependency d : ds) {
            List<String> x = physicalList(t, d.lhs());
            String y = t.physicalColumn(t.def().columnIndex(d.rhs()));
            List<String> xy = new ArrayList<>(x);
            xy.add(y);
            int[] ask = new int[3];
            int k = 0;
            for (String e : List.of(tuple(x), tuple(xy), tuple(y))) {
                ask[k++] = counts.computeIfAbsent("count(DISTINCT " + e + ")", c -> counts.size() + 2);
            }
            asks.add(ask);
        }
        List<DependencySearch.Dependency> out = new ArrayList<>();
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT count(*), " + String.join(", ", counts.keySet()) + " FROM " + t.relation())) {
            rs.next();
            for (int i = 0; i < ds.size(); i++) {
                DependencySearch.Dependency d = ds.get(i);
                int[] ask = asks.get(i);
                long lhs = rs.getLong(ask[0]);
                if (lhs == rs.getLong(ask[1])) {
                    out.add(new DependencySearch.Dependency(
                            d.lhs(), d.rhs(), rs.getLong(1), lhs, rs.getLong(ask[2]), 0));
                }
            }
        }
        return out;
    }

    private static List<String> physicalList(LoadedTable t, List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(t.physicalColumn(t.def().columnIndex(n)));
        }
        return out;
    }

    /**
     * The values as one struct, never NULL itself, so that {@code count(DISTINCT ...)} counts NULL
     * as a value the way the search does (a one-element {@code row()} is the bare value in DuckDB).
     */
    static String tuple(List<String> columns) {
        StringBuilder sb = new StringBuilder("struct_pack(");
        for (int i = 0; i < columns.size(); i++) {
            sb.append(i > 0 ? ", " : "").append("k").append(i).append(" := ").append(columns.get(i));
        }
        return sb.append(")").toString();
    }

    static String tuple(String... columns) {
        return tuple(List.of(columns));
    }

    /**
     * The same lattice walk and pruning as {@link DependencySearch}, each level's checks as one
     * DuckDB aggregate query per X ({@code count(DISTINCT (X))} beside {@code count(DISTINCT
     * (X, Y))} for every Y): the alternative docs/benchmarks.md measures. Exact dependencies only.
     */
    private DependencySearch.Result aggregateSearch(
            LoadedTable t, List<Integer> candidates, Set<String> keyParts, long deadline) throws SQLException {
        int n = candidates.size();
        String[] phys = new String[n];
        String[] names = new String[n];
        boolean[] key = new boolean[n];
        long[] groups = new long[n];
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int j = 0; j < n; j++) {
            phys[j] = t.physicalColumn(candidates.get(j));
            names[j] = t.def().columns().get(candidates.get(j)).name();
            key[j] = keyParts.contains(names[j].toLowerCase(Locale.ROOT));
            sql.append(j > 0 ? ", " : "")
                    .append("count(DISTINCT ")
                    .append(tuple(phys[j]))
                    .append(")");
        }
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(
                        sql.append(" FROM ").append(t.relation()).toString())) {
            rs.next();
            for (int j = 0; j < n; j++) {
                groups[j] = rs.getLong(j + 1);
            }
        }
        long rows = t.rows();
        List<DependencySearch.Dependency> exact = new ArrayList<>();
        boolean[][] determines = new boolean[n][n];
        long checks = 0;
        for (int x = 0; x < n; x++) {
            if (groups[x] < 2 || groups[x] >= rows) {
                continue;
            }
            if (System.nanoTime() > deadline) {
                return new DependencySearch.Result(
                        exact, List.of(), "single-column determinants, at " + names[x], checks);
            }
            List<Integer> ys = new ArrayList<>();
            StringBuilder q = new StringBuilder("SELECT 0");
            for (int y = 0; y < n; y++) {
                if (y != x && !key[y] && groups[y] >= 2 && groups[y] <= groups[x]) {
                    ys.add(y);
                    q.append(", count(DISTINCT ")
                            .append(tuple(phys[x], phys[y]))
                            .append(")");
                }
            }
            if (ys.isEmpty()) {
                continue;
            }
            checks += ys.size();
            try (Statement st = db.createStatement();
                    ResultSet rs = st.executeQuery(
                            q.append(" FROM ").append(t.relation()).toString())) {
                rs.next();
                for (int k = 0; k < ys.size(); k++) {
                    int y = ys.get(k);
                    if (rs.getLong(k + 2) == groups[x]) {
                        determines[x][y] = true;
                        exact.add(new DependencySearch.Dependency(
                                List.of(names[x]), names[y], rows, groups[x], groups[y], 0));
                    }
                }
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (groups[a] < 2
                        || groups[b] < 2
                        || groups[a] >= rows
                        || groups[b] >= rows
                        || determines[a][b]
                        || determines[b][a]) {
                    continue;
                }
                if (System.nanoTime() > deadline) {
                    return new DependencySearch.Result(
                            exact, List.of(), "pairs, at " + names[a] + ", " + names[b], checks);
                }
                List<Integer> ys = new ArrayList<>();
                StringBuilder q = new StringBuilder("SELECT count(DISTINCT " + tuple(phys[a], phys[b]) + ")");
                for (int y = 0; y < n; y++) {
                    if (y != a && y != b && !key[y] && groups[y] >= 2 && !determines[a][y] && !determines[b][y]) {
                        ys.add(y);
                        q.append(", count(DISTINCT ")
                                .append(tuple(phys[a], phys[b], phys[y]))
                                .append(")");
                    }
                }
                checks += ys.size();
                try (Statement st = db.createStatement();
                        ResultSet rs = st.executeQuery(
                                q.append(" FROM ").append(t.relation()).toString())) {
                    rs.next();
                    long pair = rs.getLong(1);
                    if (pair >= rows) {
                        continue;
                    }
                    for (int k = 0; k < ys.size(); k++) {
                        int y = ys.get(k);
                        if (groups[y] <= pair && rs.getLong(k + 2) == pair) {
                            exact.add(new DependencySearch.Dependency(
                                    List.of(names[a], names[b]), names[y], rows, pair, groups[y], 0));
                        }
                    }
                }
            }
        }
        return new DependencySearch.Result(exact, List.of(), null, checks);
    }

    /**
     * Bytes a row of a new table costs beyond its values in the source engine: InnoDB's 5-byte
     * record header with its 6-byte transaction id and 7-byte roll pointer; PostgreSQL's 23-byte
     * tuple header padded to 24 with its 4-byte line pointer; SQLite's cell (payload size and rowid
     * varints, about 3 bytes) and 2-byte cell pointer; none in DuckDB's columns.
     */
    static long rowOverhead(Dialect d) {
        return switch (d) {
            case MYSQL -> 18;
            case POSTGRESQL -> 28;
            case SQLITE -> 5;
            case DUCKDB, TRINO -> 0;
        };
    }

    /** What normalizing Y out into a lookup table keyed by X saves; negative when the table costs more. */
    long bytesSaved(TableReport report, DependencySearch.Dependency d) {
        long rows = Math.max(1, report.rows());
        double lookupRow = rowOverhead(dialect) + perRow(report, d.rhs(), rows);
        for (String x : d.lhs()) {
            lookupRow += perRow(report, x, rows);
        }
        long lookup = Math.round(d.lhsGroups() * lookupRow);
        return report.column(d.rhs()).declaredBytes() - lookup;
    }

    long lookupBytes(TableReport report, DependencySearch.Dependency d) {
        return report.column(d.rhs()).declaredBytes() - bytesSaved(report, d);
    }

    private static double perRow(TableReport report, String column, long rows) {
        return (double) report.column(column).declaredBytes() / rows;
    }

    private TableReport withFindings(LoadedTable t, TableReport report, TableResult r) throws SQLException {
        Map<String, List<Finding>> added = new LinkedHashMap<>();
        // one finding per dependent column: the determinant whose lookup table saves the most, the others named
        Map<String, List<DependencySearch.Dependency>> byDependent = new LinkedHashMap<>();
        for (DependencySearch.Dependency d : r.exact()) {
            ColumnReport y = report.column(d.rhs());
            if (y.has(FindingKind.DUPLICATE_COLUMN)) {
                continue; // already said: another column determines it one-to-one
            }
            if (bytesSaved(report, d) > 0) {
                byDependent.computeIfAbsent(y.name(), k -> new ArrayList<>()).add(d);
            }
        }
        for (List<DependencySearch.Dependency> ds : byDependent.values()) {
            ds.sort((p, q) -> Long.compare(bytesSaved(report, q), bytesSaved(report, p)));
            DependencySearch.Dependency d = ds.get(0);
            ColumnReport y = report.column(d.rhs());
            long saved = bytesSaved(report, d);
            String x = String.join(", ", d.lhs());
            List<String> others = new ArrayList<>();
            for (DependencySearch.Dependency o : ds.subList(1, ds.size())) {
                others.add("(" + String.join(", ", o.lhs()) + ")");
            }
            added.computeIfAbsent(y.name(), k -> new ArrayList<>())
                    .add(new Finding(
                            FindingKind.FUNCTIONAL_DEPENDENCY,
                            "determined by (" + x + "): every one of the " + d.lhsGroups() + " distinct (" + x
                                    + ") has one " + y.name() + " (" + d.rhsGroups() + " distinct) over " + d.rows()
                                    + " rows: moved to a lookup table keyed by (" + x + "), its " + y.declaredBytes()
                                    + " bytes here become " + lookupBytes(report, d) + " there, " + saved + " saved"
                                    + (others.isEmpty() ? "" : "; also determined by " + String.join(", ", others)),
                            saved));
        }
        for (DependencySearch.Dependency d : r.near()) {
            ColumnReport y = report.column(d.rhs());
            if (bytesSaved(report, d) <= 0) {
                continue;
            }
            added.computeIfAbsent(y.name(), k -> new ArrayList<>())
                    .add(new Finding(
                            FindingKind.NEAR_DEPENDENCY,
                            "determined by (" + String.join(", ", d.lhs()) + ") except on " + d.violatingRows()
                                    + " of " + d.rows() + " rows: " + violations(t, d)
                                    + " (a data error, or no dependency at all: not a dependency to normalize on)",
                            0));
        }
        if (added.isEmpty()) {
            return report;
        }
        List<ColumnReport> cols = new ArrayList<>();
        for (ColumnReport c : report.columns()) {
            List<Finding> more = added.get(c.name());
            if (more == null) {
                cols.add(c);
                continue;
            }
            List<Finding> f = new ArrayList<>(c.findings());
            f.addAll(more);
            cols.add(c.withFindings(f));
        }
        return report.withColumns(cols);
    }

    /** The values of X with more than one Y, each Y with its rows, the rarest first: the rows that break X -> Y. */
    String violations(LoadedTable t, DependencySearch.Dependency d) throws SQLException {
        List<String> px = physicalList(t, d.lhs());
        String y = t.physicalColumn(t.def().columnIndex(d.rhs()));
        StringBuilder select = new StringBuilder();
        StringBuilder on = new StringBuilder();
        for (int i = 0; i < px.size(); i++) {
            select.append(text(t, d.lhs().get(i), "r.")).append(", ");
            on.append(i > 0 ? " AND " : "")
                    .append("r.")
                    .append(px.get(i))
                    .append(" IS NOT DISTINCT FROM g.")
                    .append(px.get(i));
        }
        String sql = "WITH g AS (SELECT " + String.join(", ", px) + " FROM " + t.relation()
                + " GROUP BY ALL HAVING count(DISTINCT " + tuple(y) + ") > 1) SELECT " + select
                + text(t, d.rhs(), "r.") + ", count(*) AS n FROM " + t.relation() + " r JOIN g ON " + on
                + " GROUP BY ALL ORDER BY n, 1 LIMIT 6";
        List<String> out = new ArrayList<>();
        int k = d.lhs().size();
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                List<String> xv = new ArrayList<>();
                for (int i = 1; i <= k; i++) {
                    xv.add(quoted(rs.getString(i)));
                }
                long n = rs.getLong(k + 2);
                out.add(String.join(", ", d.lhs()) + " = " + String.join(", ", xv) + " has " + d.rhs() + " = "
                        + quoted(rs.getString(k + 1)) + " on " + n + " row" + (n == 1 ? "" : "s"));
            }
        }
        return String.join("; ", out);
    }

    private static String quoted(String v) {
        return v == null ? "NULL" : "'" + v + "'";
    }

    private static String text(LoadedTable t, String column, String prefix) {
        int i = t.def().columnIndex(column);
        String c = prefix + t.physicalColumn(i);
        return t.storage()[i] == ColumnStorage.BYTES ? "try(decode(" + c + "))" : "CAST(" + c + " AS VARCHAR)";
    }

    /** The profiling database's connection, for callers holding a {@link ProfilingDatabase}. */
    public static FunctionalDependencies on(ProfilingDatabase db, Dialect dialect, Options options) {
        return new FunctionalDependencies(db.connection(), dialect, options);
    }
}

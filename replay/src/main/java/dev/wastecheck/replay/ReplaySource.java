package dev.wastecheck.replay;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.IndexCacheAdvice;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.workload.WorkloadAnalysis;
import dev.wastecheck.engine.cluster.Clusterer;
import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.exec.Executor;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.engine.table.TableLoader;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingOptions;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.heat.WorkloadHeat;
import dev.wastecheck.traces.read.TraceReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

/**
 * A source and a trace ready to replay under any number of configurations: the library that
 * {@code replay} and {@code autotune} share.
 *
 * <p>The source is read once into the analyzer's profiling database (DuckDB), keeping each
 * table's rows in the source's order; the trace is resolved against its tables into access
 * events. Each {@link #run} then loads the tables the events touch into a fresh engine
 * {@link Database} through DuckDB's Arrow export, in each table's own {@link TableDesign}, learns
 * what the design needs from the <em>training</em> events only (heat for clustering and the hot
 * partition, the fields worth caching, which columns a vertical split keeps apart), replays the
 * events and measures those from {@code measureFrom} on.
 */
public final class ReplaySource implements AutoCloseable {
    private final LoadedSource session;
    private final DatabaseSchema schema;
    private final List<AccessEvent> events;
    private final long unresolved;
    private final String data;
    private final Progress progress;
    private final Consumer<String> warnings;
    private final Set<String> warned = new HashSet<>();
    private Map<String, long[]> lengths;
    private AnalysisReport types;
    /** Cache advice per training list (by identity): table (lower case) to index (lower case) to fields. */
    private final Map<List<AccessEvent>, Map<String, Map<String, List<String>>>> advice = new IdentityHashMap<>();

    private final Map<List<AccessEvent>, WorkloadHeat> heats = new IdentityHashMap<>();

    private ReplaySource(
            LoadedSource session,
            DatabaseSchema schema,
            List<AccessEvent> events,
            long unresolved,
            String data,
            Progress progress,
            Consumer<String> warnings) {
        this.session = session;
        this.schema = schema;
        this.events = events;
        this.unresolved = unresolved;
        this.data = data;
        this.progress = progress;
        this.warnings = warnings;
    }

    /**
     * Reads the source and resolves the trace.
     *
     * @param tables    keep only the events on these tables; empty for all
     * @param maxEvents keep at most this many events; 0 for all
     * @throws BadInputException when the files are missing or the trace has no event on the source's tables
     */
    /** The source as the user named it (a URL without its password). */
    public String data() {
        return data;
    }

    public static ReplaySource open(
            String source,
            Path trace,
            List<String> tables,
            long maxEvents,
            Progress progress,
            Consumer<String> warnings)
            throws IOException, SQLException {
        if (!Files.isRegularFile(trace)) throw new BadInputException(trace + ": no such trace file");
        Sources sources = Sources.of(List.of(source));
        if (sources.live() == null && !Files.exists(sources.files().get(0)))
            throw new BadInputException(source + ": no such file or folder");
        String data = sources.names().get(0);
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        LoadedSource session = analyzer.open(sources, true, progress);
        try {
            DatabaseSchema schema = WorkloadAnalysis.schemaOf(session.tables().values());
            Set<String> only = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            only.addAll(tables);
            for (String t : only) {
                if (schema.table(t).isEmpty())
                    throw new BadInputException("--tables " + t + ": " + data + " has no such table");
            }
            List<AccessEvent> out = new ArrayList<>();
            AccessExtractor extractor = new AccessExtractor(schema);
            try (TraceReader reader = TraceReader.open(trace)) {
                while (reader.hasNext() && (maxEvents <= 0 || out.size() < maxEvents)) {
                    extractor.extract(reader.next(), e -> {
                        if ((only.isEmpty() || only.contains(e.table())) && (maxEvents <= 0 || out.size() < maxEvents))
                            out.add(e);
                    });
                }
            }
            long unresolved = extractor.report().unresolved();
            if (out.isEmpty()) {
                throw new BadInputException(trace + ": no access events on "
                        + (only.isEmpty() ? "the source's tables" : "tables " + only)
                        + " (" + unresolved + " statements did not resolve against " + data + ")");
            }
            return new ReplaySource(session, schema, List.copyOf(out), unresolved, data, progress, warnings);
        } catch (IOException | RuntimeException e) {
            session.close();
            throw e;
        }
    }

    public List<AccessEvent> events() {
        return events;
    }

    public long unresolved() {
        return unresolved;
    }

    public DatabaseSchema schema() {
        return schema;
    }

    public LoadedSource session() {
        return session;
    }

    /**
     * Where the held-out events begin when the first {@code train} share of the trace (in time:
     * trace order) is for learning: the first event of a statement at or after that share, so
     * that no statement is cut in two.
     */
    public int splitPoint(double train) {
        if (!(train > 0 && train < 1)) throw new BadInputException("--train must be above 0 and below 1, got " + train);
        int k = (int) Math.round(events.size() * train);
        while (k > 0 && k < events.size() && sameStatement(events.get(k - 1), events.get(k))) k++;
        if (k <= 0 || k >= events.size())
            throw new BadInputException("--train " + train + " leaves no events on one side of the split");
        return k;
    }

    private static boolean sameStatement(AccessEvent a, AccessEvent b) {
        return a.line() == b.line() && a.timeMillis() == b.timeMillis();
    }

    /** The analyzer's profile and type inference of every table (no trace): what tight types come from. */
    public synchronized AnalysisReport types() throws IOException, SQLException {
        if (types == null)
            types = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                    .report(session, List.of(), progress);
        return types;
    }

    /** The heat of a list of events (training events), computed once per list. */
    public synchronized WorkloadHeat heat(List<AccessEvent> training) {
        return heats.computeIfAbsent(training, l -> WorkloadHeat.of(schema, l));
    }

    /**
     * The fields worth caching for each index of each table, by the analyzer's rule (§2.1.4: the
     * fields that with the key answer the most reads through the index, leaving out often updated
     * and large ones), counted on {@code training} only.
     */
    public synchronized Map<String, Map<String, List<String>>> cacheAdvice(List<AccessEvent> training)
            throws IOException, SQLException {
        Map<String, Map<String, List<String>>> known = advice.get(training);
        if (known != null) return known;
        AnalysisReport report = types();
        WorkloadHeat heat = heat(training);
        Map<String, Map<String, List<String>>> out = new HashMap<>();
        for (TableHeat th : heat.tables()) {
            TableReport tr;
            try {
                tr = report.table(th.name());
            } catch (IllegalArgumentException e) {
                continue;
            }
            List<IndexCacheAdvice> a = WorkloadAnalysis.cacheAdvice(tr, th);
            out.put(th.name().toLowerCase(Locale.ROOT), EngineSchemas.cacheFieldsOf(a, th.name()));
        }
        advice.put(training, out);
        return out;
    }

    /** Longest value in bytes of each string column, per table (lower-case name); -1 for others. */
    private synchronized Map<String, long[]> maxLengths() throws SQLException {
        if (lengths != null) return lengths;
        Map<String, long[]> out = new HashMap<>();
        for (LoadedTable t : session.tables().values()) {
            long[] len = new long[t.def().columns().size()];
            Arrays.fill(len, -1);
            if (t.relation() != null) {
                StringBuilder sql = new StringBuilder("SELECT ");
                boolean any = false;
                for (int i = 0; i < len.length; i++) {
                    if (t.storage()[i] == ColumnStorage.INT64) continue;
                    String c = t.physicalColumn(i);
                    String expr = t.storage()[i] == ColumnStorage.BYTES
                            ? "octet_length(" + c + ")"
                            : "strlen(CAST(" + c + " AS VARCHAR))";
                    sql.append(any ? ", " : "")
                            .append("max(")
                            .append(expr)
                            .append(") AS m")
                            .append(i);
                    any = true;
                }
                if (any) {
                    try (Statement st = session.database().connection().createStatement();
                            ResultSet rs = st.executeQuery(
                                    sql.append(" FROM ").append(t.relation()).toString())) {
                        rs.next();
                        for (int i = 0; i < len.length; i++) {
                            if (t.storage()[i] != ColumnStorage.INT64) len[i] = rs.getLong("m" + i);
                        }
                    }
                }
            }
            out.put(t.def().name().toLowerCase(Locale.ROOT), len);
        }
        lengths = out;
        return out;
    }

    /**
     * A design's vertical split made concrete on the training events (§3.2): {@code cold} keeps apart
     * the columns no training event reads, writes or keys on; {@code updates} the columns training
     * updates change and no index keys on; {@code cached} the fields the index cache advice keeps in
     * an index of the table (no key column). A split that would leave either side empty is none.
     */
    public TableDesign resolveSplit(String table, TableDesign design, List<AccessEvent> training) {
        TableDesign.Split split = design.split();
        if (split.none() || split.mode().equals("columns")) return design;
        LoadedTable t = session.tables().get(table.toLowerCase(Locale.ROOT));
        if (t == null) return design.withSplit(TableDesign.Split.NONE);
        Set<String> used = new TreeSet<>(String.CASE_INSENSITIVE_ORDER),
                updated = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        Set<String> keys = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        keys.addAll(t.def().primaryKey());
        t.def().indexes().forEach(ix -> keys.addAll(ix.columns()));
        for (AccessEvent e : training) {
            if (!e.table().equalsIgnoreCase(table)) continue;
            used.addAll(e.projected());
            used.addAll(e.predicate());
            used.addAll(e.keyColumns());
            used.addAll(e.joined());
            if (e.operation() == Operation.UPDATE) {
                updated.addAll(e.updated());
                updated.addAll(e.values().keySet());
            }
        }
        Set<String> cached = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        if (split.mode().equals("cached")) {
            try {
                cacheAdvice(training)
                        .getOrDefault(table.toLowerCase(Locale.ROOT), Map.of())
                        .values()
                        .forEach(cached::addAll);
            } catch (IOException | SQLException e) {
                throw new IllegalStateException("split=cached: the index cache advice failed: " + e.getMessage(), e);
            }
        }
        List<String> apart = new ArrayList<>();
        for (var c : t.def().columns()) {
            boolean goes = switch (split.mode()) {
                case "cold" -> !used.contains(c.name()) && !keys.contains(c.name());
                case "cached" -> cached.contains(c.name()) && !keys.contains(c.name());
                default -> updated.contains(c.name()) && !keys.contains(c.name());
            };
            if (goes) apart.add(c.name());
        }
        if (apart.isEmpty() || apart.size() == t.def().columns().size())
            return design.withSplit(TableDesign.Split.NONE);
        return design.withSplit(new TableDesign.Split(split.mode(), apart));
    }

    /**
     * Loads the tables {@code events} touch in configuration {@code cfg}, learns from {@code
     * training}, and replays {@code events}, measuring from {@code measureFrom} on.
     *
     * @param userCacheFields {@code --cache-fields} ("table.index" to columns), replacing the learned
     *                        advice when not empty
     */
    public ExecutionResult run(
            EngineConfig cfg,
            String label,
            List<AccessEvent> training,
            List<AccessEvent> events,
            int measureFrom,
            DeviceModel device,
            Map<String, List<String>> userCacheFields)
            throws IOException, SQLException {
        return run(cfg, label, training, events, measureFrom, device, userCacheFields, false);
    }

    /**
     * A run whose measured time does not matter (a search scores it on counted misses and pins): it
     * skips the garbage collection that keeps a measured run's latencies clean.
     */
    public ExecutionResult screen(
            EngineConfig cfg,
            String label,
            List<AccessEvent> training,
            List<AccessEvent> events,
            int measureFrom,
            DeviceModel device)
            throws IOException, SQLException {
        screening = true;
        try {
            return run(cfg, label, training, events, measureFrom, device, Map.of(), false);
        } finally {
            screening = false;
        }
    }

    private boolean screening;

    /**
     * @param recordJoins record the keys each join-bound event looked up ({@link ExecutionResult#joinBindings()})
     */
    public ExecutionResult run(
            EngineConfig cfg,
            String label,
            List<AccessEvent> training,
            List<AccessEvent> events,
            int measureFrom,
            DeviceModel device,
            Map<String, List<String>> userCacheFields,
            boolean recordJoins)
            throws IOException, SQLException {
        Set<String> touched = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (AccessEvent e : events) touched.add(e.table());
        Map<String, TableDesign> designs = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        List<TableSpec> specs = new ArrayList<>();
        for (LoadedTable t : session.tables().values()) {
            String name = t.def().name();
            TableDesign d = resolveSplit(name, cfg.design(name), training);
            designs.put(name, d);
            TableReport tr = null;
            if (!d.tight().isEmpty()) {
                try {
                    tr = types().table(name);
                } catch (IllegalArgumentException e) {
                    tr = null;
                }
            }
            Map<String, List<String>> cache = Map.of();
            if (d.cache() != CachePolicy.OFF && userCacheFields.isEmpty()) {
                cache = cacheAdvice(training).getOrDefault(name.toLowerCase(Locale.ROOT), Map.of());
            }
            TableSpec spec =
                    EngineSchemas.spec(t, maxLengths(), tr, cache, session.dialect(), d.tight(), cfg.pageSize());
            if (!userCacheFields.isEmpty()) spec = EngineSchemas.withCacheFields(spec, userCacheFields);
            specs.add(spec);
        }
        long loadStart = System.nanoTime();
        try (Database db = new Database(
                specs,
                n -> designs.getOrDefault(n, cfg.design(n)),
                cfg.pageSize(),
                cfg.memoryBytes(),
                device,
                cfg.arrowStorage())) {
            if (!userCacheFields.isEmpty() && cfg.anyCache()) warnUncacheable(db, userCacheFields);
            long total = session.tables().values().stream()
                    .filter(t -> touched.contains(t.def().name()))
                    .mapToLong(LoadedTable::rows)
                    .sum();
            progress.begin("loading " + label, total);
            long before = 0;
            for (LoadedTable t : session.tables().values()) {
                String rel = session.namedRelation(t);
                if (rel == null || !touched.contains(t.def().name())) continue;
                Table table = db.table(t.def().name());
                TableLoader loader = new TableLoader(table);
                long base = before;
                try (Statement st = session.database().connection().createStatement();
                        DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery("SELECT * FROM " + rel);
                        ArrowReader reader = (ArrowReader)
                                rs.arrowExportStream(session.database().allocator(), 8192)) {
                    loader.load(reader, n -> progress.advance(base + n));
                } catch (TableLoader.LossyValueException e) {
                    throw new BadInputException("config " + label + ": " + e.getMessage());
                }
                if (loader.duplicates() > 0 && warned.add("dup:" + t.def().name())) {
                    warnings.accept(t.def().name() + ": " + loader.duplicates()
                            + " rows repeat a unique key and were not loaded");
                }
                before += t.rows();
            }
            progress.end();
            Executor replayer = new Executor(db);
            if (recordJoins) replayer.recordJoins();
            // Training events that precede the measured ones run first, on the design without its clustering, and
            // their reads are the heat the clustering learns at the split. Otherwise (the oracle: training is every
            // event) the heat comes from a read-only pass over them before anything runs.
            boolean inline = measureFrom > 0 && training.size() == measureFrom && training != events;
            Map<String, Long> moved = Map.of();
            if (!inline && Clusterer.clusters(db)) {
                var heat = replayer.heatOf(training);
                moved = Clusterer.apply(db, heat, replayer.indexesRead(), replayer.readLate());
            }
            db.pool().flushAll();
            long loadMillis = (System.nanoTime() - loadStart) / 1_000_000;
            // The previous configuration's buffer pool is garbage now: collect it here, not in the middle of the
            // measurement
            // (a screening run, scored on counts alone, skips it).
            if (!screening) System.gc();
            progress.begin("replay " + label, events.size());
            ExecutionResult r = replayer.run(
                    label,
                    cfg.describe(),
                    events,
                    measureFrom,
                    loadMillis,
                    moved,
                    inline && Clusterer.clusters(db)
                            ? (heat, read) -> Clusterer.apply(db, heat, read, replayer.readLate())
                            : null,
                    progress::advance);
            progress.end();
            return r;
        }
    }

    /**
     * The columns of {@code table} whose values may be too long for a page (the engine keeps them
     * behind a tag byte), which {@code compress=large} stores compressed ("No Bits Left Behind" §4.1).
     */
    public List<String> longColumns(String table) throws IOException, SQLException {
        Typed t = typed(table);
        if (t == null) return List.of();
        List<String> out = new ArrayList<>();
        for (var c : t.spec(EnumSet.noneOf(TableDesign.TightClass.class)).columns())
            if (c.overflow()) out.add(c.name());
        return out;
    }

    /** A loaded table with the analyzer's report of it, which the engine's specs are built from. */
    private final class Typed {
        final LoadedTable table;
        final TableReport report;

        Typed(LoadedTable table, TableReport report) {
            this.table = table;
            this.report = report;
        }

        /** The engine's spec of the table with the given tight classes, at the default page size. */
        TableSpec spec(EnumSet<TableDesign.TightClass> tight) throws IOException, SQLException {
            return EngineSchemas.spec(
                    table, maxLengths(), report, Map.of(), session.dialect(), tight, EngineConfig.DEFAULT_PAGE_SIZE);
        }
    }

    /** {@code table} as loaded and typed; null where it was not loaded or the analyzer has no report of it. */
    private Typed typed(String table) throws IOException, SQLException {
        LoadedTable t = session.tables().get(table.toLowerCase(Locale.ROOT));
        if (t == null) return null;
        try {
            return new Typed(t, types().table(t.def().name()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * What tight types change in a table: per changed column, {column, declared type, the analyzer's
     * suggested type, the engine's field (or codec)}; empty when they change nothing (so tight=on
     * is the same design as tight=off there).
     */
    public List<String[]> tightChanges(String table) throws IOException, SQLException {
        Typed typed = typed(table);
        if (typed == null) return List.of();
        LoadedTable t = typed.table;
        TableReport tr = typed.report;
        TableSpec off = typed.spec(EnumSet.noneOf(TableDesign.TightClass.class));
        TableSpec on = typed.spec(EnumSet.allOf(TableDesign.TightClass.class));
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < off.columns().size(); i++) {
            var a = off.columns().get(i);
            var b = on.columns().get(i);
            if (a.type() != b.type() || (a.codec() == null) != (b.codec() == null) || a.bits() != b.bits()) {
                var cr = tr.columns().stream()
                        .filter(x -> x.name().equalsIgnoreCase(a.name()))
                        .findFirst()
                        .orElse(null);
                out.add(new String[] {
                    a.name(),
                    t.def().columns().get(i).type().declared(),
                    cr == null ? "" : cr.suggestedType(),
                    b.codec() != null
                            ? b.codec().describe()
                            : b.bits() > 0 ? b.bits() + " bits" : b.type().name()
                });
            }
        }
        return out;
    }

    /** Says once which of the user's cache fields the engine cannot cache (nullable, variable-length, or of a non-unique index). */
    private void warnUncacheable(Database db, Map<String, List<String>> chosen) {
        for (Table t : db.tables()) {
            for (int ix = 0; ix < t.indexCount(); ix++) {
                String key = (t.name() + "." + t.spec().indexes().get(ix).name()).toLowerCase(Locale.ROOT);
                List<String> want = chosen.get(key);
                if (want == null) continue;
                for (String c : want) {
                    int f = t.spec().columnIndex(c);
                    boolean kept = false;
                    for (int k : t.cacheFields(ix)) kept |= k == f;
                    if (!kept && warned.add(key + ":" + c)) {
                        warnings.accept("--cache-fields " + key + ": " + c + " is not cached (the cache holds NOT NULL "
                                + "fixed-width fields of unique indexes, at most 248 bytes, not the key's own columns and not "
                                + "columns stored apart)");
                    }
                }
            }
        }
    }

    /** The user's cache fields, checked against the schema: "table.index" (lower case) to columns. */
    public Map<String, List<String>> checkCacheFields(Map<String, String> fields) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : fields.entrySet()) {
            String[] ti = e.getKey().split("\\.", 2);
            LoadedTable t = ti.length == 2 ? session.tables().get(ti[0].toLowerCase(Locale.ROOT)) : null;
            if (t == null) {
                throw new BadInputException(
                        "--cache-fields " + e.getKey() + ": expected TABLE.INDEX naming a table of " + data);
            }
            boolean known = ti[1].equalsIgnoreCase("PRIMARY")
                    ? !t.def().primaryKey().isEmpty()
                    : t.def().indexes().stream().anyMatch(i -> i.name().equalsIgnoreCase(ti[1]));
            if (!known)
                throw new BadInputException(
                        "--cache-fields " + e.getKey() + ": " + t.def().name() + " has no index " + ti[1]);
            List<String> cols = new ArrayList<>();
            for (String c : e.getValue().split("[+ ]")) {
                if (c.isBlank()) continue;
                if (t.def().columnIndex(c.trim()) < 0) {
                    throw new BadInputException("--cache-fields " + e.getKey() + ": no column " + c.trim());
                }
                cols.add(c.trim());
            }
            out.put(e.getKey().toLowerCase(Locale.ROOT), cols);
        }
        return out;
    }

    @Override
    public void close() throws SQLException, IOException {
        session.close();
    }
}

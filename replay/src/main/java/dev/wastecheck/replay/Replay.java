package dev.wastecheck.replay;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.workload.WorkloadAnalysis;
import dev.wastecheck.engine.cluster.Clusterer;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.replay.ReplayConfig;
import dev.wastecheck.engine.replay.Replayer;
import dev.wastecheck.engine.replay.RunResult;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableLoader;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.read.TraceReader;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

/**
 * A trace replayed on wastecheck's storage engine, once per configuration, side by side: the
 * experiment behind {@code wastecheck replay}, callable from a test.
 *
 * <p>The source is read once into the analyzer's profiling database (DuckDB), keeping each
 * table's rows in the source's order; the trace is resolved against its tables into access
 * events; then, per configuration, the tables the events touch are loaded into a fresh engine
 * {@link Database} through DuckDB's Arrow export, clustered or partitioned if the configuration
 * says so, and the events are replayed and measured. Every run's results are compared with the
 * first run's, event by event, by their {@link dev.wastecheck.model.access.ResultDigest}s; with
 * {@code compare}, SQLite and DuckDB replay the same events from the same rows.
 */
public final class Replay {
    /** Events replayed once, unmeasured, before the first configuration (the JIT warm-up). */
    private static final int JIT_WARMUP_EVENTS = 50_000;

    private final ReplayOptions options;
    private final Progress progress;
    private final Consumer<String> warnings;
    private final Set<String> warned = new HashSet<>();

    private Replay(ReplayOptions options, Progress progress, Consumer<String> warnings) {
        this.options = options;
        this.progress = progress;
        this.warnings = warnings;
    }

    /**
     * Runs the replay.
     *
     * @param warnings told, once each, what the user should know that is not an error (rows that
     *                 repeat a unique key, cache fields the engine cannot cache); one line each
     * @throws BadInputException when the options or the inputs cannot be replayed; the message says why
     */
    public static ReplayReport run(ReplayOptions options, Progress progress, Consumer<String> warnings)
            throws IOException, SQLException {
        return new Replay(options, progress, warnings).run();
    }

    private ReplayReport run() throws IOException, SQLException {
        ReplayOptions o = options;
        if (!(o.warmup() >= 0 && o.warmup() < 1)) throw new BadInputException("--warmup must be at least 0 and below 1");
        if (!Files.isRegularFile(o.trace())) throw new BadInputException(o.trace() + ": no such trace file");
        if (!Files.exists(o.data())) throw new BadInputException(o.data() + ": no such file or folder");
        for (String c : o.compare()) {
            if (!Set.of("sqlite", "duckdb").contains(c.trim().toLowerCase(Locale.ROOT))) {
                throw new BadInputException("--compare " + c + ": expected sqlite or duckdb");
            }
        }
        List<ReplayConfig> runs = new ArrayList<>();
        try {
            long memoryBytes = ReplayConfig.parseSize("--memory", o.memory());
            ReplayConfig base = ReplayConfig.defaults(memoryBytes);
            for (String c : o.runs()) runs.add(ReplayConfig.parse(c, base));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        DeviceModel device = o.deviceReadMicros() == null ? DeviceModel.NVME : DeviceModel.ofReadMicros(o.deviceReadMicros());
        Map<String, Long> timings = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (Analyzer.Session session = analyzer.open(List.of(o.data()), true, progress)) {
            timings.put("load_source", ms(t0));
            DatabaseSchema schema = WorkloadAnalysis.schemaOf(session.tables().values());
            long t1 = System.nanoTime();
            long[] unresolved = new long[1];
            List<AccessEvent> events = readEvents(schema, unresolved);
            timings.put("read_trace", ms(t1));
            if (events.isEmpty()) {
                throw new BadInputException(o.trace() + ": no access events on "
                        + (o.tables().isEmpty() ? "the source's tables" : "tables " + o.tables())
                        + " (" + unresolved[0] + " statements did not resolve against " + o.data() + ")");
            }
            Map<String, List<String>> chosen = chosenCacheFields(session);
            AnalysisReport report = null;
            boolean needReport = runs.stream().anyMatch(r -> r.tight() || (r.cache() != CachePolicy.OFF && chosen.isEmpty()));
            if (needReport) {
                long t2 = System.nanoTime();
                report = session.report(List.of(o.trace()), progress);
                timings.put("analyze", ms(t2));
            }
            Map<String, long[]> lengths = maxLengths(session);
            if (o.jitWarmup()) {
                // Compile the engine's paths before anything is measured; otherwise the baseline pays for the JIT.
                runOne(session, runs.get(0), report, chosen, lengths, events.subList(0, Math.min(events.size(), JIT_WARMUP_EVENTS)),
                        device);
            }
            List<RunResult> results = new ArrayList<>();
            for (ReplayConfig cfg : runs) {
                results.add(runOne(session, cfg, report, chosen, lengths, events, device));
            }
            List<Long> mismatches = new ArrayList<>();
            for (RunResult r : results) mismatches.add(mismatches(results.get(0), r));
            List<ReplayReport.SqlRun> sql = new ArrayList<>();
            for (String engine : o.compare()) {
                sql.add(SqlComparison.run(engine.trim().toLowerCase(Locale.ROOT), session, schema, events, results.get(0), progress));
            }
            timings.put("total", ms(t0));
            return new ReplayReport(o.data().toString(), o.trace().toString(), events.size(), unresolved[0], o.tables(),
                    device.name(), o.warmup(), results.stream().map(Replay::report).toList(), mismatches, sql, timings);
        }
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    /** A run as the renderers see it: the engine's measurements without its per-event digests. */
    private static RunReport report(RunResult r) {
        var l = r.latencyUs();
        return new RunReport(r.config(), r.settings(), r.queries(), r.executed(), r.skipped(), r.rowsReturned(), r.memoryBytes(),
                r.heapBytes(), r.indexBytes(), r.cacheBytes(), r.workingSetBytes(), r.leafFill(), r.bufferHitRate(),
                r.cacheHitRate(), r.pagesPerQuery(), new RunReport.Latency(l.p50(), l.p95(), l.p99(), l.mean()),
                r.deviceUsPerQuery(), r.costPerQueryUs(), r.throughputQps(), r.loadMillis(), r.replayMillis(), r.moved(),
                r.workingSetByStructure());
    }

    /** Events whose result differs from the baseline's, or that one run executed and the other did not. */
    static long mismatches(RunResult base, RunResult other) {
        long n = 0;
        for (int i = 0; i < base.digests().length; i++) {
            if (base.digests()[i] != other.digests()[i] || base.executedEvents().get(i) != other.executedEvents().get(i)) n++;
        }
        return n;
    }

    private List<AccessEvent> readEvents(DatabaseSchema schema, long[] unresolved) throws IOException {
        Set<String> only = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        only.addAll(options.tables());
        for (String t : only) {
            if (schema.table(t).isEmpty()) throw new BadInputException("--tables " + t + ": " + options.data() + " has no such table");
        }
        long maxEvents = options.maxEvents();
        List<AccessEvent> out = new ArrayList<>();
        AccessExtractor extractor = new AccessExtractor(schema);
        try (TraceReader reader = TraceReader.open(options.trace())) {
            while (reader.hasNext() && (maxEvents <= 0 || out.size() < maxEvents)) {
                extractor.extract(reader.next(), e -> {
                    if ((only.isEmpty() || only.contains(e.table())) && (maxEvents <= 0 || out.size() < maxEvents)) out.add(e);
                });
            }
        }
        unresolved[0] = extractor.report().unresolved();
        return out;
    }

    /** Longest value in bytes of each string column, per table (lower-case name); -1 for others. */
    private static Map<String, long[]> maxLengths(Analyzer.Session session) throws SQLException {
        Map<String, long[]> out = new HashMap<>();
        for (LoadedTable t : session.tables().values()) {
            long[] len = new long[t.def().columns().size()];
            java.util.Arrays.fill(len, -1);
            if (t.relation() != null) {
                StringBuilder sql = new StringBuilder("SELECT ");
                boolean any = false;
                for (int i = 0; i < len.length; i++) {
                    if (t.storage()[i] == ColumnStorage.INT64) continue;
                    String c = t.physicalColumn(i);
                    String expr = t.storage()[i] == ColumnStorage.BYTES ? "octet_length(" + c + ")" : "strlen(CAST(" + c + " AS VARCHAR))";
                    sql.append(any ? ", " : "").append("max(").append(expr).append(") AS m").append(i);
                    any = true;
                }
                if (any) {
                    try (Statement st = session.database().connection().createStatement();
                         ResultSet rs = st.executeQuery(sql.append(" FROM ").append(t.relation()).toString())) {
                        rs.next();
                        for (int i = 0; i < len.length; i++) {
                            if (t.storage()[i] != ColumnStorage.INT64) len[i] = rs.getLong("m" + i);
                        }
                    }
                }
            }
            out.put(t.def().name().toLowerCase(Locale.ROOT), len);
        }
        return out;
    }

    /** The user's cache fields, checked against the schema: "table.index" (lower case) to columns. */
    private Map<String, List<String>> chosenCacheFields(Analyzer.Session session) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.cacheFields().entrySet()) {
            String[] ti = e.getKey().split("\\.", 2);
            LoadedTable t = ti.length == 2 ? session.tables().get(ti[0].toLowerCase(Locale.ROOT)) : null;
            if (t == null) {
                throw new BadInputException("--cache-fields " + e.getKey() + ": expected TABLE.INDEX naming a table of " + options.data());
            }
            boolean known = ti[1].equalsIgnoreCase("PRIMARY") ? !t.def().primaryKey().isEmpty()
                    : t.def().indexes().stream().anyMatch(i -> i.name().equalsIgnoreCase(ti[1]));
            if (!known) throw new BadInputException("--cache-fields " + e.getKey() + ": " + t.def().name() + " has no index " + ti[1]);
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
                                + "fixed-width fields of unique indexes, at most 248 bytes, and not the key's own columns)");
                    }
                }
            }
        }
    }

    private RunResult runOne(Analyzer.Session session, ReplayConfig cfg, AnalysisReport report, Map<String, List<String>> chosen,
                             Map<String, long[]> lengths, List<AccessEvent> events, DeviceModel device)
            throws IOException, SQLException {
        List<TableSpec> specs = new ArrayList<>();
        for (LoadedTable t : session.tables().values()) {
            TableSpec spec = EngineSchemas.spec(t, lengths, report, session.dialect(), cfg.tight(), cfg.pageSize());
            if (!chosen.isEmpty()) spec = EngineSchemas.withCacheFields(spec, chosen);
            specs.add(spec);
        }
        long loadStart = System.nanoTime();
        // Only the tables the events touch are loaded: the others would cost time and pages and change nothing.
        Set<String> touched = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (AccessEvent e : events) touched.add(e.table());
        try (Database db = new Database(specs, cfg.layout(), cfg.cache(), cfg.cacheSize(), cfg.pageSize(), cfg.memoryBytes(), device,
                cfg.arrowStorage())) {
            if (cfg.cache() != CachePolicy.OFF) warnUncacheable(db, chosen);
            long total = session.tables().values().stream().filter(t -> touched.contains(t.def().name())).mapToLong(LoadedTable::rows).sum();
            progress.begin("loading " + cfg.label(), total);
            long before = 0;
            for (LoadedTable t : session.tables().values()) {
                String rel = session.namedRelation(t);
                if (rel == null || !touched.contains(t.def().name())) continue;
                Table table = db.table(t.def().name());
                TableLoader loader = new TableLoader(table);
                long base = before;
                try (Statement st = session.database().connection().createStatement();
                     DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery("SELECT * FROM " + rel);
                     ArrowReader reader = (ArrowReader) rs.arrowExportStream(session.database().allocator(), 8192)) {
                    loader.load(reader, n -> progress.advance(base + n));
                } catch (TableLoader.LossyValueException e) {
                    throw new BadInputException("config " + cfg.label() + ": " + e.getMessage());
                }
                if (loader.duplicates() > 0) {
                    warnings.accept(t.def().name() + ": " + loader.duplicates() + " rows repeat a unique key and were not loaded");
                }
                before += t.rows();
            }
            progress.end();
            Map<String, Long> moved = Map.of();
            if (cfg.partition()) moved = Clusterer.partition(db, events);
            else if (cfg.clusterFraction() > 0) moved = Clusterer.relocate(db, events, cfg.clusterFraction());
            db.pool().flushAll();
            long loadMillis = ms(loadStart);
            // The previous configuration's buffer pool is garbage now: collect it here, not in the middle of the measurement.
            System.gc();
            progress.begin("replay " + cfg.label(), events.size());
            RunResult r = new Replayer(db).run(cfg.label().isEmpty() ? "baseline" : cfg.label(), cfg.describe(), events,
                    options.warmup(), loadMillis, moved, progress::advance);
            progress.end();
            return r;
        }
    }
}

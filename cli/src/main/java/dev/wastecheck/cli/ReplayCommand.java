package dev.wastecheck.cli;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.workload.WorkloadAnalysis;
import dev.wastecheck.cli.render.ReplayRenderer;
import dev.wastecheck.cli.replay.EngineSchemas;
import dev.wastecheck.cli.replay.ReplayReport;
import dev.wastecheck.engine.cluster.Clusterer;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.replay.ReplayConfig;
import dev.wastecheck.engine.replay.Replayer;
import dev.wastecheck.engine.replay.RunResult;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableLoader;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.read.TraceReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wastecheck replay --data SOURCE --trace FILE --config ...}: the trace on our engine, per configuration, side by side. */
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads SOURCE into wastecheck's storage engine once per configuration, replays the trace's access events "
                + "against it, and reports memory, hit rates, pages touched and latency per configuration, the first being "
                + "the baseline. Device time for buffer-pool misses is modeled apart from the engine's measured time.", ""},
        footer = {"", "Configuration keys (--config KEY=VAL,...; unset keys keep the baseline's):",
                "  layout=nsm|pax|hpl  cache=off|swap|shrink  cache_size=FRACTION  cluster=none|FRACTION|partition",
                "  tight=on|off  memory=SIZE  page_size=4K|8K|16K|32K", "", "Examples:",
                "  wastecheck replay --data wiki/dump.sql --trace wiki/trace.log --config layout=nsm --config cache=swap",
                "  wastecheck replay --data wiki/dump.sql --trace wiki/trace.log --tables revision --memory 4M \\",
                "      --config cluster=none --config cluster=0.54 --config cluster=1 --config cluster=partition",
                "  wastecheck replay --data wiki/dump.sql --trace wiki/trace.log --compare sqlite,duckdb --check"})
public final class ReplayCommand implements Callable<Integer> {
    enum Format { text, json, markdown }

    @Option(names = "--data", required = true, paramLabel = "SOURCE", description = "The database: a dump, database file or folder (as analyze reads).")
    Path data;

    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The workload: any trace format analyze --trace reads.")
    Path trace;

    @Option(names = "--config", paramLabel = "KEY=VAL,...", description = "A configuration to run; repeatable, the first is the baseline "
            + "(default: one run with layout=nsm,cache=off,cluster=none,tight=off).")
    List<String> configs = new ArrayList<>();

    @Option(names = "--memory", defaultValue = "256M", paramLabel = "SIZE",
            description = "Buffer-pool budget of every configuration that sets no memory= (default: ${DEFAULT-VALUE}).")
    String memory;

    @Option(names = "--tables", split = ",", paramLabel = "TABLE", description = "Replay only the events on these tables (e.g. revision).")
    List<String> tables = new ArrayList<>();

    @Option(names = "--warmup", defaultValue = "0.1", description = "Share of the events run before measuring (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--jit-warmup", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Replay up to 50,000 events once on the first configuration, unmeasured, so that the first (baseline) "
                    + "run does not pay for the JIT compiling the engine (default: on).")
    boolean jitWarmup;

    @Option(names = "--max-events", defaultValue = "0", description = "Replay at most this many events (default: all).")
    long maxEvents;

    @Option(names = "--device-read-us", paramLabel = "MICROS", description = "Modeled random page read latency "
            + "(default: NVMe, 85 µs read, 20 µs write).")
    Double deviceReadMicros;

    @Option(names = "--compare", split = ",", paramLabel = "ENGINE", description = "Also replay the same events on sqlite and/or duckdb "
            + "(in memory, prepared statements, the same indexes) and report throughput ratios.")
    List<String> compare = new ArrayList<>();

    @Option(names = "--cache-fields", paramLabel = "TABLE.INDEX=COL+COL", description = "Fields the index cache keeps for this "
            + "index, instead of the analyzer's ranking (e.g. page.name_title=page_id+page_latest); repeatable.")
    Map<String, String> cacheFields = new LinkedHashMap<>();

    @Option(names = "--check", description = "Fail (exit 1) unless every configuration, and every --compare engine, returns the "
            + "baseline's result for every event.")
    boolean check;

    @Option(names = "--format", defaultValue = "text", description = "text, json or markdown (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report here instead of stdout.")
    Path output;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(warmup >= 0 && warmup < 1)) throw new UserError("--warmup must be at least 0 and below 1");
        if (!Files.isRegularFile(trace)) throw new UserError(trace + ": no such trace file");
        if (!Files.exists(data)) throw new UserError(data + ": no such file or folder");
        for (String c : compare) {
            if (!Set.of("sqlite", "duckdb").contains(c.trim().toLowerCase(Locale.ROOT))) {
                throw new UserError("--compare " + c + ": expected sqlite or duckdb");
            }
        }
        long memoryBytes;
        List<ReplayConfig> runs = new ArrayList<>();
        try {
            memoryBytes = ReplayConfig.parseSize("--memory", memory);
            ReplayConfig base = ReplayConfig.defaults(memoryBytes);
            if (configs.isEmpty()) configs.add("");
            for (String c : configs) runs.add(ReplayConfig.parse(c, base));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        DeviceModel device = deviceReadMicros == null ? DeviceModel.NVME : DeviceModel.ofReadMicros(deviceReadMicros);
        Progress progress = TerminalProgress.forStderr(quiet);
        PrintWriter err = spec.commandLine().getErr();
        Map<String, Long> timings = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (Analyzer.Session session = analyzer.open(List.of(data), true, progress)) {
            timings.put("load_source", ms(t0));
            DatabaseSchema schema = WorkloadAnalysis.schemaOf(session.tables().values());
            long t1 = System.nanoTime();
            long[] unresolved = new long[1];
            List<AccessEvent> events = readEvents(schema, unresolved);
            timings.put("read_trace", ms(t1));
            if (events.isEmpty()) {
                throw new UserError(trace + ": no access events on " + (tables.isEmpty() ? "the source's tables" : "tables " + tables)
                        + " (" + unresolved[0] + " statements did not resolve against " + data + ")");
            }
            Map<String, List<String>> chosen = chosenCacheFields(session);
            AnalysisReport report = null;
            boolean needReport = runs.stream().anyMatch(r -> r.tight()
                    || (r.cache() != dev.wastecheck.engine.index.CachePolicy.OFF && chosen.isEmpty()));
            if (needReport) {
                long t2 = System.nanoTime();
                report = session.report(List.of(trace), progress);
                timings.put("analyze", ms(t2));
            }
            Map<String, long[]> lengths = maxLengths(session);
            if (jitWarmup) {
                // Compile the engine's paths before anything is measured; otherwise the baseline pays for the JIT.
                runOne(session, runs.get(0), report, chosen, lengths, events.subList(0, Math.min(events.size(), 50_000)), device,
                        progress, err);
            }
            List<RunResult> results = new ArrayList<>();
            for (ReplayConfig cfg : runs) {
                results.add(runOne(session, cfg, report, chosen, lengths, events, device, progress, err));
            }
            List<Long> mismatches = new ArrayList<>();
            for (RunResult r : results) mismatches.add(mismatches(results.get(0), r));
            List<ReplayReport.SqlRun> sql = new ArrayList<>();
            for (String engine : compare) {
                sql.add(SqlComparison.run(engine.trim().toLowerCase(Locale.ROOT), session, schema, events, results.get(0), progress));
            }
            timings.put("total", ms(t0));
            ReplayReport rr = new ReplayReport(data.toString(), trace.toString(), events.size(), unresolved[0], tables,
                    device.name(), warmup, results, mismatches, sql, timings);
            write(rr);
            long bad = mismatches.stream().mapToLong(Long::longValue).sum() + sql.stream().mapToLong(ReplayReport.SqlRun::mismatches).sum();
            if (bad > 0) {
                err.println("wastecheck: " + bad + " results differ from the baseline's" + (check ? "" : " (see the report)"));
                if (check) return Main.EXIT_INTERNAL;
            } else if (check) {
                err.println("wastecheck: check passed: every configuration returned the baseline's results for "
                        + results.get(0).executed() + " events");
            }
            return Main.EXIT_OK;
        }
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
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
        only.addAll(tables);
        for (String t : only) {
            if (schema.table(t).isEmpty()) throw new UserError("--tables " + t + ": " + data + " has no such table");
        }
        List<AccessEvent> out = new ArrayList<>();
        AccessExtractor extractor = new AccessExtractor(schema);
        try (TraceReader reader = TraceReader.open(trace)) {
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

    /** {@code --cache-fields}, checked against the schema: "table.index" (lower case) to columns. */
    private Map<String, List<String>> chosenCacheFields(Analyzer.Session session) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : cacheFields.entrySet()) {
            String[] ti = e.getKey().split("\\.", 2);
            LoadedTable t = ti.length == 2 ? session.tables().get(ti[0].toLowerCase(Locale.ROOT)) : null;
            if (t == null) {
                throw new UserError("--cache-fields " + e.getKey() + ": expected TABLE.INDEX naming a table of " + data);
            }
            boolean known = ti[1].equalsIgnoreCase("PRIMARY") ? !t.def().primaryKey().isEmpty()
                    : t.def().indexes().stream().anyMatch(i -> i.name().equalsIgnoreCase(ti[1]));
            if (!known) throw new UserError("--cache-fields " + e.getKey() + ": " + t.def().name() + " has no index " + ti[1]);
            List<String> cols = new ArrayList<>();
            for (String c : e.getValue().split("[+ ]")) {
                if (c.isBlank()) continue;
                if (t.def().columnIndex(c.trim()) < 0) throw new UserError("--cache-fields " + e.getKey() + ": no column " + c.trim());
                cols.add(c.trim());
            }
            out.put(e.getKey().toLowerCase(Locale.ROOT), cols);
        }
        return out;
    }

    private final Set<String> warned = new java.util.HashSet<>();

    /** Says once which of the user's cache fields the engine cannot cache (nullable, variable-length, or of a non-unique index). */
    private void warnUncacheable(Database db, Map<String, List<String>> chosen, PrintWriter err) {
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
                        err.println("wastecheck: --cache-fields " + key + ": " + c + " is not cached (the cache holds NOT NULL "
                                + "fixed-width fields of unique indexes, at most 248 bytes, and not the key's own columns)");
                    }
                }
            }
        }
    }

    private RunResult runOne(Analyzer.Session session, ReplayConfig cfg, AnalysisReport report, Map<String, List<String>> chosen,
                             Map<String, long[]> lengths,
                             List<AccessEvent> events, DeviceModel device, Progress progress, PrintWriter err)
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
        try (Database db = new Database(specs, cfg.layout(), cfg.cache(), cfg.cacheSize(), cfg.pageSize(), cfg.memoryBytes(), device)) {
            if (cfg.cache() != dev.wastecheck.engine.index.CachePolicy.OFF) warnUncacheable(db, chosen, err);
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
                    throw new UserError("config " + cfg.label() + ": " + e.getMessage());
                }
                if (loader.duplicates() > 0) {
                    err.println("wastecheck: " + t.def().name() + ": " + loader.duplicates()
                            + " rows repeat a unique key and were not loaded");
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
            RunResult r = new Replayer(db).run(cfg.label().isEmpty() ? "baseline" : cfg.label(), cfg.describe(), events, warmup,
                    loadMillis, moved, progress::advance);
            progress.end();
            return r;
        }
    }

    private void write(ReplayReport report) throws IOException {
        Output.write(output, spec, w -> render(report, w));
    }

    private void render(ReplayReport report, PrintWriter w) throws IOException {
        switch (format) {
            case json -> ReplayRenderer.json(report, w);
            case markdown -> ReplayRenderer.markdown(report, w);
            default -> ReplayRenderer.text(report, w);
        }
        w.flush();
    }
}

package dev.wastecheck.replay;

import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.ResultDigest;
import dev.wastecheck.sources.load.LoadedTable;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A trace replayed on wastecheck's storage engine, once per configuration, side by side: the
 * experiment behind {@code wastecheck replay}, callable from a test.
 *
 * <p>With {@code train} the trace splits in time: clustering, the hot partition, cached fields and
 * vertical splits learn from the first part only, and only the rest (held-out) is measured. Without
 * it, they learn from every event (an oracle) and the first {@code warmup} share runs unmeasured.
 * With {@code repeat} every configuration runs that many times, interleaved (the order rotates
 * each round), and each run reports the median cost with a 95% interval, and its speedup as the
 * median of the baseline's cost over its own, repeat by repeat. Every run's results are compared
 * with the first run's, event by event, by their {@link ResultDigest}s;
 * with {@code compare}, SQLite and DuckDB replay the same events from the same rows.
 */
public final class Replay {
    /** Events replayed once per configuration, unmeasured, before the first round (the JIT warm-up). */
    private static final int JIT_WARMUP_EVENTS = 50_000;

    private final ReplayOptions options;
    private final Progress progress;
    private final Consumer<String> warnings;

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
        if (!(o.warmup() >= 0 && o.warmup() < 1))
            throw new BadInputException("--warmup must be at least 0 and below 1");
        if (o.train() != 0 && !(o.train() > 0 && o.train() < 1))
            throw new BadInputException("--train must be above 0 and below 1");
        for (String c : o.compare()) {
            if (!Set.of("sqlite", "duckdb").contains(c.trim().toLowerCase(Locale.ROOT))) {
                throw new BadInputException("--compare " + c + ": expected sqlite or duckdb");
            }
        }
        List<EngineConfig> runs = parseConfigs(o.memory(), o.runs());
        DeviceModel device =
                o.deviceReadMicros() == null ? DeviceModel.NVME : DeviceModel.ofReadMicros(o.deviceReadMicros());
        Map<String, Long> timings = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        try (ReplaySource src = ReplaySource.open(o.data(), o.trace(), o.tables(), o.maxEvents(), progress, warnings)) {
            timings.put("load_and_read_trace", ms(t0));
            List<AccessEvent> events = src.events();
            int split = o.train() > 0 ? src.splitPoint(o.train()) : 0;
            List<AccessEvent> training = o.train() > 0 ? events.subList(0, split) : events;
            int measureFrom =
                    o.train() > 0 ? split : (int) Math.min(events.size(), Math.round(events.size() * o.warmup()));
            Map<String, List<String>> chosen = src.checkCacheFields(o.cacheFields());
            if (o.jitWarmup()) {
                // Compile every configuration's paths before anything is measured. Warming the
                // baseline alone left each other configuration's first repeat to pay for its own
                // compiles and deoptimizations (29 in the first logged Arrow repeat against 1 in its
                // second: docs/benchmarks.md, "Where the logged replay's tail comes from").
                List<AccessEvent> head = events.subList(0, Math.min(events.size(), JIT_WARMUP_EVENTS));
                Set<String> warmed = new HashSet<>();
                for (EngineConfig cfg : runs)
                    if (warmed.add(cfg.label())) src.run(cfg, "jit warm-up", head, head, head.size(), device, chosen);
            }
            List<List<ExecutionResult>> results = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) results.add(new ArrayList<>());
            // the JIT's compile time and the collectors' time during each run (its load and its replay)
            List<List<Long>> jit = new ArrayList<>(), gc = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                jit.add(new ArrayList<>());
                gc.add(new ArrayList<>());
            }
            // Warm-up rounds (r < 0) run exactly as the measured ones and are dropped: the JIT warm-up above
            // runs the trace's head, not the held-out events on the learned designs, and the first measured
            // round was the slowest of five in most JVMs (docs/benchmarks.md, "The run level").
            for (int r = -o.warmupRounds(); r < o.repeat(); r++) {
                for (int k = 0; k < runs.size(); k++) {
                    int i = Math.floorMod(k + r, runs.size()); // interleaved: each round starts one configuration later
                    EngineConfig cfg = runs.get(i);
                    String label = cfg.label().isEmpty() ? "baseline" : cfg.label();
                    long[] jvm0 = jvmWork();
                    ExecutionResult x = src.run(
                            cfg,
                            r < 0
                                    ? label + " warm-up " + (r + o.warmupRounds() + 1)
                                    : o.repeat() > 1 ? label + " #" + (r + 1) : label,
                            training,
                            events,
                            measureFrom,
                            device,
                            chosen);
                    long[] jvm1 = jvmWork();
                    if (r >= 0) {
                        results.get(i).add(x);
                        jit.get(i).add(jvm1[0] - jvm0[0]);
                        gc.get(i).add(jvm1[1] - jvm0[1]);
                    }
                }
            }
            List<Long> mismatches = new ArrayList<>();
            for (List<ExecutionResult> rs : results)
                mismatches.add(mismatches(results.get(0).get(0), rs.get(0)));
            List<ReplayReport.SqlRun> sql = new ArrayList<>();
            for (String engine : o.compare()) {
                sql.add(SqlComparison.run(
                        engine.trim().toLowerCase(Locale.ROOT),
                        src.session(),
                        src.schema(),
                        events,
                        results.get(0).get(0),
                        progress));
            }
            timings.put("total", ms(t0));
            List<RunReport> reports = new ArrayList<>();
            for (int i = 0; i < results.size(); i++)
                reports.add(report(results.get(i), results.get(0), millis(jit.get(i)), millis(gc.get(i))));
            Map<String, Long> rows = new LinkedHashMap<>();
            for (LoadedTable t : src.session().tables().values())
                rows.put(t.def().name().toLowerCase(Locale.ROOT), t.rows());
            Map<String, List<double[]>> skew =
                    AccessSkew.of(src.heat(training), n -> rows.getOrDefault(n.toLowerCase(Locale.ROOT), 0L));
            return new ReplayReport(
                    o.data().toString(),
                    o.trace().toString(),
                    events.size(),
                    src.unresolved(),
                    o.tables(),
                    device.name(),
                    o.warmup(),
                    reports,
                    mismatches,
                    sql,
                    timings,
                    o.train(),
                    training.size(),
                    events.size() - measureFrom,
                    o.repeat(),
                    skew);
        }
    }

    /** The configurations, the first the baseline; a bad one is a BadInputException naming it. */
    static List<EngineConfig> parseConfigs(String memory, List<String> configs) {
        List<EngineConfig> runs = new ArrayList<>();
        try {
            long memoryBytes = EngineConfig.parseSize("--memory", memory);
            EngineConfig base = EngineConfig.defaults(memoryBytes);
            for (String c : configs) runs.add(EngineConfig.parse(c, base));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        return runs;
    }

    /**
     * The JVM's compile time and collection time so far, in milliseconds ({@code -1} where the JVM does not
     * tell): a run during which the JIT still compiles is measured before the code is settled, on cores the
     * compiler threads share.
     */
    static long[] jvmWork() {
        CompilationMXBean c = ManagementFactory.getCompilationMXBean();
        long jit = c != null && c.isCompilationTimeMonitoringSupported() ? c.getTotalCompilationTime() : -1;
        long gc = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans())
            gc += Math.max(0, g.getCollectionTime());
        return new long[] {jit, gc};
    }

    private static long[] millis(List<Long> xs) {
        return xs.stream().mapToLong(Long::longValue).toArray();
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    /**
     * A configuration's repeats as the renderers see them: the first repeat's counts, the latencies
     * of the repeat whose cost is the median, the median cost with its interval, and the speedup
     * over the baseline's repeat of the same round.
     */
    public static RunReport report(List<ExecutionResult> repeats, List<ExecutionResult> baseline) {
        return report(repeats, baseline, new long[0], new long[0]);
    }

    /**
     * As {@link #report(List, List)}, with the JVM's work beside each repeat.
     *
     * @param jitMs the JIT's compile time during each repeat (its load and replay), in milliseconds; empty if not known
     * @param gcMs  the garbage collectors' time during each repeat, in milliseconds; empty if not known
     */
    public static RunReport report(
            List<ExecutionResult> repeats, List<ExecutionResult> baseline, long[] jitMs, long[] gcMs) {
        ExecutionResult r = repeats.get(0);
        double[] costs =
                repeats.stream().mapToDouble(ExecutionResult::costPerQueryUs).toArray();
        var l = repeats.get(Stats.medianIndex(costs)).latencyUs();
        double[] base =
                baseline.stream().mapToDouble(ExecutionResult::costPerQueryUs).toArray();
        double[] speedups = Stats.ratios(base, costs);
        return new RunReport(
                r.config(),
                r.settings(),
                r.queries(),
                r.executed(),
                r.skipped(),
                r.rowsReturned(),
                r.memoryBytes(),
                r.heapBytes(),
                r.indexBytes(),
                r.cacheBytes(),
                r.workingSetBytes(),
                r.leafFill(),
                r.bufferHitRate(),
                r.cacheHitRate(),
                r.pagesPerQuery(),
                new RunReport.Latency(l.p50(), l.p95(), l.p99(), l.mean()),
                r.deviceUsPerQuery(),
                Stats.median(costs),
                r.throughputQps(),
                r.loadMillis(),
                r.replayMillis(),
                r.moved(),
                r.workingSetByStructure(),
                repeats.size(),
                Stats.medianCi95(costs),
                Stats.median(speedups),
                Stats.medianCi95(speedups),
                r.skippedByReason(),
                r.deviceReads(),
                r.upkeep(),
                r.hotRules(),
                r.queries() == 0 ? 0 : (double) r.decompressedBytes() / r.queries(),
                r.deviceReadsByStructure(),
                r.queries() == 0 ? 0 : (double) r.dictionaryFrameBytes() / r.queries(),
                r.queries() == 0 ? 0 : (double) r.plainDecompressedBytes() / r.queries(),
                r.queries() == 0 ? 0 : (double) r.decompressedCopiedBytes() / r.queries(),
                r.queries() == 0 ? 0 : (double) r.valueCacheHits() / r.queries(),
                r.queries() == 0 ? 0 : (double) r.valueCacheMisses() / r.queries(),
                r.indexBytesByStructure(),
                r.indexBytesByIndex(),
                r.pageSize(),
                perQuery(r.pinsByKind(), r.queries()),
                costs,
                jitMs,
                gcMs);
    }

    private static Map<String, Double> perQuery(Map<String, Long> counts, long queries) {
        Map<String, Double> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, queries == 0 ? 0 : (double) v / queries));
        return out;
    }

    /** Events whose result differs from the baseline's, or that one run executed and the other did not. */
    public static long mismatches(ExecutionResult base, ExecutionResult other) {
        long n = 0;
        for (int i = 0; i < base.digests().length; i++) {
            if (base.digests()[i] != other.digests()[i]
                    || base.executedEvents().get(i) != other.executedEvents().get(i)) n++;
        }
        return n;
    }
}

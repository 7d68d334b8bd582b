package dev.wastecheck.autotune;

import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.replay.ReplayConfig;
import dev.wastecheck.engine.replay.RunResult;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.replay.AccessSkew;
import dev.wastecheck.replay.Replay;
import dev.wastecheck.replay.ReplaySource;
import dev.wastecheck.replay.RunReport;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The search behind {@code wastecheck autotune}: a physical design per table ("No Bits Left
 * Behind" §2-4), learned on the first part of a trace and scored by replaying the rest.
 *
 * <p><b>Split.</b> The trace splits in time ({@code train}, default the first half). Everything
 * a design learns (tuple heat for clustering and the hot partition, the fields worth caching,
 * which columns a vertical split keeps apart) comes from the training events; the held-out
 * events only score. The training events still run, unmeasured, before the held-out ones, so a
 * design is scored in the state the training left (inserts, updates, a warm buffer pool).
 *
 * <p><b>Search space, per table</b>, in this order (coordinate descent: each dimension is chosen
 * with the ones before it fixed): clustering (none; the accessed tuples relocated together; a hot
 * partition; a hot partition kept up to date while the workload runs), tight types (off, on),
 * vertical partitioning (§3.2: none; the columns training never reads apart; the columns it
 * updates apart), the index cache (off; Swap at 10%, 30%, 100% of a leaf's tuples, the
 * fields the training's reads would have answered from it), the page layout (NSM, PAX, HPL; a
 * layout value is one more candidate, so Arrow blocks join as one more entry of {@link #LAYOUTS}).
 *
 * <p><b>Pruning by analysis.</b> A candidate is not replayed when the analysis shows it is the
 * same design as one that is (tight types that change no column of the table, a cache with no
 * field to keep, a split that keeps nothing apart) or that it cannot change what a lookup reads
 * (PAX and HPL for a table the training never scans). Every pruned candidate is reported with
 * its reason.
 *
 * <p><b>Successive halving.</b> Within each step the candidates replay the table's training
 * events and the first quarter of its held-out events; the better half goes on to the first
 * half, then to all of them. Candidates replay one table alone, in its share of the memory budget
 * (its share of the baseline's working set); keys that a join binds were recorded on the
 * baseline's replay and run as the lookups they made, so a table replays without the tables that
 * drove them. The best <em>uniform</em> design (one design for every table) is searched the same
 * way, scored as the sum over the tables; the evaluations both searches share run once.
 *
 * <p><b>Finalists.</b> The baseline, the best uniform design and the per-table recommendation
 * then replay together, all tables in one buffer pool of the budget, on every held-out event,
 * {@code repeat} times interleaved. The recommendation is never worse than the best uniform
 * design: if it is, jointly, the uniform design is recommended instead (and the report says so).
 *
 * <p><b>Scores.</b> The search compares the modeled cost per query: device time of the misses
 * and write-backs plus {@link #PIN_US} per buffer-pool pin; both are counts, so the same trace
 * picks the same design on any machine, loaded or not. The finalists also report the measured
 * cost (engine time plus device time), with a 95% interval over the repeats.
 */
public final class Autotune {
    /**
     * Modeled engine time of one pin of a resident page, in microseconds: our Fig. 2c experiment measured an
     * in-memory lookup of the engine at about 1 µs for a root-to-leaf descent and a heap page,
     * and 0.6 µs without the heap page (docs/benchmarks.md), so a pin costs a few tenths of a µs.
     */
    public static final double PIN_US = 0.25;
    /** The held-out prefixes of successive halving. */
    static final double[] RUNGS = {0.25, 0.5, 1.0};
    /** Page layouts the search tries; Arrow blocks become one more entry once the engine has them. */
    static final List<Layout> LAYOUTS = List.of(Layout.NSM, Layout.PAX, Layout.HPL);

    static final double[] CACHE_SIZES = {0.1, 0.3, 1.0};
    /** The smallest share of the budget a table replays in alone: 64 pages. */
    private static final long MIN_SHARE_PAGES = 64;

    private final AutotuneOptions o;
    private final Progress progress;
    private final Consumer<String> warnings;
    private ReplaySource src;
    private DeviceModel device;
    private long memory;
    private List<AccessEvent> training;
    private final Map<String, List<AccessEvent>> trainT = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, List<AccessEvent>> heldT = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, Long> shareT = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, Eval> evaluated = new HashMap<>();
    private final List<AutotuneReport.Evaluation> log = new ArrayList<>();
    private final List<AutotuneReport.Pruned> pruned = new ArrayList<>();
    private final Map<String, List<String[]>> tightChanges = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private long isolatedRuns, jointRuns, screeningNanos;

    private Autotune(AutotuneOptions o, Progress progress, Consumer<String> warnings) {
        this.o = o;
        this.progress = progress;
        this.warnings = warnings;
    }

    /** The modeled cost per query of a run: device time plus {@link #PIN_US} per pin. */
    public static double modeledUs(RunResult r) {
        // A tuple read in an Arrow block (layout=arrow) costs what a pin of the heap page holding it costs on pages:
        // both are memory touched under a latch, and counting neither would favour the blocks for free.
        double blockAccesses = r.queries() == 0 ? 0 : (double) r.blockAccesses() / r.queries();
        return r.deviceUsPerQuery() + PIN_US * (r.pagesPerQuery() + blockAccesses);
    }

    public static AutotuneReport run(AutotuneOptions options, Progress progress, Consumer<String> warnings)
            throws IOException, SQLException {
        return new Autotune(options, progress, warnings).run();
    }

    private record Eval(RunResult run, double modeled) {}

    private AutotuneReport run() throws IOException, SQLException {
        long started = System.nanoTime();
        try {
            memory = ReplayConfig.parseSize("--memory", o.memory());
            ReplayConfig.parse("", ReplayConfig.defaults(memory)); // checks the budget holds two pages
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        device = DeviceModel.NVME;
        try (ReplaySource source =
                ReplaySource.open(o.data(), o.trace(), List.of(), o.maxEvents(), progress, warnings)) {
            src = source;
            List<AccessEvent> events = src.events();
            int split = src.splitPoint(o.train());
            training = events.subList(0, split);
            int pageSize = ReplayConfig.DEFAULT_PAGE_SIZE;

            // The baseline, jointly: the yardstick, each table's share of its working set, and the keys joins bound.
            ReplayConfig base = ReplayConfig.defaults(memory).withLabel("baseline");
            RunResult baseRun = src.run(base, "baseline", training, events, split, device, Map.of(), true);
            jointRuns++;
            long oneReplay = baseRun.loadMillis() + baseRun.replayMillis();
            splitByTable(events, split, baseRun);
            shares(baseRun, pageSize);

            // Per-table search, largest working set first.
            List<String> tables = new ArrayList<>(heldT.keySet());
            tables.removeIf(t -> heldT.get(t).isEmpty());
            tables.sort(Comparator.comparingLong((String t) -> -shareT.getOrDefault(t, 0L))
                    .thenComparing(String.CASE_INSENSITIVE_ORDER));
            Map<String, TableDesign> chosen = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String t : tables) {
                tightChanges.put(t, src.tightChanges(t));
                chosen.put(t, searchTable(t));
            }
            TableDesign uniform = searchUniform(tables);
            // The uniform design is one more candidate for every table: a table keeps it where, alone on all its
            // held-out
            // events, it does better than the table's own descent found (the descent fixes one dimension at a time).
            for (String t : tables) {
                TableDesign u = canonical(t, uniform, false);
                if (u == null) u = canonicalIgnoringPrune(t, uniform);
                if (u.equals(chosen.get(t))) continue;
                double own = evaluate(t, chosen.get(t), 1.0).modeled, theirs = evaluate(t, u, 1.0).modeled;
                record(
                        t,
                        "uniform as a candidate",
                        own <= theirs ? u : chosen.get(t),
                        1.0,
                        Math.max(own, theirs),
                        "rejected",
                        String.format(
                                Locale.ROOT,
                                "%.2f µs/query against %.2f for %s on all the held-out events",
                                Math.max(own, theirs),
                                Math.min(own, theirs),
                                (own <= theirs ? chosen.get(t) : u).describe()));
                if (theirs < own) chosen.put(t, u);
            }

            // Hot by reference: a rule reads other tables (page.page_latest names the hot revisions), so it is tried
            // jointly, once the tables' designs are chosen: each of the two designs with hot=refs on every table it
            // partitions, against itself without, all tables in one pool on every held-out event.
            // The run of the design kept is the finalist's first repeat.
            TableDesign uniformRefs = uniform.partition() ? uniform.with("hot", "refs") : null;
            Map<String, TableDesign> chosenRefs = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            chosen.forEach((t, d) -> chosenRefs.put(t, d.partition() ? d.with("hot", "refs") : d));
            Joint uniJoint = null, recJoint = null;
            TableDesign uniformBefore = uniform;
            if (uniformRefs != null) {
                uniJoint = hotByReference("uniform", uniform, Map.of(), uniformRefs, Map.of(), events, split);
                if (uniJoint.refs()) uniform = uniformRefs;
            }
            // When every table chose the uniform design, the recommendation is the uniform design: nothing to compare.
            boolean sameAsUniform = perTable(chosen, uniformBefore).isEmpty();
            if (sameAsUniform && uniJoint != null && uniJoint.refs()) chosen.putAll(chosenRefs);
            if (!sameAsUniform && !chosenRefs.equals(chosen)) {
                recJoint = hotByReference(
                        "recommended",
                        uniform,
                        perTable(chosen, uniform),
                        uniform,
                        perTable(chosenRefs, uniform),
                        events,
                        split);
                if (recJoint.refs()) chosen.putAll(chosenRefs);
            }

            // Finalists, jointly, on every held-out event, interleaved repeats.
            ReplayConfig uni = new ReplayConfig("best uniform", uniform, Map.of(), memory, pageSize);
            Map<String, TableDesign> perTable = perTable(chosen, uniform);
            ReplayConfig arrowUni = arrowCandidate(uni, events, split);
            if (arrowUni != null) uni = arrowUni;
            ReplayConfig rec = new ReplayConfig("recommended", uniform, perTable, memory, pageSize);
            List<ReplayConfig> finals = List.of(base, uni, rec);
            List<List<RunResult>> results = new ArrayList<>();
            for (int i = 0; i < finals.size(); i++) results.add(new ArrayList<>());
            results.get(0).add(baseRun);
            // Runs made already of exactly a finalist's configuration are its first repeat.
            if (uniJoint != null && uniJoint.config().equals(uni))
                results.get(1).add(uniJoint.run());
            if (recJoint != null && recJoint.config().equals(rec))
                results.get(2).add(recJoint.run());
            for (int r = 0; r < o.repeat(); r++) {
                for (int k = 0; k < finals.size(); k++) {
                    int i = (k + r) % finals.size();
                    if (r == 0 && !results.get(i).isEmpty()) continue; // the first run is one made above
                    ReplayConfig cfg = finals.get(i);
                    results.get(i)
                            .add(src.run(
                                    cfg,
                                    cfg.label() + (o.repeat() > 1 ? " #" + (r + 1) : ""),
                                    training,
                                    events,
                                    split,
                                    device,
                                    Map.of()));
                    jointRuns++;
                }
            }
            double mBase = modeledUs(results.get(0).get(0)),
                    mUni = modeledUs(results.get(1).get(0)),
                    mRec = modeledUs(results.get(2).get(0));
            String fallback = null;
            int recIndex = 2;
            if (mRec > mUni) {
                fallback = String.format(
                        Locale.ROOT,
                        "the per-table designs cost %.2f µs/query together against %.2f for the best uniform "
                                + "design: the uniform design is recommended",
                        mRec,
                        mUni);
                recIndex = 1;
            }
            if (Math.min(mRec, mUni) > mBase) {
                fallback = String.format(
                        Locale.ROOT,
                        "no design beat the baseline together (%.2f µs/query): keep the declared design",
                        mBase);
                recIndex = 0;
            }
            AutotuneReport.Finalist fBase =
                    finalist("baseline", base.describe(), results.get(0), results.get(0), baseRun);
            AutotuneReport.Finalist fUni =
                    finalist("best uniform", uni.describe(), results.get(1), results.get(0), baseRun);
            ReplayConfig recommendedCfg = recIndex == 2 ? rec : recIndex == 1 ? uni : base;
            AutotuneReport.Finalist fRec =
                    finalist("recommended", configLine(recommendedCfg), results.get(recIndex), results.get(0), baseRun);

            List<AutotuneReport.CurvePoint> curve = new ArrayList<>();
            List<ReplayConfig> curveConfigs = List.of(base, uni, recommendedCfg.withLabel("recommended"));
            for (int i = 0; i < curveConfigs.size(); i++) {
                RunResult r = results.get(i == 2 ? recIndex : i).get(0);
                curve.add(new AutotuneReport.CurvePoint(
                        curveConfigs.get(i).label(), memory, modeledUs(r), r.costPerQueryUs(), r.workingSetBytes()));
            }
            if (o.curve()) {
                for (long m : new long[] {memory / 2, memory * 2}) {
                    if (m < 2L * pageSize) continue;
                    for (ReplayConfig c : curveConfigs) {
                        RunResult r = src.run(
                                c.withMemory(m),
                                c.label() + " at " + ReplayConfig.sizeLabel(m),
                                training,
                                events,
                                split,
                                device,
                                Map.of());
                        jointRuns++;
                        curve.add(new AutotuneReport.CurvePoint(
                                c.label(), m, modeledUs(r), r.costPerQueryUs(), r.workingSetBytes()));
                    }
                }
            }
            curve.sort(Comparator.comparing(AutotuneReport.CurvePoint::config)
                    .thenComparingLong(AutotuneReport.CurvePoint::memoryBytes));

            Map<String, TableDesign> recommendedDesigns = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String t : tables)
                recommendedDesigns.put(
                        t, recIndex == 2 ? chosen.get(t) : recIndex == 1 ? uni.design() : TableDesign.BASELINE);
            List<AutotuneReport.TableChoice> choices = new ArrayList<>();
            boolean arrowChosen = recommendedCfg.arrow();
            for (String t : tables)
                choices.add(choice(t, recommendedDesigns.get(t), arrowChosen ? recommendedCfg : null));
            Map<String, Long> rows = new LinkedHashMap<>();
            for (LoadedTable lt : src.session().tables().values())
                rows.put(lt.def().name().toLowerCase(Locale.ROOT), lt.rows());
            Map<String, List<double[]>> skew =
                    AccessSkew.of(src.heat(training), n -> rows.getOrDefault(n.toLowerCase(Locale.ROOT), 0L));
            List<String> ddl = Ddl.of(src, choices, recommendedDesigns, configLine(recommendedCfg));
            long millis = (System.nanoTime() - started) / 1_000_000;
            return new AutotuneReport(
                    o.data().toString(),
                    o.trace().toString(),
                    o.train(),
                    training.size(),
                    events.size() - split,
                    memory,
                    fBase,
                    fUni,
                    fRec,
                    fallback,
                    choices,
                    List.copyOf(log),
                    List.copyOf(pruned),
                    curve,
                    cacheCurve(),
                    skew,
                    ddl,
                    millis,
                    oneReplay,
                    isolatedRuns,
                    jointRuns,
                    screeningNanos / 1_000_000);
        }
    }

    // ---- the trace by table ---------------------------------------------------------------

    /** Each table's training and held-out events; keys a join bound become the lookups they made on the baseline. */
    private void splitByTable(List<AccessEvent> events, int split, RunResult baseRun) {
        for (int i = 0; i < events.size(); i++) {
            AccessEvent e = events.get(i);
            Map<String, List<AccessEvent>> into = i < split ? trainT : heldT;
            List<AccessEvent> list = into.computeIfAbsent(e.table(), k -> new ArrayList<>());
            (i < split ? heldT : trainT).computeIfAbsent(e.table(), k -> new ArrayList<>());
            List<List<String>> bound = baseRun.joinBindings().get(i);
            if (bound == null) {
                list.add(e);
                continue;
            }
            List<String> cols = indexColumns(e.table(), e.index());
            for (List<String> literals : bound) {
                Map<String, String> key = new LinkedHashMap<>();
                for (int k = 0; k < literals.size(); k++) key.put(cols.get(k), literals.get(k));
                list.add(new AccessEvent(
                        e.table(),
                        e.operation(),
                        e.index(),
                        key,
                        List.copyOf(key.keySet()),
                        e.projected(),
                        e.predicate(),
                        e.updated(),
                        e.joined(),
                        e.functions(),
                        e.count(),
                        e.timeMillis(),
                        e.line(),
                        e.values(),
                        Map.of(),
                        e.bounds()));
            }
        }
    }

    private List<String> indexColumns(String table, String index) {
        TableDef t = src.schema().table(table).orElseThrow();
        if (index.equalsIgnoreCase("PRIMARY")) return t.primaryKey();
        return t.index(index).orElseThrow().columns();
    }

    /** Each table's share of the budget: its share of the baseline's working set, at least 64 pages. */
    private void shares(RunResult baseRun, int pageSize) {
        Map<String, Long> ws = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        baseRun.workingSetByStructure().forEach((k, v) -> {
            int dot = k.lastIndexOf('.');
            ws.merge(dot < 0 ? k : k.substring(0, dot), v, Long::sum);
        });
        long total = ws.values().stream().mapToLong(Long::longValue).sum();
        for (String t : heldT.keySet()) {
            long share = total == 0 ? memory : Math.round((double) memory * ws.getOrDefault(t, 0L) / total);
            shareT.put(t, Math.max(MIN_SHARE_PAGES * pageSize, share));
        }
    }

    // ---- candidates --------------------------------------------------------------------------

    /** The designs a dimension offers from {@code current}. */
    private List<TableDesign> options(String dimension, TableDesign current, String table) {
        List<TableDesign> out = new ArrayList<>();
        switch (dimension) {
            case "cluster" -> {
                out.add(current.with("cluster", "none"));
                out.add(current.with("cluster", "1"));
                out.add(current.with("cluster", "partition"));
                long span = Math.max(
                        1_000,
                        (table == null
                                        ? training.size() / Math.max(1, trainT.size())
                                        : trainT.get(table).size())
                                / 4);
                out.add(current.with("cluster", "partition")
                        .with("demote_after", String.valueOf(span))
                        .with("promote", "2"));
            }
            case "tight" -> {
                out.add(current.with("tight", "off"));
                out.add(current.with("tight", "on"));
            }
            case "split" -> {
                out.add(current.with("split", "none"));
                out.add(current.with("split", "cold"));
                out.add(current.with("split", "updates"));
            }
            case "cache" -> {
                out.add(current.with("cache", "off").with("cache_size", "1"));
                for (double s : CACHE_SIZES)
                    out.add(current.with("cache", "swap").with("cache_size", String.valueOf(s)));
            }
            case "layout" -> {
                for (Layout l : LAYOUTS) out.add(current.withLayout(l));
            }
            default -> throw new IllegalArgumentException(dimension);
        }
        return out;
    }

    private static final List<String> DIMENSIONS = List.of("cluster", "tight", "split", "cache", "layout");

    /**
     * The same physical design, written one way: tight types that change nothing are off, a cache
     * with nothing to keep is off, a split that keeps nothing apart is none. Null when the analysis
     * rules the design out for this table (recorded in {@link #pruned}).
     */
    private TableDesign canonical(String table, TableDesign d, boolean record) throws IOException, SQLException {
        TableDesign c = d;
        if (!c.tight().isEmpty()
                && tightChanges.computeIfAbsent(table, t -> changes(t)).isEmpty()) {
            c = c.with("tight", "off");
            prune(
                    record,
                    table,
                    "tight",
                    d.tightLabel(),
                    "the analyzer's tight types change no column the engine can store exactly");
        }
        if (c.cache() != CachePolicy.OFF) {
            Map<String, List<String>> advice =
                    src.cacheAdvice(training).getOrDefault(table.toLowerCase(Locale.ROOT), Map.of());
            if (advice.values().stream().allMatch(List::isEmpty)) {
                c = c.with("cache", "off").with("cache_size", "1");
                prune(
                        record,
                        table,
                        "cache",
                        d.cache().name().toLowerCase(Locale.ROOT),
                        "no read in the training events would be answered by an index's key and cacheable fields");
            }
        }
        if (!c.split().none() && src.resolveSplit(table, c, training).split().none()) {
            prune(
                    record,
                    table,
                    "split",
                    c.split().label(),
                    c.split().mode().equals("cold")
                            ? "the training events read every column (or keys on it)"
                            : "the training events update no column outside the keys");
            c = c.withSplit(TableDesign.Split.NONE);
        }
        if (c.clusterFraction() > 0 || c.partition()) {
            boolean keyed = trainT.getOrDefault(table, List.of()).stream()
                    .anyMatch(e ->
                            e.operation() != Operation.INSERT && e.operation() != Operation.SCAN && e.keyComplete());
            if (!keyed && !c.partition()) {
                prune(
                        record,
                        table,
                        "cluster",
                        c.clusterLabel(),
                        "the training events read no tuple of this table by key: no heat to cluster by");
                return null;
            }
        }
        return c;
    }

    private List<String[]> changes(String table) {
        try {
            return src.tightChanges(table);
        } catch (IOException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private final java.util.Set<String> prunedSeen = new java.util.HashSet<>();

    private void prune(boolean record, String table, String dimension, String value, String reason) {
        if (record && prunedSeen.add(table + "|" + dimension + "|" + value)) {
            pruned.add(new AutotuneReport.Pruned(table, dimension, value, reason));
        }
    }

    /** One table's design: coordinate descent over {@link #DIMENSIONS}, successive halving within each step. */
    private TableDesign searchTable(String table) throws IOException, SQLException {
        TableDesign current = TableDesign.BASELINE;
        for (String dim : DIMENSIONS) {
            List<TableDesign> candidates = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            for (TableDesign d : options(dim, current, table)) {
                TableDesign c = canonical(table, d, true);
                if (c == null || seen.contains(c.describe())) continue;
                seen.add(c.describe());
                candidates.add(c);
            }
            if (candidates.size() < 2) continue;
            current = halving(table, dim, candidates, (d, prefix) -> evaluate(table, d, prefix).modeled);
        }
        evaluate(table, current, 1.0);
        return current;
    }

    /** The uniform design: the same descent, each candidate scored as the sum over the tables of their alone-replays. */
    private TableDesign searchUniform(List<String> tables) throws IOException, SQLException {
        TableDesign current = TableDesign.BASELINE;
        for (String dim : DIMENSIONS) {
            List<TableDesign> candidates = new ArrayList<>();
            for (TableDesign d : options(dim, current, null)) if (!candidates.contains(d)) candidates.add(d);
            current = halving("uniform", dim, candidates, (d, prefix) -> uniformScore(tables, d, prefix));
        }
        return current;
    }

    /** A uniform design's modeled cost per query over every table: each table alone, weighted by its held-out events. */
    private double uniformScore(List<String> tables, TableDesign d, double prefix) throws IOException, SQLException {
        double sum = 0;
        long n = 0;
        for (String t : tables) {
            TableDesign c = canonical(t, d, false);
            if (c == null) c = canonicalIgnoringPrune(t, d);
            Eval e = evaluate(t, c, prefix);
            sum += e.modeled * e.run.queries();
            n += e.run.queries();
        }
        return n == 0 ? 0 : sum / n;
    }

    /** A uniform design applies to every table, even one the per-table search would not try it on. */
    private TableDesign canonicalIgnoringPrune(String table, TableDesign d) throws IOException, SQLException {
        TableDesign nsm = canonical(table, d.withLayout(Layout.NSM), false);
        TableDesign base = nsm == null ? d.with("cluster", "none").withLayout(Layout.NSM) : nsm;
        return base.withLayout(d.layout());
    }

    @FunctionalInterface
    private interface Score {
        double of(TableDesign d, double prefix) throws IOException, SQLException;
    }

    /**
     * Successive halving: every candidate on the first quarter of the held-out events, the better
     * half on the first half, the better half of those on all of them; ties go to the candidate
     * listed first (the incumbent, or the simpler design).
     */
    private TableDesign halving(String table, String step, List<TableDesign> candidates, Score score)
            throws IOException, SQLException {
        List<TableDesign> alive = new ArrayList<>(candidates);
        for (int rung = 0; rung < RUNGS.length; rung++) {
            double prefix = RUNGS[rung];
            Map<TableDesign, Double> s = new LinkedHashMap<>();
            for (TableDesign d : alive) s.put(d, score.of(d, prefix));
            List<TableDesign> order = new ArrayList<>(alive);
            order.sort(Comparator.comparingDouble(s::get)); // stable: ties keep the listed order
            int keep = rung == RUNGS.length - 1 ? 1 : Math.max(1, (alive.size() + 1) / 2);
            TableDesign best = order.get(0);
            for (int i = 0; i < order.size(); i++) {
                TableDesign d = order.get(i);
                boolean survives = i < keep;
                String status = survives ? (keep == 1 ? "chosen" : "kept") : "rejected";
                String reason = survives
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "%.2f µs/query against %.2f for %s on the first %.0f%% of the held-out events",
                                s.get(d),
                                s.get(best),
                                best.describe(),
                                100 * prefix);
                record(table, step, d, prefix, s.get(d), status, reason);
            }
            alive = new ArrayList<>(order.subList(0, keep));
            if (alive.size() == 1) return alive.get(0);
        }
        return alive.get(0);
    }

    private void record(
            String table, String step, TableDesign d, double prefix, double modeled, String status, String reason)
            throws IOException, SQLException {
        Eval e = table.equals("uniform") ? null : evaluated.get(key(table, d, prefix));
        RunResult r = e == null ? null : e.run;
        RunReport run = r == null || r.queries() == 0 ? null : Replay.report(List.of(r), List.of(r));
        RunReport base = null;
        if (run != null) {
            RunResult b = evaluate(table, TableDesign.BASELINE, prefix).run;
            base = Replay.report(List.of(b), List.of(b));
            run = Replay.report(List.of(r), List.of(b));
        }
        log.add(new AutotuneReport.Evaluation(
                table,
                step,
                d.describe(),
                prefix,
                r == null ? 0 : r.queries(),
                modeled,
                r == null ? 0 : r.costPerQueryUs(),
                r == null ? 0 : r.workingSetBytes(),
                r == null ? 0 : r.bufferHitRate(),
                r == null ? 0 : r.cacheHitRate(),
                status,
                reason,
                run,
                base));
    }

    private static String key(String table, TableDesign d, double prefix) {
        return table.toLowerCase(Locale.ROOT) + "|" + d.describe() + "|" + prefix;
    }

    /** {@code table} alone in design {@code d}, at its share of the budget: its training events, then a prefix of its held-out ones. */
    private Eval evaluate(String table, TableDesign d, double prefix) throws IOException, SQLException {
        String k = key(table, d, prefix);
        Eval known = evaluated.get(k);
        if (known != null) return known;
        List<AccessEvent> train = screeningTraining(table);
        List<AccessEvent> held = heldT.get(table);
        int n = (int) Math.ceil(held.size() * prefix);
        List<AccessEvent> evs = new ArrayList<>(train.size() + n);
        evs.addAll(train);
        evs.addAll(held.subList(0, n));
        ReplayConfig cfg = new ReplayConfig(
                table + ": " + d.describe(),
                TableDesign.BASELINE,
                Map.of(table, d),
                shareT.get(table),
                ReplayConfig.DEFAULT_PAGE_SIZE);
        RunResult r;
        long t0 = System.nanoTime();
        try {
            r = src.screen(
                    cfg,
                    table + " " + d.describe() + " @" + Math.round(100 * prefix) + "%",
                    train,
                    evs,
                    train.size(),
                    device);
        } catch (BadInputException lossy) {
            // A design whose tight types cannot hold a value of the table: it is no candidate.
            warnings.accept("autotune: " + table + " " + d.describe() + " rejected: " + lossy.getMessage());
            Eval bad = new Eval(emptyRun(), Double.MAX_VALUE);
            evaluated.put(k, bad);
            return bad;
        }
        isolatedRuns++;
        screeningNanos += System.nanoTime() - t0;
        Eval e = new Eval(r, modeledUs(r));
        evaluated.put(k, e);
        return e;
    }

    /**
     * The training a screening run replays before the held-out prefix: every write of the first
     * half of the table's training events (so the table reaches the state the training left), then
     * the second half whole (its reads are the heat the design learns, and they warm the pool).
     * Half the reads of a full training replay, and still nothing from the held-out events.
     */
    private List<AccessEvent> screeningTraining(String table) {
        return screening.computeIfAbsent(table, t -> {
            List<AccessEvent> train = trainT.getOrDefault(t, List.of());
            int half = train.size() / 2;
            List<AccessEvent> out = new ArrayList<>();
            for (AccessEvent e : train.subList(0, half)) {
                if (e.operation() == Operation.INSERT
                        || e.operation() == Operation.UPDATE
                        || e.operation() == Operation.DELETE) out.add(e);
            }
            out.addAll(train.subList(half, train.size()));
            return out;
        });
    }

    private final Map<String, List<AccessEvent>> screening = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    private static RunResult emptyRun() {
        return new RunResult(
                "",
                "",
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                new dev.wastecheck.engine.metrics.LatencyRecorder().summary(),
                0,
                0,
                0,
                0,
                0,
                Map.of(),
                new long[0],
                new java.util.BitSet(),
                Map.of(),
                Map.of(),
                0,
                0,
                0,
                Map.of(),
                Map.of(),
                0,
                List.of());
    }

    // ---- the report -----------------------------------------------------------------------------

    private AutotuneReport.Finalist finalist(
            String name, String config, List<RunResult> runs, List<RunResult> baseline, RunResult base0) {
        RunReport report = Replay.report(runs, baseline);
        return new AutotuneReport.Finalist(
                name, config, report, modeledUs(runs.get(0)), Replay.mismatches(base0, runs.get(0)));
    }

    /** A configuration as {@code replay --config} takes it: the common design, then each table's own keys. */
    static String configLine(ReplayConfig c) {
        // with Arrow blocks the pool is what the blocks leave of the budget: the line says so
        StringBuilder b = new StringBuilder(
                c.arrow()
                        ? c.describe(c.design()) + ",memory=" + ReplayConfig.sizeLabel(c.memoryBytes())
                        : c.design().describe());
        Map<String, String> shared = c.design().settings();
        for (Map.Entry<String, TableDesign> t : c.tables().entrySet()) {
            if (t.getValue().equals(c.design())) continue;
            // A table's keys apply on top of the shared design: a key its own description leaves out (a default such
            // as hot=read or demote_after=0) is written when the shared design sets it otherwise.
            java.util.Set<String> described = new java.util.HashSet<>();
            for (String kv : t.getValue().describe().split(",")) described.add(kv.substring(0, kv.indexOf('=')));
            for (Map.Entry<String, String> kv : t.getValue().settings().entrySet()) {
                String k = kv.getKey();
                if (!described.contains(k) && kv.getValue().equals(shared.get(k))) continue;
                if (c.arrow() && k.equals("layout")) continue; // Arrow blocks hold every table
                b.append(',')
                        .append(t.getKey())
                        .append('.')
                        .append(k)
                        .append('=')
                        .append(kv.getValue());
            }
        }
        return b.toString();
    }

    /**
     * {@code layout=arrow} is a setting of the whole database (one Arrow storage, one collector and
     * one transformation; Mainlining Databases §3-§4), so it is not a per-table candidate: it is
     * tried once, as the best uniform design with its heaps in Arrow blocks, jointly on every
     * held-out event. The blocks live in memory beside the buffer pool, so they count against the
     * budget: a sizing run measures them, and the candidate's pool gets what they leave. It
     * replaces the uniform design on pages only when its modeled cost is lower on the same events.
     *
     * @return the Arrow configuration when it wins, else null (the log says why)
     */
    private ReplayConfig arrowCandidate(ReplayConfig pages, List<AccessEvent> events, int split)
            throws IOException, SQLException {
        TableDesign d =
                pages.design().split().none() ? pages.design() : pages.design().with("split", "none");
        ReplayConfig sizing = new ReplayConfig(
                "best uniform, arrow",
                d,
                Map.of(),
                memory,
                pages.pageSize(),
                true,
                true,
                ReplayConfig.DEFAULT_COLD_AFTER);
        RunResult probe =
                src.run(sizing, "layout=arrow (sizing its blocks)", training, events, split, device, Map.of());
        jointRuns++;
        long blocks = Math.max(0, probe.memoryBytes() - memory);
        long pool = memory - blocks;
        String described = sizing.describe(d);
        if (pool < 2L * pages.pageSize()) {
            log.add(new AutotuneReport.Evaluation(
                    "uniform",
                    "layout=arrow",
                    described,
                    1.0,
                    probe.queries(),
                    modeledUs(probe),
                    probe.costPerQueryUs(),
                    probe.workingSetBytes(),
                    probe.bufferHitRate(),
                    probe.cacheHitRate(),
                    "rejected",
                    "its Arrow blocks take " + mib(blocks) + " of the " + mib(memory)
                            + " budget, leaving the buffer pool less than two pages",
                    null,
                    null));
            return null;
        }
        ReplayConfig arrow = sizing.withMemory(pool);
        RunResult a = src.run(arrow, "layout=arrow", training, events, split, device, Map.of());
        RunResult p = src.run(
                pages, "best uniform on pages (against layout=arrow)", training, events, split, device, Map.of());
        jointRuns += 2;
        double ma = modeledUs(a), mp = modeledUs(p);
        // Elsewhere counts decide (the same recommendation on any machine, twice). Here the model, where a tuple
        // touched in a block counts as a pin, misses what the blocks cost per access (a transaction and a version
        // check per operation, Mainlining Databases §3.1): Arrow must also be measured at least 10% faster on the
        // same events, or the pages stay. This one decision can therefore differ between two runs near the margin.
        boolean wins = ma < mp && a.costPerQueryUs() < 0.9 * p.costPerQueryUs();
        log.add(new AutotuneReport.Evaluation(
                "uniform",
                "layout=arrow",
                arrow.describe(d),
                1.0,
                a.queries(),
                ma,
                a.costPerQueryUs(),
                a.workingSetBytes(),
                a.bufferHitRate(),
                a.cacheHitRate(),
                wins ? "chosen" : "rejected",
                String.format(
                        Locale.ROOT,
                        "modeled %.2f µs/query, measured %.2f, with %s of Arrow blocks and a %s pool, against "
                                + "%.2f and %.2f for %s on pages, jointly on all the held-out events",
                        ma,
                        a.costPerQueryUs(),
                        mib(blocks),
                        mib(pool),
                        mp,
                        p.costPerQueryUs(),
                        pages.describe(pages.design())),
                null,
                null));
        return wins ? arrow.withLabel(pages.label()) : null;
    }

    /**
     * The recommendation's per-table designs: those that differ from the uniform design. Tables the search did not
     * tune (no held-out event) keep the uniform design, as in the uniform finalist: when every table chose the uniform
     * design, the two finalists are the same configuration.
     */
    private Map<String, TableDesign> perTable(Map<String, TableDesign> chosen, TableDesign uniform)
            throws IOException, SQLException {
        Map<String, TableDesign> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, TableDesign> c : chosen.entrySet()) {
            TableDesign u = canonical(c.getKey(), uniform, false);
            if (u == null) u = canonicalIgnoringPrune(c.getKey(), uniform);
            if (!c.getValue().equals(u)) out.put(c.getKey(), c.getValue());
        }
        return out;
    }

    /** A joint comparison's outcome: whether hot=refs was kept, and the run of the configuration kept. */
    private record Joint(boolean refs, ReplayConfig config, RunResult run) {}

    /**
     * Replays a configuration with and without {@code hot=refs} jointly on every held-out event and logs the
     * comparison (with the rules learned); hot=refs is kept when it costs less (modeled) and returns the same results.
     */
    private Joint hotByReference(
            String what,
            TableDesign design,
            Map<String, TableDesign> tables,
            TableDesign refsDesign,
            Map<String, TableDesign> refsTables,
            List<AccessEvent> events,
            int split)
            throws IOException, SQLException {
        int pageSize = ReplayConfig.DEFAULT_PAGE_SIZE;
        String label = what.equals("uniform") ? "best uniform" : "recommended";
        ReplayConfig plain = new ReplayConfig(label, design, tables, memory, pageSize);
        ReplayConfig refs = new ReplayConfig(label, refsDesign, refsTables, memory, pageSize);
        RunResult a = src.run(plain, what + " (against hot=refs)", training, events, split, device, Map.of());
        RunResult b = src.run(refs, what + ", hot=refs", training, events, split, device, Map.of());
        jointRuns += 2;
        double ma = modeledUs(a), mb = modeledUs(b);
        boolean same = Replay.mismatches(a, b) == 0;
        // with no rule kept the two are the same design, and the same cost does not win
        boolean wins = mb < ma && same;
        String rules = b.hotRules().isEmpty() ? "no rule learned" : String.join("; ", b.hotRules());
        log.add(new AutotuneReport.Evaluation(
                what.equals("uniform") ? "uniform" : "all tables",
                "hot=refs",
                configLine(refs),
                1.0,
                b.queries(),
                mb,
                b.costPerQueryUs(),
                b.workingSetBytes(),
                b.bufferHitRate(),
                b.cacheHitRate(),
                wins ? "chosen" : "rejected",
                String.format(
                        Locale.ROOT,
                        "%.2f µs/query against %.2f without hot=refs (working set %s against %s), jointly on all"
                                + " the held-out events%s; %s",
                        mb,
                        ma,
                        mib(b.workingSetBytes()),
                        mib(a.workingSetBytes()),
                        same ? "" : "; RESULTS DIFFER, not kept",
                        rules),
                null,
                null));
        return wins ? new Joint(true, refs, b) : new Joint(false, plain, a);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }

    /** @param arrow the recommended configuration when it keeps the heaps in Arrow blocks, else null */
    private AutotuneReport.TableChoice choice(String t, TableDesign d, ReplayConfig arrow)
            throws IOException, SQLException {
        TableDesign resolved = src.resolveSplit(t, d, training);
        Map<String, List<String>> advice = src.cacheAdvice(training).getOrDefault(t.toLowerCase(Locale.ROOT), Map.of());
        List<String> cacheFields = new ArrayList<>();
        if (d.cache() != CachePolicy.OFF) advice.forEach((ix, f) -> f.forEach(c -> cacheFields.add(ix + "." + c)));
        Eval mine = evaluated.get(key(t, d, 1.0));
        if (mine == null) mine = evaluate(t, d, 1.0);
        Eval base = evaluate(t, TableDesign.BASELINE, 1.0);
        return new AutotuneReport.TableChoice(
                t,
                arrow == null ? d.describe() : arrow.describe(d),
                arrow == null ? d.layout().name().toLowerCase(Locale.ROOT) : "arrow",
                d.cache().name().toLowerCase(Locale.ROOT),
                cacheFields,
                d.clusterLabel(),
                d.tightLabel(),
                resolved.split().columns(),
                d.tight().isEmpty() ? List.of() : tightChanges.getOrDefault(t, List.of()),
                shareT.getOrDefault(t, 0L),
                heldT.getOrDefault(t, List.of()).size(),
                mine.modeled,
                base.modeled);
    }

    /** Cache hit rate against cache size, from the evaluations that tried the cache on all held-out events (or the longest prefix). */
    private List<AutotuneReport.CachePoint> cacheCurve() {
        Map<String, AutotuneReport.CachePoint> best = new TreeMap<>();
        Map<String, Double> prefixOf = new HashMap<>();
        for (AutotuneReport.Evaluation e : log) {
            if (!e.step().equals("cache")
                    || e.table().equals("uniform")
                    || !e.design().contains("cache=swap")) continue;
            double size = Double.parseDouble(e.design().replaceAll(".*cache_size=([0-9.]+).*", "$1"));
            String k = e.table() + "|" + size;
            if (prefixOf.getOrDefault(k, -1.0) < e.prefix()) {
                prefixOf.put(k, e.prefix());
                best.put(k, new AutotuneReport.CachePoint(e.table(), size, e.cacheHitRate()));
            }
        }
        return new ArrayList<>(best.values());
    }
}

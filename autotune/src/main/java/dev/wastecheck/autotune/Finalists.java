package dev.wastecheck.autotune;

import dev.wastecheck.autotune.AutotuneReport.CurvePoint;
import dev.wastecheck.autotune.AutotuneReport.Evaluation;
import dev.wastecheck.autotune.AutotuneReport.Finalist;
import dev.wastecheck.autotune.AutotuneReport.TableChoice;
import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.replay.Replay;
import dev.wastecheck.replay.ReplaySource;
import dev.wastecheck.replay.RunReport;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The search's last step, every replay joint (all tables in one buffer pool of the budget, every
 * held-out event): hot by reference tried on the chosen designs, Arrow blocks tried as the best
 * uniform design, then the finalists (the baseline, the best uniform design, the per-table
 * recommendation) replayed {@code repeat} times interleaved, and at half and twice the budget.
 * The recommendation is never worse than the best uniform design: if it is, jointly, the uniform
 * design is recommended instead (and the report says why).
 */
final class Finalists {
    /** Which finalist is recommended, and why when it is not the per-table designs. */
    enum Pick {
        BASELINE,
        UNIFORM,
        PER_TABLE
    }

    /** The pick, and the reason for a fallback (null when the per-table designs won). */
    record Choice(Pick pick, String fallback) {}

    /** A joint comparison's outcome: whether hot=refs was kept, and the run of the configuration kept. */
    private record Joint(boolean refs, EngineConfig config, ExecutionResult run) {}

    /** The finalists as measured, and what the report says of the recommendation. */
    record Outcome(
            Finalist baseline,
            Finalist bestUniform,
            Finalist recommended,
            String fallback,
            List<CurvePoint> curve,
            List<TableChoice> choices,
            Map<String, TableDesign> recommendedDesigns,
            String recommendedLine,
            long jointRuns) {}

    private final ReplaySource src;
    private final DeviceModel device;
    private final TraceSplit split;
    private final long memory;
    private final AutotuneOptions options;
    private final Candidates candidates;
    private final Screening screening;
    private final CandidateLog log;
    private long jointRuns;

    Finalists(
            ReplaySource src,
            DeviceModel device,
            TraceSplit split,
            long memory,
            AutotuneOptions options,
            Candidates candidates,
            Screening screening,
            CandidateLog log) {
        this.src = src;
        this.device = device;
        this.split = split;
        this.memory = memory;
        this.options = options;
        this.candidates = candidates;
        this.screening = screening;
        this.log = log;
    }

    /**
     * Which finalist to recommend from their modeled costs: the per-table designs unless the best
     * uniform design costs less together; the baseline if neither beats it.
     */
    static Choice pick(double baseline, double uniform, double perTable) {
        Choice c = new Choice(Pick.PER_TABLE, null);
        if (perTable > uniform) {
            c = new Choice(
                    Pick.UNIFORM,
                    String.format(
                            Locale.ROOT,
                            "the per-table designs cost %.2f µs/query together against %.2f for the best uniform "
                                    + "design: the uniform design is recommended",
                            perTable,
                            uniform));
        }
        if (Math.min(perTable, uniform) > baseline) {
            c = new Choice(
                    Pick.BASELINE,
                    String.format(
                            Locale.ROOT,
                            "no design beat the baseline together (%.2f µs/query): keep the declared design",
                            baseline));
        }
        return c;
    }

    /**
     * @param base    the baseline's configuration
     * @param baseRun the baseline's joint run: the finalists' yardstick and its first repeat
     */
    Outcome run(DesignSearch.Designs designs, EngineConfig base, ExecutionResult baseRun)
            throws IOException, SQLException {
        int pageSize;
        TableDesign uniform = designs.uniform();
        Map<String, TableDesign> chosen = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        chosen.putAll(designs.perTable());

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
            uniJoint = hotByReference("uniform", uniform, Map.of(), uniformRefs, Map.of());
            if (uniJoint.refs()) uniform = uniformRefs;
        }
        // When every table chose the uniform design, the recommendation is the uniform design: nothing to compare.
        boolean sameAsUniform = candidates.perTable(chosen, uniformBefore).isEmpty();
        if (sameAsUniform && uniJoint != null && uniJoint.refs()) chosen.putAll(chosenRefs);
        if (!sameAsUniform && !chosenRefs.equals(chosen)) {
            recJoint = hotByReference(
                    "recommended",
                    uniform,
                    candidates.perTable(chosen, uniform),
                    uniform,
                    candidates.perTable(chosenRefs, uniform));
            if (recJoint.refs()) chosen.putAll(chosenRefs);
        }

        // The page size is one setting of the whole database (one pool): tried for the uniform design, jointly.
        Joint paged = pageSizeCandidate(uniform, uniJoint);
        pageSize = paged.config().pageSize();
        uniJoint = paged; // its run is the uniform finalist's first repeat
        EngineConfig uni = EngineConfig.builder("best uniform", memory)
                .design(uniform)
                .pageSize(pageSize)
                .build();
        Map<String, TableDesign> perTable = candidates.perTable(chosen, uniform);
        // With Arrow blocks, each table's figures and statements are those of the page design the blocks replace.
        TableDesign uniPages = onPages(uni.design());
        EngineConfig arrowUni = arrowCandidate(uni);
        if (arrowUni != null) uni = arrowUni;
        else uniPages = uni.design();
        EngineConfig rec = EngineConfig.builder("recommended", memory)
                .design(uniform)
                .tables(perTable)
                .pageSize(pageSize)
                .build();

        // The finalists, on every held-out event, interleaved repeats (the order rotates each round).
        List<EngineConfig> finals = List.of(base, uni, rec);
        List<List<ExecutionResult>> results = new ArrayList<>();
        for (int i = 0; i < finals.size(); i++) results.add(new ArrayList<>());
        results.get(0).add(baseRun);
        // Runs made already of exactly a finalist's configuration are its first repeat.
        if (uniJoint != null && uniJoint.config().equals(uni)) results.get(1).add(uniJoint.run());
        if (recJoint != null && recJoint.config().equals(rec)) results.get(2).add(recJoint.run());
        for (int r = 0; r < options.repeat(); r++) {
            for (int k = 0; k < finals.size(); k++) {
                int i = (k + r) % finals.size();
                if (r == 0 && !results.get(i).isEmpty()) continue; // the first run is one made above
                EngineConfig cfg = finals.get(i);
                results.get(i).add(joint(cfg, cfg.label() + (options.repeat() > 1 ? " #" + (r + 1) : "")));
            }
        }
        double mBase = Autotune.modeledUs(results.get(0).get(0)),
                mUni = Autotune.modeledUs(results.get(1).get(0)),
                mRec = Autotune.modeledUs(results.get(2).get(0));
        Choice choice = pick(mBase, mUni, mRec);
        int recIndex = choice.pick().ordinal(); // BASELINE 0, UNIFORM 1, PER_TABLE 2: the finalists' order
        Finalist fBase = finalist("baseline", base.describe(), results.get(0), results.get(0), baseRun);
        Finalist fUni = finalist("best uniform", uni.describe(), results.get(1), results.get(0), baseRun);
        EngineConfig recommendedCfg = finals.get(recIndex);
        Finalist fRec =
                finalist("recommended", configLine(recommendedCfg), results.get(recIndex), results.get(0), baseRun);

        List<CurvePoint> curve = curve(List.of(base, uni, recommendedCfg.withLabel("recommended")), results, recIndex);

        Map<String, TableDesign> recommendedDesigns = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String t : split.tables())
            recommendedDesigns.put(
                    t,
                    switch (choice.pick()) {
                        case PER_TABLE -> chosen.get(t);
                        case UNIFORM -> uniPages;
                        case BASELINE -> TableDesign.BASELINE;
                    });
        List<TableChoice> choices = new ArrayList<>();
        boolean arrowChosen = recommendedCfg.arrow();
        for (String t : split.tables())
            choices.add(choice(t, recommendedDesigns.get(t), arrowChosen ? recommendedCfg : null));
        return new Outcome(
                fBase,
                fUni,
                fRec,
                choice.fallback(),
                curve,
                choices,
                Collections.unmodifiableMap(recommendedDesigns),
                configLine(recommendedCfg),
                jointRuns);
    }

    /** One joint replay: every table in one pool, the training unmeasured, every held-out event measured. */
    private ExecutionResult joint(EngineConfig cfg, String label) throws IOException, SQLException {
        jointRuns++;
        return src.run(cfg, label, split.trainingEvents(), split.events(), split.split(), device, Map.of());
    }

    /** The finalists' cost against the budget: the runs at the budget, and with the curve at half and twice it. */
    private List<CurvePoint> curve(List<EngineConfig> configs, List<List<ExecutionResult>> results, int recIndex)
            throws IOException, SQLException {
        List<CurvePoint> curve = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            ExecutionResult r = results.get(i == 2 ? recIndex : i).get(0);
            curve.add(new CurvePoint(
                    configs.get(i).label(), memory, Autotune.modeledUs(r), r.costPerQueryUs(), r.workingSetBytes()));
        }
        if (options.curve()) {
            for (long m : new long[] {memory / 2, memory * 2}) {
                if (m < 2L * EngineConfig.DEFAULT_PAGE_SIZE) continue;
                for (EngineConfig c : configs) {
                    ExecutionResult r = joint(c.withMemory(m), c.label() + " at " + EngineConfig.sizeLabel(m));
                    curve.add(new CurvePoint(
                            c.label(), m, Autotune.modeledUs(r), r.costPerQueryUs(), r.workingSetBytes()));
                }
            }
        }
        curve.sort(Comparator.comparing(CurvePoint::config).thenComparingLong(CurvePoint::memoryBytes));
        return curve;
    }

    private static Finalist finalist(
            String name,
            String config,
            List<ExecutionResult> runs,
            List<ExecutionResult> baseline,
            ExecutionResult base0) {
        RunReport report = Replay.report(runs, baseline);
        return new Finalist(
                name, config, report, Autotune.modeledUs(runs.get(0)), Replay.mismatches(base0, runs.get(0)));
    }

    /** A configuration as {@code replay --config} takes it: the common design, then each table's own keys. */
    static String configLine(EngineConfig c) {
        // with Arrow blocks the pool is what the blocks leave of the budget: the line says so
        StringBuilder b = new StringBuilder(
                c.arrow()
                        ? c.describe(c.design()) + ",memory=" + EngineConfig.sizeLabel(c.memoryBytes())
                        : c.design().describe());
        if (c.pageSize() != EngineConfig.DEFAULT_PAGE_SIZE)
            b.append(",page_size=").append(c.pageSize() >> 10).append('K');
        Map<String, String> shared = c.design().settings();
        for (Map.Entry<String, TableDesign> t : c.tables().entrySet()) {
            if (t.getValue().equals(c.design())) continue;
            // A table's keys apply on top of the shared design: a key its own description leaves out (a default such
            // as hot=read or demote_after=0) is written when the shared design sets it otherwise.
            Set<String> described = new HashSet<>();
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
     * Page sizes tried beside the default 8 KiB. A page is the unit the working set counts: a structure a held-out
     * event touches in one place (a cold heap's page a demotion writes, a cold index's leaf a lookup descends to, a
     * page of hot texts beside unread ones) is charged a whole page, so smaller pages charge less of what the events
     * did not touch, and larger ones hold more of a structure the events read whole in fewer pins (docs/benchmarks.md,
     * "Pages of 4 KiB chosen by the search").
     */
    static final int[] PAGE_SIZES = {4 << 10, 16 << 10};

    /** The fewest pages a pool must hold for a page size to be tried (the dictionaries and caches come out of it). */
    static final long MIN_PAGES = 16;

    /**
     * The page size is a setting of the whole database (one buffer pool of pages of one size), so it is not a
     * per-table candidate: the uniform design is replayed jointly at the default size and at each size of {@link
     * #PAGE_SIZES}, on every held-out event, and of the sizes that return the default's results the first in {@link
     * Autotune#rank}'s order is kept (those within the model's error of the cheapest, by working set; the default
     * first on a tie). Every size is ranked against every other at once: comparing each with the size kept so far,
     * one pair at a time, made the choice depend on the order the sizes were tried (a size within the error of the
     * one that beat the default, with a smaller working set, was never compared with it).
     *
     * @param uniJoint the uniform design's joint run at the default size, when one was made (hot=refs)
     * @return the size kept, with its configuration and run
     */
    private Joint pageSizeCandidate(TableDesign uniform, Joint uniJoint) throws IOException, SQLException {
        EngineConfig atDefault =
                EngineConfig.builder("best uniform", memory).design(uniform).build();
        ExecutionResult base = uniJoint != null && uniJoint.config().equals(atDefault)
                ? uniJoint.run()
                : joint(atDefault, "best uniform (against other page sizes)");
        record Sized(EngineConfig config, ExecutionResult run, boolean same) {}
        List<Sized> tried = new ArrayList<>();
        tried.add(new Sized(atDefault, base, true));
        for (int size : PAGE_SIZES) {
            if (memory < MIN_PAGES * size) {
                log.prune(
                        "uniform",
                        "page_size",
                        (size >> 10) + "K",
                        "a pool of " + mib(memory) + " holds fewer than " + MIN_PAGES + " pages of this size");
                continue;
            }
            EngineConfig c = EngineConfig.builder("best uniform", memory)
                    .design(uniform)
                    .pageSize(size)
                    .build();
            ExecutionResult r = joint(c, "best uniform, page_size=" + (size >> 10) + "K");
            tried.add(new Sized(c, r, Replay.mismatches(base, r) == 0));
        }
        List<Sized> ranked = Autotune.rank(
                tried.stream().filter(Sized::same).toList(),
                x -> Autotune.modeledUs(x.run()),
                x -> x.run().workingSetBytes());
        Sized kept = ranked.get(0);
        double cheapest = ranked.stream()
                .mapToDouble(x -> Autotune.modeledUs(x.run()))
                .min()
                .getAsDouble();
        for (Sized x : tried) {
            if (x == tried.get(0)) continue; // the default's own run is logged with the uniform design
            double mr = Autotune.modeledUs(x.run()), md = Autotune.modeledUs(base);
            log.add(new Evaluation(
                    "uniform",
                    "page_size",
                    x.config().describe(),
                    1.0,
                    x.run().queries(),
                    mr,
                    x.run().costPerQueryUs(),
                    x.run().workingSetBytes(),
                    x.run().bufferHitRate(),
                    x.run().cacheHitRate(),
                    x == kept ? CandidateStatus.CHOSEN : CandidateStatus.REJECTED,
                    String.format(
                            Locale.ROOT,
                            "%.3f µs/query against %.3f at page_size=%dK, the default (working set %s against %s);"
                                    + " %s the cheapest size's %.3f; the size kept: %dK; jointly on all the held-out"
                                    + " events%s",
                            mr,
                            md,
                            atDefault.pageSize() >> 10,
                            mib(x.run().workingSetBytes()),
                            mib(base.workingSetBytes()),
                            Autotune.indistinguishable(mr, cheapest)
                                    ? "within the model's error of"
                                    : "beyond the model's error of",
                            cheapest,
                            kept.config().pageSize() >> 10,
                            x.same() ? "" : "; RESULTS DIFFER, not kept"),
                    null,
                    null));
        }
        return new Joint(uniJoint != null && uniJoint.refs(), kept.config(), kept.run());
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
    private EngineConfig arrowCandidate(EngineConfig pages) throws IOException, SQLException {
        TableDesign d = onPages(pages.design());
        EngineConfig sizing = EngineConfig.builder("best uniform, arrow", memory)
                .design(d.withLayout(Layout.ARROW))
                .pageSize(pages.pageSize())
                .build();
        ExecutionResult probe = joint(sizing, "layout=arrow (sizing its blocks)");
        long blocks = Math.max(0, probe.memoryBytes() - memory);
        long pool = memory - blocks;
        String described = sizing.describe(d);
        if (pool < 2L * pages.pageSize()) {
            log.add(new Evaluation(
                    "uniform",
                    "layout=arrow",
                    described,
                    1.0,
                    probe.queries(),
                    Autotune.modeledUs(probe),
                    probe.costPerQueryUs(),
                    probe.workingSetBytes(),
                    probe.bufferHitRate(),
                    probe.cacheHitRate(),
                    CandidateStatus.REJECTED,
                    "its Arrow blocks take " + mib(blocks) + " of the " + mib(memory)
                            + " budget, leaving the buffer pool less than two pages",
                    null,
                    null));
            return null;
        }
        EngineConfig arrow = sizing.withMemory(pool);
        ExecutionResult a = joint(arrow, "layout=arrow");
        ExecutionResult p = joint(pages, "best uniform on pages (against layout=arrow)");
        double ma = Autotune.modeledUs(a), mp = Autotune.modeledUs(p);
        // Elsewhere counts decide (the same recommendation on any machine, twice). Here the model, where a tuple
        // touched in a block counts as a pin, misses what the blocks cost per access (a transaction and a version
        // check per operation, Mainlining Databases §3.1): Arrow must also be measured at least 10% faster on the
        // same events, or the pages stay. This one decision can therefore differ between two runs near the margin.
        boolean wins = ma < mp && a.costPerQueryUs() < 0.9 * p.costPerQueryUs();
        log.add(new Evaluation(
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
                wins ? CandidateStatus.CHOSEN : CandidateStatus.REJECTED,
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
     * Replays a configuration with and without {@code hot=refs} jointly on every held-out event and logs the
     * comparison (with the rules learned); hot=refs is kept when it costs less (modeled) and returns the same results.
     */
    private Joint hotByReference(
            String what,
            TableDesign design,
            Map<String, TableDesign> tables,
            TableDesign refsDesign,
            Map<String, TableDesign> refsTables)
            throws IOException, SQLException {
        String label = what.equals("uniform") ? "best uniform" : "recommended";
        EngineConfig plain = EngineConfig.builder(label, memory)
                .design(design)
                .tables(tables)
                .build();
        EngineConfig refs = EngineConfig.builder(label, memory)
                .design(refsDesign)
                .tables(refsTables)
                .build();
        ExecutionResult a = joint(plain, what + " (against hot=refs)");
        ExecutionResult b = joint(refs, what + ", hot=refs");
        double ma = Autotune.modeledUs(a), mb = Autotune.modeledUs(b);
        boolean same = Replay.mismatches(a, b) == 0;
        // with no rule kept the two are the same design, and the same cost does not win; within the model's error
        // the smaller working set wins (Autotune.preferred)
        boolean wins = same && Autotune.preferred(mb, b.workingSetBytes(), ma, a.workingSetBytes());
        String rules = b.hotRules().isEmpty() ? "no rule learned" : String.join("; ", b.hotRules());
        log.add(new Evaluation(
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
                wins ? CandidateStatus.CHOSEN : CandidateStatus.REJECTED,
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

    /** A pages design as Arrow blocks can replace it: Arrow keeps one store per partition, so no vertical split. */
    private static TableDesign onPages(TableDesign d) {
        return d.split().none() ? d : d.with("split", "none");
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }

    /** @param arrow the recommended configuration when it keeps the heaps in Arrow blocks, else null */
    private TableChoice choice(String t, TableDesign d, EngineConfig arrow) throws IOException, SQLException {
        List<AccessEvent> training = split.trainingEvents();
        TableDesign resolved = src.resolveSplit(t, d, training);
        Map<String, List<String>> advice = src.cacheAdvice(training).getOrDefault(t.toLowerCase(Locale.ROOT), Map.of());
        List<String> cacheFields = new ArrayList<>();
        if (d.cache() != CachePolicy.OFF) advice.forEach((ix, f) -> f.forEach(c -> cacheFields.add(ix + "." + c)));
        Screening.Score mine = screening.screened(t, d, 1.0);
        if (mine == null) mine = screening.screen(t, d, 1.0);
        Screening.Score base = screening.screen(t, TableDesign.BASELINE, 1.0);
        return new TableChoice(
                t,
                arrow == null ? d.describe() : arrow.describe(d),
                arrow == null ? d.layout().name().toLowerCase(Locale.ROOT) : "arrow",
                d.cache().name().toLowerCase(Locale.ROOT),
                cacheFields,
                d.clusterLabel(),
                d.tightLabel(),
                resolved.split().columns(),
                d.tight().isEmpty() ? List.of() : candidates.tightChanges(t),
                split.share(t),
                split.heldOut(t).size(),
                mine.modeled(),
                base.modeled());
    }
}

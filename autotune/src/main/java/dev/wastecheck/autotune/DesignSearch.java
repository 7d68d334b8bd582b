package dev.wastecheck.autotune;

import dev.wastecheck.autotune.AutotuneReport.Evaluation;
import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.replay.Replay;
import dev.wastecheck.replay.RunReport;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The search step: per table, a coordinate descent over the {@link Dimension}s, each step's
 * candidates screened by successive halving; then the best uniform design (one design for every
 * table) the same way, scored as the sum over the tables of their alone-replays; then the uniform
 * design as one more candidate for every table.
 */
final class DesignSearch {
    /** The held-out prefixes of successive halving. */
    static final double[] RUNGS = {0.25, 0.5, 1.0};

    /** What the search chose: a design per table searched, and the best uniform design. */
    record Designs(Map<String, TableDesign> perTable, TableDesign uniform) {}

    /** A candidate's modeled cost per query on a prefix of the held-out events, and the working set it measured. */
    record Cost(double modeled, long workingSet) {}

    /** A candidate's {@link Cost} on a prefix of the held-out events. */
    @FunctionalInterface
    interface Score {
        Cost of(TableDesign d, double prefix) throws IOException, SQLException;
    }

    /** Where successive halving reports each candidate's outcome on each rung. */
    @FunctionalInterface
    interface Outcomes {
        void add(TableDesign d, double prefix, double modeled, CandidateStatus status, String reason)
                throws IOException, SQLException;
    }

    private final TraceSplit split;
    private final Candidates candidates;
    private final Screening screening;
    private final CandidateLog log;
    private final Stages stages;

    DesignSearch(TraceSplit split, Candidates candidates, Screening screening, CandidateLog log, Stages stages) {
        this.split = split;
        this.stages = stages;
        this.candidates = candidates;
        this.screening = screening;
        this.log = log;
    }

    /** Every table's design, then the uniform design, then the uniform design as a candidate for each table. */
    Designs run() throws IOException, SQLException {
        Map<String, TableDesign> chosen = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String t : split.tables()) {
            candidates.tightChanges(t);
            chosen.put(t, searchTable(t));
        }
        TableDesign uniform = searchUniform();
        stages.next("uniform as a candidate");
        // The uniform design is one more candidate for every table: a table keeps it where, alone on all its held-out
        // events, it does better than the table's own descent found (the descent fixes one dimension at a time).
        for (String t : split.tables()) {
            TableDesign u = candidates.forTable(t, uniform);
            if (u.equals(chosen.get(t))) continue;
            Screening.Score mine = screening.screen(t, chosen.get(t), 1.0);
            Screening.Score uni = screening.screen(t, u, 1.0);
            // the table's own design is listed first: it keeps an exact tie
            boolean theirs = Autotune.preferred(
                    uni.modeled(),
                    uni.run().workingSetBytes(),
                    mine.modeled(),
                    mine.run().workingSetBytes());
            Screening.Score win = theirs ? uni : mine, lose = theirs ? mine : uni;
            record(
                    t,
                    "uniform as a candidate",
                    theirs ? chosen.get(t) : u,
                    1.0,
                    lose.modeled(),
                    CandidateStatus.REJECTED,
                    reason(
                            lose.modeled(),
                            lose.run().workingSetBytes(),
                            win.modeled(),
                            win.run().workingSetBytes(),
                            Autotune.indistinguishable(lose.modeled(), win.modeled()),
                            (theirs ? u : chosen.get(t)).describe(),
                            "on all the held-out events"));
            if (theirs) chosen.put(t, u);
        }
        return new Designs(Collections.unmodifiableMap(chosen), uniform);
    }

    /** One table's design: coordinate descent over the dimensions, successive halving within each step. */
    private TableDesign searchTable(String table) throws IOException, SQLException {
        TableDesign current = TableDesign.BASELINE;
        for (Dimension dim : Dimension.values()) {
            stages.next(table + " " + dim.key());
            List<TableDesign> step = new ArrayList<>();
            List<String> seen = new ArrayList<>();
            for (TableDesign d : candidates.options(dim, current, table)) {
                TableDesign c = candidates.canonical(table, d, true);
                if (c == null || seen.contains(c.describe())) continue;
                seen.add(c.describe());
                step.add(c);
            }
            if (step.size() < 2) continue;
            current = halving(
                    step,
                    (d, prefix) -> {
                        Screening.Score sc = screening.screen(table, d, prefix);
                        return new Cost(sc.modeled(), sc.run().workingSetBytes());
                    },
                    (d, prefix, modeled, status, reason) ->
                            record(table, dim.key(), d, prefix, modeled, status, reason));
        }
        screening.screen(table, current, 1.0);
        return current;
    }

    /** The uniform design: the same descent, each candidate scored as the sum over the tables of their alone-replays. */
    private TableDesign searchUniform() throws IOException, SQLException {
        TableDesign current = TableDesign.BASELINE;
        for (Dimension dim : Dimension.values()) {
            stages.next("uniform " + dim.key());
            List<TableDesign> step = new ArrayList<>();
            for (TableDesign d : candidates.options(dim, current, null)) if (!step.contains(d)) step.add(d);
            current = halving(
                    step,
                    this::uniformScore,
                    (d, prefix, modeled, status, reason) ->
                            record("uniform", dim.key(), d, prefix, modeled, status, reason));
        }
        return current;
    }

    /**
     * A uniform design's modeled cost per query over every table (each table alone, weighted by its held-out events)
     * and its working set (the sum of the tables' alone).
     */
    private Cost uniformScore(TableDesign d, double prefix) throws IOException, SQLException {
        double sum = 0;
        long n = 0, ws = 0;
        for (String t : split.tables()) {
            Screening.Score s = screening.screen(t, candidates.forTable(t, d), prefix);
            sum += s.modeled() * s.run().queries();
            n += s.run().queries();
            ws += s.run().workingSetBytes();
        }
        return new Cost(n == 0 ? 0 : sum / n, ws);
    }

    /**
     * Successive halving: every candidate on the first quarter of the held-out events, the better
     * half on the first half, the better half of those on all of them. "Better" is {@link
     * Autotune#rank}: the candidates within {@link Autotune#MODEL_ERROR} of the cheapest first, the
     * smaller working set first among them, then the rest by cost; ties go to the candidate listed
     * first (the incumbent, or the simpler design). Each candidate's outcome on each rung it
     * ran goes to {@code outcomes}: {@link CandidateStatus#KEPT} when it goes on to the next rung,
     * {@link CandidateStatus#CHOSEN} for the one left, {@link CandidateStatus#REJECTED} with the
     * figures for the others.
     */
    static TableDesign halving(List<TableDesign> candidates, Score score, Outcomes outcomes)
            throws IOException, SQLException {
        List<TableDesign> alive = new ArrayList<>(candidates);
        for (int rung = 0; rung < RUNGS.length; rung++) {
            double prefix = RUNGS[rung];
            Map<TableDesign, Cost> s = new LinkedHashMap<>();
            for (TableDesign d : alive) s.put(d, score.of(d, prefix));
            List<TableDesign> order =
                    Autotune.rank(alive, d -> s.get(d).modeled(), d -> s.get(d).workingSet());
            int keep = rung == RUNGS.length - 1 ? 1 : Math.max(1, (alive.size() + 1) / 2);
            TableDesign best = order.get(0);
            double cheapest =
                    alive.stream().mapToDouble(d -> s.get(d).modeled()).min().orElse(0);
            for (int i = 0; i < order.size(); i++) {
                TableDesign d = order.get(i);
                boolean survives = i < keep;
                CandidateStatus status = survives
                        ? (keep == 1 ? CandidateStatus.CHOSEN : CandidateStatus.KEPT)
                        : CandidateStatus.REJECTED;
                String reason = survives
                        ? ""
                        : reason(
                                s.get(d).modeled(),
                                s.get(d).workingSet(),
                                s.get(best).modeled(),
                                s.get(best).workingSet(),
                                Autotune.indistinguishable(s.get(d).modeled(), cheapest),
                                best.describe(),
                                String.format(Locale.ROOT, "on the first %.0f%% of the held-out events", 100 * prefix));
                outcomes.add(d, prefix, s.get(d).modeled(), status, reason);
            }
            alive = new ArrayList<>(order.subList(0, keep));
            if (alive.size() == 1) return alive.get(0);
        }
        return alive.get(0);
    }

    /**
     * Why a candidate lost to {@code winner}: its cost against the winner's, and when it was within the model's
     * error of the cheapest ({@code tie}, {@link Autotune#indistinguishable}), the working sets that decided.
     */
    static String reason(
            double modeled, long ws, double winModeled, long winWs, boolean tie, String winner, String where) {
        if (tie)
            return String.format(
                    Locale.ROOT,
                    "%.2f µs/query against %.2f for %s %s, within the model's %.0f%% error: working set %.2f MiB "
                            + "against %.2f",
                    modeled,
                    winModeled,
                    winner,
                    where,
                    100 * Autotune.MODEL_ERROR,
                    ws / (double) (1L << 20),
                    winWs / (double) (1L << 20));
        return String.format(Locale.ROOT, "%.2f µs/query against %.2f for %s %s", modeled, winModeled, winner, where);
    }

    /** Logs a screened candidate with its run and its table's baseline run on the same prefix (none for uniform). */
    private void record(
            String table,
            String step,
            TableDesign d,
            double prefix,
            double modeled,
            CandidateStatus status,
            String reason)
            throws IOException, SQLException {
        Screening.Score e = table.equals("uniform") ? null : screening.screened(table, d, prefix);
        ExecutionResult r = e == null ? null : e.run();
        RunReport run = r == null || r.queries() == 0 ? null : Replay.report(List.of(r), List.of(r));
        RunReport base = null;
        if (run != null) {
            ExecutionResult b =
                    screening.screen(table, TableDesign.BASELINE, prefix).run();
            base = Replay.report(List.of(b), List.of(b));
            run = Replay.report(List.of(r), List.of(b));
        }
        log.add(new Evaluation(
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
}

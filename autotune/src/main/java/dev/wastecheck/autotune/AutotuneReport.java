package dev.wastecheck.autotune;

import dev.wastecheck.replay.RunReport;
import java.util.List;
import java.util.Map;

/**
 * What {@code autotune} found, for the renderers. Every cost is measured on the held-out events
 * only; the modeled cost ({@link Autotune#modeledUs}) is what the search compares, the measured
 * cost (engine time plus device time, median of the repeats with a 95% interval) what the
 * finalists report.
 *
 * @param baseline        NSM, declared types, no cache, no clustering, one heap: every table as declared
 * @param bestUniform     the best single design applied to every table, and its settings
 * @param recommended     a design per table ({@code tables}), and its settings as {@code replay --config} takes them
 * @param fallback        why the recommendation is the best uniform (or the baseline) rather than the per-table
 *                        designs, or null when the per-table designs won
 * @param mismatches      events whose result differs from the baseline's: uniform, recommended (0 and 0 when correct)
 * @param evaluations     every candidate the search replayed, per table (or uniform), in the order it ran
 * @param pruned          candidates the analysis ruled out without a replay, and why
 * @param curve           the finalists' cost per query against the memory budget
 * @param cacheCurve      index-cache hit rate against cache size, per table the cache was tried on
 * @param accessSkew      per table, {share of tuples, share of accesses} of its hottest tuples, in the training events
 * @param ddl             statements that apply the recommendation's schema changes in the source's dialect
 * @param searchMillis    the whole command's time; {@code oneReplayMillis} one replay of the trace (the baseline's:
 *                        load, training and held-out events), so their ratio is what the search cost
 * @param screeningMillis the part of it spent replaying candidates table by table (the search proper; the rest is
 *                        the finalists' joint replays, their repeats and the memory curve)
 */
public record AutotuneReport(
        String data,
        String trace,
        double train,
        long trainEvents,
        long heldOutEvents,
        long memoryBytes,
        Finalist baseline,
        Finalist bestUniform,
        Finalist recommended,
        String fallback,
        List<TableChoice> tables,
        List<Evaluation> evaluations,
        List<Pruned> pruned,
        List<CurvePoint> curve,
        List<CachePoint> cacheCurve,
        Map<String, List<double[]>> accessSkew,
        List<String> ddl,
        long searchMillis,
        long oneReplayMillis,
        long isolatedRuns,
        long jointRuns,
        long screeningMillis) {

    /** A finalist measured jointly (all tables in one buffer pool) on the held-out events. */
    public record Finalist(String name, String config, RunReport run, double modeledUs, long mismatches) {}

    /** The design chosen for one table, against that table's baseline, both replayed alone at the table's share of the budget. */
    public record TableChoice(
            String table,
            String design,
            String layout,
            String cache,
            List<String> cacheFields,
            String cluster,
            String tight,
            List<String> apart,
            List<String[]> tightChanges,
            long memoryShareBytes,
            long events,
            double modeledUs,
            double baselineModeledUs) {}

    /**
     * One candidate replayed: {@code table} alone (or "uniform" summed over every table) in {@code design}, on the first
     * {@code prefix} of the held-out events.
     *
     * @param status   chosen, kept (survived a rung, lost later), or rejected
     * @param reason   why it was rejected (its modeled cost against the winner's on the same prefix)
     * @param run      the replay's measurements (null for a uniform design, a sum over tables)
     * @param baseline the table's baseline design replayed the same way, the run's speedup is against
     */
    public record Evaluation(
            String table,
            String step,
            String design,
            double prefix,
            long queries,
            double modeledUs,
            double costUs,
            long workingSetBytes,
            double bufferHitRate,
            double cacheHitRate,
            CandidateStatus status,
            String reason,
            RunReport run,
            RunReport baseline) {}

    /** A candidate not replayed, because the analysis shows it is the same as one that is, or cannot help. */
    public record Pruned(String table, String dimension, String value, String reason) {}

    public record CurvePoint(String config, long memoryBytes, double modeledUs, double costUs, long workingSetBytes) {}

    public record CachePoint(String table, double cacheSize, double hitRate) {}

    /** The search's cost as a multiple of one replay of the trace. */
    public double costMultiple() {
        return oneReplayMillis == 0 ? 0 : (double) searchMillis / oneReplayMillis;
    }

    /** The screening's cost (candidates replayed table by table) as a multiple of one replay of the trace. */
    public double screeningMultiple() {
        return oneReplayMillis == 0 ? 0 : (double) screeningMillis / oneReplayMillis;
    }
}

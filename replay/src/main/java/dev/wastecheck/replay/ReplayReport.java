package dev.wastecheck.replay;

import java.util.List;
import java.util.Map;

/**
 * What a replay measured, for the renderers.
 *
 * @param events      access events the trace resolved to (after {@code --tables})
 * @param unresolved  statements that could not be resolved against the schema
 * @param runs        one per configuration; the first is the baseline
 * @param mismatches  per run, events whose result differs from the baseline's
 * @param sqlRuns     the same events on other engines (SQLite, DuckDB), if asked
 * @param device      the storage device model behind {@code device_us_per_query}
 * @param train       the share of the trace learned from (0: the oracle, every event)
 * @param trainEvents events learned from
 * @param measuredEvents events measured (held-out, or after the warm-up)
 * @param repeats     runs per configuration
 * @param accessSkew  per table, {share of tuples, share of accesses} of its hottest tuples, from the training events
 */
public record ReplayReport(
        String data,
        String trace,
        long events,
        long unresolved,
        List<String> tables,
        String device,
        double warmup,
        List<RunReport> runs,
        List<Long> mismatches,
        List<SqlRun> sqlRuns,
        Map<String, Long> timingsMillis,
        double train,
        long trainEvents,
        long measuredEvents,
        int repeats,
        Map<String, List<double[]>> accessSkew) {

    /** One replay on another engine. */
    public record SqlRun(
            String engine,
            long queries,
            long skipped,
            double throughputQps,
            double p50Us,
            double p95Us,
            double p99Us,
            double meanUs,
            long loadMillis,
            long mismatches) {}

    /** Events, over all configurations and other engines, whose result differs from the baseline's: 0 when the check passes. */
    public long resultsDiffering() {
        return mismatches.stream().mapToLong(Long::longValue).sum()
                + sqlRuns.stream().mapToLong(SqlRun::mismatches).sum();
    }
}

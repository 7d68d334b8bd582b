package dev.wastecheck.sources.load;

import dev.wastecheck.model.BadInputException;

/**
 * How sources are read: the profiling database's settings and what a live source gives up.
 *
 * @param profiling      where and how the profiling database runs
 * @param maxBad         share of bad rows (rows of the wrong shape, text between statements that is no
 *                       statement, CSV rows DuckDB's strict reader rejects) past which reading fails with
 *                       exit 2 naming the first; at or below it they are counted and reported. 1 never fails
 * @param samplePercent  the share of each live table's rows read (100: all); every suggested type is then
 *                       checked against all rows on the server. Files are always read whole
 * @param sampleSeed     the sample's seed: the same rows for the same seed
 * @param serverWorkload also read the workload a live server recorded (pg_stat_statements,
 *                       performance_schema's statement digests) as a trace; files have none to read
 * @param fetchRows      read a live database's rows here instead of profiling them on the server
 */
public record LoadOptions(
        ProfilingOptions profiling,
        double maxBad,
        double samplePercent,
        int sampleSeed,
        boolean serverWorkload,
        boolean fetchRows) {
    public LoadOptions {
        if (!(maxBad >= 0 && maxBad <= 1)) {
            throw new BadInputException("--max-bad must be a fraction from 0 to 1, found " + maxBad);
        }
        if (!(samplePercent > 0 && samplePercent <= 100)) {
            throw new BadInputException(
                    "--sample: expected a percentage above 0 and at most 100, found " + samplePercent);
        }
    }

    /** Every row, no bad row refused, no server workload. */
    public static LoadOptions of(ProfilingOptions profiling) {
        return new LoadOptions(profiling, 1.0, 100, 1, false, false);
    }

    /** Whether a live source's rows are sampled rather than read whole. */
    public boolean sampling() {
        return samplePercent < 100;
    }
}

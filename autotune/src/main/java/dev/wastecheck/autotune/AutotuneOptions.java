package dev.wastecheck.autotune;

import dev.wastecheck.model.BadInputException;
import java.nio.file.Path;

/**
 * What to tune and how: {@code wastecheck autotune}'s options, as values.
 *
 * @param data      the database: a dump, database file or folder (as analyze reads)
 * @param trace     the workload: any trace format analyze --trace reads
 * @param memory    the buffer-pool budget the design must serve the workload in ({@code 16M})
 * @param train     the share of the trace, its first part in time, that designs learn from; the rest is held out and scores them
 * @param maxEvents use at most this many events of the trace; 0 for all
 * @param repeat    runs of each finalist (baseline, best uniform, recommended), interleaved, for medians and 95% intervals
 * @param curve     also replay the finalists at half and twice the budget (the cost-against-memory plot)
 */
public record AutotuneOptions(
        String data, Path trace, String memory, double train, long maxEvents, int repeat, boolean curve) {
    public AutotuneOptions {
        if (!(train > 0 && train < 1)) throw new BadInputException("--train must be above 0 and below 1, got " + train);
        if (repeat < 1) throw new BadInputException("--repeat must be at least 1, got " + repeat);
    }

    /** The command's defaults: learn on the first half, three repeats of the finalists, with the memory curve. */
    public static AutotuneOptions of(Path data, Path trace, String memory) {
        return new AutotuneOptions(data.toString(), trace, memory, 0.5, 0, 3, true);
    }

    public AutotuneOptions withTrain(double share) {
        return new AutotuneOptions(data, trace, memory, share, maxEvents, repeat, curve);
    }

    public AutotuneOptions withMaxEvents(long n) {
        return new AutotuneOptions(data, trace, memory, train, n, repeat, curve);
    }

    public AutotuneOptions withRepeat(int n) {
        return new AutotuneOptions(data, trace, memory, train, maxEvents, n, curve);
    }

    public AutotuneOptions withCurve(boolean on) {
        return new AutotuneOptions(data, trace, memory, train, maxEvents, repeat, on);
    }
}

package dev.wastecheck.e2e;

import java.util.Arrays;

/** Whole-command timings for the benchmarks that compare commands in one JVM: a run, and the median and range of runs. */
final class CommandTimer {
    private CommandTimer() {}

    /** Seconds one in-process {@code wastecheck} command took; it must succeed. */
    static double time(String... args) {
        long t0 = System.nanoTime();
        Cli.Result r = Cli.run(args);
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", args) + " failed: " + r.err());
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** {@code median [min-max]}, in seconds. */
    static String spread(double[] v) {
        return String.format(
                java.util.Locale.ROOT,
                "%.2f s [%.2f-%.2f]",
                median(v),
                Arrays.stream(v).min().orElse(0),
                Arrays.stream(v).max().orElse(0));
    }
}

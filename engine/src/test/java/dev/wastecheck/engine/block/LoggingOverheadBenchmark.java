package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.LogManager;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What write-ahead logging costs OLTP throughput (Li et al., VLDB 2020, §3.4, §6.1: the paper's
 * TPC-C runs log, with one logging thread per eight workers and group commit). The workload is
 * {@link TpccLikeMix} on {@code threads} workers, one warehouse each, the collector every 5 ms in
 * the background: once in memory (no log), once in an {@link ArrowDatabase} on a real ext4 file with
 * logging on (redo buffers, the log manager thread, {@code FileChannel.force} per group). Workers do
 * not wait for their commit callbacks (each registers one, which the log manager runs after the
 * force; read-only transactions enter the flush queue too), so group commit gathers what the workers
 * commit while a force runs.
 *
 * <p>Each run loads a fresh database, warms up for 2 s and measures committed transactions per
 * second; the configurations alternate (off, on, then on, off, ...) so that both see the same drift
 * in the machine's load; the result is the ratio of medians with the range of the ratios of
 * neighbouring pairs. Each logged run also prints the group size (commits per force), the log bytes
 * per transaction and the log manager thread's CPU per transaction; every run prints the workers'
 * CPU per transaction, a figure the machine's other load moves less than throughput.
 *
 * <p>What would make it lie: a log on tmpfs, where a force costs nothing (the directory is under the
 * working directory's {@code target/}, on disk); a machine whose other load changes between runs
 * (alternation, medians); callbacks that never fire (the run counts them).
 *
 * <p>Run: {@code ./bench arrow logging [SECONDS] [REPEATS] [THREADS]} (default 10 s, 3, 2).
 */
public final class LoggingOverheadBenchmark {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Path root = Files.createDirectories(Path.of("target", "logging-benchmark"));
        List<Double> off = new ArrayList<>(), on = new ArrayList<>(), pairs = new ArrayList<>();
        System.out.printf(
                Locale.ROOT,
                "TPC-C-like mix, %d workers, %d s per run, %d runs per configuration, log in %s%n",
                threads,
                seconds,
                repeats,
                root.toAbsolutePath());
        for (int rep = 0; rep < repeats; rep++) {
            boolean[] order = rep % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false};
            double[] pair = new double[2];
            for (boolean logging : order) {
                double tps = run(logging, seconds, threads, 42 + rep, root);
                (logging ? on : off).add(tps);
                pair[logging ? 1 : 0] = tps;
            }
            pairs.add(pair[1] / pair[0]);
        }
        double mOff = TransformOverheadBenchmark.median(off), mOn = TransformOverheadBenchmark.median(on);
        System.out.printf(Locale.ROOT, "%nlogging off: median %.0f txn/s %s%n", mOff, off);
        System.out.printf(Locale.ROOT, "logging on:  median %.0f txn/s %s%n", mOn, on);
        System.out.printf(
                Locale.ROOT,
                "ratio on/off: %.3f (pairs %.3f .. %.3f), logging costs %.1f%% of throughput%n",
                mOn / mOff,
                pairs.stream().mapToDouble(d -> d).min().orElse(0),
                pairs.stream().mapToDouble(d -> d).max().orElse(0),
                100 * (1 - mOn / mOff));
    }

    static double run(boolean logging, int seconds, int threads, long seed, Path root) throws Exception {
        Path dir = root.resolve("run-" + System.nanoTime());
        ArrowDatabase db = logging ? ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true) : null;
        try {
            TpccLikeMix mix = new TpccLikeMix(threads, 20_000, 3_000, db);
            mix.load(seed);
            long[] result;
            LogManager log = db == null ? null : db.log();
            long forces0, bytes0, callbacks0, logCpu0;
            try (Maintenance m = new Maintenance(mix.gc, 5_000)) {
                m.start();
                mix.run(threads, 2_000, seed);
                forces0 = log == null ? 0 : log.forces();
                bytes0 = log == null ? 0 : log.bytesWritten();
                callbacks0 = log == null ? 0 : log.callbacks();
                logCpu0 = logThreadCpu();
                result = mix.run(threads, seconds * 1000L, seed + 1);
            }
            double tps = result[0] / (double) seconds;
            if (log == null) {
                System.out.printf(
                        Locale.ROOT,
                        "  logging off %8.0f txn/s, %d aborted; workers' CPU %.1f us per txn%n",
                        tps,
                        result[1],
                        result[2] / 1e3 / Math.max(1, result[0]));
            } else {
                long forces = log.forces() - forces0, bytes = log.bytesWritten() - bytes0;
                System.out.printf(
                        Locale.ROOT,
                        "  logging on  %8.0f txn/s, %d aborted; workers' CPU %.1f us per txn; %d forces (%.1f commits"
                                + " per force), %.0f log bytes and %.1f us of log manager CPU per txn, %d callbacks%n",
                        tps,
                        result[1],
                        result[2] / 1e3 / Math.max(1, result[0]),
                        forces,
                        result[0] / (double) Math.max(1, forces),
                        bytes / (double) Math.max(1, result[0]),
                        (logThreadCpu() - logCpu0) / 1e3 / Math.max(1, result[0]),
                        log.callbacks() - callbacks0);
                if (log.callbacks() - callbacks0 < result[0] * 9 / 10)
                    throw new AssertionError("callbacks lag the commits: " + (log.callbacks() - callbacks0));
            }
            return tps;
        } finally {
            if (db != null) db.close();
            if (Files.exists(dir)) CrashRecoveryTest.deleteTree(dir);
        }
    }

    /** CPU nanoseconds of the log manager thread so far (0 if there is none). */
    static long logThreadCpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().equals("log-manager") && t.isAlive()) return Math.max(0, mx.getThreadCpuTime(t.getId()));
        return 0;
    }
}

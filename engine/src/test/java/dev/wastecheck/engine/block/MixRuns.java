package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.LogManager;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Interleaved runs of the TPC-C-like mix on several storages in one JVM, for the ratios of
 * docs/benchmarks.md ("Arrow-native blocks: durability and OLTP"):
 *
 * <ul>
 * <li>{@code arrow-log}: {@link TpccLikeMix} in an {@link ArrowDatabase} with logging on (redo buffers,
 * one log manager thread, {@code FileChannel.force} per group of commits, commit callbacks after it);</li>
 * <li>{@code arrow}: the same in memory, no log (the callbacks run at commit);</li>
 * <li>{@code nsm}: {@link NsmTpccLikeMix}, NSM pages and B+tree primary keys, no transactions, no log;</li>
 * <li>{@code nsm-hash}: the same pages with the Arrow mix's hash-map indexes (only the storage differs).</li>
 * </ul>
 *
 * <p>One unmeasured round of every configuration comes first (the JIT's compilations, the heap's
 * growth). Every run loads a fresh database from the same seed, runs the collector every 5 ms in the
 * background (the Arrow configurations; the NSM ones have nothing to collect), warms up for 2 s and
 * measures committed transactions per second over {@code seconds}. The configurations rotate (round
 * k starts at configuration k mod n), so that each sees the machine's drift alike; the result is each
 * configuration's median and mean with the ratio of the medians, and per pair of configurations the
 * median of the per-round ratios with their range. Each run also prints the workers' CPU per
 * transaction and the workers' CPU over wall time (how much of the cores the workers got: a
 * configuration that gets more of a loaded machine's cores is faster for that reason alone), and a
 * logged run the group size, log bytes and the log manager thread's CPU per transaction; every run
 * the collections during its measured seconds and their summed time (the Arrow tables live on the
 * Java heap, so each young collection copies the tuples that survive, and a run's throughput
 * depends on how many collections fall into its window); the summary prints each round's ratio.
 *
 * <p>What would make it lie: a log on tmpfs (the log is under the working directory's {@code target/},
 * on the disk, unless {@code -Dmix.logDir=DIR} puts it elsewhere: {@code /dev/shm} as a diagnostic, to
 * tell the cost of the disk's writes and forces from the rest; the first logged run prints whether the
 * log is written with O_DIRECT, which {@code -Dwastecheck.log.direct=false} turns off); another process on the cores (run it under {@code /work/bin/quiet}); a configuration
 * that aborts or loses transactions (every run prints its aborts, and checks that the callbacks caught
 * up with the commits).
 */
public final class MixRuns {
    private MixRuns() {}

    /** What one run measured; {@code wall} seconds, {@code clock} the workers' time summed. */
    record Result(
            String config,
            int threads,
            double wall,
            long committed,
            long aborted,
            long workerCpuNanos,
            ThreadClock clock,
            double logCpuUs,
            double commitsPerForce,
            double logBytesPerTxn,
            long gcs,
            long gcMillis) {
        double tps() {
            return committed / wall;
        }

        /** The workers' CPU per committed transaction (ThreadMXBean: user and system), µs. */
        double workerCpuUs() {
            return workerCpuNanos / 1e3 / Math.max(1, committed);
        }

        /** The workers' CPU over their wall time: how much of a core each got. */
        double workerShare() {
            return workerCpuNanos / 1e9 / wall / threads;
        }

        /** The workers' time per committed transaction: user, system, waiting for a core, blocked; switches. */
        String perTransaction() {
            double txns = Math.max(1, committed);
            double cpu = (clock.userNanos() + clock.systemNanos()) / 1e3 / txns;
            double waiting = clock.runQueueNanos() / 1e3 / txns;
            return String.format(
                    Locale.ROOT,
                    "a txn: user %.1f + system %.1f us, waiting for a core %.1f us, blocked %.1f us;"
                            + " %.3f voluntary and %.3f involuntary switches",
                    clock.userNanos() / 1e3 / txns,
                    clock.systemNanos() / 1e3 / txns,
                    waiting,
                    wall * threads * 1e6 / txns - cpu - waiting,
                    clock.voluntary() / txns,
                    clock.involuntary() / txns);
        }
    }

    static final List<String> CONFIGS = List.of("arrow-log", "arrow", "nsm", "nsm-hash");

    /**
     * Runs each of {@code configs} {@code rounds} times, rotating; prints each run and the summary;
     * returns the runs by configuration.
     */
    static Map<String, List<Result>> interleaved(List<String> configs, int seconds, int rounds, int threads)
            throws Exception {
        for (String c : configs)
            if (!CONFIGS.contains(c)) throw new IllegalArgumentException("no configuration " + c + "; " + CONFIGS);
        Path root = Files.createDirectories(Path.of(System.getProperty("mix.logDir", "target/mix-runs")));
        System.out.printf(
                Locale.ROOT,
                "TPC-C-like mix, %d workers (a warehouse each), 20,000 items, 3,000 customers a district; %d s per run"
                        + " after 2 s of warm-up; %d rounds of %s; log in %s%n",
                threads,
                seconds,
                rounds,
                configs,
                root.toAbsolutePath());
        Map<String, List<Result>> out = new LinkedHashMap<>();
        for (String c : configs) out.put(c, new ArrayList<>());
        // One unmeasured round of every configuration first: the JIT compiles each one's paths and the
        // heap reaches its working size before anything is measured. Without it the first run of the
        // JVM paid for both (arrow-log first: 0.58x arrow in round 1, 0.78-0.97x in rounds 2-5).
        for (String c : configs) {
            Result r = run(c, 2, threads, 41, root);
            System.out.printf(Locale.ROOT, "  (warm-up, not counted) %s %.0f txn/s%n", c, r.tps());
        }
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < configs.size(); k++) {
                String c = configs.get((round + k) % configs.size());
                Result r = run(c, seconds, threads, 42 + round, root);
                print(r);
                out.get(c).add(r);
            }
        }
        summarize(out);
        return out;
    }

    static Result run(String config, int seconds, int threads, long seed, Path root) throws Exception {
        return config.startsWith("nsm")
                ? runNsm(config, seconds, threads, seed)
                : runArrow(config, seconds, threads, seed, root);
    }

    private static Result runNsm(String config, int seconds, int threads, long seed) throws Exception {
        try (NsmTpccLikeMix mix =
                new NsmTpccLikeMix(threads, 20_000, 3_000, 8192, 1L << 30, config.equals("nsm-hash"))) {
            mix.load(seed);
            mix.run(threads, 2_000, seed);
            Window w = Window.measure(mix, threads, seconds * 1000L, seed + 1);
            return w.result(config, threads, mix.lastRunClock, 0, 0, 0);
        }
    }

    /** Whether the log's file and way of writing were printed (once, at the first logged run). */
    private static boolean logDescribed;

    private static Result runArrow(String config, int seconds, int threads, long seed, Path root) throws Exception {
        boolean logging = config.equals("arrow-log");
        Path dir = root.resolve("run-" + System.nanoTime());
        ArrowDatabase db = logging ? ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true) : null;
        try {
            TpccLikeMix mix = new TpccLikeMix(threads, 20_000, 3_000, db);
            mix.load(seed);
            LogManager log = db == null ? null : db.log();
            if (log != null && !logDescribed) {
                logDescribed = true;
                System.out.println("  log in " + root
                        + (log.direct()
                                ? ", O_DIRECT in " + log.alignment() + "-byte blocks"
                                : ", through the page cache"));
            }
            return measureArrow(config, mix, log, threads, 2_000, seconds * 1000L, seed);
        } finally {
            if (db != null) db.close();
            if (Files.exists(dir)) CrashRecoveryTest.deleteTree(dir);
        }
    }

    /**
     * One measured run of an Arrow mix: the collector every 5 ms in the background, {@code warmMillis}
     * unmeasured (none if 0), then {@code millis} measured; with a log, its forces, bytes and thread's
     * CPU over the measured part, and a check that the callbacks kept up with the commits.
     */
    static Result measureArrow(
            String config, TpccLikeMix mix, LogManager log, int threads, long warmMillis, long millis, long seed)
            throws InterruptedException {
        try (Maintenance m = new Maintenance(mix.gc, 5_000)) {
            m.start();
            if (warmMillis > 0) mix.run(threads, warmMillis, seed);
            long forces0 = log == null ? 0 : log.forces();
            long bytes0 = log == null ? 0 : log.bytesWritten();
            long released0 = mix.durable.get();
            long logCpu0 = logThreadCpu();
            Window w = Window.measure(mix, threads, millis, seed + 1);
            long[] r = w.counts();
            double forces = log == null ? 0 : log.forces() - forces0;
            long logCpu = logThreadCpu() - logCpu0;
            // The callbacks of the window's last group come after its end: wait for them (unmeasured),
            // so that no force of this run falls into the next one's window (MixPairs' windows are 1 s).
            // (The mix's count of released results, not the log manager's callbacks: a read-only
            // transaction that ends when every commit is durable is released without one.)
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (mix.durable.get() - released0 < r[0] && System.nanoTime() < deadline) Thread.sleep(1);
            if (mix.durable.get() - released0 < r[0])
                throw new AssertionError("results not released 10 s after the run: " + (mix.durable.get() - released0)
                        + " of " + r[0] + " commits");
            return w.result(
                    config,
                    threads,
                    mix.lastRunClock,
                    log == null ? 0 : logCpu / 1e3 / Math.max(1, r[0]),
                    log == null ? 0 : r[0] / Math.max(1, forces),
                    log == null ? 0 : (log.bytesWritten() - bytes0) / (double) Math.max(1, r[0]));
        }
    }

    /** A mix's measured window: its counts, wall seconds, and the collections and their milliseconds in it. */
    private record Window(long[] counts, double wall, long collections, long collectionMillis) {
        static Window measure(TpccLikeWorkload<?> mix, int threads, long millis, long seed)
                throws InterruptedException {
            long[] gc0 = MixRuns.collections();
            long t0 = System.nanoTime();
            for (LongAdder a : mix.operations) a.reset();
            long[] r = mix.run(threads, millis, seed);
            printOperations(mix, r[0]);
            double wall = (System.nanoTime() - t0) / 1e9;
            long[] gc1 = MixRuns.collections();
            return new Window(r, wall, gc1[0] - gc0[0], gc1[1] - gc0[1]);
        }

        /** This window's result, with the log's figures a transaction (0 for a run without a log). */
        Result result(
                String config,
                int threads,
                ThreadClock clock,
                double logCpuUs,
                double commitsPerForce,
                double logBytesPerTxn) {
            return new Result(
                    config,
                    threads,
                    wall,
                    counts[0],
                    counts[1],
                    counts[2],
                    clock,
                    logCpuUs,
                    commitsPerForce,
                    logBytesPerTxn,
                    collections,
                    collectionMillis);
        }
    }

    /** With {@code -Dmix.count=true}: the operations per committed transaction of the measured run. */
    static void printOperations(TpccLikeWorkload<?> mix, long committed) {
        if (!TpccLikeWorkload.COUNT) return;
        double n = Math.max(1, committed);
        System.out.printf(
                Locale.ROOT,
                "            operations a txn: %.2f gets, %.2f updates, %.2f inserts, %.3f deletes%n",
                mix.operations[0].sum() / n,
                mix.operations[1].sum() / n,
                mix.operations[2].sum() / n,
                mix.operations[3].sum() / n);
    }

    static void print(Result r) {
        System.out.printf(
                Locale.ROOT,
                "  %-9s %8.0f txn/s, %d aborted; workers' CPU %.1f us a txn, %.0f%% of their wall time%s%n",
                r.config(),
                r.tps(),
                r.aborted(),
                r.workerCpuUs(),
                100 * r.workerShare(),
                r.config().equals("arrow-log")
                        ? String.format(
                                Locale.ROOT,
                                "; %.1f commits a force, %.0f log bytes and %.1f us of log manager CPU a txn",
                                r.commitsPerForce(),
                                r.logBytesPerTxn(),
                                r.logCpuUs())
                        : "");
        System.out.println("            " + r.perTransaction()
                + String.format(Locale.ROOT, "; %d collections, %d ms", r.gcs(), r.gcMillis()));
    }

    static void summarize(Map<String, List<Result>> runs) {
        System.out.println();
        for (Map.Entry<String, List<Result>> e : runs.entrySet()) {
            double[] tps = e.getValue().stream().mapToDouble(Result::tps).toArray();
            double[] cpu =
                    e.getValue().stream().mapToDouble(Result::workerCpuUs).toArray();
            System.out.printf(
                    Locale.ROOT,
                    "%-9s median %8.0f txn/s, mean %8.0f (min %.0f, max %.0f); workers' CPU a txn median %.1f us%n",
                    e.getKey(),
                    median(tps),
                    Arrays.stream(tps).average().orElse(0),
                    Arrays.stream(tps).min().orElse(0),
                    Arrays.stream(tps).max().orElse(0),
                    median(cpu));
        }
        List<String> names = new ArrayList<>(runs.keySet());
        for (int a = 0; a < names.size(); a++) {
            for (int b = a + 1; b < names.size(); b++) {
                List<Result> x = runs.get(names.get(a)), y = runs.get(names.get(b));
                double[] pairs = new double[Math.min(x.size(), y.size())];
                for (int i = 0; i < pairs.length; i++)
                    pairs[i] = x.get(i).tps() / y.get(i).tps();
                double mx = x.stream().mapToDouble(Result::tps).average().orElse(0);
                double my = y.stream().mapToDouble(Result::tps).average().orElse(0);
                System.out.printf(
                        Locale.ROOT,
                        "%s / %s: ratio of medians %.3f, of means %.3f; per round median %.3f (%.3f .. %.3f)%n",
                        names.get(a),
                        names.get(b),
                        median(x.stream().mapToDouble(Result::tps).toArray())
                                / median(y.stream().mapToDouble(Result::tps).toArray()),
                        mx / my,
                        median(pairs),
                        Arrays.stream(pairs).min().orElse(0),
                        Arrays.stream(pairs).max().orElse(0));
                StringBuilder rounds = new StringBuilder("  rounds:");
                for (double p : pairs) rounds.append(String.format(Locale.ROOT, " %.3f", p));
                System.out.println(rounds);
            }
        }
    }

    static double median(double[] xs) {
        double[] a = xs.clone();
        Arrays.sort(a);
        if (a.length == 0) return 0;
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    /** Collections so far and their summed time in ms, over every collector of the JVM. */
    static long[] collections() {
        long n = 0, ms = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
            ms += Math.max(0, b.getCollectionTime());
        }
        return new long[] {n, ms};
    }

    /** CPU nanoseconds of the log manager thread so far (0 if there is none). */
    static long logThreadCpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().equals("log-manager") && t.isAlive()) return Math.max(0, mx.getThreadCpuTime(t.getId()));
        return 0;
    }

    /** {@code [SECONDS] [ROUNDS] [THREADS] [CONFIGS, comma-separated]}. */
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<String> configs = args.length > 3 ? List.of(args[3].split(",")) : CONFIGS;
        interleaved(configs, seconds, rounds, threads);
    }
}

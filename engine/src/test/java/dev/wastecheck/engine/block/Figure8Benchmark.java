package dev.wastecheck.engine.block;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Li et al., VLDB 2020, §6.1, Fig. 8: TPC-C throughput by worker threads with the transformation off,
 * gathering, or dictionary-encoding in the background, logging on; with the abort rate and the
 * transactions the transformation stalls. The paper: the transformation costs at most 10% of
 * throughput, dictionary compression a little more than gathering; no significant change in aborts,
 * and "a negligible number of stalled transactions (<0.01%)".
 *
 * <p>Here: {@link TpccLikeMix} in an {@link ArrowDatabase} with logging on (its log on disk under
 * {@code target/}, one log manager thread), 1 to {@code maxThreads} workers (one warehouse each),
 * the collector every 5 ms on one background thread, and with the transformation a {@link
 * BlockTransformer} per table on the same thread (cold after 20 epochs, groups of 8). Each run loads
 * a fresh database, warms up 2 s and measures {@code seconds}. A repeat runs every cell once; the
 * order of the three modes rotates from repeat to repeat so that none always runs first or last.
 * Printed per cell: committed transactions per second (median and range over the repeats), the
 * median of each repeat's ratio to the same repeat's "off" run, aborts per second, stalls (writes
 * that waited for a block being frozen: {@link BlockAccess#stalls()}) as a share of committed
 * transactions, compactions that aborted on a conflict, and blocks frozen.
 *
 * <p>What would make it lie: the machine's other load moving between runs (rotation, repeats, and
 * {@code /work/bin/quiet}); the transformation having nothing to do (blocks frozen are printed);
 * background threads competing with workers (they do in every mode: the collector and the log
 * manager always run; the paper instead gives them cores of their own: "one logging thread, one
 * transformation thread, and one GC thread for every 8 worker threads", with {@code taskset} keeping
 * the totals equal).
 *
 * <p>What differs from the paper: 2 cores shared with the log manager and the collector (the paper:
 * 2x10 cores, up to 20 workers), 20,000 items and 3,000 customers per district (TPC-C: 100,000 and
 * 3,000), the mix's simplifications ({@link TpccLikeMix}: no remote warehouses, so workers never
 * conflict), and 10-second runs.
 *
 * <p>Run: {@code ./bench arrow fig8 [SECONDS] [MAX_THREADS] [REPEATS]} (default 10, 2, 3).
 */
public final class Figure8Benchmark {
    static final String[] MODES = {"off", "gather", "dictionary"};

    /** One run: committed/s, aborted/s, stalls, committed, compaction aborts, frozen blocks. */
    record Run(
            double committedPerSecond,
            double abortedPerSecond,
            long stalls,
            long committed,
            long compactionAborts,
            long frozen) {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int maxThreads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path root = Files.createDirectories(Path.of("target", "fig8"));
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        System.out.printf(
                Locale.ROOT,
                "repeat threads  transformation   committed/s  aborted/s  stalls  compaction aborts  frozen blocks%n");
        for (int rep = 0; rep < repeats; rep++) {
            for (int threads = 1; threads <= maxThreads; threads++) {
                for (int k = 0; k < MODES.length; k++) {
                    String mode = MODES[(k + rep) % MODES.length];
                    Run r = run(root, mode, threads, seconds, 42 + rep);
                    runs.computeIfAbsent(threads + " " + mode, x -> new ArrayList<>())
                            .add(r);
                    System.out.printf(
                            Locale.ROOT,
                            "%6d %7d  %-14s %12.0f %10.1f %7d %18d %14d%n",
                            rep,
                            threads,
                            mode,
                            r.committedPerSecond,
                            r.abortedPerSecond,
                            r.stalls,
                            r.compactionAborts,
                            r.frozen);
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%nthreads  transformation   committed/s median [range]   vs off (median of repeats) [range]"
                        + "  aborted/s  stalled share  compaction aborts  frozen (median)%n");
        for (int threads = 1; threads <= maxThreads; threads++) {
            List<Run> off = runs.get(threads + " off");
            for (String mode : MODES) {
                List<Run> rs = runs.get(threads + " " + mode);
                List<Double> tps = rs.stream().map(Run::committedPerSecond).toList();
                List<Double> ratio = new ArrayList<>();
                for (int i = 0; i < rs.size(); i++)
                    ratio.add(rs.get(i).committedPerSecond / off.get(i).committedPerSecond);
                long stalls = rs.stream().mapToLong(Run::stalls).sum();
                long committed = rs.stream().mapToLong(Run::committed).sum();
                System.out.printf(
                        Locale.ROOT,
                        "%7d  %-14s %10.0f [%.0f-%.0f] %17.3f [%.3f-%.3f] %10.1f %13.4f%% %18d %16.0f%n",
                        threads,
                        mode,
                        Spread.median(tps),
                        Spread.min(tps),
                        Spread.max(tps),
                        Spread.median(ratio),
                        Spread.min(ratio),
                        Spread.max(ratio),
                        Spread.median(rs.stream().map(Run::abortedPerSecond).toList()),
                        100.0 * stalls / Math.max(1, committed),
                        rs.stream().mapToLong(Run::compactionAborts).sum(),
                        Spread.median(rs.stream().map(r -> (double) r.frozen).toList()));
            }
        }
    }

    static Run run(Path root, String mode, int threads, int seconds, long seed) throws Exception {
        Path dir = root.resolve("run-" + System.nanoTime());
        ArrowTable.FreezeMode fm =
                mode.equals("dictionary") ? ArrowTable.FreezeMode.DICTIONARY : ArrowTable.FreezeMode.GATHER;
        try (ArrowDatabase db = ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true, 1 << 20, fm)) {
            TpccLikeMix mix = new TpccLikeMix(threads, 20_000, 3_000, db);
            mix.load(seed + threads);
            if (!mode.equals("off")) mix.enableTransformation(20, 8);
            long[] r;
            long stalls;
            try (Maintenance m = new Maintenance(mix.gc, 5_000)) {
                for (BlockTransformer t : mix.transformers) m.add(t);
                m.start();
                mix.run(threads, 2_000, seed + 7);
                long s0 = BlockAccess.stalls();
                r = mix.run(threads, seconds * 1000L, seed + 8);
                stalls = BlockAccess.stalls() - s0;
            }
            long compactionAborts = 0, frozen = 0;
            for (BlockTransformer t : mix.transformers) {
                compactionAborts += t.stats().abortedCompactions();
                frozen += t.stats().frozen();
            }
            return new Run(r[0] / (double) seconds, r[1] / (double) seconds, stalls, r[0], compactionAborts, frozen);
        } finally {
            if (Files.exists(dir)) CrashRecoveryTest.deleteTree(dir);
        }
    }
}

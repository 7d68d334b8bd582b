package dev.wastecheck.engine.block;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Li et al., VLDB 2020, §6.1, Fig. 8: TPC-C throughput by worker threads with the transformation off,
 * gathering, or dictionary-encoding in the background, logging on. Here: {@link TpccLikeMix} in an
 * {@link ArrowDatabase} with logging on (its log on disk under {@code target/}), 1 to {@code
 * maxThreads} workers (one warehouse each), the collector every 5 ms, and with the transformation a
 * {@link BlockTransformer} per table (cold after 20 epochs, groups of 8). Prints committed and aborted
 * transactions per second, compactions that aborted on a conflict (the transformation's own aborts)
 * and blocks frozen; a run per cell, the cells alternating by thread count.
 *
 * <p>What differs from the paper: 2 cores shared with other work (the paper: 2x10 cores, up to 20
 * workers), 20,000 items and 3,000 customers per district (TPC-C: 100,000 and 3,000), the mix's
 * simplifications ({@link TpccLikeMix}), and 10-second runs.
 *
 * <p>Run: {@code ./bench arrow fig8 [SECONDS] [MAX_THREADS]} (default 10, 2).
 */
public final class Figure8Benchmark {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int maxThreads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Path root = Files.createDirectories(Path.of("target", "fig8"));
        System.out.printf(
                Locale.ROOT, "threads  transformation   committed/s  aborted/s  compaction aborts  frozen blocks%n");
        for (int threads = 1; threads <= maxThreads; threads++) {
            for (String mode : new String[] {"off", "gather", "dictionary"}) {
                Path dir = root.resolve("run-" + System.nanoTime());
                ArrowTable.FreezeMode fm =
                        mode.equals("dictionary") ? ArrowTable.FreezeMode.DICTIONARY : ArrowTable.FreezeMode.GATHER;
                try (ArrowDatabase db = ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true, 1 << 20, fm)) {
                    TpccLikeMix mix = new TpccLikeMix(threads, 20_000, 3_000, db);
                    mix.load(42 + threads);
                    if (!mode.equals("off")) mix.enableTransformation(20, 8);
                    long[] r;
                    try (Maintenance m = new Maintenance(mix.gc, 5_000)) {
                        for (BlockTransformer t : mix.transformers) m.add(t);
                        m.start();
                        mix.run(threads, 2_000, 7);
                        r = mix.run(threads, seconds * 1000L, 8);
                    }
                    long compactionAborts = 0, frozen = 0;
                    for (BlockTransformer t : mix.transformers) {
                        compactionAborts += t.stats().abortedCompactions();
                        frozen += t.stats().frozen();
                    }
                    System.out.printf(
                            Locale.ROOT,
                            "%7d  %-14s %12.0f %10.1f %18d %14d%n",
                            threads,
                            mode,
                            r[0] / (double) seconds,
                            r[1] / (double) seconds,
                            compactionAborts,
                            frozen);
                } finally {
                    if (Files.exists(dir)) CrashRecoveryTest.deleteTree(dir);
                }
            }
        }
    }
}

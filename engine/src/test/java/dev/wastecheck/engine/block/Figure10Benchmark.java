package dev.wastecheck.engine.block;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Li et al., VLDB 2020, §6.1, Fig. 10: throughput and the transformation's queue over time, sampled
 * every 100 ms. {@link TpccLikeMix} on {@code threads} workers in an {@link ArrowDatabase} with
 * logging on, the transformation running in the background (cold after 20 GC epochs of 5 ms, groups
 * of 8 blocks): each sample prints the transactions committed in the last 100 ms (as a rate), the
 * blocks waiting in the transformation's queues (cold to compact, cooled to freeze), and the blocks
 * frozen so far. What differs from the paper: 2 shared cores, the scaled-down mix, a 1 MB block.
 *
 * <p>Run: {@code ./bench arrow fig10 [SECONDS] [THREADS]} (default 20, 2).
 */
public final class Figure10Benchmark {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Path dir = Files.createDirectories(Path.of("target", "fig10")).resolve("run-" + System.nanoTime());
        try (ArrowDatabase db = ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true)) {
            TpccLikeMix mix = new TpccLikeMix(threads, 20_000, 3_000, db);
            mix.load(42);
            mix.enableTransformation(20, 8);
            try (Maintenance m = new Maintenance(mix.gc, 5_000)) {
                for (BlockTransformer t : mix.transformers) m.add(t);
                m.start();
                Thread sampler = new Thread(() -> {
                    long last = mix.durable.get(), t0 = System.nanoTime();
                    System.out.printf(Locale.ROOT, "%8s %12s %8s %8s%n", "ms", "txn/s", "queued", "frozen");
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            Thread.sleep(100);
                            long now = mix.durable.get();
                            int queued = 0;
                            long frozen = 0;
                            for (BlockTransformer t : mix.transformers) {
                                queued += t.queued();
                                frozen += t.stats().frozen();
                            }
                            System.out.printf(
                                    Locale.ROOT,
                                    "%8d %12.0f %8d %8d%n",
                                    (System.nanoTime() - t0) / 1_000_000,
                                    (now - last) * 10.0,
                                    queued,
                                    frozen);
                            last = now;
                        }
                    } catch (InterruptedException e) {
                        // the run is over
                    }
                });
                sampler.start();
                mix.run(threads, seconds * 1000L, 7);
                sampler.interrupt();
                sampler.join();
            }
        } finally {
            if (Files.exists(dir)) CrashRecoveryTest.deleteTree(dir);
        }
    }
}

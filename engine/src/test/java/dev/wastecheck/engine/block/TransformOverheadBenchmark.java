package dev.wastecheck.engine.block;

import dev.wastecheck.layouts.arrow.ArrowBlock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * OLTP throughput with the transformation running in the background against the same workload
 * without it (Li et al., VLDB 2020, §6.1: "the transformation process has a small impact on OLTP
 * throughput, within 10%"). The workload is {@link TpccLikeMix} (write-heavy: 88% of its
 * transactions write) on {@code threads} workers, one warehouse each. Both configurations run the
 * garbage collector every 5 ms on a background thread; with the transformation, the same thread
 * also runs the access observer, compaction and freezing after each epoch (blocks cold after 20
 * epochs, ~100 ms, without a write; groups of 8 blocks).
 *
 * <p>Each run loads a fresh database, warms up for 2 s and measures committed transactions per
 * second for {@code seconds}; the configurations alternate (off, on, then on, off, ...) so that
 * both see the same drift in the machine's load; the result is the ratio of medians, with the
 * smallest and largest ratio of a pair of neighbouring runs as the spread.
 *
 * <p>What would make it lie: a machine whose other load changes between runs (alternation and
 * medians); the background thread competing with the workers for the cores (it does in both
 * configurations: the collector is always on, and the transformation's share is what is measured);
 * a transformation with nothing to do (the run prints the blocks it froze).
 *
 * <p>Throughput on a shared, loaded machine moves more between runs than the effect measured, so
 * each run also reports CPU time per committed transaction, the workers' and the background
 * thread's (thread CPU clocks count only the time a thread ran): the transformation's cost is the
 * background thread's extra CPU per transaction over the workers' and the collector's, a figure the
 * other load on the machine does not move.
 *
 * <p>Run: {@code ./bench arrow oltp [SECONDS] [REPEATS] [THREADS]} (default 10 s, 3, 2).
 */
public final class TransformOverheadBenchmark {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<Double> off = new ArrayList<>(), on = new ArrayList<>(), pairRatios = new ArrayList<>();
        List<double[]> cpuOff = new ArrayList<>(), cpuOn = new ArrayList<>();
        System.out.printf(
                Locale.ROOT,
                "TPC-C-like mix, %d workers, %d s per run, %d runs per configuration%n",
                threads,
                seconds,
                repeats);
        for (int rep = 0; rep < repeats; rep++) {
            boolean[] order = rep % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false};
            double[] pair = new double[2];
            for (boolean transform : order) {
                double[] cpu = new double[2];
                double tps = run(transform, seconds, threads, 42 + rep, cpu);
                (transform ? on : off).add(tps);
                (transform ? cpuOn : cpuOff).add(cpu);
                pair[transform ? 1 : 0] = tps;
            }
            pairRatios.add(pair[1] / pair[0]);
        }
        double mOff = median(off), mOn = median(on);
        System.out.printf(Locale.ROOT, "%nwithout transformation: median %.0f txn/s %s%n", mOff, off);
        System.out.printf(Locale.ROOT, "with transformation:    median %.0f txn/s %s%n", mOn, on);
        System.out.printf(
                Locale.ROOT,
                "ratio with/without: %.3f (pairs %.3f .. %.3f), overhead %.1f%%%n",
                mOn / mOff,
                pairRatios.stream().mapToDouble(d -> d).min().orElse(0),
                pairRatios.stream().mapToDouble(d -> d).max().orElse(0),
                100 * (1 - mOn / mOff));
        double wOff = median(cpuOff.stream().map(c -> c[0]).toList()),
                bOff = median(cpuOff.stream().map(c -> c[1]).toList());
        double wOn = median(cpuOn.stream().map(c -> c[0]).toList()),
                bOn = median(cpuOn.stream().map(c -> c[1]).toList());
        System.out.printf(
                Locale.ROOT,
                "CPU per committed transaction (medians): without: workers %.1f us + collector %.2f us; "
                        + "with: workers %.1f us + collector and transformation %.2f us%n",
                wOff,
                bOff,
                wOn,
                bOn);
        System.out.printf(
                Locale.ROOT,
                "transformation's CPU over the workers' and the collector's: %.1f%%%n",
                100 * (bOn - bOff) / (wOff + bOff));
    }

    /** One run; {@code cpu} receives the workers' and the background thread's CPU microseconds per committed transaction. */
    static double run(boolean transform, int seconds, int threads, long seed, double[] cpu) throws Exception {
        TpccLikeMix mix = new TpccLikeMix(threads, 20_000, 3_000);
        mix.load(seed);
        if (transform) mix.enableTransformation(20, 8);
        long[] result;
        try (Maintenance m = new Maintenance(mix.gc, 5_000)) {
            for (BlockTransformer t : mix.transformers) m.add(t);
            m.start();
            mix.run(threads, 2_000, seed);
            long bg0 = m.cpuNanos();
            result = mix.run(threads, seconds * 1000L, seed + 1);
            cpu[0] = result[2] / 1e3 / Math.max(1, result[0]);
            cpu[1] = (m.cpuNanos() - bg0) / 1e3 / Math.max(1, result[0]);
        }
        double tps = result[0] / (double) seconds;
        long frozen = 0, blocks = 0, compactions = 0, moves = 0, memory = 0;
        for (TpccLikeMix.Indexed t : mix.tables()) {
            blocks += t.table.blockCount();
            memory += t.table.memoryBytes();
            for (Block b : t.table.blocks()) if (b.state() == ArrowBlock.FROZEN) frozen++;
        }
        for (BlockTransformer t : mix.transformers) {
            compactions += t.stats().compactions();
            moves += t.stats().moves();
        }
        System.out.printf(
                Locale.ROOT,
                "  %-22s %8.0f txn/s, %d aborted, %d blocks (%d frozen, %d compactions, %d moves), %d MB; "
                        + "CPU per txn: workers %.1f us, background %.2f us%n",
                transform ? "with transformation" : "without",
                tps,
                result[1],
                blocks,
                frozen,
                compactions,
                moves,
                memory >> 20,
                cpu[0],
                cpu[1]);
        return tps;
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(d -> d).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}

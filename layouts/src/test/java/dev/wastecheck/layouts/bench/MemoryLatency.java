package dev.wastecheck.layouts.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The machine's load-to-use latency by working-set size, for reading the layouts' figures: a
 * pointer chase (each load's address is the value the previous load returned, so no two misses
 * overlap) through a random cyclic permutation of 64-byte lines in an {@code int[]} of each
 * size, and beside it the same lines read independently (the next address does not depend on the
 * last value: the out-of-order core overlaps the misses, the memory-level parallelism a scan or
 * a well-written record read gets). Sizes below L2, between L2 and L3, and above L3 tell which
 * level a workload's tables live in: TPC-C's one warehouse (about 100 MB in pages), TPC-B's
 * 10 MB account table, TPC-H SF 0.1 (60 MB of lineitem in NSM) and SF 1 (600 MB).
 *
 * <pre>
 * BENCH_MAIN=dev.wastecheck.layouts.bench.MemoryLatency ./bench layouts [MB ...]
 * </pre>
 */
public final class MemoryLatency {
    private static long sink;

    private MemoryLatency() {}

    public static void main(String[] args) {
        int[] sizesMb = args.length > 0
                ? Arrays.stream(args).mapToInt(Integer::parseInt).toArray()
                : new int[] {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
        System.out.println("| working set | dependent load ns | independent load ns |");
        System.out.println("|---:|---:|---:|");
        for (int mb : sizesMb) {
            int lines = (int) ((long) mb * (1 << 20) / 64);
            int[] a = new int[lines * 16];
            // A random cycle through every line: a[16 * i] holds the index of the next line's first int.
            int[] order = new int[lines];
            for (int i = 0; i < lines; i++) order[i] = i;
            SplittableRandom r = new SplittableRandom(mb);
            for (int i = lines - 1; i > 0; i--) {
                int j = r.nextInt(i + 1), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int i = 0; i < lines; i++) a[16 * order[i]] = 16 * order[(i + 1) % lines];
            int steps = Math.max(2_000_000, lines);
            double dependent = Double.MAX_VALUE, independent = Double.MAX_VALUE;
            for (int rep = 0; rep < 5; rep++) {
                long t0 = System.nanoTime();
                int p = 0;
                for (int s = 0; s < steps; s++) p = a[p];
                long t1 = System.nanoTime();
                sink += p;
                dependent = Math.min(dependent, (t1 - t0) / (double) steps);
                // The same lines in the same order, their addresses from the order array, not the loaded values.
                long sum = 0;
                t0 = System.nanoTime();
                for (int s = 0; s < steps; s++) sum += a[16 * order[s % lines]];
                t1 = System.nanoTime();
                sink += sum;
                independent = Math.min(independent, (t1 - t0) / (double) steps);
            }
            System.out.printf(Locale.ROOT, "| %d MB | %.1f | %.1f |%n", mb, dependent, independent);
        }
        if (sink == 42) System.out.println();
    }
}

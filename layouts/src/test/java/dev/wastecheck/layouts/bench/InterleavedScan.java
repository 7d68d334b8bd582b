package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * A cross-check of {@link ScanBenchmark}'s ratios for a machine shared with other work: the
 * NSM, PAX, HPL and ARRAY scans of the same table run in turn, round after round, so that
 * interference from other processes falls on all of them alike instead of on whichever JMH
 * configuration happened to run while a neighbour was busy. Reports the median and the fastest
 * round of each and their ratios. Not a JMH benchmark: run it with
 * {@code BENCH_MAIN=dev.wastecheck.layouts.bench.InterleavedScan ./bench layouts [ROUNDS]}.
 */
public final class InterleavedScan {
    private static final String[] NAMES = {"NSM", "PAX", "HPL", "ARRAY"};
    private static long sink;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int records = 1 << 18, pageSize = 65536;
        for (Shape shape : Shape.values()) {
            Table[] tables = new Table[3];
            for (int l = 0; l < 3; l++) tables[l] = new Table(shape, Layout.values()[l], pageSize).load(records, 42);
            int[] column = new int[records];
            for (int i = 0; i < records; i++) column[i] = Shape.date(i);
            long[] selection = new long[records / 64 + 1];
            long[][] nanos = new long[4][rounds];
            for (int round = -20; round < rounds; round++) {         // 20 rounds of warm-up for the JIT
                for (int k = 0; k < 4; k++) {
                    int l = (k + Math.floorMod(round, 4)) % 4;       // rotate the order every round
                    long t0 = System.nanoTime();
                    sink += l == 3 ? scanArray(column, selection) : scan(tables[l], shape, selection);
                    long t = System.nanoTime() - t0;
                    if (round >= 0) nanos[l][round] = t;
                }
            }
            double[] median = new double[4], best = new double[4];
            for (int l = 0; l < 4; l++) {
                long[] n = nanos[l].clone();
                Arrays.sort(n);
                median[l] = n[rounds / 2] / 1e3;
                best[l] = n[0] / 1e3;
                System.out.printf("%-9s %-5s median %8.0f us   best %8.0f us%n", shape, NAMES[l], median[l], best[l]);
            }
            ratio(shape, "PAX/NSM", median, best, 1, 0);
            ratio(shape, "HPL/PAX", median, best, 2, 1);
            ratio(shape, "HPL/NSM", median, best, 2, 0);
            ratio(shape, "PAX/ARRAY", median, best, 1, 3);
            ratio(shape, "HPL/ARRAY", median, best, 2, 3);
        }
        if (sink == 42) System.out.println();
    }

    private static void ratio(Shape shape, String name, double[] median, double[] best, int a, int b) {
        System.out.printf("%-9s %-9s median %.2fx   best %.2fx%n", shape, name, median[b] / median[a], best[b] / best[a]);
    }

    private static long scan(Table table, Shape shape, long[] selection) {
        Page page = table.page;
        List<ByteBuffer> pages = table.pages;
        long matches = 0;
        for (int p = 0, n = pages.size(); p < n; p++) {
            matches += page.wrap(pages.get(p), 0, table.pageSize).scanBetween(shape.dateField, Shape.Q6_LO, Shape.Q6_HI, selection);
        }
        return matches;
    }

    /** The same loop as {@link ScanBenchmark}'s ARRAY baseline. */
    private static long scanArray(int[] c, long[] sel) {
        long lo = Shape.Q6_LO, hi = Shape.Q6_HI, matches = 0;
        for (int w = 0, words = (c.length + 63) >>> 6; w < words; w++) {
            int first = w << 6, count = Math.min(64, c.length - first);
            long bits = 0;
            for (int j = 0; j < count; j++) {
                long v = c[first + j];
                bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
            }
            sel[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }
}

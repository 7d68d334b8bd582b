package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.HybridPage;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A cross-check of {@link ScanBenchmark}'s ratios for a machine shared with other work: the
 * NSM, PAX, HPL and ARRAY scans of the same table run in turn, round after round, so that
 * interference from other processes falls on all of them alike instead of on whichever JMH
 * configuration happened to run while a neighbour was busy. Reports the median and the fastest
 * round of each and their ratios. Not a JMH benchmark: run it with
 * {@code BENCH_MAIN=dev.wastecheck.layouts.bench.InterleavedScan ./bench layouts [ROUNDS [R...]]};
 * each extra R adds an HPL table with that many records per segment ("HPL/R").
 */
public final class InterleavedScan {
    private static long sink;

    /** One contender: a table of pages, or the ARRAY baseline when {@code table} is null. */
    private record Contender(String name, Table table) {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int records = 1 << 18, pageSize = 65536;
        for (Shape shape : Shape.values()) {
            List<Contender> contenders = new ArrayList<>();
            for (Layout layout : Layout.PAGES) {
                contenders.add(new Contender(layout.name(), new Table(shape, layout, pageSize).load(records, 42)));
            }
            for (int i = 1; i < args.length; i++) {
                int r = Integer.parseInt(args[i]);
                contenders.add(new Contender(
                        "HPL/U" + r,
                        new Table(shape, new HybridPage(shape.schema, HybridPage.Variant.INCREMENTAL, r), pageSize)
                                .load(records, 42)));
            }
            contenders.add(new Contender("ARRAY", null));
            int k = contenders.size();
            int[] column = new int[records];
            for (int i = 0; i < records; i++) column[i] = Shape.date(i);
            long[] selection = new long[records / 64 + 1];
            long[][] nanos = new long[k][rounds];
            for (int round = -20; round < rounds; round++) { // 20 rounds of warm-up for the JIT
                for (int c = 0; c < k; c++) {
                    int l = (c + Math.floorMod(round, k)) % k; // rotate the order every round
                    Table table = contenders.get(l).table();
                    long t0 = System.nanoTime();
                    sink += table == null
                            ? ArrayScan.scan(column, Shape.Q6_LO, Shape.Q6_HI, selection)
                            : scan(table, shape, selection);
                    long t = System.nanoTime() - t0;
                    if (round >= 0) nanos[l][round] = t;
                }
            }
            double[] median = new double[k], best = new double[k];
            for (int l = 0; l < k; l++) {
                long[] n = nanos[l].clone();
                Arrays.sort(n);
                median[l] = n[rounds / 2] / 1e3;
                best[l] = n[0] / 1e3;
                Table table = contenders.get(l).table();
                System.out.printf(
                        "%-9s %-7s median %8.0f us   best %8.0f us%s%n",
                        shape,
                        contenders.get(l).name(),
                        median[l],
                        best[l],
                        table == null ? "" : "   pages " + table.pages.size());
            }
            int nsm = 0, pax = 1, hpl = 2, array = k - 1;
            ratio(shape, "PAX/NSM", median, best, pax, nsm);
            ratio(shape, "HPL/PAX", median, best, hpl, pax);
            ratio(shape, "HPL/NSM", median, best, hpl, nsm);
            ratio(shape, "PAX/ARRAY", median, best, pax, array);
            ratio(shape, "HPL/ARRAY", median, best, hpl, array);
            for (int l = 3; l < k - 1; l++) ratio(shape, contenders.get(l).name() + "/PAX", median, best, l, pax);
        }
        if (sink == 42) System.out.println();
    }

    private static void ratio(Shape shape, String name, double[] median, double[] best, int a, int b) {
        System.out.printf(
                "%-9s %-11s median %.2fx   best %.2fx%n", shape, name, median[b] / median[a], best[b] / best[a]);
    }

    private static long scan(Table table, Shape shape, long[] selection) {
        Page page = table.page;
        List<ByteBuffer> pages = table.pages;
        long matches = 0;
        for (int p = 0, n = pages.size(); p < n; p++) {
            matches += page.wrap(pages.get(p), 0, table.pageSize)
                    .scanBetween(shape.dateField, Shape.Q6_LO, Shape.Q6_HI, selection);
        }
        return matches;
    }
}

package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.bench.tpc.Formats;
import dev.wastecheck.layouts.bench.tpc.PageHeap;
import dev.wastecheck.layouts.bench.tpc.Tpcc;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The cost of one whole TPC-C stock record read ({@code Page.read}, New-Order's record
 * construction, HPL-2012-240 §6.3) on each format's 32 KB pages, in and out of cache: 400,000
 * reads of records drawn at random from the first {@code SPAN} of the 100,000 stock records
 * (100,000: 33-43 MB of pages, from memory; 1,000: 10-13 pages, from cache), the formats in
 * turn, the order rotated every round, each round's time the thread's CPU time a read. Prints
 * each format's median and quartiles and the per-round ratio of the second format to the first.
 *
 * <pre>
 * BENCH_MAIN=dev.wastecheck.layouts.bench.StockReads ./bench layouts [NSM,HPL] [ROUNDS 30] [SPAN 100000]
 * </pre>
 */
public final class StockReads {
    public static void main(String[] args) {
        String[] formats = (args.length > 0 ? args[0] : "NSM,HPL").split(",");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int span = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        List<PageHeap> heaps = new ArrayList<>();
        List<long[]> rids = new ArrayList<>();
        for (String f : formats) {
            PageHeap h = new Tpcc(Formats.of(f), 32768, 42).stock;
            List<Long> all = new ArrayList<>();
            for (int p = 0; p < h.pageCount(); p++)
                for (int s = 0, n = h.page(p).slotCount(); s < n; s++) all.add(PageHeap.rid(p, s));
            long[] r = new long[400_000];
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < r.length; i++) r[i] = all.get(random.nextInt(Math.min(span, all.size())));
            heaps.add(h);
            rids.add(r);
            System.out.printf(
                    Locale.ROOT, "# %s: %d stock records in %d pages of 32 KB%n", f, all.size(), h.pageCount());
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        double[][] ns = new double[formats.length][rounds];
        for (int round = -5; round < rounds; round++) { // five untimed rounds first
            for (int k = 0; k < formats.length; k++) {
                int f = (k + Math.max(round, 0)) % formats.length;
                PageHeap h = heaps.get(f);
                long[] r = rids.get(f);
                Record rec = new Record(Tpcc.STOCK);
                long t0 = threads.getCurrentThreadCpuTime();
                for (long rid : r) {
                    h.pageOf(rid).read(PageHeap.ridSlot(rid), rec);
                    sink += rec.getLong(Tpcc.S_QUANTITY) + rec.length(5);
                }
                if (round >= 0) ns[f][round] = (double) (threads.getCurrentThreadCpuTime() - t0) / r.length;
            }
        }
        for (int f = 0; f < formats.length; f++) {
            double[] q = PaperRun.quartiles(ns[f]);
            System.out.printf(Locale.ROOT, "%s: %.1f ns a read, median [%.1f-%.1f]%n", formats[f], q[1], q[0], q[2]);
        }
        for (int f = 1; f < formats.length; f++) {
            double[] ratio = new double[rounds];
            for (int i = 0; i < rounds; i++) ratio[i] = ns[f][i] / ns[0][i];
            double[] q = PaperRun.quartiles(ratio);
            System.out.printf(
                    Locale.ROOT,
                    "%s / %s time a read: %.3f, median of the rounds [%.3f-%.3f]; ratio of the means %.3f%n",
                    formats[f],
                    formats[0],
                    q[1],
                    q[0],
                    q[2],
                    Arrays.stream(ns[f]).average().orElse(0)
                            / Arrays.stream(ns[0]).average().orElse(1));
        }
        if (sink == 42) System.out.println();
    }
}

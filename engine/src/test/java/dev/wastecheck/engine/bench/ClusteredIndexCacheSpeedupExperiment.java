package dev.wastecheck.engine.bench;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.engine.index.IndexCache;
import dev.wastecheck.engine.index.KeyEncoder;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Fig. 2c on InnoDB's access path (the paper names no engine), where a table is clustered on its primary key and
 * a secondary index stores the primary key, not a tuple address. A lookup through a secondary
 * index then descends a second B+tree (the clustered primary index) to reach the row; the index
 * cache in the secondary index's leaves saves that whole second descent, not one page read.
 *
 * <p>Emulated with the engine's parts: the secondary unique index maps its key to the row's primary
 * key; fetching the row is a lookup in the primary B+tree (primary key to tuple id) and the read
 * of the tuple (the leaf of a clustered index holds the row; here the row sits one pin further,
 * which makes the cache-less baseline slightly slower than InnoDB's, by one page access). The
 * table, workload and paired timing are {@link IndexCacheSpeedupExperiment}'s; the only
 * difference is what a miss must do. An experiment, not a test: timing is recorded, never
 * asserted; {@link IndexCacheHitsTest} checks the cache's hits through this clustered path too.
 *
 * <pre>./bench fig2c-clustered full</pre>
 */
public final class ClusteredIndexCacheSpeedupExperiment {
    private ClusteredIndexCacheSpeedupExperiment() {}

    public static void main(String[] args) {
        boolean full = java.util.Arrays.asList(args).contains("full");
        int n = full ? 100_000 : 20_000;
        int rounds = full ? 31 : 3;
        try (StorageDevice device = StorageDevice.temporary(8192, DeviceModel.NVME)) {
            BufferPool pool = new BufferPool(device, 256L << 20);
            HeapFile heap = new HeapFile(pool, Layout.NSM, IndexCacheBenchmark.REVISION);
            BTree primary = new BTree(pool, true);
            BTree secondary = new BTree(pool, true);
            SplittableRandom r = new SplittableRandom(2011);
            int[] order = IndexCacheSpeedupExperiment.shuffled(n, r);
            int[] pkOf =
                    IndexCacheSpeedupExperiment.shuffled(n, new SplittableRandom(7)); // secondary key -> primary key
            Record rec = new Record(IndexCacheBenchmark.REVISION);
            byte[][] keys = new byte[n][];
            for (int i = 0; i < n; i++) keys[i] = KeyEncoder.ofInt(i);
            for (int id : order) {
                int pk = pkOf[id];
                long tid = heap.insert(IndexCacheBenchmark.revision(rec, id, pk));
                primary.insert(KeyEncoder.ofInt(pk), tid); // MediaWiki's rev_id is an int
                secondary.insert(keys[id], pk); // the secondary index holds the primary key
            }
            FieldSource row = heap.fieldSource(IndexCacheBenchmark.REV_LEN, IndexCacheBenchmark.REV_TIMESTAMP);
            KeyEncoder enc = new KeyEncoder();
            // A miss: descend the clustered primary index with the primary key, then read the row.
            FieldSource clustered = (pk, out) ->
                    row.read(primary.lookup(enc.reset().appendInt((int) pk).toBytes()), out);
            IndexCache off = new IndexCache(secondary, 12, CachePolicy.OFF, 0.12);
            IndexCache swap = new IndexCache(secondary, 12, CachePolicy.SWAP, 0.12);
            byte[] out = new byte[12];
            for (int i = 0; i < 5 * n; i++) swap.lookup(keys[5 * r.nextInt(n / 5)], clustered, out);

            StringBuilder report = new StringBuilder(String.format(
                    Locale.ROOT,
                    "clustered (InnoDB-style): %d rows, secondary leaves %d (fill %.1f%%), cache_size 0.12, %d paired rounds%n%n"
                            + "| hot share | hit rate | off ns/lookup | swap ns/lookup | speedup (median pair) | swap - off ns |%n|---|---|---|---|---|---|%n",
                    n,
                    secondary.leafStats().leaves(),
                    100 * secondary.leafStats().fill(),
                    rounds));
            int[] shares = full ? new int[] {-1, 0, 50, 80, 90, 95, 99, 100} : new int[] {-1, 100};
            double[] hitRates = new double[shares.length], ratios = new double[shares.length];
            for (int si = 0; si < shares.length; si++) {
                int share = shares[si];
                int[] seq = IndexCacheSpeedupExperiment.sequence(share, n, r);
                if (share >= 0) for (int w = 0; w < 3; w++) for (int k : seq) swap.lookup(keys[k], clustered, out);
                double[] o = new double[rounds], s = new double[rounds], q = new double[rounds];
                long hits = 0, lookups = 0;
                for (int round = 0; round < rounds; round++) {
                    boolean offFirst = round % 2 == 0;
                    if (offFirst) o[round] = IndexCacheSpeedupExperiment.time(off, keys, seq, clustered, out);
                    if (share < 0) swap.anyUpdated();
                    long h0 = swap.hits(), m0 = swap.misses();
                    s[round] = IndexCacheSpeedupExperiment.time(swap, keys, seq, clustered, out);
                    hits += swap.hits() - h0;
                    lookups += swap.hits() - h0 + swap.misses() - m0;
                    if (!offFirst) o[round] = IndexCacheSpeedupExperiment.time(off, keys, seq, clustered, out);
                    q[round] = o[round] / s[round];
                }
                hitRates[si] = (double) hits / lookups;
                ratios[si] = IndexCacheSpeedupExperiment.median(q);
                double offNs = IndexCacheSpeedupExperiment.median(o), swapNs = IndexCacheSpeedupExperiment.median(s);
                report.append(String.format(
                        Locale.ROOT,
                        "| %s | %.1f%% | %.0f | %.0f | %.2fx | %+.0f |%n",
                        share < 0 ? "0 (exact miss)" : share + "%",
                        100 * hitRates[si],
                        offNs,
                        swapNs,
                        ratios[si],
                        swapNs - offNs));
            }
            System.out.println(report);
        }
    }
}

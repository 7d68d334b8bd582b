package dev.wastecheck.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What Fig. 2c's experiments rely on, checked without timing anything, on their table (10,000
 * revisions): after an update whose predicate the cache cannot evaluate, a block of cold lookups
 * finds nothing in the cache; once hot keys have been looked up, most of their lookups are hits;
 * and every lookup, hit or miss, returns the row's own fields. Both for a heap the index points
 * into and for rows reached through a clustered primary index (InnoDB).
 */
class IndexCacheHitsTest {
    static final int N = 10_000;

    @Test
    void throughTheHeap() {
        try (StorageDevice device = StorageDevice.temporary(8192, DeviceModel.NVME)) {
            BufferPool pool = new BufferPool(device, 256L << 20);
            HeapFile heap = new HeapFile(pool, Layout.NSM, IndexCacheBenchmark.REVISION);
            BTree tree = new BTree(pool, true);
            Record rec = new Record(IndexCacheBenchmark.REVISION);
            for (int id : IndexCacheSpeedupExperiment.shuffled(N, new SplittableRandom(2011))) {
                tree.insert(KeyEncoder.ofInt(id), heap.insert(IndexCacheBenchmark.revision(rec, id, id)));
            }
            checkHits(tree, heap.fieldSource(IndexCacheBenchmark.REV_LEN, IndexCacheBenchmark.REV_TIMESTAMP));
        }
    }

    @Test
    void throughAClusteredPrimaryIndex() {
        try (StorageDevice device = StorageDevice.temporary(8192, DeviceModel.NVME)) {
            BufferPool pool = new BufferPool(device, 256L << 20);
            HeapFile heap = new HeapFile(pool, Layout.NSM, IndexCacheBenchmark.REVISION);
            BTree primary = new BTree(pool, true);
            BTree secondary = new BTree(pool, true);
            int[] pkOf = IndexCacheSpeedupExperiment.shuffled(N, new SplittableRandom(7));
            Record rec = new Record(IndexCacheBenchmark.REVISION);
            for (int id : IndexCacheSpeedupExperiment.shuffled(N, new SplittableRandom(2011))) {
                long tid = heap.insert(IndexCacheBenchmark.revision(rec, id, pkOf[id]));
                primary.insert(KeyEncoder.ofInt(pkOf[id]), tid);
                secondary.insert(KeyEncoder.ofInt(id), pkOf[id]); // the secondary index holds the primary key
            }
            FieldSource row = heap.fieldSource(IndexCacheBenchmark.REV_LEN, IndexCacheBenchmark.REV_TIMESTAMP);
            KeyEncoder enc = new KeyEncoder();
            checkHits(
                    secondary,
                    (pk, out) -> row.read(
                            primary.lookup(enc.reset().appendInt((int) pk).toBytes()), out));
        }
    }

    private static void checkHits(BTree tree, FieldSource source) {
        byte[][] keys = new byte[N][];
        for (int i = 0; i < N; i++) keys[i] = KeyEncoder.ofInt(i);
        IndexCache off = new IndexCache(tree, 12, CachePolicy.OFF, 0.12);
        IndexCache swap = new IndexCache(tree, 12, CachePolicy.SWAP, 0.12);
        SplittableRandom r = new SplittableRandom(2011);
        byte[] cached = new byte[12], direct = new byte[12];
        for (int i = 0; i < 5 * N; i++) swap.lookup(keys[5 * r.nextInt(N / 5)], source, cached); // fill the windows

        // an update the cache cannot evaluate drops every leaf's items: no cold key can be found
        swap.anyUpdated();
        long h0 = swap.hits();
        int[] cold = IndexCacheSpeedupExperiment.sequence(-1, N, r);
        for (int k : cold) {
            swap.lookup(keys[k], source, cached);
            off.lookup(keys[k], source, direct);
            assertThat(cached).as("key %d", k).isEqualTo(direct);
        }
        assertThat(swap.hits() - h0).isZero();

        // hot keys (k mod 20 = 0), looked up again and again, stay in the leaves
        int[] hot = IndexCacheSpeedupExperiment.sequence(100, N, r);
        for (int w = 0; w < 3; w++) for (int k : hot) swap.lookup(keys[k], source, cached);
        long hits = swap.hits(), misses = swap.misses();
        for (int k : hot) {
            swap.lookup(keys[k], source, cached);
            off.lookup(keys[k], source, direct);
            assertThat(cached).as("key %d", k).isEqualTo(direct);
        }
        double hitRate = (double) (swap.hits() - hits) / (swap.hits() - hits + swap.misses() - misses);
        assertThat(hitRate).isGreaterThan(0.5);
    }
}

package dev.wastecheck.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IndexCacheTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT32), Field.of("views", FieldType.INT64),
            Field.of("len", FieldType.INT32), Field.varlen("title", false, 40));
    static final int VIEWS = 1, LEN = 2;

    final StorageDevice dev = StorageDevice.temporary(8192, DeviceModel.NVME);
    final BufferPool pool = new BufferPool(dev, 64L << 20);
    final HeapFile heap = new HeapFile(pool, Layout.NSM, SCHEMA);
    final BTree tree = new BTree(pool, true);
    final AtomicLong heapReads = new AtomicLong();
    final FieldSource fields = heap.fieldSource(VIEWS, LEN);
    final FieldSource counted = (tid, out) -> {
        heapReads.incrementAndGet();
        fields.read(tid, out);
    };

    @AfterEach
    void close() {
        dev.close();
    }

    void load(int n, long seed) {
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) keys[i] = i;
        Random r = new Random(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = keys[i];
            keys[i] = keys[j];
            keys[j] = t;
        }
        Record rec = new Record(SCHEMA);
        for (int k : keys) insert(k, rec);
    }

    void insert(int k, Record rec) {
        rec.setLong(0, k).setLong(VIEWS, 1000L * k).setLong(LEN, k % 977).setString(3, "Title " + k);
        assertThat(tree.insert(KeyEncoder.ofInt(k), heap.insert(rec))).isTrue();
    }

    long views(byte[] out) {
        return HeapFile.decode(out, 0, 8);
    }

    long len(byte[] out) {
        return HeapFile.decode(out, 8, 4);
    }

    @Test
    void aRepeatedLookupIsAnsweredFromTheLeafWithoutTouchingTheHeap() {
        load(20_000, 1);
        IndexCache cache = new IndexCache(tree, heap.fieldBytes(VIEWS, LEN), CachePolicy.SWAP, 0.25);
        byte[] out = new byte[12];
        for (int round = 0; round < 3; round++)
            for (int k = 0; k < 50; k++) {
                long tid = cache.lookup(KeyEncoder.ofInt(k * 397), counted, out);
                assertThat(tid).isNotEqualTo(TupleId.NONE);
                assertThat(views(out)).isEqualTo(1000L * k * 397);
                assertThat(len(out)).isEqualTo(k * 397 % 977);
            }
        // 50 keys on distinct leaves: the first round misses, later rounds hit
        assertThat(heapReads.get()).isEqualTo(50);
        assertThat(cache.hits()).isEqualTo(100);
        assertThat(cache.lookup(KeyEncoder.ofInt(-5), counted, out)).isEqualTo(TupleId.NONE);
    }

    @Test
    void cacheWritesNeverDirtyAPage() {
        load(5_000, 2);
        pool.flushAll();
        long writes = dev.writes();
        IndexCache cache = new IndexCache(tree, 12, CachePolicy.SWAP, 1.0);
        byte[] out = new byte[12];
        for (int i = 0; i < 20_000; i++) cache.lookup(KeyEncoder.ofInt(i % 5_000), counted, out);
        assertThat(cache.hits()).isGreaterThan(0);
        pool.flushAll();
        assertThat(dev.writes()).isEqualTo(writes);
    }

    @Test
    void updatesInvalidateCachedValues() {
        load(5_000, 3);
        IndexCache cache = new IndexCache(tree, 12, CachePolicy.SWAP, 1.0);
        byte[] out = new byte[12];
        byte[] key = KeyEncoder.ofInt(1234);
        long tid = cache.lookup(key, counted, out);
        cache.lookup(key, counted, out);
        assertThat(cache.hits()).isEqualTo(1);

        heap.setLongs(tid, new int[] {VIEWS}, new long[] {42});
        cache.tupleUpdated(tid);
        cache.lookup(key, counted, out);
        assertThat(views(out)).isEqualTo(42);

        heap.setLongs(tid, new int[] {VIEWS}, new long[] {43});
        cache.keyRangeUpdated(KeyEncoder.ofInt(1000), KeyEncoder.ofInt(2000));
        cache.lookup(key, counted, out);
        assertThat(views(out)).isEqualTo(43);

        heap.setLongs(tid, new int[] {VIEWS}, new long[] {44});
        cache.anyUpdated();
        cache.lookup(key, counted, out);
        assertThat(views(out)).isEqualTo(44);
        cache.lookup(key, counted, out);
        assertThat(views(out)).isEqualTo(44);
    }

    @Test
    void anUpdateOutrunningTheLogDropsTheLeafsCache() {
        load(2_000, 4);
        IndexCache cache = new IndexCache(tree, 12, CachePolicy.SWAP, 1.0);
        byte[] out = new byte[12];
        byte[] key = KeyEncoder.ofInt(77);
        long tid = cache.lookup(key, counted, out);
        heap.setLongs(tid, new int[] {VIEWS}, new long[] {-1});
        cache.tupleUpdated(tid);
        for (int i = 0; i < 10_000; i++) cache.tupleUpdated(TupleId.of(999_999, 1)); // the ring forgets the first
        cache.lookup(key, counted, out);
        assertThat(views(out)).isEqualTo(-1);
    }

    @Test
    void keyInsertsOverwriteThePeripheryAndLookupsStayCorrect() {
        int n = 10_000;
        load(n, 5);
        IndexCache cache = new IndexCache(tree, 12, CachePolicy.SWAP, 1.0);
        byte[] out = new byte[12];
        Random r = new Random(9);
        Record rec = new Record(SCHEMA);
        for (int i = 0; i < 40_000; i++) {
            if (i % 4 == 0) insert(n + i, rec);
            if (i % 8 == 0 && i >= 8)
                assertThat(tree.delete(KeyEncoder.ofInt(n + i - 8), TupleId.NONE))
                        .isTrue(); // half the new keys go again
            int k = (int) (n * Math.pow(r.nextDouble(), 4));
            assertThat(cache.lookup(KeyEncoder.ofInt(k), counted, out)).isNotEqualTo(TupleId.NONE);
            assertThat(views(out)).isEqualTo(1000L * k);
            assertThat(len(out)).isEqualTo(k % 977);
        }
        assertThat(cache.hitRate()).isGreaterThan(0.3);
    }

    /**
     * A leaf filled until no whole cache slot is left has an empty window. The slot at the edge
     * of its free space is then no longer live (the directory may have overwritten its tail, and
     * invalidation no longer sweeps it), so an item cached there before must never be found:
     * after its tuple is updated, a lookup would return the old value. The leaf is filled one
     * key at a time, every key cached and then updated at every fill level, with key lengths
     * that put the free space's edges at every alignment to the item size. Regression: find()
     * read that slot.
     */
    @Test
    void aFullLeafNeverAnswersFromASlotThatIsNoLongerLive() {
        long[] views = new long[1000];
        FieldSource source = (tid, out) -> {
            long v = views[(int) tid];
            for (int k = 0; k < 8; k++) out[k] = (byte) (v >>> (8 * k));
        };
        byte[] out = new byte[8];
        int emptyWindows = 0;
        for (int pad = 0; pad < 16; pad++) {
            try (StorageDevice small = StorageDevice.temporary(4096, DeviceModel.NVME)) {
                BTree t = new BTree(new BufferPool(small, 1L << 20), true);
                IndexCache cache = new IndexCache(t, 8, CachePolicy.SWAP, 1.0);
                String suffix = "x".repeat(pad);
                int n = 0;
                while (t.leafStats().freeBytes()
                        >= BTreePage.cellSize(KeyEncoder.ofString(n + suffix).length, true)
                                + BTreePage.DIR_ENTRY_SIZE) {
                    t.insert(KeyEncoder.ofString(n + suffix), n);
                    views[n] = n;
                    n++;
                    for (int q = 0; q < n; q++)
                        cache.lookup(KeyEncoder.ofString(q + suffix), source, out); // cache every key
                    if (cache.occupancy().capacitySlots() == 0) emptyWindows++;
                    for (int q = 0; q < n; q++) {
                        views[q]++;
                        cache.tupleUpdated(q);
                    }
                    for (int q = 0; q < n; q++) {
                        assertThat(cache.lookup(KeyEncoder.ofString(q + suffix), source, out))
                                .isEqualTo(q);
                        assertThat(HeapFile.decode(out, 0, 8))
                                .as("pad %d, %d keys, key %d", pad, n, q)
                                .isEqualTo(views[q]);
                    }
                }
                assertThat(t.leafStats().leaves()).isEqualTo(1);
            }
        }
        assertThat(emptyWindows).as("fill levels that left no whole slot").isPositive();
    }

    @Test
    void offTouchesTheHeapEveryTime() {
        load(1_000, 6);
        IndexCache cache = new IndexCache(tree, 12, CachePolicy.OFF, 1.0);
        byte[] out = new byte[12];
        for (int i = 0; i < 100; i++) cache.lookup(KeyEncoder.ofInt(5), counted, out);
        assertThat(heapReads.get()).isEqualTo(100);
        assertThat(cache.hits()).isZero();
    }
}

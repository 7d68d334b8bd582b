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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The index cache never returns a stale value: readers, writers and a key inserter run
 * together for a few seconds on a skewed workload (so hot items are cached and updated).
 *
 * <p>Each tuple carries a version and a check value (version * 31 + 7), updated together.
 * A writer publishes version v in {@code committed} only after its heap update and its log
 * entry are done; a reader that saw {@code committed[t] = v} before its lookup must get a
 * version >= v (else it was served a stale item), never one above what was ever written, and
 * a matching check value (else it read a torn item).
 */
class IndexCacheConcurrencyTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT32), Field.of("version", FieldType.INT64), Field.of("check", FieldType.INT64));
    static final int N = 20_000;

    @Test
    void readersNeverSeeAStaleOrTornValueWhileWritersUpdate() throws Exception {
        for (CachePolicy policy : new CachePolicy[] {CachePolicy.SWAP, CachePolicy.SHRINK}) run(policy, 20_000, 6_000);
    }

    /** Runs until each reader has done {@code lookupsPerReader} lookups, or {@code maxMillis} passed. */
    void run(CachePolicy policy, int lookupsPerReader, long maxMillis) throws Exception {
        try (StorageDevice dev = StorageDevice.temporary(4096, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 64L << 20);
            HeapFile heap = new HeapFile(pool, Layout.NSM, SCHEMA);
            BTree tree = new BTree(pool, true);
            long[] tids = new long[N];
            Record rec = new Record(SCHEMA);
            Random shuffle = new Random(11);
            int[] order = new int[N];
            for (int i = 0; i < N; i++) order[i] = i;
            for (int i = N - 1; i > 0; i--) {
                int j = shuffle.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int k : order) {
                tids[k] = heap.insert(rec.setLong(0, k).setLong(1, 0).setLong(2, 7));
                tree.insert(KeyEncoder.ofInt(k), tids[k]);
            }
            IndexCache cache = new IndexCache(tree, 16, policy, 0.5);
            cache.shrinkPeriod(3);
            FieldSource source = heap.fieldSource(1, 2);
            AtomicLongArray committed = new AtomicLongArray(N);
            AtomicLongArray started = new AtomicLongArray(N);
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            long[] reads = new long[2];

            int writers = 2;
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int me = w;
                threads.add(new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    while (!stop.get()) {
                        int k = hot(r);
                        if (k % writers != me) continue; // each tuple has one writer: versions are sequential
                        long v = started.get(k) + 1;
                        started.set(k, v);
                        heap.setLongs(tids[k], new int[] {1, 2}, new long[] {v, v * 31 + 7});
                        cache.tupleUpdated(tids[k]);
                        committed.set(k, v);
                    }
                }));
            }
            for (int rd = 0; rd < 2; rd++) {
                int me = rd;
                threads.add(new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    byte[] out = new byte[16];
                    long n = 0;
                    while (!stop.get() && n < lookupsPerReader) {
                        int k = hot(r);
                        long floor = committed.get(k);
                        long tid = cache.lookup(KeyEncoder.ofInt(k), source, out);
                        long ceiling = started.get(k);
                        long v = HeapFile.decode(out, 0, 8), check = HeapFile.decode(out, 8, 8);
                        if (tid != tids[k]) failures.add("key " + k + " -> " + TupleId.toString(tid));
                        else if (v < floor)
                            failures.add("stale: key " + k + " version " + v + " after " + floor + " was committed");
                        else if (v > ceiling)
                            failures.add("key " + k + " version " + v + " never written (max " + ceiling + ")");
                        else if (check != v * 31 + 7)
                            failures.add("torn: key " + k + " version " + v + " check " + check);
                        n++;
                    }
                    reads[me] = n;
                }));
            }
            // key inserts: splits and periphery overwrites while the cache is in use
            threads.add(new Thread(() -> {
                Record own = new Record(SCHEMA);
                for (int k = N; !stop.get() && k < 10 * N; k++) {
                    long tid = heap.insert(own.setLong(0, k).setLong(1, 0).setLong(2, 7));
                    tree.insert(KeyEncoder.ofInt(k), tid);
                    if (k % 16 == 0) LockSupport.parkNanos(20_000); // leave readers room
                }
            }));
            threads.forEach(Thread::start);
            List<Thread> readers = threads.subList(writers, writers + 2);
            long deadline = System.currentTimeMillis() + maxMillis;
            for (Thread t : readers) t.join(Math.max(1, deadline - System.currentTimeMillis()));
            stop.set(true);
            for (Thread t : threads) t.join();

            assertThat(failures).as(policy + ": first failures").isEmpty();
            assertThat(reads[0] + reads[1]).as("lookups").isGreaterThan(1_000);
            assertThat(cache.hits()).as(policy + " hits").isGreaterThan(100);
        }
    }

    /** Skewed keys: a quarter of the lookups go to 1% of the keys. */
    static int hot(ThreadLocalRandom r) {
        return r.nextInt(4) == 0 ? r.nextInt(N / 100) : r.nextInt(N);
    }
}

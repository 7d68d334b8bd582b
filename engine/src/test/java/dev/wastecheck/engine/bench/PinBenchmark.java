package dev.wastecheck.engine.bench;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.KeyEncoder;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

/**
 * What a page a query touches costs the engine, by page size and by kind of page, for {@code Autotune}'s charges per
 * page touched (issue 27): the modeled cost charges each buffer-pool pin by the page's size and kind, and a page size
 * changes both the pins a query makes (a hot index in one 16 KiB page against a root and a leaf of 4 KiB) and what
 * each costs (a binary search over more entries).
 *
 * <ul>
 *   <li>{@code pinUnpin}: {@link BufferPool#pin} and {@link BufferPool#unpin} of a resident page (the lock-free
 *       path every hit takes), cycling over the tree's pages so that the page table's probe is not always the same
 *       slot;
 *   <li>{@code descent}: {@link BTree#lookup} of a random key in a hot index as {@code Table} builds it: packed
 *       leaves ({@code PackedLeafPage}, 4-byte integer keys), {@code keys} entries inserted in key order with
 *       consecutive tuple ids, every page resident. Its pins per lookup are the tree's height (printed by the
 *       setup); what the model should charge per page a query touches is the descent's time over its pins (a pin,
 *       the unpin and the search in the page);
 *   <li>{@code descentBTreePage}: the same over {@code BTreePage} leaves (a cold partition's index, or any index
 *       without a hot partition, whose keys are encoded cells), {@link #COLD_KEYS} entries in key order: the order
 *       of 3571's whole {@code revision} primary index (540,672 B at 4 KiB);
 *   <li>{@code heapNsm}, {@code heapPax}: a tuple read as {@code Table.project} makes it, {@link HeapFile#project}
 *       of every field of a random tuple of {@link #HEAP_ROWS} revision-like records (seven integers of 1-8 bytes
 *       and a comment of 8-40 bytes), in NSM and in PAX pages: one pin, the slot or the minipages read, the unpin.
 * </ul>
 *
 * <p>What would make the number lie: the keys and tuple ids come from precomputed random sequences of 2^16 (the
 * array walk is a few ns of the result); each result is returned to JMH (sunk). Every page is resident and in cache
 * after the warmup (a hot index of a few pages, a heap of about a MiB): the replay's pins of hot pages are such hits,
 * its misses are charged device time apart. The tree's lock and the page monitor are uncontended (one thread), as in
 * the replay. A heap of cold tuples read far apart would take more cache misses a page than this one. Run: {@code
 * ./bench engine PinBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Xmx1g")
@State(Scope.Thread)
public class PinBenchmark {
    /** The sizes {@code autotune} tries: its {@code Finalists.PAGE_SIZES} beside the default 8 KiB. */
    @Param({"4096", "8192", "16384"})
    public int pageSize;

    /** Entries of the hot index: 2,455 is a hot primary index of wiki 3571's partitioned tables (issue 27). */
    @Param({"2455"})
    public int keys;

    /** Entries of the {@code BTreePage} index: about 3571's whole {@code revision} primary index. */
    static final int COLD_KEYS = 30_000;

    /** Records of each heap: about a MiB, the order of the hot partitions' heaps held out. */
    static final int HEAP_ROWS = 20_000;

    static final RecordSchema REVISION = RecordSchema.of(
            Field.of("rev_id", FieldType.INT32),
            Field.of("rev_page", FieldType.INT32),
            Field.of("rev_text_id", FieldType.INT32),
            Field.of("rev_timestamp", FieldType.INT64),
            Field.of("rev_user", FieldType.INT32),
            Field.of("rev_minor_edit", FieldType.INT8),
            Field.of("rev_len", FieldType.INT32),
            Field.varlen("rev_comment", true, 24));

    private StorageDevice device;
    private BufferPool pool;
    private BTree tree, cells;
    private HeapFile nsm, pax;
    private long[] pages, nsmTids, paxTids;
    private byte[][] sequence, coldSequence;
    private int[] tidSequence;
    private final int[] allFields = {0, 1, 2, 3, 4, 5, 6, 7};
    private Record into;
    private byte[] scratch;
    private int next, nextPage, nextCold, nextTid;

    @Setup(Level.Trial)
    public void build() {
        device = StorageDevice.temporary(pageSize, DeviceModel.MEMORY);
        pool = new BufferPool(device, 32L << 20);
        tree = new BTree(pool, true, 4);
        for (int i = 0; i < keys; i++) tree.insert(KeyEncoder.ofInt(1000 + i), 40_000L + i);
        pages = tree.pageNumbers();
        cells = new BTree(pool, true);
        for (int i = 0; i < COLD_KEYS; i++) cells.insert(KeyEncoder.ofInt(1000 + i), 40_000L + i);
        SplittableRandom r = new SplittableRandom(27);
        sequence = new byte[1 << 16][];
        coldSequence = new byte[1 << 16][];
        tidSequence = new int[1 << 16];
        for (int i = 0; i < sequence.length; i++) {
            sequence[i] = KeyEncoder.ofInt(1000 + r.nextInt(keys));
            coldSequence[i] = KeyEncoder.ofInt(1000 + r.nextInt(COLD_KEYS));
            tidSequence[i] = r.nextInt(HEAP_ROWS);
        }
        nsm = new HeapFile(pool, Layout.NSM, REVISION);
        pax = new HeapFile(pool, Layout.PAX, REVISION);
        nsmTids = new long[HEAP_ROWS];
        paxTids = new long[HEAP_ROWS];
        Record rec = new Record(REVISION);
        for (int i = 0; i < HEAP_ROWS; i++) {
            rec.setLong(0, 40_000 + i)
                    .setLong(1, 1 + i / 7)
                    .setLong(2, 90_000 + i)
                    .setLong(3, 20_061_127_000_000L + i);
            rec.setLong(4, r.nextInt(500)).setLong(5, r.nextInt(2)).setLong(6, r.nextInt(60_000));
            if (i % 5 == 0) rec.setNull(7);
            else rec.setString(7, "edit " + "x".repeat(3 + r.nextInt(33)));
            nsmTids[i] = nsm.insert(rec);
            paxTids[i] = pax.insert(rec);
        }
        into = new Record(REVISION);
        scratch = new byte[pageSize];
        long before = pool.pins();
        for (byte[] k : sequence) if (tree.lookup(k) < 0) throw new IllegalStateException("key not found");
        long mid = pool.pins();
        for (byte[] k : coldSequence) if (cells.lookup(k) < 0) throw new IllegalStateException("key not found");
        System.out.printf(
                "%n[setup] page %d B: packed %d entries, height %d, %d pages, %.3f pins a lookup; BTreePage %d"
                        + " entries, height %d, %d pages, %.3f pins a lookup; heap %d rows, NSM %d pages, PAX %d"
                        + " pages%n",
                pageSize,
                keys,
                tree.height(),
                pages.length,
                (double) (mid - before) / sequence.length,
                COLD_KEYS,
                cells.height(),
                cells.pageNumbers().length,
                (double) (pool.pins() - mid) / coldSequence.length,
                HEAP_ROWS,
                nsm.pageCount(),
                pax.pageCount());
    }

    @TearDown(Level.Trial)
    public void close() {
        pool.close();
        device.close();
    }

    @Benchmark
    public int pinUnpin() {
        long p = pages[nextPage];
        nextPage = nextPage + 1 == pages.length ? 0 : nextPage + 1;
        Frame f = pool.pin(p);
        int b = f.buffer().get(0);
        pool.unpin(f, false);
        return b;
    }

    @Benchmark
    public long descent() {
        byte[] k = sequence[next];
        next = (next + 1) & (sequence.length - 1);
        return tree.lookup(k);
    }

    @Benchmark
    public long descentBTreePage() {
        byte[] k = coldSequence[nextCold];
        nextCold = (nextCold + 1) & (coldSequence.length - 1);
        return cells.lookup(k);
    }

    @Benchmark
    public long heapNsm() {
        return heapRead(nsm, nsmTids);
    }

    @Benchmark
    public long heapPax() {
        return heapRead(pax, paxTids);
    }

    private long heapRead(HeapFile heap, long[] tids) {
        int t = tidSequence[nextTid];
        nextTid = (nextTid + 1) & (tidSequence.length - 1);
        heap.project(tids[t], allFields, into, scratch);
        return into.getLong(0) + into.getLong(6);
    }
}

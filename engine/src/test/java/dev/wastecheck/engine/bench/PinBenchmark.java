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
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Supplier;
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
 * <p><b>Where the pages are</b> ({@link #footprintMiB}). With {@code 0}, one copy of each structure, touched in a
 * loop: after the warmup its pages are in the core's L1 and L2 caches (a hot index of a few pages, a heap of about a
 * MiB), which is where the first charges were measured. A replay does not touch a page like that: between two
 * lookups of one hot index it touches the other tables' pages, the text dictionary (1 MiB), the decompression's
 * buffers and the young generation's fresh allocations, a working set of several MiB against this machine's 2 MiB of
 * L2 a core, so a page it touches is mostly found in L3 or memory, and what a page costs is mostly its cache lines
 * fetched: the frame, the page table's slot, the header, each step of the search. With {@code 8}, each structure is
 * built in as many copies as span 8 MiB (the replays' buffer pool, {@code --memory 8M}) and every operation goes to a
 * random copy, so the pages it touches were last touched about 8 MiB of other pages ago: the replay's case. Both
 * settings do the same operations; only where their lines are differs.
 *
 * <p>What would make the number lie: the keys, copies and tuple ids come from precomputed random sequences of 2^16
 * (the array walk is a few ns of the result); each result is returned to JMH (sunk). Every page is resident in the
 * pool (a budget of 64 MiB): the replay's pins of hot pages are such hits, its misses are charged device time apart.
 * The tree's lock and the page monitor are uncontended (one thread), as in the replay. Run: {@code ./bench engine
 * PinBenchmark}.
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

    /**
     * MiB that each structure's copies span, every operation on a random copy: {@code 0} is one copy, in the core's
     * caches after the warmup; {@code 8} is the replays' buffer pool, out of the 2 MiB L2 (see the class comment).
     */
    @Param({"0", "8"})
    public int footprintMiB;

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
    private BTree[] trees, cellTrees;
    private HeapFile[] nsms, paxes;
    private long[] pages;
    private long[][] nsmTids, paxTids;
    private byte[][] sequence, coldSequence;
    private int[] tidSequence, copySequence;
    private final int[] allFields = {0, 1, 2, 3, 4, 5, 6, 7};
    private Record into;
    private byte[] scratch;
    private int next, nextPage, nextCold, nextTid;

    @Setup(Level.Trial)
    public void build() {
        device = StorageDevice.temporary(pageSize, DeviceModel.MEMORY);
        pool = new BufferPool(device, 64L << 20);
        long span = (long) footprintMiB << 20;
        trees = new BTree[] {packedTree()};
        trees = copies(trees[0], span, this::packedTree, BTree[]::new);
        cellTrees = new BTree[] {cellTree()};
        cellTrees = copies(cellTrees[0], span, this::cellTree, BTree[]::new);
        SplittableRandom r = new SplittableRandom(27);
        nsms = new HeapFile[] {heap(Layout.NSM, new SplittableRandom(28))};
        nsms = copies(nsms[0], span, () -> heap(Layout.NSM, new SplittableRandom(28)), HeapFile[]::new);
        paxes = new HeapFile[] {heap(Layout.PAX, new SplittableRandom(28))};
        paxes = copies(paxes[0], span, () -> heap(Layout.PAX, new SplittableRandom(28)), HeapFile[]::new);
        nsmTids = new long[nsms.length][];
        paxTids = new long[paxes.length][];
        for (int c = 0; c < nsms.length; c++) nsmTids[c] = tids.get(nsms[c]);
        for (int c = 0; c < paxes.length; c++) paxTids[c] = tids.get(paxes[c]);
        pages = Arrays.stream(trees)
                .flatMapToLong(t -> Arrays.stream(t.pageNumbers()))
                .toArray();
        sequence = new byte[1 << 16][];
        coldSequence = new byte[1 << 16][];
        tidSequence = new int[1 << 16];
        copySequence = new int[1 << 16];
        for (int i = 0; i < sequence.length; i++) {
            sequence[i] = KeyEncoder.ofInt(1000 + r.nextInt(keys));
            coldSequence[i] = KeyEncoder.ofInt(1000 + r.nextInt(COLD_KEYS));
            tidSequence[i] = r.nextInt(HEAP_ROWS);
            copySequence[i] = r.nextInt(1 << 30);
        }
        into = new Record(REVISION);
        scratch = new byte[pageSize];
        long before = pool.pins();
        for (int i = 0; i < sequence.length; i++)
            if (tree(i).lookup(sequence[i]) < 0) throw new IllegalStateException("key not found");
        long mid = pool.pins();
        for (int i = 0; i < coldSequence.length; i++)
            if (cellTrees[copySequence[i] % cellTrees.length].lookup(coldSequence[i]) < 0)
                throw new IllegalStateException("key not found");
        System.out.printf(
                "%n[setup] page %d B, %d MiB: packed %d entries, height %d, %d pages, %.3f pins a lookup, %d copies;"
                        + " BTreePage %d entries, height %d, %d pages, %.3f pins a lookup, %d copies; heap %d rows,"
                        + " NSM %d pages, %d copies, PAX %d pages, %d copies%n",
                pageSize,
                footprintMiB,
                keys,
                trees[0].height(),
                trees[0].pageNumbers().length,
                (double) (mid - before) / sequence.length,
                trees.length,
                COLD_KEYS,
                cellTrees[0].height(),
                cellTrees[0].pageNumbers().length,
                (double) (pool.pins() - mid) / coldSequence.length,
                cellTrees.length,
                HEAP_ROWS,
                nsms[0].pageCount(),
                nsms.length,
                paxes[0].pageCount(),
                paxes.length);
    }

    private final Map<HeapFile, long[]> tids = new IdentityHashMap<>();

    private BTree packedTree() {
        BTree t = new BTree(pool, true, 4);
        for (int i = 0; i < keys; i++) t.insert(KeyEncoder.ofInt(1000 + i), 40_000L + i);
        return t;
    }

    private BTree cellTree() {
        BTree t = new BTree(pool, true);
        for (int i = 0; i < COLD_KEYS; i++) t.insert(KeyEncoder.ofInt(1000 + i), 40_000L + i);
        return t;
    }

    private HeapFile heap(Layout layout, SplittableRandom r) {
        HeapFile h = new HeapFile(pool, layout, REVISION);
        long[] t = new long[HEAP_ROWS];
        Record rec = new Record(REVISION);
        for (int i = 0; i < HEAP_ROWS; i++) {
            rec.setLong(0, 40_000 + i)
                    .setLong(1, 1 + i / 7)
                    .setLong(2, 90_000 + i)
                    .setLong(3, 20_061_127_000_000L + i);
            rec.setLong(4, r.nextInt(500)).setLong(5, r.nextInt(2)).setLong(6, r.nextInt(60_000));
            if (i % 5 == 0) rec.setNull(7);
            else rec.setString(7, "edit " + "x".repeat(3 + r.nextInt(33)));
            t[i] = h.insert(rec);
        }
        tids.put(h, t);
        return h;
    }

    /** {@code first} and as many more built by {@code make} as span {@code span} bytes of pages together (at least one). */
    private <T> T[] copies(T first, long span, Supplier<T> make, IntFunction<T[]> array) {
        long bytes =
                (long) pageSize * (first instanceof BTree t ? t.pageNumbers().length : ((HeapFile) first).pageCount());
        int n = (int) Math.max(1, (span + bytes - 1) / bytes);
        T[] all = array.apply(n);
        all[0] = first;
        for (int c = 1; c < n; c++) all[c] = make.get();
        return all;
    }

    private BTree tree(int i) {
        return trees.length == 1 ? trees[0] : trees[copySequence[i] % trees.length];
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
        int i = next;
        next = (next + 1) & (sequence.length - 1);
        return tree(i).lookup(sequence[i]);
    }

    @Benchmark
    public long descentBTreePage() {
        int i = nextCold;
        nextCold = (nextCold + 1) & (coldSequence.length - 1);
        return cellTrees[copySequence[i] % cellTrees.length].lookup(coldSequence[i]);
    }

    @Benchmark
    public long heapNsm() {
        return heapRead(nsms, nsmTids);
    }

    @Benchmark
    public long heapPax() {
        return heapRead(paxes, paxTids);
    }

    private long heapRead(HeapFile[] heaps, long[][] tids) {
        int i = nextTid;
        nextTid = (nextTid + 1) & (tidSequence.length - 1);
        int c = copySequence[i] % heaps.length;
        heaps[c].project(tids[c][tidSequence[i]], allFields, into, scratch);
        return into.getLong(0) + into.getLong(6);
    }
}

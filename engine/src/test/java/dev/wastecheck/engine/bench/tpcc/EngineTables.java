package dev.wastecheck.engine.bench.tpcc;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.KeyEncoder;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What TPC-B and TPC-C inside the engine ({@link EngineTpcb}, {@link EngineTpcc}) share: a
 * database of heap files of one layout's pages and B+trees, all in one {@link BufferPool} over a
 * memory device (HPL-2012-240 §6: "memory resident databases (using RAM disk)"), the keys those
 * B+trees take (big-endian ints, {@link KeyEncoder}) and a look-up that fails loudly when a key
 * the benchmark reads is missing.
 */
public abstract class EngineTables implements AutoCloseable {
    private final StorageDevice device;
    public final BufferPool pool;
    private final Layout layout;
    private final List<HeapFile> tables = new ArrayList<>();
    private final List<BTree> indexes = new ArrayList<>();
    protected final KeyEncoder keys = new KeyEncoder();

    protected EngineTables(Layout layout, int pageSize, long poolBytes) {
        this.layout = layout;
        device = StorageDevice.temporary(pageSize, DeviceModel.MEMORY);
        pool = new BufferPool(device, poolBytes);
    }

    /** A new heap file of the layout's pages. */
    protected final HeapFile table(RecordSchema schema) {
        HeapFile h = new HeapFile(pool, layout, schema);
        tables.add(h);
        return h;
    }

    /** A new unique B+tree. */
    protected final BTree index() {
        BTree t = new BTree(pool, true);
        indexes.add(t);
        return t;
    }

    public final List<HeapFile> tables() {
        return Collections.unmodifiableList(tables);
    }

    public final List<BTree> indexes() {
        return Collections.unmodifiableList(indexes);
    }

    /** Arrays a key length's {@link #scratch} cycles through. */
    static final int RING = 4;

    /** Per key length below {@link #MAX_SCRATCH}: {@link #RING} arrays, and the next one's index. */
    private final byte[][][] ring = new byte[MAX_SCRATCH][][];

    private final int[] ringNext = new int[MAX_SCRATCH];
    private static final int MAX_SCRATCH = 64;

    /**
     * An array of {@code length} bytes for a key, one of {@link #RING} that calls for the same
     * length cycle through: the keys a statement hands to a B+tree (which copies what it keeps
     * into its nodes) are made without an allocation each (issue 25: they were 24 of the 168
     * bytes a TPC-B transaction allocated, and the collections that allocation brought fell inside
     * timed batches). A key stays valid until {@link #RING} more keys of its length are made, so a
     * statement may hold a scan's two bounds, never a key across statements.
     */
    protected final byte[] scratch(int length) {
        if (length >= MAX_SCRATCH) return new byte[length];
        byte[][] r = ring[length];
        if (r == null) {
            r = ring[length] = new byte[RING][];
            for (int i = 0; i < RING; i++) r[i] = new byte[length];
        }
        int i = ringNext[length];
        ringNext[length] = (i + 1) % RING;
        return r[i];
    }

    /** The key {@link #keys} holds, in a {@link #scratch} array. */
    protected final byte[] encoded() {
        return keys.copyTo(scratch(keys.length()));
    }

    protected final byte[] key(int a) {
        keys.reset().appendInt(a);
        return encoded();
    }

    protected final byte[] key(int a, int b) {
        keys.reset().appendInt(a).appendInt(b);
        return encoded();
    }

    protected final byte[] key(int a, int b, int c) {
        keys.reset().appendInt(a).appendInt(b).appendInt(c);
        return encoded();
    }

    protected final byte[] key(int a, int b, int c, int d) {
        keys.reset().appendInt(a).appendInt(b).appendInt(c).appendInt(d);
        return encoded();
    }

    /** The smallest key greater than every key that starts with {@code prefix}, in a {@link #scratch} array. */
    protected final byte[] after(byte[] prefix) {
        byte[] k = scratch(prefix.length);
        System.arraycopy(prefix, 0, k, 0, prefix.length);
        for (int i = k.length - 1; i >= 0; i--) {
            if (++k[i] != 0) return k;
        }
        throw new IllegalArgumentException("no key follows a prefix of 0xFF bytes");
    }

    /** The tuple id under {@code key}, which the benchmark's rows guarantee. */
    protected static long lookup(BTree tree, byte[] key) {
        long tid = tree.lookup(key);
        if (tid == TupleId.NONE) throw new IllegalStateException("no row for a key the benchmark reads");
        return tid;
    }

    /** What a subclass adds to {@link #describe()} (empty by default). */
    protected String more() {
        return "";
    }

    /** Heap pages and B+tree pages, and what the pool did (for the run's description). */
    public final String describe() {
        long heapPages = 0, treePages = 0;
        for (HeapFile h : tables) heapPages += h.pageCount();
        for (BTree t : indexes) treePages += t.pageCount();
        return String.format(
                        Locale.ROOT,
                        "%d heap + %d B+tree pages of %d B in a pool of %d frames; %d misses, %d evictions",
                        heapPages,
                        treePages,
                        pool.pageSize(),
                        pool.capacityFrames(),
                        pool.misses(),
                        pool.evictions())
                + more();
    }

    @Override
    public void close() {
        pool.close();
        device.close();
    }
}

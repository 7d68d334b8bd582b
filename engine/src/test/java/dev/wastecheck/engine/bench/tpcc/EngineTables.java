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

    protected final byte[] key(int a) {
        return keys.reset().appendInt(a).toBytes();
    }

    protected final byte[] key(int a, int b) {
        return keys.reset().appendInt(a).appendInt(b).toBytes();
    }

    protected final byte[] key(int a, int b, int c) {
        return keys.reset().appendInt(a).appendInt(b).appendInt(c).toBytes();
    }

    protected final byte[] key(int a, int b, int c, int d) {
        return keys.reset().appendInt(a).appendInt(b).appendInt(c).appendInt(d).toBytes();
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

package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The Arrow-native storage of one replay database ({@code layout=arrow}, docs/arrow.md): one
 * transaction manager and garbage collector for all its tables, and, with {@code freeze=on}, the
 * transformation of each (cold after {@code coldAfter} GC epochs without a write). The replay runs
 * one GC epoch after every event ({@link #tick()}), so {@code cold_after} counts events, as the
 * replay's configuration key says.
 */
public final class ArrowStorage {
    private final TransactionManager tm = new TransactionManager();
    private final GarbageCollector gc = new GarbageCollector(tm);
    private final boolean freeze;
    private final long coldAfter;
    private final List<ArrowStore> stores = new ArrayList<>();
    private final List<BlockTransformer> transformers = new ArrayList<>();

    private final int blockSize;

    public ArrowStorage(boolean freeze, long coldAfter) {
        this(freeze, coldAfter, BlockLayout.DEFAULT_BLOCK_SIZE);
    }

    /** @param blockSize 1 MB as in the paper; tests take smaller blocks to have many */
    public ArrowStorage(boolean freeze, long coldAfter, int blockSize) {
        this.freeze = freeze;
        this.coldAfter = coldAfter;
        this.blockSize = blockSize;
    }

    /** A new table in 1 MB blocks, transformed when cold if freezing is on. */
    public ArrowStore newStore(String name, RecordSchema schema) {
        ArrowTable t = new ArrowTable(name, schema, tm, blockSize, ArrowTable.FreezeMode.GATHER);
        if (freeze) transformers.add(new BlockTransformer(t, gc, coldAfter, 8));
        ArrowStore s = new ArrowStore(t);
        stores.add(s);
        return s;
    }

    /** One GC epoch, then the transformations: what a background thread would do between two events. */
    public void tick() {
        gc.run();
        for (BlockTransformer t : transformers) t.runOnce();
    }

    public boolean freezes() {
        return freeze;
    }

    public long coldAfter() {
        return coldAfter;
    }

    public void trackTouched() {
        for (ArrowStore s : stores) s.trackTouched();
    }

    /**
     * Tuples read or written in the blocks since {@link #trackTouched()}: what a pin of a heap page
     * is on pages (the blocks are in memory, so these are no pins and no device reads).
     */
    public long tupleAccesses() {
        return stores.stream().mapToLong(s -> s.table().tupleAccesses()).sum();
    }

    /** Memory of all tables: blocks, version pointers and variable-length values. */
    public long bytes() {
        return stores.stream().mapToLong(ArrowStore::bytes).sum();
    }

    public int blocks() {
        return stores.stream().mapToInt(s -> s.table().blockCount()).sum();
    }

    public int frozenBlocks() {
        int n = 0;
        for (ArrowStore s : stores) for (Block b : s.table().blocks()) if (b.state() == ArrowBlock.FROZEN) n++;
        return n;
    }

    /** Tuples compaction has moved so far, per table. */
    public java.util.Map<String, Long> moves() {
        java.util.Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (BlockTransformer t : transformers)
            if (t.stats().moves() > 0) out.merge(t.table().name(), t.stats().moves(), Long::sum);
        return out;
    }
}

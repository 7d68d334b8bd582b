package dev.wastecheck.engine.block;

import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One block of an {@link ArrowTable}: the Arrow buffers ({@link ArrowBlock}) and, beside them, what
 * Java cannot keep in native memory: the version pointer of every slot (the head of its undo chain;
 * NoisePage keeps these as the block's reserved first column, §3.2) and, once frozen, the Arrow
 * buffers of its variable-length columns.
 */
public final class Block {
    final int id;
    final ArrowBlock data;
    final AtomicReferenceArray<VersionRecord> versions;
    /** By column: the frozen form of each VARLEN column while the block is FROZEN; else null. */
    volatile FrozenVarlen[] frozen;
    /** The GC epoch of the last write the access observer saw (§4.2). */
    volatile long lastWriteEpoch;
    /** Set when compaction emptied the block and it left its table. */
    volatile boolean removed;

    Block(int id, ArrowBlock data) {
        this.id = id;
        this.data = data;
        this.versions = new AtomicReferenceArray<>(data.slots());
    }

    public int id() {
        return id;
    }

    public ArrowBlock data() {
        return data;
    }
    /** {@link ArrowBlock#HOT}, COOLING, FREEZING or FROZEN. */
    public int state() {
        return data.state();
    }

    public boolean isFull() {
        return data.insertHead() >= data.slots();
    }

    /** The frozen Arrow form of VARLEN column {@code column}; only while the caller holds an in-place read of a frozen block. */
    public FrozenVarlen frozenVarlen(int column) {
        FrozenVarlen[] f = frozen;
        return f == null ? null : f[column];
    }

    /** Whether any slot has a version chain (a block with none needs no transactional read). */
    boolean hasVersions() {
        for (int i = 0, n = data.insertHead(); i < n; i++) if (versions.get(i) != null) return true;
        return false;
    }

    @Override
    public String toString() {
        return "block " + id;
    }
}

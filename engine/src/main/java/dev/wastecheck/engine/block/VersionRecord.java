package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.DeferredActions;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.UndoRecord;
import dev.wastecheck.layouts.arrow.VarlenEntry;

/**
 * An undo record of one tuple of an {@link ArrowTable}: the before-image of an insert (the tuple
 * was absent), a delete (it was present) or an update (the old values of the columns it changed),
 * on the tuple's version chain, newest first (Li et al., VLDB 2020, §3.1). It lives on the Java
 * heap, outside the Arrow buffers, which only ever hold the newest version.
 *
 * <p>Variable-length values have one owner each, so that each is freed exactly once: the slot that
 * holds it, or the update record whose before-image holds it. A committed update's record frees its
 * old values once no reader can reach them; an aborted one frees the values it put in place when it
 * puts the old ones back. A delete records the deleted tuple's values and frees them once the delete
 * is old news to everyone. A compaction move shares the values between the two slots, so its
 * records own nothing.
 */
final class VersionRecord extends UndoRecord {
    enum Kind {
        INSERT,
        UPDATE,
        DELETE
    }

    final ArrowTable table;
    final Block block;
    final int offset;
    final Kind kind;
    /** False for compaction moves: the values belong to the tuple's other slot. */
    final boolean ownsVarlens;
    /** UPDATE: the changed columns; DELETE: the VARLEN columns (their values, for reclaiming). */
    final int[] columns;

    final long[] w0;
    final long[] w1;
    final boolean[] valid;

    VersionRecord(
            Transaction txn, ArrowTable table, Block block, int offset, Kind kind, boolean ownsVarlens, int[] columns) {
        super(txn);
        this.table = table;
        this.block = block;
        this.offset = offset;
        this.kind = kind;
        this.ownsVarlens = ownsVarlens;
        this.columns = columns;
        int n = columns == null ? 0 : columns.length;
        w0 = new long[n];
        w1 = new long[n];
        valid = new boolean[n];
    }

    void setNext(VersionRecord r) {
        next = r;
    }

    VersionRecord nextRecord() {
        return (VersionRecord) next;
    }

    /** Rolls {@code row} back over this record's write (a reader whose snapshot does not include it). */
    void applyTo(RawRow row) {
        switch (kind) {
            case INSERT -> row.present = false;
            case DELETE -> row.present = true;
            case UPDATE -> {
                for (int i = 0; i < columns.length; i++) {
                    int c = columns[i];
                    row.w0[c] = w0[i];
                    row.w1[c] = w1[i];
                    row.valid[c] = valid[i];
                }
            }
        }
    }

    @Override
    protected void rollback() {
        switch (kind) {
            case INSERT -> {
                block.data.setAllocated(offset, false);
                if (ownsVarlens) table.deferFreeOfSlotVarlens(block, offset, null);
            }
            case DELETE -> block.data.setAllocated(offset, true);
            case UPDATE -> {
                if (ownsVarlens) table.deferFreeOfSlotVarlens(block, offset, columns);
                for (int i = 0; i < columns.length; i++)
                    table.writeRaw(block, offset, columns[i], w0[i], w1[i], valid[i]);
            }
        }
    }

    @Override
    protected void unlink(long oldestStart, long oldestSequence) {
        table.prune(block, offset, oldestStart, oldestSequence);
    }

    @Override
    protected void reclaim(DeferredActions deferred) {
        if (!txn.isCommitted() || !ownsVarlens || kind == Kind.INSERT) return;
        int n = 0;
        for (int i = 0; i < columns.length; i++) {
            if (valid[i] && table.layout().isVarlen(columns[i]) && !VarlenEntry.isInline(w0[i])) n++;
        }
        if (n == 0) return;
        long[] handles = new long[n];
        int[] sizes = new int[n];
        for (int i = 0, k = 0; i < columns.length; i++) {
            if (valid[i] && table.layout().isVarlen(columns[i]) && !VarlenEntry.isInline(w0[i])) {
                handles[k] = w1[i];
                sizes[k++] = VarlenEntry.size(w0[i]);
            }
        }
        table.deferFree(handles, sizes);
    }
}

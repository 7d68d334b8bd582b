package dev.wastecheck.engine.txn;

/**
 * A before-image on a tuple's version chain (newest to oldest), kept outside the data it versions
 * (Li et al., VLDB 2020, §3.1: delta storage, the newest version in place). The storage that
 * installs it knows what it restores and where the chain lives; the transaction manager and the
 * garbage collector only drive it: {@link #rollback()} on abort, {@link #unlink} once no running
 * transaction can need it, {@link #reclaim} for the memory only it referenced.
 */
public abstract class UndoRecord {
    protected final Transaction txn;
    /** The next older record of the same tuple, or null. */
    protected volatile UndoRecord next;

    protected UndoRecord(Transaction txn) {
        this.txn = txn;
    }

    public Transaction txn() {
        return txn;
    }

    public UndoRecord next() {
        return next;
    }

    /** Whether every transaction that starts at or after {@code oldestStart} sees the write this record undoes. */
    public boolean visibleToAll(long oldestStart) {
        return txn.isCommitted() && txn.commitTs() <= oldestStart;
    }

    /** Whether this record undoes an aborted write whose rollback no running transaction began before. */
    public boolean abortedBefore(long oldestSequence) {
        return txn.isAborted() && txn.abortSequence < oldestSequence;
    }

    /** Restores the before-image in place (the writer is aborting and still owns the newest version). */
    protected abstract void rollback();

    /**
     * Takes this record off its version chain: truncates the chain at its first record every
     * running transaction sees, and removes aborted records no reader can still need.
     */
    protected abstract void unlink(long oldestStart, long oldestSequence);

    /** Registers the frees of memory this record alone referenced (deferred: readers may still hold it). */
    protected abstract void reclaim(DeferredActions deferred);
}

package dev.wastecheck.engine.txn;

import dev.wastecheck.engine.log.LogManager;
import dev.wastecheck.engine.log.RedoBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One transaction under snapshot isolation (Li et al., VLDB 2020, §3.1): it reads the database as
 * of its start timestamp and sees its own writes; its writes become visible to transactions that
 * start after its commit timestamp. Its undo records, newest last, are the before-images it
 * installed on version chains; a commit leaves them for the garbage collector, an abort plays them
 * back in place.
 *
 * <p>Used by one thread at a time (the one that began it); the commit timestamp is read by others.
 */
public final class Transaction {
    /** The commit timestamp of a transaction that has not committed (and never will if aborted). */
    public static final long UNCOMMITTED = Long.MAX_VALUE;

    final long startTs;
    /** Begin order, for the epoch-style safety of deferred actions (never reused). */
    final long sequence;

    private volatile long commitTs = UNCOMMITTED;
    private volatile boolean aborted;
    /** The last begin sequence handed out when the abort finished its rollback. */
    long abortSequence;

    final List<UndoRecord> undo = new ArrayList<>();
    private boolean mustAbort;
    private List<Runnable> onCommit;
    private List<Runnable> onAbort;
    /** The first durable callback, and the others if there are more (most transactions have one). */
    private Runnable durable;

    private List<Runnable> moreDurable;
    /** The log this transaction's writes go to, or null when logging is off. */
    private final LogManager log;
    /** Its redo records (§3.4), taken from the log's segment pool at the first write; null until then. */
    RedoBuffer redo;

    Transaction(long startTs, long sequence, LogManager log) {
        this.startTs = startTs;
        this.sequence = sequence;
        this.log = log;
    }

    /**
     * The redo buffer this transaction's writes append their after-images to, or null when logging is
     * off (Li et al., VLDB 2020, §3.4: "each transaction maintains a redo buffer for physical
     * after-images").
     */
    public RedoBuffer redo() {
        if (redo == null && log != null) redo = log.newBuffer(sequence);
        return redo;
    }

    /** The log manager of this transaction, or null. */
    LogManager log() {
        return log;
    }

    /** The begin sequence: unique, the transaction's identifier in the log. */
    public long sequence() {
        return sequence;
    }

    public long startTs() {
        return startTs;
    }

    public long commitTs() {
        return commitTs;
    }

    void committed(long ts) {
        commitTs = ts;
    }

    public boolean isCommitted() {
        return commitTs != UNCOMMITTED;
    }

    public boolean isAborted() {
        return aborted;
    }

    void markAborted() {
        aborted = true;
    }

    public boolean isReadOnly() {
        return undo.isEmpty();
    }

    /** Whether the writes of {@code writer} are in this transaction's snapshot. */
    public boolean sees(Transaction writer) {
        return writer == this || writer.commitTs <= startTs;
    }

    /**
     * Whether a write of this transaction to a tuple whose newest version {@code writer} wrote would
     * be a write-write conflict: the other writer is still running or committed after this snapshot
     * began (§3.1: no write-write conflicts; the first writer wins, the second aborts).
     */
    public boolean conflictsWith(Transaction writer) {
        return writer != this && !writer.aborted && writer.commitTs > startTs;
    }

    /** Records a before-image this transaction installed (called by the storage that installed it). */
    public void addUndo(UndoRecord r) {
        undo.add(r);
    }

    public List<UndoRecord> undoRecords() {
        return undo;
    }

    /** Marks that a write failed (conflict): the transaction can no longer commit. */
    public void setMustAbort() {
        mustAbort = true;
    }

    public boolean mustAbort() {
        return mustAbort;
    }

    /** Runs {@code action} once the commit timestamp is published (index changes of moved tuples, ...). */
    public void onCommit(Runnable action) {
        if (onCommit == null) onCommit = new ArrayList<>(2);
        onCommit.add(action);
    }

    /** Runs {@code action} after an abort's rollback. */
    public void onAbort(Runnable action) {
        if (onAbort == null) onAbort = new ArrayList<>(2);
        onAbort.add(action);
    }

    /**
     * Runs {@code action} once the commit is durable: after the log manager's force that wrote this
     * transaction's COMMIT record (for a read-only transaction, the force after it entered the flush
     * queue); at once when logging is off. Never after an abort. A result goes to a client only from
     * here (§3.4).
     */
    public void onDurable(Runnable action) {
        if (durable == null) {
            durable = action;
        } else {
            if (moreDurable == null) moreDurable = new ArrayList<>(2);
            moreDurable.add(action);
        }
    }

    void runDurable() {
        Runnable first = durable;
        List<Runnable> more = moreDurable;
        durable = null;
        moreDurable = null;
        if (first != null) first.run();
        if (more != null) for (Runnable a : more) a.run();
    }

    boolean hasDurableCallbacks() {
        return durable != null;
    }

    void runCallbacks(boolean committed) {
        List<Runnable> actions = committed ? onCommit : onAbort;
        if (actions != null) for (Runnable a : actions) a.run();
        onCommit = null;
        onAbort = null;
    }

    @Override
    public String toString() {
        return "txn[start=" + startTs + (aborted ? ",aborted" : commitTs == UNCOMMITTED ? "" : ",commit=" + commitTs)
                + "]";
    }
}

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

    /** Set at begin (again at each begin of a reused read-only transaction, see {@link #restart}). */
    long startTs;
    /** Begin order, for the epoch-style safety of deferred actions (never reused). */
    long sequence;

    private volatile long commitTs = UNCOMMITTED;
    private volatile boolean aborted;
    private boolean mustAbort;
    /** The last begin sequence handed out when the abort finished its rollback. */
    long abortSequence;

    /**
     * Its undo records, newest last; null until the first write. A read-only transaction, most of a
     * replay's, allocates nothing but this object: no list, no callbacks, no redo buffer.
     */
    List<UndoRecord> undo;
    /** Commit, abort and durable callbacks; null until one is registered (the replay registers none). */
    private Callbacks callbacks;
    /** The log this transaction's writes go to, or null when logging is off. */
    private LogManager log;
    /**
     * Declared read-only at begin ({@link TransactionManager#beginReadOnly}): it may not write, and
     * once it has ended its owner may begin the next read-only transaction in the same object.
     */
    private final boolean readOnly;
    /** Between its begin and its end (commit or abort); read and written by the owning thread only. */
    boolean running = true;
    /** Its redo records (§3.4), taken from the log's segment pool at the first write; null until then. */
    RedoBuffer redo;

    /** The callbacks a transaction registered, each list made at its first entry. */
    private static final class Callbacks {
        List<Runnable> onCommit, onAbort, durable;

        static List<Runnable> add(List<Runnable> to, Runnable action) {
            List<Runnable> list = to == null ? new ArrayList<>(2) : to;
            list.add(action);
            return list;
        }
    }

    Transaction(long startTs, long sequence, LogManager log) {
        this(startTs, sequence, log, false);
    }

    Transaction(long startTs, long sequence, LogManager log, boolean readOnly) {
        this.startTs = startTs;
        this.sequence = sequence;
        this.log = log;
        this.readOnly = readOnly;
    }

    /**
     * Whether the owner may begin its next read-only transaction in this object: it was declared
     * read-only, it has ended, and nothing it registered is still to run. Nothing outside the owner
     * refers to such a transaction once it ended: it installed no version (so no chain and no GC
     * queue holds it), its slot among the running transactions is free again, and its commit handed
     * the log manager its owner's callback, not itself.
     */
    boolean reusable() {
        return readOnly && !running && callbacks == null;
    }

    /** Makes this ended read-only transaction a new one (the caller then registers it as running). */
    void restart(long startTs, long sequence, LogManager log) {
        this.startTs = startTs;
        this.sequence = sequence;
        this.log = log;
        commitTs = UNCOMMITTED;
        aborted = false;
        mustAbort = false;
        abortSequence = 0;
        running = true;
    }

    /**
     * The redo buffer this transaction's writes append their after-images to, or null when logging is
     * off (Li et al., VLDB 2020, §3.4: "each transaction maintains a redo buffer for physical
     * after-images").
     */
    public RedoBuffer redo() {
        if (readOnly) throw new IllegalStateException(this + " was begun read-only: it cannot write");
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
        return undo == null || undo.isEmpty();
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
        if (readOnly) throw new IllegalStateException(this + " was begun read-only: it cannot write");
        if (undo == null) undo = new ArrayList<>();
        undo.add(r);
    }

    /** Its undo records, newest last (empty for a read-only transaction and once the GC pruned them). */
    public List<UndoRecord> undoRecords() {
        return undo == null ? List.of() : undo;
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
        Callbacks c = callbacks();
        c.onCommit = Callbacks.add(c.onCommit, action);
    }

    /** Runs {@code action} after an abort's rollback. */
    public void onAbort(Runnable action) {
        Callbacks c = callbacks();
        c.onAbort = Callbacks.add(c.onAbort, action);
    }

    /**
     * Runs {@code action} once the commit is durable: after the log manager's force that wrote this
     * transaction's COMMIT record (for a read-only transaction, the force after it entered the flush
     * queue); at once when logging is off. Never after an abort. A result goes to a client only from
     * here (§3.4).
     */
    public void onDurable(Runnable action) {
        Callbacks c = callbacks();
        c.durable = Callbacks.add(c.durable, action);
    }

    private Callbacks callbacks() {
        if (callbacks == null) callbacks = new Callbacks();
        return callbacks;
    }

    /**
     * What runs once the commit is durable: this transaction's {@link #onDurable} callbacks, then
     * {@code last}; null if there is nothing to run. With no callbacks of its own (a replay's
     * operations) that is {@code last} itself: a commit hands the log manager no new object.
     */
    Runnable durableAction(Runnable last) {
        Callbacks c = callbacks;
        if (c == null || c.durable == null) return last;
        if (last != null) c.durable.add(last);
        return this::runDurable;
    }

    private void runDurable() {
        List<Runnable> actions = callbacks.durable;
        callbacks.durable = null;
        for (int i = 0; i < actions.size(); i++) actions.get(i).run();
    }

    void runCallbacks(boolean committed) {
        Callbacks c = callbacks;
        if (c == null) return;
        List<Runnable> actions = committed ? c.onCommit : c.onAbort;
        c.onCommit = null;
        c.onAbort = null;
        if (actions != null)
            for (int i = 0; i < actions.size(); i++) actions.get(i).run();
    }

    @Override
    public String toString() {
        return "txn[start=" + startTs + (aborted ? ",aborted" : commitTs == UNCOMMITTED ? "" : ",commit=" + commitTs)
                + "]";
    }
}

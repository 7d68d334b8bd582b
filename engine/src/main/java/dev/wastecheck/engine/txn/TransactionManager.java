package dev.wastecheck.engine.txn;

import dev.wastecheck.engine.log.LogManager;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Begins, commits and aborts transactions under snapshot isolation (Li et al., VLDB 2020, §3.1).
 *
 * <p>Timestamps: a logical clock holds the last commit timestamp. A transaction starts at the
 * clock's value and sees every transaction whose commit timestamp is at most that; a commit takes
 * the next value. Taking a start timestamp and publishing a commit timestamp exclude one another
 * (a read-write latch: begins share it, a commit holds it alone for two stores), so that no
 * transaction can start between a commit's timestamp and the moment its records show it, which
 * would let it miss a write it should see.
 *
 * <p>An abort plays the undo records back in place, newest first, while the transaction still owns
 * every version it wrote (no other writer can install over an uncommitted version), then marks the
 * transaction aborted: its records stay on their chains as no-ops until the garbage collector can
 * take them off.
 *
 * <p>Durability (§3.4), when a {@link LogManager} is attached: a committing transaction appends its
 * COMMIT record to its redo buffer and enters the flush queue inside the commit latch, so the queue
 * (and the log) is in commit timestamp order; the transaction counts as committed from then on, and
 * its {@link Transaction#onDurable} callbacks run after the log manager's force. A read-only
 * transaction enters the queue too, with a commit record that is not persisted, unless every commit
 * queued before it is durable already (then nothing it read can be lost, and its callback runs at
 * once). Without a log manager (the replay's default) the callbacks run at once.
 */
public final class TransactionManager {
    private final AtomicLong clock = new AtomicLong();
    private final AtomicLong sequences = new AtomicLong();
    private final ReentrantReadWriteLock latch = new ReentrantReadWriteLock();
    private final Set<Transaction> active = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Transaction> completed = new ConcurrentLinkedQueue<>();
    private final DeferredActions deferred = new DeferredActions(this);
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong aborts = new AtomicLong();
    private volatile LogManager log;

    /** A manager without logging; attach a log with {@link #startLogging}. */
    public TransactionManager() {}

    /**
     * Logs every transaction that begins from now on to {@code log} (after recovery: the clock and
     * sequences are restored first, with {@link #restore}).
     */
    public void startLogging(LogManager log) {
        this.log = log;
    }

    public LogManager log() {
        return log;
    }

    /**
     * Sets the clock to the last commit timestamp recovery replayed and the begin sequences past the
     * last transaction identifier in the log, so that new commits order after the recovered ones and
     * new transactions never share an identifier with records of old ones.
     */
    public void restore(long lastCommitTs, long lastSequence) {
        latch.writeLock().lock();
        try {
            if (clock.get() < lastCommitTs) clock.set(lastCommitTs);
            if (sequences.get() < lastSequence) sequences.set(lastSequence);
        } finally {
            latch.writeLock().unlock();
        }
    }

    public Transaction begin() {
        latch.readLock().lock();
        try {
            Transaction t = new Transaction(clock.get(), sequences.incrementAndGet(), log);
            active.add(t);
            return t;
        } finally {
            latch.readLock().unlock();
        }
    }

    /**
     * Commits {@code t}, or aborts it when one of its writes failed; returns whether it committed.
     * A read-only transaction simply ends.
     */
    public boolean commit(Transaction t) {
        return commit(t, null);
    }

    /**
     * As {@link #commit(Transaction)}, with {@code durable} run once the commit is durable (see {@link
     * Transaction#onDurable}); never if the transaction aborts.
     */
    public boolean commit(Transaction t, Runnable durable) {
        if (t.mustAbort()) {
            abort(t);
            return false;
        }
        if (durable != null) t.onDurable(durable);
        LogManager lm = t.log();
        if (t.isReadOnly()) {
            active.remove(t);
            if (t.redo != null) lm.abort(t.redo);
            t.runCallbacks(true);
            // Its non-persisted commit record waits for the force of every commit queued before it (it
            // may have read one of them); when every commit queued so far is durable already, there is
            // nothing to wait for, and the record would only cost the log manager a wake-up.
            if (lm == null || lm.allCommitsDurable()) t.runDurable();
            else if (t.hasDurableCallbacks()) {
                lm.enqueueReadOnly(t::runDurable);
                lm.wake();
            }
            return true;
        }
        latch.writeLock().lock();
        try {
            long ts = clock.incrementAndGet();
            t.committed(ts);
            active.remove(t);
            if (lm != null) {
                lm.enqueueCommit(t.redo(), ts, t.hasDurableCallbacks() ? t::runDurable : null);
            }
        } finally {
            latch.writeLock().unlock();
        }
        if (lm != null) lm.wake();
        completed.add(t);
        commits.incrementAndGet();
        t.runCallbacks(true);
        if (lm == null) t.runDurable();
        return true;
    }

    /** Rolls {@code t} back in place and ends it. */
    public void abort(Transaction t) {
        for (int i = t.undo.size() - 1; i >= 0; i--) t.undo.get(i).rollback();
        if (t.redo != null) t.log().abort(t.redo);
        t.abortSequence = sequences.get();
        t.markAborted();
        active.remove(t);
        if (!t.undo.isEmpty()) completed.add(t);
        aborts.incrementAndGet();
        t.runCallbacks(false);
    }

    /** The last commit timestamp. */
    public long clock() {
        return clock.get();
    }

    /** The last begin sequence handed out. */
    long lastSequence() {
        return sequences.get();
    }

    public DeferredActions deferred() {
        return deferred;
    }

    public int activeCount() {
        return active.size();
    }

    public long commits() {
        return commits.get();
    }

    public long aborts() {
        return aborts.get();
    }

    /** The oldest snapshot and begin sequence any running transaction has (or will get, if none runs). */
    record Horizon(long oldestStart, long oldestSequence) {}

    Horizon horizon() {
        latch.writeLock().lock();
        try {
            long start = clock.get(), seq = sequences.get() + 1;
            for (Transaction t : active) {
                start = Math.min(start, t.startTs);
                seq = Math.min(seq, t.sequence);
            }
            return new Horizon(start, seq);
        } finally {
            latch.writeLock().unlock();
        }
    }

    /** Whether every transaction running now began after {@code sequence} (the next one will). */
    public boolean allBeganAfter(long sequence) {
        return horizon().oldestSequence() > sequence;
    }

    ConcurrentLinkedQueue<Transaction> completed() {
        return completed;
    }
}

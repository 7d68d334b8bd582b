package dev.wastecheck.engine.txn;

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
 * take them off. Redo logging is left out: the engine replays traces in memory and its durability
 * is not what the experiments measure (docs/arrow.md).
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

    public Transaction begin() {
        latch.readLock().lock();
        try {
            Transaction t = new Transaction(clock.get(), sequences.incrementAndGet());
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
        if (t.mustAbort()) {
            abort(t);
            return false;
        }
        if (t.isReadOnly()) {
            active.remove(t);
            t.runCallbacks(true);
            return true;
        }
        latch.writeLock().lock();
        try {
            t.committed(clock.incrementAndGet());
            active.remove(t);
        } finally {
            latch.writeLock().unlock();
        }
        completed.add(t);
        commits.incrementAndGet();
        t.runCallbacks(true);
        return true;
    }

    /** Rolls {@code t} back in place and ends it. */
    public void abort(Transaction t) {
        for (int i = t.undo.size() - 1; i >= 0; i--) t.undo.get(i).rollback();
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

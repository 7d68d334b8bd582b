package dev.wastecheck.engine.txn;

import dev.wastecheck.engine.log.LogManager;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
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
 * transaction enters the queue too (the log manager's ring of read-only callbacks: no object), with a
 * commit record that is not persisted, unless every commit
 * queued before it is durable already (then nothing it read can be lost, and its callback runs at
 * once). Without a log manager (the replay's default) the callbacks run at once.
 *
 * <p>The running transactions are what the garbage collector's low-water mark is taken over (§3.3:
 * "the GC first checks the transaction engine's transactions table for the oldest active
 * transaction's start timestamp"; the paper leaves the table's form open). They are kept without an object per transaction: a ring of {@value #RING} slots indexed
 * by begin sequence. A begin stores its transaction in slot {@code sequence % RING} (a
 * compare-and-set into an empty slot), its end clears the slot again; the one transaction whose
 * slot is still held by a running transaction {@value #RING} sequences older goes to a small
 * overflow set instead. The oldest running transaction is then the first slot, from the last
 * low-water mark on, that holds the transaction of its own sequence (or the oldest in the overflow
 * set). Its start timestamp is the oldest snapshot too: start timestamps never decrease with the
 * begin sequence, since a begin reads the clock and takes its sequence under the shared latch,
 * which no commit can hold meanwhile. (A set of running transactions cost a hash-map node and an
 * identity hash per begin: 19% of a logged replay's read time, docs/arrow.md.)
 */
public final class TransactionManager {
    private final AtomicLong clock = new AtomicLong();
    private final AtomicLong sequences = new AtomicLong();
    private final ReentrantReadWriteLock latch = new ReentrantReadWriteLock();
    /** Slots of the running transactions: {@code sequence & MASK}; null when free. */
    static final int RING = 1024;

    private static final int MASK = RING - 1;
    private final AtomicReferenceArray<Transaction> running = new AtomicReferenceArray<>(RING);
    /** Running transactions whose slot a running transaction {@value #RING} sequences older held. */
    private final Set<Transaction> overflow = ConcurrentHashMap.newKeySet();
    /** No running transaction in the ring began before this sequence (read and moved under the write latch). */
    private long low = 1;

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
            register(t);
            return t;
        } finally {
            latch.readLock().unlock();
        }
    }

    /**
     * Begins a read-only transaction: one that may only read (a write through it throws). It is
     * begun in {@code reuse} when that is a read-only transaction of the calling thread that has
     * ended ({@link Transaction#reusable}), else in a new object, so that an owner that reads one
     * tuple a transaction (the replay's {@code ArrowStore}) allocates nothing per read: the
     * transaction object was 9% of the bytes a logged Arrow replay allocated inside its events
     * (docs/arrow.md). A new snapshot, a new sequence and a slot among the running transactions are
     * taken exactly as {@link #begin()} takes them; the object is rewritten under the shared latch,
     * so the garbage collector, which reads the running transactions under the exclusive one, never
     * sees it half rewritten.
     */
    public Transaction beginReadOnly(Transaction reuse) {
        latch.readLock().lock();
        try {
            long start = clock.get(), sequence = sequences.incrementAndGet();
            Transaction t;
            if (reuse != null && reuse.reusable()) {
                t = reuse;
                t.restart(start, sequence, log);
            } else {
                t = new Transaction(start, sequence, log, true);
            }
            register(t);
            return t;
        } finally {
            latch.readLock().unlock();
        }
    }

    /** Puts {@code t} among the running transactions: its ring slot, or the overflow set if that is taken. */
    private void register(Transaction t) {
        if (!running.compareAndSet((int) (t.sequence & MASK), null, t)) overflow.add(t);
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
        Runnable whenDurable = t.durableAction(durable);
        LogManager lm = t.log();
        if (t.isReadOnly()) {
            end(t);
            if (t.redo != null) lm.abort(t.redo);
            t.runCallbacks(true);
            // Its non-persisted commit record waits for the force of every commit queued before it (it
            // may have read one of them); when every commit queued so far is durable already, there is
            // nothing to wait for, and the record would only cost the log manager a wake-up.
            if (whenDurable == null) return true;
            // No wake: the log manager wakes early only for bytes past its threshold, and this record
            // has none (the commits it waits for woke it if they needed to).
            if (lm == null || lm.allCommitsDurable()) whenDurable.run();
            else lm.enqueueReadOnly(whenDurable);
            return true;
        }
        latch.writeLock().lock();
        try {
            long ts = clock.incrementAndGet();
            t.committed(ts);
            end(t);
            if (lm != null) lm.enqueueCommit(t.redo(), ts, whenDurable);
        } finally {
            latch.writeLock().unlock();
        }
        if (lm != null) lm.wake();
        completed.add(t);
        commits.incrementAndGet();
        t.runCallbacks(true);
        if (lm == null && whenDurable != null) whenDurable.run();
        return true;
    }

    /** Rolls {@code t} back in place and ends it. */
    public void abort(Transaction t) {
        List<UndoRecord> undo = t.undoRecords();
        for (int i = undo.size() - 1; i >= 0; i--) undo.get(i).rollback();
        if (t.redo != null) t.log().abort(t.redo);
        t.abortSequence = sequences.get();
        t.markAborted();
        end(t);
        if (!undo.isEmpty()) completed.add(t);
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

    /** How many transactions are running (a walk of the ring: for tests and diagnostics). */
    public int activeCount() {
        int n = overflow.size();
        for (int i = 0; i < RING; i++) if (running.get(i) != null) n++;
        return n;
    }

    /** Takes {@code t} off the running transactions (once: a second end finds nothing). */
    private void end(Transaction t) {
        if (!running.compareAndSet((int) (t.sequence & MASK), t, null)) overflow.remove(t);
        t.running = false;
    }

    public long commits() {
        return commits.get();
    }

    public long aborts() {
        return aborts.get();
    }

    /**
     * The oldest snapshot and begin sequence any running transaction has (or the next one will get,
     * if none runs): the garbage collector's low-water mark. Filled in by {@link #horizon}, so that
     * an epoch per replay event allocates nothing.
     */
    static final class Horizon {
        long oldestStart, oldestSequence;

        long oldestStart() {
            return oldestStart;
        }

        long oldestSequence() {
            return oldestSequence;
        }
    }

    /** Sets {@code into} to the low-water mark now; returns it. */
    Horizon horizon(Horizon into) {
        latch.writeLock().lock();
        try {
            Transaction oldest = oldestRunning();
            into.oldestStart = oldest == null ? clock.get() : oldest.startTs;
            into.oldestSequence = oldest == null ? sequences.get() + 1 : oldest.sequence;
            return into;
        } finally {
            latch.writeLock().unlock();
        }
    }

    /** The oldest begin sequence of a running transaction, or the next one's if none runs. */
    long oldestSequence() {
        latch.writeLock().lock();
        try {
            Transaction oldest = oldestRunning();
            return oldest == null ? sequences.get() + 1 : oldest.sequence;
        } finally {
            latch.writeLock().unlock();
        }
    }

    /**
     * The running transaction that began first, or null: the first ring slot from {@link #low} on
     * that holds the transaction of its own sequence, against the overflow set. Under the write
     * latch, so no transaction begins meanwhile; one that ends meanwhile only makes the answer
     * older than it need be, never younger.
     */
    private Transaction oldestRunning() {
        long last = sequences.get();
        long end = Math.min(last, low + MASK);
        Transaction oldest = null;
        long s = low;
        for (; s <= end; s++) {
            Transaction x = running.get((int) (s & MASK));
            if (x != null && x.sequence == s) {
                oldest = x;
                break;
            }
        }
        if (oldest == null && s <= last) {
            // more sequences since the mark than slots: every slot is someone's, take the least
            for (int i = 0; i < RING; i++) {
                Transaction x = running.get(i);
                if (x != null && (oldest == null || x.sequence < oldest.sequence)) oldest = x;
            }
        }
        low = oldest == null ? last + 1 : oldest.sequence;
        if (!overflow.isEmpty())
            for (Transaction x : overflow) if (oldest == null || x.sequence < oldest.sequence) oldest = x;
        return oldest;
    }

    /** Whether every transaction running now began after {@code sequence} (the next one will). */
    public boolean allBeganAfter(long sequence) {
        return oldestSequence() > sequence;
    }

    ConcurrentLinkedQueue<Transaction> completed() {
        return completed;
    }
}

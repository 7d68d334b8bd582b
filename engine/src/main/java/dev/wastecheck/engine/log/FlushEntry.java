package dev.wastecheck.engine.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One entry of the log manager's flush queue (Li et al., VLDB 2020, §3.4: a committing transaction's
 * redo buffer goes to the flush queue as one entry): segments to write (maybe none), the callback to
 * run after the force that makes them durable (maybe none), whether they end in a COMMIT record, and
 * their bytes. The queue is intrusive: entries link through {@link #next}, so that a commit puts its
 * own {@link RedoBuffer} (which extends this class) on the queue and allocates nothing for it. Before,
 * a commit made an entry record and a {@code ConcurrentLinkedQueue} node, 48 bytes, and paid two
 * compare-and-sets on the queue's tail and the last node.
 *
 * <p>The queue is Vyukov's intrusive multi-producer, single-consumer list: a producer swaps itself in
 * as the tail ({@code getAndSet}) and then links the previous tail to itself with a release store; the
 * log manager follows the links from the last entry it took. Between the swap and the link the entry
 * is not yet reachable, and the log manager stops before it: the next drain takes it. An entry is
 * linked before its producer returns, so anything ordered after the enqueue (a commit latch let go, a
 * read-only transaction begun after it) finds it linked.
 */
class FlushEntry {
    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(FlushEntry.class, "next", FlushEntry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The segments, chained oldest first through {@link Segment#next}; null for none. */
    Segment segments;
    /** Run after the force that makes the entry durable; null for none. */
    Runnable callback;
    /** Whether the entry ends with a COMMIT record (counted as durable after its force). */
    boolean endsInCommit;
    /** Bytes of the segments ({@code used} summed), known when the entry is queued. */
    int bytes;

    @SuppressWarnings("unused") // through NEXT
    private FlushEntry next;

    FlushEntry() {}

    FlushEntry(Segment segments, int bytes, Runnable callback) {
        this.segments = segments;
        this.bytes = bytes;
        this.callback = callback;
    }

    /** Links {@code e} after this entry (the producer's second step, after the tail swap). */
    final void link(FlushEntry e) {
        NEXT.setRelease(this, e);
    }

    /** Drops the link to the next entry (the log manager, once it has moved past this one). */
    final void unlink() {
        NEXT.set(this, null);
    }

    /** The entry linked after this one, or null (none yet, or not yet linked). */
    final FlushEntry linked() {
        return (FlushEntry) NEXT.getAcquire(this);
    }
}

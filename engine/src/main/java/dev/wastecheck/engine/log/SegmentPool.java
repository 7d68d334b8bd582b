package dev.wastecheck.engine.log;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The global pool of redo buffer segments (Li et al., VLDB 2020, §3.4: "these redo buffers consist
 * of buffer segments drawn from a global object pool"). Segments are arrays of {@link #SEGMENT_SIZE}
 * bytes on the Java heap, which a transaction's thread fills with plain array stores; the log manager
 * copies them into its one direct write buffer (checksumming each record as it goes) and gives them
 * back. The pool keeps at most {@code retained} segments in its shared stack; beyond that a returned
 * segment is left to the collector. (Direct buffers as segments, the first version, let the kernel read
 * the segments without a copy, but every value a worker wrote went through a {@code ByteBuffer}'s
 * position, limit and bounds checks: 41% of the worker's samples in log frames, in a JFR profile of
 * the TPC-C-like mix. The array stores that replaced them take about as large a share, 51%: what
 * costs is the stores into the segment, not only their bookkeeping. docs/benchmarks.md, issue 26.)
 *
 * <p>Two levels, so that a worker's take is a pointer pop on its own thread: the shared stack (a
 * Treiber stack linked through {@link Segment#next}, its top carrying the stack's {@link
 * Segment#depth}) to which the log manager gives back a whole force's segments with one
 * compare-and-set, and on each thread that takes segments a private list. A thread whose list is empty
 * takes the <em>whole</em> shared stack with one {@code getAndSet(null)}: taking all at once, never
 * one segment off the top, is what makes the stack safe without version stamps (a single pop could
 * swap in a successor that another thread took and gave back meanwhile). Before, a take was a poll of
 * a {@code ConcurrentLinkedDeque} whose head the log manager had just written from the other core, and
 * every give back made a deque node.
 *
 * <p>Last in, first out, on each level: a transaction takes the segment given back most recently,
 * whose first kilobytes (what a transaction of the TPC-C-like mix writes) are likely still in the
 * cache. The paper limits a redo buffer to one segment for "better cache performance from more
 * reuse"; a first-in, first-out pool would cycle through every pooled segment instead.
 */
public final class SegmentPool {
    /**
     * Bytes of one segment, NoisePage's 4,096 (§3.1: "fixed-sized segments (currently 4096 bytes)";
     * §3.4: redo buffers are made of the same segments). A transaction of the TPC-C-like mix writes
     * 990 bytes of redo on average; a record larger than a segment gets a segment of its own size, not
     * pooled. (32 KB segments, the first version, put a whole segment per transaction in flight:
     * with a 10 ms persist interval that is more than the pool keeps.)
     */
    public static final int SEGMENT_SIZE = 4 * 1024;

    /** The top of the shared stack, or null. */
    private final AtomicReference<Segment> shared = new AtomicReference<>();
    /** Each taking thread's private list, linked through {@link Segment#next}. */
    private final ThreadLocal<Segment[]> local = ThreadLocal.withInitial(() -> new Segment[1]);

    private final int retained;

    public SegmentPool(int retained) {
        this.retained = retained;
    }

    Segment take() {
        Segment[] list = local.get();
        Segment s = list[0];
        if (s == null) {
            s = shared.getAndSet(null);
            if (s == null) return new Segment(SEGMENT_SIZE);
        }
        list[0] = s.next;
        s.next = null;
        return s;
    }

    /** Gives back one segment (an aborted transaction's). */
    void give(Segment s) {
        s.next = null;
        if (poolable(s)) push(s, s);
    }

    /**
     * Gives back a chain of segments linked through {@link Segment#next} (a force's, by the log
     * manager): those the pool keeps go on the shared stack with one compare-and-set.
     */
    void giveAll(Segment chain) {
        Segment first = null, last = null;
        int room = retained - depth(shared.get());
        for (Segment s = chain, next; s != null; s = next) {
            next = s.next;
            s.next = null;
            if (room <= 0 || !poolable(s)) continue;
            room--;
            if (last == null) first = s;
            else last.next = s;
            last = s;
        }
        if (first != null) push(first, last);
    }

    private static boolean poolable(Segment s) {
        s.used = 0;
        return s.bytes.length == SEGMENT_SIZE;
    }

    /** Pushes the chain {@code first..last} (already linked) onto the shared stack if it has room. */
    private void push(Segment first, Segment last) {
        int n = 0;
        for (Segment s = first; s != null; s = s.next) n++;
        while (true) {
            Segment top = shared.get();
            int d = depth(top);
            if (d >= retained) return;
            last.next = top;
            first.depth = d + n;
            if (shared.compareAndSet(top, first)) return;
        }
    }

    private static int depth(Segment top) {
        return top == null ? 0 : top.depth;
    }

    /** Segments waiting in the shared stack (not those already taken into a thread's list). */
    public int pooled() {
        return depth(shared.get());
    }
}

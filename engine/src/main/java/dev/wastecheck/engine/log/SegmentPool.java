package dev.wastecheck.engine.log;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The global pool of redo buffer segments (Li et al., VLDB 2020, §3.4: "these redo buffers consist
 * of buffer segments drawn from a global object pool"). Segments are arrays of {@link #SEGMENT_SIZE}
 * bytes on the Java heap, which a transaction's thread fills with plain array stores; the log manager
 * copies them into its one direct write buffer (checksumming each record as it goes) and gives them
 * back. The pool keeps at most {@code retained} segments; beyond that a returned segment is left to
 * the collector. (Direct buffers as segments, the first version, let the kernel read the segments
 * without a copy, but every value a worker wrote went through a {@code ByteBuffer}'s position, limit
 * and bounds checks: 41% of the worker's samples in log frames, in a JFR profile of the TPC-C-like
 * mix. The array stores that replaced them take about as large a share, 51%: what costs is the
 * stores into the segment, not only their bookkeeping. docs/benchmarks.md, issue 26.)
 *
 * <p>Last in, first out: a transaction takes the segment given back most recently, whose first
 * kilobytes (what a transaction of the TPC-C-like mix writes) are likely still in the cache. The
 * paper limits a redo buffer to one segment for "better cache performance from more reuse"; a
 * first-in, first-out pool would cycle through every pooled segment instead.
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

    private final ConcurrentLinkedDeque<Segment> free = new ConcurrentLinkedDeque<>();
    private final AtomicInteger pooled = new AtomicInteger();
    private final int retained;

    public SegmentPool(int retained) {
        this.retained = retained;
    }

    Segment take() {
        Segment s = free.pollFirst();
        if (s == null) return new Segment(SEGMENT_SIZE);
        pooled.decrementAndGet();
        return s;
    }

    void give(Segment s) {
        s.used = 0;
        s.next = null;
        if (s.bytes.length != SEGMENT_SIZE || pooled.get() >= retained) return;
        pooled.incrementAndGet();
        free.addFirst(s);
    }

    /** Segments waiting in the pool. */
    public int pooled() {
        return pooled.get();
    }
}

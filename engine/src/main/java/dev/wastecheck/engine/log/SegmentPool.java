package dev.wastecheck.engine.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The global pool of redo buffer segments (Li et al., VLDB 2020, §3.4: "these redo buffers consist
 * of buffer segments drawn from a global object pool"). Segments are direct buffers of {@link
 * #SEGMENT_SIZE} bytes, so that the log manager's gathering write hands them to the kernel without a
 * copy; the log manager gives them back once written. The pool keeps at most {@code retained}
 * segments; beyond that a returned segment is left to the collector.
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
     * 990 bytes of redo on average; a record larger than a segment gets a buffer of its own, not
     * pooled. (32 KB segments, the first version, put a whole segment per transaction in flight:
     * with a 10 ms persist interval that is more than the pool keeps.)
     */
    public static final int SEGMENT_SIZE = 4 * 1024;

    private final ConcurrentLinkedDeque<ByteBuffer> free = new ConcurrentLinkedDeque<>();
    private final AtomicInteger pooled = new AtomicInteger();
    private final int retained;

    public SegmentPool(int retained) {
        this.retained = retained;
    }

    ByteBuffer take() {
        ByteBuffer b = free.pollFirst();
        if (b == null) return ByteBuffer.allocateDirect(SEGMENT_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        pooled.decrementAndGet();
        return b;
    }

    void give(ByteBuffer b) {
        if (b.capacity() != SEGMENT_SIZE || pooled.get() >= retained) return;
        b.clear();
        pooled.incrementAndGet();
        free.addFirst(b);
    }

    /** Segments waiting in the pool. */
    public int pooled() {
        return pooled.get();
    }
}

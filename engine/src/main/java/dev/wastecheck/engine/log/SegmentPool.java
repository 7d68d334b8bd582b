package dev.wastecheck.engine.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The global pool of redo buffer segments (Li et al., VLDB 2020, §3.4: "these redo buffers consist
 * of buffer segments drawn from a global object pool"). Segments are direct buffers of {@link
 * #SEGMENT_SIZE} bytes, so that the log manager's gathering write hands them to the kernel without a
 * copy; the log manager gives them back once written. The pool keeps at most {@code retained}
 * segments; beyond that a returned segment is left to the collector.
 */
public final class SegmentPool {
    /** Bytes of one segment; a record larger than this gets a buffer of its own, not pooled. */
    public static final int SEGMENT_SIZE = 32 * 1024;

    private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pooled = new AtomicInteger();
    private final int retained;

    public SegmentPool(int retained) {
        this.retained = retained;
    }

    ByteBuffer take() {
        ByteBuffer b = free.poll();
        if (b == null) return ByteBuffer.allocateDirect(SEGMENT_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        pooled.decrementAndGet();
        return b;
    }

    void give(ByteBuffer b) {
        if (b.capacity() != SEGMENT_SIZE || pooled.get() >= retained) return;
        b.clear();
        pooled.incrementAndGet();
        free.add(b);
    }

    /** Segments waiting in the pool. */
    public int pooled() {
        return pooled.get();
    }
}

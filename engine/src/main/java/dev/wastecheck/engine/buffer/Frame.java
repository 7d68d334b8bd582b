package dev.wastecheck.engine.buffer;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One buffer-pool slot: a page-sized buffer and what the pool knows about it. Callers get a
 * frame from {@link BufferPool#pin} and must {@link BufferPool#unpin} it; while pinned, the
 * frame holds the same page and is not evicted.
 *
 * <p>{@link #latch()} is a short page latch for in-page structures that many readers may write
 * at once (the index cache region, §2.1 "Latching"); users that must not wait call
 * {@code tryLock()} and give up when it is busy.
 */
public final class Frame {
    final int index;
    final ByteBuffer buffer;
    long pageNo = -1;
    int pinCount;
    boolean dirty;
    boolean referenced;
    private final ReentrantLock latch = new ReentrantLock();

    Frame(int index, int pageSize) {
        this.index = index;
        this.buffer = ByteBuffer.allocate(pageSize); // big-endian: keys compare as unsigned bytes
    }

    /** The page's bytes; absolute get/put only (the buffer's position is not meaningful). */
    public ByteBuffer buffer() { return buffer; }

    /** The backing array of {@link #buffer()}, for bulk copies and comparisons. */
    public byte[] bytes() { return buffer.array(); }

    public long pageNo() { return pageNo; }

    public ReentrantLock latch() { return latch; }
}

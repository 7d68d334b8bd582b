package dev.wastecheck.engine.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * One buffer-pool slot: a page-sized buffer and what the pool knows about it. Callers get a
 * frame from {@link BufferPool#pin} and must {@link BufferPool#unpin} it; while pinned, the
 * frame holds the same page and is not evicted.
 *
 * <p>The pin count is atomic so that a resident page can be pinned and unpinned without the
 * pool's monitor: a pin is a CAS that succeeds only while the count is not {@link #EVICTING},
 * and the pool claims a frame for replacement by a CAS from 0 to {@link #EVICTING}, so a pin
 * and an eviction can never both succeed. {@link #pageNo} changes only while the frame is
 * claimed; a lock-free pin checks it after pinning and backs out if the frame holds another page.
 *
 * <p>{@link #tryLatch()} takes a short page latch for in-page structures that many readers may
 * write at once (the index cache region, §2.1.3 "Latching"); it never waits: a caller that finds
 * it busy gives up. It is one CAS on this object, whose line the pin has just written (a
 * {@code ReentrantLock} had cost a tryLock and an unlock on two objects of their own).
 */
public final class Frame {
    /** Pin count of a frame the pool has claimed for replacement. */
    static final int EVICTING = Integer.MIN_VALUE;

    private static final VarHandle PIN_COUNT, LATCH;

    static {
        try {
            PIN_COUNT = MethodHandles.lookup().findVarHandle(Frame.class, "pinCount", int.class);
            LATCH = MethodHandles.lookup().findVarHandle(Frame.class, "latch", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int index;
    final ByteBuffer buffer;
    /** Written only by the pool under its monitor while the frame is claimed (or unused). */
    volatile long pageNo = -1;

    private volatile int pinCount;
    /** Guarded by the pool's monitor. */
    boolean dirty;
    /** CLOCK's second-chance bit: set by every pin (racy and idempotent), cleared by the hand. */
    boolean referenced;
    /** 1 while latched. */
    private volatile int latch;

    Frame(int index, int pageSize) {
        this.index = index;
        this.buffer = ByteBuffer.allocate(pageSize); // big-endian: keys compare as unsigned bytes
    }

    /** The page's bytes; absolute get/put only (the buffer's position is not meaningful). */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** The backing array of {@link #buffer()}, for bulk copies and comparisons. */
    public byte[] bytes() {
        return buffer.array();
    }

    public long pageNo() {
        return pageNo;
    }

    /** Takes the page latch if it is free; false (without waiting) if it is held. Not reentrant. */
    public boolean tryLatch() {
        return latch == 0 && LATCH.compareAndSet(this, 0, 1);
    }

    /** Releases the page latch taken by {@link #tryLatch()}. */
    public void unlatch() {
        if (latch != 1) throw new IllegalStateException("page " + pageNo + " is not latched");
        LATCH.setRelease(this, 0);
    }

    int pinCount() {
        return pinCount;
    }

    /** Adds a pin unless the frame is claimed for replacement. */
    boolean tryPin() {
        for (int c = pinCount; c >= 0; c = pinCount) {
            if (PIN_COUNT.compareAndSet(this, c, c + 1)) return true;
        }
        return false;
    }

    /** Drops one pin; throws if there is none. */
    void release() {
        for (int c = pinCount; ; c = pinCount) {
            if (c <= 0) throw new IllegalStateException("page " + pageNo + " is not pinned");
            if (PIN_COUNT.compareAndSet(this, c, c - 1)) return;
        }
    }

    /** Claims an unpinned frame for replacement (pool monitor held). */
    boolean claim() {
        return PIN_COUNT.compareAndSet(this, 0, EVICTING);
    }

    /** Ends a claim that installed nothing (the frame holds no page). */
    void unclaim() {
        pinCount = 0;
    }

    /** Ends a claim with the new page pinned once; publishes the page's bytes and number. */
    void installPinned() {
        pinCount = 1;
    }
}

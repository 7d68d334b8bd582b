package dev.wastecheck.layouts.arrow;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the bytes of variable-length values longer than {@link VarlenEntry#INLINE_THRESHOLD} live
 * while a block is hot: chunks of direct memory, bump-allocated, addressed by 64-bit handles that
 * play the part of the paper's pointers (§4.1).
 *
 * <pre>
 *  handle   63            32 31             0
 *          +----------------+----------------+
 *          | chunk number   | byte offset    |     chunk 0 is never used: handle 0 means none
 *          +----------------+----------------+
 * </pre>
 *
 * Values are immutable: an update writes a new value and a new entry, and the old value is freed
 * only once no transaction can still read it (a deferred action of the garbage collector, §3.4).
 * Each chunk counts the bytes still referenced; when a chunk that no longer takes allocations drops
 * to zero it leaves the table and its memory goes back to the JVM. The frozen buffers of a block
 * (the gathered values of §4.3, dictionaries of §4.4) are registered as chunks too, so that entries
 * pointing into them need no special case.
 *
 * <p>Thread safe: allocation bumps the current chunk's top with an atomic add and takes a lock only
 * to open the next chunk.
 */
public final class VarlenHeap {
    public static final int CHUNK_SIZE = 1 << 20;
    /** Values at least this long get a chunk of their own (a quarter chunk would waste too much of the current one). */
    static final int DEDICATED = CHUNK_SIZE / 4;

    private static final class Chunk {
        final int number;
        final ByteBuffer buffer;
        final AtomicInteger top = new AtomicInteger();
        final AtomicLong live = new AtomicLong();
        volatile boolean sealed;
        final AtomicInteger removed = new AtomicInteger();

        Chunk(int number, ByteBuffer buffer) {
            this.number = number;
            this.buffer = buffer;
        }
    }

    private final Object lock = new Object();
    private volatile Chunk[] chunks = new Chunk[16];
    private int nextNumber = 1;
    private volatile Chunk current;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong live = new AtomicLong();

    public VarlenHeap() {
        synchronized (lock) {
            current = open(CHUNK_SIZE);
        }
    }

    /** A zeroed direct buffer of {@code bytes}, little-endian, whose first byte is 64-byte aligned. */
    public static ByteBuffer allocateAligned(int bytes) {
        ByteBuffer raw = ByteBuffer.allocateDirect(bytes + 64);
        int shift = raw.alignmentOffset(0, 64);
        raw.position(shift == 0 ? 0 : 64 - shift).limit(raw.position() + bytes);
        return raw.slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private Chunk open(int capacity) {
        Chunk c = new Chunk(nextNumber++, allocateAligned(capacity));
        publish(c);
        return c;
    }

    private void publish(Chunk c) {
        Chunk[] cs = chunks;
        if (c.number >= cs.length) cs = java.util.Arrays.copyOf(cs, Math.max(cs.length * 2, c.number + 1));
        cs[c.number] = c;
        chunks = cs;
        reserved.addAndGet(c.buffer.capacity());
    }

    /** Copies {@code length} bytes into the heap; returns their handle. */
    public long allocate(byte[] src, int off, int length) {
        return allocate(length, src, off, null, 0);
    }

    /** Copies {@code length} bytes from {@code src} at absolute index {@code srcIndex}; returns their handle. */
    public long allocate(ByteBuffer src, int srcIndex, int length) {
        return allocate(length, null, 0, src, srcIndex);
    }

    private long allocate(int length, byte[] array, int arrayOff, ByteBuffer buffer, int bufferIndex) {
        if (length <= 0) throw new IllegalArgumentException("length " + length);
        Chunk c;
        int at;
        if (length >= DEDICATED) {
            synchronized (lock) {
                c = open(length);
                c.sealed = true;
            }
            at = 0;
        } else {
            while (true) {
                c = current;
                at = c.top.getAndAdd(length);
                if (at + length <= c.buffer.capacity()) break;
                synchronized (lock) {
                    if (current == c) {
                        current = open(CHUNK_SIZE);
                        seal(c);
                    }
                }
            }
        }
        if (array != null) c.buffer.put(at, array, arrayOff, length);
        else c.buffer.put(at, buffer, bufferIndex, length);
        c.live.addAndGet(length);
        live.addAndGet(length);
        return ((long) c.number << 32) | at;
    }

    private void seal(Chunk c) {
        c.sealed = true;
        if (c.live.get() == 0) remove(c);
    }

    /**
     * Registers a buffer built elsewhere (a frozen block's gathered values or dictionary) as a chunk
     * whose {@code liveBytes} are referenced by entries; returns its chunk number, the high half of
     * handles into it ({@code (number << 32) | offset}).
     */
    public int register(ByteBuffer buffer, long liveBytes) {
        synchronized (lock) {
            Chunk c = new Chunk(nextNumber++, buffer);
            c.top.set(buffer.capacity());
            c.live.set(liveBytes);
            live.addAndGet(liveBytes);
            publish(c);
            c.sealed = true;
            if (liveBytes == 0) remove(c);
            return c.number;
        }
    }

    /** Gives back {@code length} bytes of the value at {@code handle}: called once per value, when no reader can see it. */
    public void free(long handle, int length) {
        Chunk c = chunk(handle);
        live.addAndGet(-length);
        long left = c.live.addAndGet(-length);
        if (left < 0) throw new IllegalStateException("chunk " + c.number + " freed more than it held");
        if (left == 0 && c.sealed) remove(c);
    }

    private void remove(Chunk c) {
        if (!c.removed.compareAndSet(0, 1)) return;
        synchronized (lock) {
            chunks[c.number] = null;
            reserved.addAndGet(-c.buffer.capacity());
        }
    }

    private Chunk chunk(long handle) {
        int n = (int) (handle >>> 32);
        Chunk[] cs = chunks;
        Chunk c = n > 0 && n < cs.length ? cs[n] : null;
        if (c == null) throw new IllegalStateException("no chunk " + n + " (handle " + Long.toHexString(handle) + ")");
        return c;
    }

    /** The buffer holding the value at {@code handle}; the value starts at {@link #offset(long)}. */
    public ByteBuffer buffer(long handle) {
        return chunk(handle).buffer;
    }

    public static int offset(long handle) {
        return (int) handle;
    }

    /** Copies the {@code length} bytes at {@code handle} into {@code dst[off]}. */
    public void read(long handle, byte[] dst, int off, int length) {
        chunk(handle).buffer.get(offset(handle), dst, off, length);
    }

    /** Whether the chunk of {@code handle} is still in the heap (tests: a freed chunk leaves). */
    public boolean holds(long handle) {
        int n = (int) (handle >>> 32);
        Chunk[] cs = chunks;
        return n > 0 && n < cs.length && cs[n] != null;
    }

    /** Bytes of all chunks still held (the heap's memory). */
    public long reservedBytes() {
        return reserved.get();
    }

    /** Bytes of values still referenced by an entry or an undo record. */
    public long liveBytes() {
        return live.get();
    }
}

package dev.wastecheck.engine.table;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Values too long for a record (a wiki page's text, a blob) kept out of line, in a chain of
 * overflow pages of the same buffer pool, so they cost buffer-pool memory and device reads like
 * everything else. Append-only: an updated value is written anew and the old bytes become garbage.
 *
 * <pre>
 * overflow page (page size P)
 * +------------------+--------------------------------------------------+
 * | next page (i64)  | value bytes, packed; a value continues on next   |
 * +------------------+--------------------------------------------------+
 * 0                  8                                                  P
 * </pre>
 *
 * A reference, as a record's variable-length field holds it (see {@link Table}): tag byte 1,
 * first page (i64), offset in it (i32), length (i32), little-endian: 17 bytes. Values shorter
 * than {@link #threshold()} stay inline behind tag byte 0.
 *
 * <p>A compressed column ("No Bits Left Behind" §4.1, {@code compress=}) stores a zstd frame
 * instead of the value where the frame is shorter, under tags 2 (inline) and 3 (out of line);
 * the frame carries the value's length. Its field then reads:
 *
 * <pre>
 * +-----+---------------------------+      +-----+----------------------------------------+
 * |  0  | value bytes               |      |  2  | zstd frame (content size in its header) |
 * +-----+---------------------------+      +-----+----------------------------------------+
 * +-----+-----------+--------+--------+    +-----+-----------+--------+--------+
 * |  1  | page i64  | off i32| len i32|    |  3  | page i64  | off i32| len i32|  len = frame bytes
 * +-----+-----------+--------+--------+    +-----+-----------+--------+--------+
 * 0     1           9        13       17
 * </pre>
 *
 * Once the table has trained a zstd dictionary for the field ({@code Table.trainDictionaries}, at
 * the hot partition's creation), the values it stores are frames made with that dictionary, under
 * tags 4 (inline) and 5 (out of line), laid out as tags 2 and 3; the frame names the dictionary's id.
 */
public final class OverflowStore {
    public static final byte INLINE = 0;
    public static final byte OUT_OF_LINE = 1;
    public static final byte INLINE_COMPRESSED = 2;
    public static final byte OUT_OF_LINE_COMPRESSED = 3;
    /** Tags 4 and 5: as 2 and 3, the frame made with the field's trained dictionary. */
    public static final byte INLINE_DICTIONARY = 4;

    public static final byte OUT_OF_LINE_DICTIONARY = 5;
    public static final int REF_BYTES = 17;
    private static final int HEADER = 8;
    private static final long NO_PAGE = -1;

    private final BufferPool pool;
    private final int pageSize;
    private final int threshold;
    private long current = NO_PAGE;
    private int position;
    private long pages;
    private long bytes;

    public OverflowStore(BufferPool pool) {
        this.pool = pool;
        this.pageSize = pool.pageSize();
        this.threshold = Math.max(REF_BYTES + 1, pageSize / 16);
    }

    /** Values at least this long go out of line. */
    public int threshold() {
        return threshold;
    }

    public synchronized long pageCount() {
        return pages;
    }

    private final List<Long> pageNumbers = new ArrayList<>();

    /** The overflow pages' numbers. */
    public synchronized long[] pageNumbers() {
        return pageNumbers.stream().mapToLong(Long::longValue).toArray();
    }

    public synchronized long valueBytes() {
        return bytes;
    }

    /** Stores {@code len} bytes and writes their 17-byte reference into {@code ref} at {@code refOff}. */
    public synchronized void store(byte[] src, int off, int len, byte[] ref, int refOff) {
        if (current == NO_PAGE || position == pageSize) newPage();
        ByteBuffer r = ByteBuffer.wrap(ref, refOff, REF_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        r.put(OUT_OF_LINE).putLong(current).putInt(position).putInt(len);
        bytes += len;
        int done = 0;
        while (done < len) {
            if (position == pageSize) newPage();
            Frame f = pool.pin(current);
            int n = Math.min(len - done, pageSize - position);
            synchronized (f) {
                f.buffer().put(position, src, off + done, n);
            }
            pool.unpin(f, true);
            position += n;
            done += n;
        }
    }

    private void newPage() {
        Frame f = pool.newPage();
        long page = f.pageNo();
        f.buffer().putLong(0, NO_PAGE);
        pool.unpin(f, true);
        if (current != NO_PAGE) {
            Frame prev = pool.pin(current);
            synchronized (prev) {
                prev.buffer().order(ByteOrder.LITTLE_ENDIAN).putLong(0, page);
            }
            pool.unpin(prev, true);
        }
        current = page;
        position = HEADER;
        pages++;
        pageNumbers.add(page);
    }

    /** Length of the value a reference at {@code ref[refOff]} names. */
    public static int length(byte[] ref, int refOff) {
        return ByteBuffer.wrap(ref).order(ByteOrder.LITTLE_ENDIAN).getInt(refOff + 13);
    }

    /** Copies the referenced value into {@code dst}, which must hold {@link #length} bytes. */
    public void read(byte[] ref, int refOff, byte[] dst) {
        ByteBuffer r = ByteBuffer.wrap(ref).order(ByteOrder.LITTLE_ENDIAN);
        long page = r.getLong(refOff + 1);
        int pos = r.getInt(refOff + 9);
        int len = r.getInt(refOff + 13);
        int done = 0;
        while (done < len) {
            if (pos == pageSize) {
                Frame f = pool.pin(page);
                synchronized (f) {
                    page = f.buffer().order(ByteOrder.LITTLE_ENDIAN).getLong(0);
                }
                pool.unpin(f, false);
                pos = HEADER;
            }
            Frame f = pool.pin(page);
            int n = Math.min(len - done, pageSize - pos);
            synchronized (f) {
                f.buffer().get(pos, dst, done, n);
            }
            pool.unpin(f, false);
            pos += n;
            done += n;
        }
    }
}

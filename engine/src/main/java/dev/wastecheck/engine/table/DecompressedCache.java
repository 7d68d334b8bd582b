package dev.wastecheck.engine.table;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A table's compressed values last read, kept decompressed beside the buffer pool
 * ({@code compress_cache=SIZE}), least recently read dropped first: a read of one of them neither
 * reads its frame's overflow pages nor decompresses it. InnoDB keeps the same two copies of its
 * compressed pages ("the buffer pool holds both compressed and uncompressed pages", its manual,
 * "How Compression Works for InnoDB Tables") and drops the uncompressed copy of the least recently
 * used first; "No Bits Left Behind" §4.1 compresses fields that are read whole, so a skewed workload
 * pays the decompression of its few hottest values again and again without it.
 *
 * <p>The key is the value's frame. Out of line: the overflow reference's page and offset; overflow pages
 * are append-only ({@link OverflowStore}), so a reference always names the same frame and an entry is
 * never stale. Inline (a frame shorter than the overflow threshold, kept in the row: most frames made
 * with a large dictionary, {@code compress_dict=}): a hash of the frame's bytes with its tag byte, and
 * the entry keeps those bytes, compared whole on every hit, so equal keys of different frames never
 * answer each other; the same frame under the same tag is the same value (a table's dictionary is
 * trained once). Its memory counts in the working set as the bytes held (values, inline frames, and
 * {@value #ENTRY_BYTES} bytes an entry).
 *
 * <pre>
 * key (i64), out of line: | 0 (1 bit) | page number (43 bits) | offset in the page (20 bits) |
 * key (i64), inline:      | 1 (1 bit) | hash of tag byte + frame (63 bits)                  |
 * entry:                  key -> the value's decompressed bytes [, the inline frame's bytes]
 * </pre>
 */
final class DecompressedCache {
    /** What an entry costs beyond its value: its key, its array's header and the map's node, rounded. */
    static final int ENTRY_BYTES = 64;

    private final long budget;
    private final LinkedHashMap<Long, Entry> values = new LinkedHashMap<>(64, 0.75f, true);

    /** A kept value; {@code frame}: the inline frame it was decompressed from (tag byte first), null out of line. */
    private record Entry(byte[] value, byte[] frame) {
        long bytes() {
            return value.length + (frame == null ? 0 : frame.length) + ENTRY_BYTES;
        }
    }

    private long bytes, hits, misses;

    DecompressedCache(long budget) {
        this.budget = budget;
    }

    /** The key of the out-of-line reference at {@code ref[0..17)}, or -1 when its offset does not fit the key. */
    static long key(byte[] ref) {
        ByteBuffer r = ByteBuffer.wrap(ref).order(ByteOrder.LITTLE_ENDIAN);
        long page = r.getLong(1);
        int off = r.getInt(9);
        if (off < 0 || off >= 1 << 20 || page < 0 || page >= 1L << 43) return -1;
        return page << 20 | off;
    }

    /** The key of the inline frame at {@code b[0..len)}, its tag byte first: its bytes hashed, the top bit set. */
    static long inlineKey(byte[] b, int len) {
        long h = 0xcbf29ce484222325L ^ len;
        for (int i = 0; i < len; i++) h = (h ^ (b[i] & 0xFF)) * 0x100000001b3L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h | Long.MIN_VALUE;
    }

    /** The value kept under {@code key}, or null (counted as a hit or a miss). */
    byte[] get(long key) {
        return get(key, null, 0);
    }

    /**
     * The value kept under {@code key} for the inline frame {@code frame[0..len)} (tag byte first), or null (counted
     * as a hit or a miss): an entry of another frame under the same key is a miss.
     */
    byte[] get(long key, byte[] frame, int len) {
        Entry e = values.get(key);
        boolean same = e != null
                && (frame == null
                        ? e.frame == null
                        : e.frame != null && Arrays.equals(e.frame, 0, e.frame.length, frame, 0, len));
        if (!same) {
            misses++;
            return null;
        }
        hits++;
        return e.value;
    }

    /** Keeps {@code src[0..n)} under {@code key}, dropping the least recently read values past the budget. */
    void put(long key, byte[] src, int n) {
        put(key, src, n, null, 0);
    }

    /** Keeps {@code src[0..n)} under {@code key} for the inline frame {@code frame[0..len)} (null out of line). */
    void put(long key, byte[] src, int n, byte[] frame, int len) {
        Entry e = new Entry(Arrays.copyOf(src, n), frame == null ? null : Arrays.copyOf(frame, len));
        if (e.bytes() > budget) return;
        Entry old = values.put(key, e);
        if (old != null) bytes -= old.bytes();
        bytes += e.bytes();
        for (Iterator<Map.Entry<Long, Entry>> it = values.entrySet().iterator(); bytes > budget && it.hasNext(); ) {
            bytes -= it.next().getValue().bytes();
            it.remove();
        }
    }

    /** The memory the kept values take. */
    long bytes() {
        return bytes;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }
}

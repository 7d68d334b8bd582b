package dev.wastecheck.engine.table;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A table's compressed values last read out of line, kept decompressed beside the buffer pool
 * ({@code compress_cache=SIZE}), least recently read dropped first: a read of one of them neither
 * reads its frame's overflow pages nor decompresses it. InnoDB keeps the same two copies of its
 * compressed pages ("the buffer pool holds both compressed and uncompressed pages", its manual,
 * "How Compression Works for InnoDB Tables") and drops the uncompressed copy of the least recently
 * used first; "No Bits Left Behind" §4.1 compresses fields that are read whole, so a skewed workload
 * pays the decompression of its few hottest values again and again without it.
 *
 * <p>The key is the value's frame: the overflow reference's page and offset. Overflow pages are
 * append-only ({@link OverflowStore}): a reference always names the same frame, so an entry is never
 * stale. Its memory counts in the working set as the bytes held (values plus {@value #ENTRY_BYTES}
 * bytes an entry).
 *
 * <pre>
 * key (i64): | 0 (1 bit) | page number (43 bits) | offset in the page (20 bits) |
 * entry:     key -> the value's decompressed bytes
 * </pre>
 */
final class DecompressedCache {
    /** What an entry costs beyond its value: its key, its array's header and the map's node, rounded. */
    static final int ENTRY_BYTES = 64;

    private final long budget;
    private final LinkedHashMap<Long, byte[]> values = new LinkedHashMap<>(64, 0.75f, true);
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

    /** The value kept under {@code key}, or null (counted as a hit or a miss). */
    byte[] get(long key) {
        byte[] v = values.get(key);
        if (v == null) misses++;
        else hits++;
        return v;
    }

    /** Keeps {@code src[0..n)} under {@code key}, dropping the least recently read values past the budget. */
    void put(long key, byte[] src, int n) {
        if (n + ENTRY_BYTES > budget) return;
        byte[] old = values.put(key, Arrays.copyOf(src, n));
        if (old != null) bytes -= old.length + ENTRY_BYTES;
        bytes += n + ENTRY_BYTES;
        for (Iterator<Map.Entry<Long, byte[]>> it = values.entrySet().iterator(); bytes > budget && it.hasNext(); ) {
            bytes -= it.next().getValue().length + ENTRY_BYTES;
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

package dev.wastecheck.engine.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A packed B+tree leaf for keys of one fixed width of at most 8 bytes (integer keys, {@link
 * KeyEncoder}'s big-endian encodings, read as one unsigned number) mapped to tuple ids: a flyweight
 * over a page buffer. NBLB §4.1's tight types applied to the index itself: every entry is a
 * (key, tuple id) pair stored as two offsets from the leaf's smallest key and smallest tuple id, each
 * in the fewest whole bytes that the leaf's range needs, so a leaf of a hot partition built in key
 * order (consecutive ids, tuples a few heap pages apart) pays 2-3 bytes a key and 2-3 a tuple id,
 * where a {@link BTreePage} leaf pays a 2-byte length, the key, an 8-byte tuple id and a 6-byte
 * directory entry, and a 72-byte header for the index cache and prefix truncation. Entries are in
 * key order (key, tid) at fixed offsets, so binary search reads them in place; there is no
 * directory, no free-space gap, no index cache.
 *
 * <pre>
 *  byte 0      1           2           3           4           6      8           16          24          32
 *  +---------+-----------+-----------+-----------+-----------+------+-----------+-----------+-----------+
 *  | TYPE=3  | KEY_WIDTH | KEY_BYTES | TID_BYTES | KEY_COUNT | pad  | LINK      | KEY_BASE  | TID_BASE  |  header
 *  | u8      | u8 (W)    | u8 (kb)   | u8 (tb)   | u16       | u16  | u64       | u64       | u64       |  HEADER_SIZE = 32
 *  +---------+-----------+-----------+-----------+-----------+------+-----------+-----------+-----------+
 *  HEADER_SIZE: KEY_COUNT entries of kb + tb bytes each, in (key, tid) order, no gaps:
 *     entry i at HEADER_SIZE + i * (kb + tb):  | key - KEY_BASE : kb bytes, big-endian | tid - TID_BASE : tb bytes, big-endian |
 *  HEADER_SIZE + KEY_COUNT * (kb + tb) .. pageSize: free (zero)
 * </pre>
 *
 * <ul>
 *   <li>W: the tree's key length in bytes (1-8); a key is the unsigned big-endian number of its W
 *       bytes, so unsigned order of the numbers is the byte order the tree sorts by.</li>
 *   <li>KEY_BASE, TID_BASE: at most the leaf's smallest key and smallest tuple id; kb and tb (0-8) the
 *       bytes that the largest offset from them needs. An insert that lies outside them, or would
 *       not fit, re-encodes the leaf with bases and widths computed from its entries
 *       ({@link #insertAt}); if it still does not fit, the tree splits the leaf. A delete moves the
 *       later entries down and keeps the widths (they still hold every offset).</li>
 *   <li>LINK: the right sibling's page number ({@link BTreePage#NO_PAGE} if none).</li>
 * </ul>
 * Interior nodes stay {@link BTreePage}s: they hold a few separators each and are not charged
 * per entry. Chosen by {@link BTree#BTree(dev.wastecheck.engine.buffer.BufferPool, boolean, int)}.
 *
 * <p>Which trees get it: {@code Table} gives it to every index of a hot partition whose key is
 * fixed-width integers of at most 8 bytes and that has no index cache, not as a design key the search
 * tries. For such keys an entry is never larger than a {@link BTreePage} leaf's (at most 16 bytes
 * against at least 2 + 1 + 8 + 6), so a packed tree never has more leaves; a lookup is the same one
 * descent and one binary search; what the format gives up, the index cache's free space (§2.1) and
 * variable-length keys, a hot index with an index cache or a string key keeps by keeping
 * {@link BTreePage} leaves. A candidate the search could only ever find equal or smaller would cost
 * it replays and tell it nothing. autotune's model charges it by its real size with no constant of
 * its own: the working set counts the pages the held-out half pins, and the modeled cost their pins
 * and device reads. The cold partition's trees keep {@link BTreePage} leaves: the issue
 * asked for the hot partition's, and the cold ones were not measured in this format.</p>
 */
public final class PackedLeafPage {
    public static final int TYPE = 0;
    public static final int KEY_WIDTH = 1;
    public static final int KEY_BYTES = 2;
    public static final int TID_BYTES = 3;
    public static final int KEY_COUNT = 4;
    public static final int LINK = 8;
    public static final int KEY_BASE = 16;
    public static final int TID_BASE = 24;
    public static final int HEADER_SIZE = 32;

    public static final byte TYPE_PACKED_LEAF = 3;

    private ByteBuffer b;
    private byte[] a;
    private int pageSize;

    public PackedLeafPage wrap(ByteBuffer buffer) {
        if (buffer.order() != ByteOrder.BIG_ENDIAN) buffer.order(ByteOrder.BIG_ENDIAN);
        this.b = buffer;
        this.a = buffer.array();
        this.pageSize = buffer.capacity();
        return this;
    }

    /** Formats an empty leaf of keys of {@code keyWidth} bytes. */
    public void init(int keyWidth, long link) {
        if (keyWidth < 1 || keyWidth > 8) throw new IllegalArgumentException("key width " + keyWidth);
        Arrays.fill(a, (byte) 0);
        a[TYPE] = TYPE_PACKED_LEAF;
        a[KEY_WIDTH] = (byte) keyWidth;
        b.putLong(LINK, link);
    }

    public static boolean isPacked(ByteBuffer buffer) {
        return buffer.array()[TYPE] == TYPE_PACKED_LEAF;
    }

    public int keyWidth() {
        return a[KEY_WIDTH];
    }

    public int keyBytes() {
        return a[KEY_BYTES];
    }

    public int tidBytes() {
        return a[TID_BYTES];
    }

    public int entryBytes() {
        return a[KEY_BYTES] + a[TID_BYTES];
    }

    public int keyCount() {
        return b.getShort(KEY_COUNT) & 0xFFFF;
    }

    private void setKeyCount(int n) {
        b.putShort(KEY_COUNT, (short) n);
    }

    public long link() {
        return b.getLong(LINK);
    }

    public void setLink(long page) {
        b.putLong(LINK, page);
    }

    /** Bytes in use: the header and the entries. */
    public int usedBytes() {
        return HEADER_SIZE + keyCount() * entryBytes();
    }

    public int freeBytes() {
        return pageSize - usedBytes();
    }

    private static long read(byte[] a, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) v = (v << 8) | (a[off + i] & 0xFF);
        return v;
    }

    private static void write(byte[] a, int off, int n, long v) {
        for (int i = n - 1; i >= 0; i--) {
            a[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** The key of entry {@code i} as the unsigned number of its W bytes. */
    public long key(int i) {
        int kb = a[KEY_BYTES];
        return b.getLong(KEY_BASE) + read(a, HEADER_SIZE + i * (kb + a[TID_BYTES]), kb);
    }

    public long tid(int i) {
        int kb = a[KEY_BYTES], tb = a[TID_BYTES];
        return b.getLong(TID_BASE) + read(a, HEADER_SIZE + i * (kb + tb) + kb, tb);
    }

    /** Writes entry {@code i}'s key, W bytes, into {@code dst} from 0. */
    public void keyBytes(int i, byte[] dst) {
        write(dst, 0, keyWidth(), key(i));
    }

    /** A key of W bytes as the unsigned number the leaf compares. */
    public static long keyValue(byte[] key) {
        return read(key, 0, key.length);
    }

    /** The W bytes of a key number. */
    public static byte[] keyOf(long value, int width) {
        byte[] k = new byte[width];
        write(k, 0, width, value);
        return k;
    }

    /**
     * The first entry that is not below {@code key} (and, in a non-unique tree, (key, tid)): binary
     * search over the packed entries. A key shorter or longer than W compares by its bytes as the
     * tree's byte order does (a proper prefix sorts first).
     */
    public int lowerBound(byte[] key, long tid, boolean unique) {
        int n = keyCount(), w = keyWidth();
        if (key.length == 0) return 0;
        int lo = 0, hi = n;
        if (key.length == w) {
            long k = read(key, 0, w);
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                int c = Long.compareUnsigned(key(mid), k);
                if (c == 0 && !unique) c = Long.compare(tid(mid), tid);
                if (c < 0) lo = mid + 1;
                else hi = mid;
            }
            return lo;
        }
        if (key.length < w) {
            // an entry is at or above the prefix when its first key.length bytes are
            int shift = 8 * (w - key.length);
            long p = read(key, 0, key.length);
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (Long.compareUnsigned(key(mid) >>> shift, p) < 0) lo = mid + 1;
                else hi = mid;
            }
            return lo;
        }
        // a longer key: an entry equal to its first W bytes is a proper prefix of it, so below it
        long p = read(key, 0, w);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(key(mid), p) <= 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Bytes an unsigned offset up to {@code max} needs. */
    static int bytesFor(long max) {
        return (64 - Long.numberOfLeadingZeros(max) + 7) / 8;
    }

    /**
     * Inserts (key, tid) at {@code pos} when it fits: in place when both offsets fit the leaf's
     * bases and widths, else by re-encoding every entry with fresh bases and widths. Returns false,
     * changing nothing, when the leaf cannot hold it at any encoding.
     */
    public boolean insertAt(int pos, long key, long tid) {
        int n = keyCount(), kb = a[KEY_BYTES], tb = a[TID_BYTES], eb = kb + tb;
        long kBase = b.getLong(KEY_BASE), tBase = b.getLong(TID_BASE);
        if (n > 0
                && Long.compareUnsigned(key, kBase) >= 0
                && tid >= tBase
                && fits(key - kBase, kb)
                && fits(tid - tBase, tb)
                && HEADER_SIZE + (n + 1) * eb <= pageSize) {
            int off = HEADER_SIZE + pos * eb;
            System.arraycopy(a, off, a, off + eb, (n - pos) * eb);
            write(a, off, kb, key - kBase);
            write(a, off + kb, tb, tid - tBase);
            setKeyCount(n + 1);
            return true;
        }
        long[] keys = new long[n + 1], tids = new long[n + 1];
        for (int i = 0, j = 0; i <= n; i++) {
            if (i == pos) {
                keys[i] = key;
                tids[i] = tid;
            } else {
                keys[i] = key(j);
                tids[i] = tid(j);
                j++;
            }
        }
        return encode(keys, tids, 0, n + 1);
    }

    private static boolean fits(long offset, int bytes) {
        return bytes >= 8 || (offset >>> (8 * bytes)) == 0;
    }

    /** The bytes entries [from, to) of these sorted arrays take in a leaf of their own, header included. */
    public static long encodedBytes(long[] keys, long[] tids, int from, int to) {
        if (to <= from) return HEADER_SIZE;
        long kMin = keys[from], kMax = keys[to - 1], tMin = Long.MAX_VALUE, tMax = 0;
        for (int i = from; i < to; i++) {
            tMin = Math.min(tMin, tids[i]);
            tMax = Math.max(tMax, tids[i]);
        }
        int eb = bytesFor(kMax - kMin) + bytesFor(tMax - tMin);
        return HEADER_SIZE + (long) (to - from) * eb;
    }

    /**
     * Rewrites the leaf to hold exactly entries [from, to) of these arrays (sorted by (key, tid)),
     * its bases their smallest key and tuple id, its widths what their ranges need; keeps W and
     * LINK. Returns false, changing nothing, if they do not fit the page.
     */
    public boolean encode(long[] keys, long[] tids, int from, int to) {
        if (encodedBytes(keys, tids, from, to) > pageSize) return false;
        int count = to - from;
        long kMin = count == 0 ? 0 : keys[from],
                kMax = count == 0 ? 0 : keys[to - 1],
                tMin = count == 0 ? 0 : Long.MAX_VALUE,
                tMax = 0;
        for (int i = from; i < to; i++) {
            tMin = Math.min(tMin, tids[i]);
            tMax = Math.max(tMax, tids[i]);
        }
        int kb = bytesFor(kMax - kMin), tb = bytesFor(tMax - tMin), eb = kb + tb;
        Arrays.fill(a, HEADER_SIZE, pageSize, (byte) 0);
        a[KEY_BYTES] = (byte) kb;
        a[TID_BYTES] = (byte) tb;
        b.putLong(KEY_BASE, kMin);
        b.putLong(TID_BASE, tMin);
        for (int i = 0; i < count; i++) {
            int off = HEADER_SIZE + i * eb;
            write(a, off, kb, keys[from + i] - kMin);
            write(a, off + kb, tb, tids[from + i] - tMin);
        }
        setKeyCount(count);
        return true;
    }

    /** Removes entry {@code pos}; the bases and widths stay (they hold every remaining offset). */
    public void removeAt(int pos) {
        int n = keyCount(), eb = entryBytes();
        int off = HEADER_SIZE + pos * eb;
        System.arraycopy(a, off + eb, a, off, (n - pos - 1) * eb);
        Arrays.fill(a, HEADER_SIZE + (n - 1) * eb, HEADER_SIZE + n * eb, (byte) 0);
        setKeyCount(n - 1);
    }

    /** Copies every entry's key and tuple id into {@code keys} and {@code tids} from 0. */
    public void entries(long[] keys, long[] tids) {
        int n = keyCount();
        for (int i = 0; i < n; i++) {
            keys[i] = key(i);
            tids[i] = tid(i);
        }
    }
}

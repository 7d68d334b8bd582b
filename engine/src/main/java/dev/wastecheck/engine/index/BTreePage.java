package dev.wastecheck.engine.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A B+tree node page: a flyweight over a page buffer. Leaves and interior nodes share one
 * format; an interior cell carries a child page number after the tuple id.
 *
 * <pre>
 *  byte 0        1        2            4              6            8                   16            24                 56           57               65    72
 *  +--------+--------+------------+--------------+------------+-------------------+-------------+------------------+------------+----------------+-----+
 *  | TYPE   | STAMP  | KEY_COUNT  | KEY_AREA_END | CACHE_TRIM | LINK              | CACHE_CSN   | CACHE_FILTER     | PREFIX_LEN | PREFIX         | pad |  header
 *  | u8     | u8     | u16        | u16          | u16        | u64               | u64         | 256 bits         | u8         | <= 8 key bytes |     |  HEADER_SIZE = 72
 *  +--------+--------+------------+--------------+------------+-------------------+-------------+------------------+------------+----------------+-----+
 *  HEADER_SIZE: key area, cells packed in arrival order (not key order), growing up  ----->
 *     leaf cell:      | KEY_LEN u16 | KEY bytes ... | TID u64 |
 *     interior cell:  | KEY_LEN u16 | KEY bytes ... | TID u64 | CHILD u64 |
 *  KEY_AREA_END:  free space.  In a leaf this is the index cache region (IndexCache, §2.1):
 *     slots of the cache item size, at page offsets that are multiples of the item size;
 *     a slot is live only while it lies wholly inside [KEY_AREA_END, DIR_START).
 *  DIR_START = pageSize - KEY_COUNT * DIR_ENTRY_SIZE: the directory, one entry per key in
 *     key order, growing down  <-----
 *     entry i at DIR_START + i * DIR_ENTRY_SIZE:  | CELL_OFFSET u16 | PMNK u32 |
 *  pageSize
 * </pre>
 *
 * <ul>
 *   <li>TYPE: {@link #TYPE_LEAF} or {@link #TYPE_INTERIOR}.</li>
 *   <li>LINK: in a leaf, the right sibling's page number ({@link #NO_PAGE} if none); in an
 *       interior node, the leftmost child (keys below the first separator).</li>
 *   <li>STAMP, CACHE_TRIM, CACHE_CSN and CACHE_FILTER belong to the index cache: a count of
 *       placements (mod 256), how many peripheral slots the Shrink policy has overwritten, the
 *       cache sequence number up to which the cached items reflect updates, and a 256-bit
 *       filter with one bit per hash of each cached tuple id, so that most misses skip the scan
 *       of the window. Writing them never dirties the page.</li>
 *   <li>PREFIX_LEN, PREFIX: the bytes every key of the node begins with (at most 8; Graefe's
 *       prefix truncation, kept in the header rather than cut from the cells). Set by the first
 *       key, shortened by any insert that shares less of it (which rewrites every PMNK), never
 *       lengthened by a delete. A search key that does not begin with it sorts before or after
 *       every entry, decided in the header without reading the directory.</li>
 *   <li>PMNK: the poor man's normalized key, the 4 key bytes after the node's prefix
 *       ({@link KeyEncoder#prefix}), so binary search compares ints and reads a cell only when
 *       they tie. Without the prefix, 8-byte integer keys below 2^32 (whose first 4 bytes are
 *       all 0x80000000) tied on every PMNK and every comparison read a cell.</li>
 *   <li>Keys are compared as (key) in a unique index and as (key, tid) in a non-unique one,
 *       so duplicates are ordered by tuple id and every entry is distinct.</li>
 * </ul>
 * Deleting a cell compacts the key area at once, so the free space is always the single gap
 * [KEY_AREA_END, DIR_START); freed bytes are zeroed up to slot boundaries so no torn cache
 * item can be read from them.
 */
public final class BTreePage {
    public static final int TYPE = 0;
    /** The index cache's placement count, mod 256 (CacheRegion). */
    public static final int CACHE_STAMP = 1;

    public static final int KEY_COUNT = 2;
    public static final int KEY_AREA_END = 4;
    public static final int CACHE_TRIM = 6;
    public static final int LINK = 8;
    public static final int CACHE_CSN = 16;
    public static final int CACHE_FILTER = 24;
    public static final int CACHE_FILTER_SIZE = 32;
    public static final int PREFIX_LEN = 56;
    public static final int PREFIX = PREFIX_LEN + 1;
    public static final int MAX_PREFIX = 8;
    public static final int HEADER_SIZE = 72;

    public static final int CELL_KEY_LEN = 0;
    public static final int CELL_KEY = 2;
    public static final int TID_SIZE = 8;
    public static final int CHILD_SIZE = 8;

    public static final int DIR_CELL_OFFSET = 0;
    public static final int DIR_PMNK = 2;
    public static final int DIR_ENTRY_SIZE = 6;

    public static final byte TYPE_LEAF = 1;
    public static final byte TYPE_INTERIOR = 2;
    public static final long NO_PAGE = -1;

    private ByteBuffer b;
    private byte[] a;
    private int pageSize;
    /** Alignment for zeroing freed bytes: the cache item size of the index (or 1). */
    private int slotAlign = 1;

    public BTreePage wrap(ByteBuffer buffer) {
        // A frame may have held a heap page before, whose flyweight set little-endian; keys and
        // their prefixes here are big-endian so that unsigned int order is byte order.
        if (buffer.order() != ByteOrder.BIG_ENDIAN) buffer.order(ByteOrder.BIG_ENDIAN);
        this.b = buffer;
        this.a = buffer.array();
        this.pageSize = buffer.capacity();
        return this;
    }

    public BTreePage slotAlign(int align) {
        this.slotAlign = Math.max(1, align);
        return this;
    }

    public ByteBuffer buffer() {
        return b;
    }

    public int pageSize() {
        return pageSize;
    }

    /** Formats an empty node, zeroing the whole page (and with it any cached items). */
    public void init(byte type, long link) {
        Arrays.fill(a, (byte) 0);
        a[TYPE] = type;
        b.putShort(KEY_COUNT, (short) 0);
        b.putShort(KEY_AREA_END, (short) HEADER_SIZE);
        b.putLong(LINK, link);
    }

    /** A leaf of either format: this one's or {@link PackedLeafPage}'s (whose other fields this flyweight does not read). */
    public boolean isLeaf() {
        return a[TYPE] != TYPE_INTERIOR;
    }

    public int keyCount() {
        return b.getShort(KEY_COUNT) & 0xFFFF;
    }

    public int keyAreaEnd() {
        return b.getShort(KEY_AREA_END) & 0xFFFF;
    }

    public int dirStart() {
        return pageSize - keyCount() * DIR_ENTRY_SIZE;
    }

    public int freeBytes() {
        return dirStart() - keyAreaEnd();
    }

    public long link() {
        return b.getLong(LINK);
    }

    public void setLink(long page) {
        b.putLong(LINK, page);
    }

    public long cacheCsn() {
        return b.getLong(CACHE_CSN);
    }

    public void setCacheCsn(long csn) {
        b.putLong(CACHE_CSN, csn);
    }

    public int cacheTrim() {
        return b.getShort(CACHE_TRIM) & 0xFFFF;
    }

    public void setCacheTrim(int t) {
        b.putShort(CACHE_TRIM, (short) t);
    }

    /** Key area bytes K (cells) and directory bytes D, for the stable point S = K/(K+D). */
    public int keyAreaBytes() {
        return keyAreaEnd() - HEADER_SIZE;
    }

    public int directoryBytes() {
        return keyCount() * DIR_ENTRY_SIZE;
    }

    private int dirEntry(int i) {
        return dirStart() + i * DIR_ENTRY_SIZE;
    }

    public int cellOffset(int i) {
        return b.getShort(dirEntry(i) + DIR_CELL_OFFSET) & 0xFFFF;
    }

    public int keyLength(int i) {
        return b.getShort(cellOffset(i) + CELL_KEY_LEN) & 0xFFFF;
    }

    public int keyOffset(int i) {
        return cellOffset(i) + CELL_KEY;
    }

    public long tid(int i) {
        int c = cellOffset(i);
        return b.getLong(c + CELL_KEY + (b.getShort(c) & 0xFFFF));
    }

    public long child(int i) {
        int c = cellOffset(i);
        return b.getLong(c + CELL_KEY + (b.getShort(c) & 0xFFFF) + TID_SIZE);
    }

    public byte[] key(int i) {
        int o = keyOffset(i);
        return Arrays.copyOfRange(a, o, o + keyLength(i));
    }

    public static int cellSize(int keyLen, boolean leaf) {
        return CELL_KEY + keyLen + TID_SIZE + (leaf ? 0 : CHILD_SIZE);
    }

    private int cellSizeAt(int off) {
        return cellSize(b.getShort(off) & 0xFFFF, isLeaf());
    }

    public int prefixLength() {
        return a[PREFIX_LEN] & 0xFF;
    }

    /**
     * Where {@code key} sorts against the node's entries by the prefix alone: negative if before
     * all of them, positive if after all, 0 if it begins with the prefix (the PMNK decides then).
     */
    private int keyVsPrefix(byte[] key, int p) {
        if (p == 0) return 0;
        int m = Math.min(p, key.length);
        int c = Arrays.compareUnsigned(key, 0, m, a, PREFIX, PREFIX + m);
        if (c != 0) return c;
        return key.length < p ? -1 : 0; // a proper prefix of the prefix sorts first
    }

    /**
     * Compares entry i with (key, tid): negative if the entry sorts first. The prefix and the
     * PMNK decide unless they tie; then the key bytes, then (non-unique only) the tuple ids.
     */
    public int compare(int i, byte[] key, long tid, boolean unique) {
        int p = prefixLength();
        int c = keyVsPrefix(key, p);
        if (c != 0) return -c;
        return compareEntry(dirEntry(i), key, KeyEncoder.prefix(key, p, key.length - p), p, tid, unique);
    }

    /** {@link #compare} of the directory entry at byte offset {@code e}, for a key that begins with the node's prefix. */
    private int compareEntry(int e, byte[] key, int keyPmnk, int prefix, long tid, boolean unique) {
        int p = b.getInt(e + DIR_PMNK);
        if (p != keyPmnk) return Integer.compareUnsigned(p, keyPmnk);
        int c = b.getShort(e + DIR_CELL_OFFSET) & 0xFFFF;
        int len = b.getShort(c) & 0xFFFF;
        int r, skip = prefix + 4;
        if (len <= skip || key.length <= skip) {
            // equal prefixes and zero-padded PMNKs, one key ending within them: it is a prefix
            // of the other, so the shorter sorts first (and equal lengths are equal keys)
            r = Integer.compare(len, key.length);
        } else {
            r = Arrays.compareUnsigned(a, c + CELL_KEY + skip, c + CELL_KEY + len, key, skip, key.length);
        }
        if (r != 0 || unique) return r;
        return Long.compare(b.getLong(c + CELL_KEY + len), tid);
    }

    /** The first index whose entry is >= (key, tid); keyCount() if none. */
    public int lowerBound(byte[] key, long tid, boolean unique) {
        return search(key, tid, unique, 0);
    }

    /** The first index whose entry is > (key, tid). */
    public int upperBound(byte[] key, long tid, boolean unique) {
        return search(key, tid, unique, 1);
    }

    /** The first index whose entry compares to (key, tid) at least {@code bound} (0: >=, 1: >). */
    private int search(byte[] key, long tid, boolean unique, int bound) {
        int n = keyCount(), p = prefixLength();
        int side = keyVsPrefix(key, p);
        if (side != 0) return side < 0 ? 0 : n;
        int kp = KeyEncoder.prefix(key, p, key.length - p), dir = pageSize - n * DIR_ENTRY_SIZE;
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareEntry(dir + mid * DIR_ENTRY_SIZE, key, kp, p, tid, unique) < bound) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Whether a cell with this key fits (cell plus one directory entry). */
    public boolean fits(int keyLen) {
        return cellSize(keyLen, isLeaf()) + DIR_ENTRY_SIZE <= freeBytes();
    }

    /**
     * Inserts a cell at directory position {@code pos}. The cell is appended at KEY_AREA_END and
     * the directory grows down by one entry: both overwrite the edges of the free space, and
     * with them whatever cache items were there ("key inserts overwrite the periphery freely").
     */
    public void insertAt(int pos, byte[] key, long tid, long child) {
        insertAt(pos, key, 0, key.length, tid, child);
    }

    /** {@link #insertAt(int, byte[], long, long)} of the key {@code key[off .. off + len)}. */
    public void insertAt(int pos, byte[] key, int off, int len, long tid, long child) {
        int n = keyCount();
        int cell = keyAreaEnd();
        int size = cellSize(len, isLeaf());
        if (size + DIR_ENTRY_SIZE > freeBytes()) throw new IllegalStateException("node full");
        b.putShort(cell + CELL_KEY_LEN, (short) len);
        System.arraycopy(key, off, a, cell + CELL_KEY, len);
        b.putLong(cell + CELL_KEY + len, tid);
        if (!isLeaf()) b.putLong(cell + CELL_KEY + len + TID_SIZE, child);
        int p = fitPrefix(key, off, len, n);
        int oldDir = dirStart();
        int newDir = oldDir - DIR_ENTRY_SIZE;
        // entries [0, pos) move down one entry; entries [pos, n) stay
        System.arraycopy(a, oldDir, a, newDir, pos * DIR_ENTRY_SIZE);
        int e = newDir + pos * DIR_ENTRY_SIZE;
        b.putShort(e + DIR_CELL_OFFSET, (short) cell);
        b.putInt(e + DIR_PMNK, KeyEncoder.prefix(key, off + p, len - p));
        b.putShort(KEY_COUNT, (short) (n + 1));
        b.putShort(KEY_AREA_END, (short) (cell + size));
    }

    /**
     * Makes the node's prefix one that {@code key[off .. off + len)} begins with too (the first key of an empty
     * node sets it), rewriting the {@code n} entries' PMNKs if it got shorter. Returns it.
     */
    private int fitPrefix(byte[] key, int off, int len, int n) {
        if (n == 0) {
            int p = Math.min(MAX_PREFIX, len);
            a[PREFIX_LEN] = (byte) p;
            System.arraycopy(key, off, a, PREFIX, p);
            return p;
        }
        int p = prefixLength();
        int m = Math.min(p, len), l = 0;
        while (l < m && key[off + l] == a[PREFIX + l]) l++;
        if (l == p) return p;
        a[PREFIX_LEN] = (byte) l;
        int dir = pageSize - n * DIR_ENTRY_SIZE;
        for (int i = 0; i < n; i++) {
            int e = dir + i * DIR_ENTRY_SIZE;
            int c = b.getShort(e + DIR_CELL_OFFSET) & 0xFFFF;
            int cellKeyLen = b.getShort(c) & 0xFFFF;
            b.putInt(e + DIR_PMNK, KeyEncoder.prefix(a, c + CELL_KEY + l, cellKeyLen - l));
        }
        return l;
    }

    /** Removes entry {@code pos}, compacting the key area and zeroing the bytes that become free. */
    public void removeAt(int pos) {
        int n = keyCount();
        int oldDir = dirStart();
        int oldEnd = keyAreaEnd();
        int cell = cellOffset(pos);
        int size = cellSizeAt(cell);
        // directory: entries [0, pos) move up one entry over the removed one
        System.arraycopy(a, oldDir, a, oldDir + DIR_ENTRY_SIZE, pos * DIR_ENTRY_SIZE);
        b.putShort(KEY_COUNT, (short) (n - 1));
        int newDir = oldDir + DIR_ENTRY_SIZE;
        // key area: cells after the removed one slide down; fix their directory offsets
        System.arraycopy(a, cell + size, a, cell, oldEnd - cell - size);
        for (int i = 0; i < n - 1; i++) {
            int e = newDir + i * DIR_ENTRY_SIZE;
            int off = b.getShort(e) & 0xFFFF;
            if (off > cell) b.putShort(e, (short) (off - size));
        }
        int newEnd = oldEnd - size;
        b.putShort(KEY_AREA_END, (short) newEnd);
        zeroFreed(newEnd, oldEnd, oldDir, newDir);
    }

    /**
     * Zeroes the bytes that joined the free space, widened to slot boundaries: a slot that was
     * partly covered by a cell or directory entry holds torn bytes and must read as empty.
     */
    private void zeroFreed(int newEnd, int oldEnd, int oldDir, int newDir) {
        int s = slotAlign;
        int loEnd = Math.min(((oldEnd + s - 1) / s) * s, newDir);
        if (loEnd > newEnd) Arrays.fill(a, newEnd, loEnd, (byte) 0);
        int hiStart = Math.max((oldDir / s) * s, newEnd);
        if (newDir > hiStart) Arrays.fill(a, hiStart, newDir, (byte) 0);
    }

    /** Bytes in use: header, cells and directory. */
    public int usedBytes() {
        return pageSize - freeBytes();
    }
}

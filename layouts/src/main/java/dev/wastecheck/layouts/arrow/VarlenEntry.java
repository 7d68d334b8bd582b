package dev.wastecheck.layouts.arrow;

/**
 * The 16-byte fixed-size stand-in for a variable-length value in a hot block (Li et al., VLDB 2020,
 * §4.1): because every entry has the same size, replacing a value is a fixed-size write into the
 * column, and a column of entries can be updated in place however the values grow.
 *
 * <pre>
 *  byte   0         4                 8                                16
 *        +---------+-----------------+---------------------------------+
 *  ptr   | size    | prefix          | pointer (a {@link VarlenHeap}    |   size &gt; 12
 *        | u32     | first 4 bytes   |  handle: chunk &lt;&lt; 32 | offset)  |
 *        +---------+-----------------+---------------------------------+
 *  inline| size    | bytes 0..3      | bytes 4..11 (zero-padded)       |   size &lt;= 12
 *        +---------+-----------------+---------------------------------+
 * </pre>
 *
 * The value travels as two little-endian longs: {@code word0} (size in the low half, the first four
 * bytes in the high half) and {@code word1} (the pointer, or bytes 4..11). A value of
 * {@link #INLINE_THRESHOLD} bytes or less lives in the entry itself; the prefix lets a comparison
 * reject most values without following the pointer. Static helpers only: nothing is allocated.
 */
public final class VarlenEntry {
    public static final int SIZE = 16;
    public static final int INLINE_THRESHOLD = 12;
    static final int SIZE_OFFSET = 0;
    static final int PREFIX_OFFSET = 4;
    static final int POINTER_OFFSET = 8;

    private VarlenEntry() {}

    /** The first word of the entry of {@code length} bytes at {@code src[off]}. */
    public static long word0(byte[] src, int off, int length) {
        long prefix = 0;
        for (int i = Math.min(4, length) - 1; i >= 0; i--) prefix = (prefix << 8) | (src[off + i] & 0xFFL);
        return (length & 0xFFFF_FFFFL) | (prefix << 32);
    }

    /** The second word of an inline entry: bytes 4..11 of the value, zero-padded. */
    public static long inlineWord1(byte[] src, int off, int length) {
        long w = 0;
        for (int i = Math.min(INLINE_THRESHOLD, length) - 1; i >= 4; i--) w = (w << 8) | (src[off + i] & 0xFFL);
        return w;
    }

    public static int size(long word0) {
        return (int) word0;
    }

    /** The first four bytes as a little-endian int (zero-padded). */
    public static int prefix(long word0) {
        return (int) (word0 >>> 32);
    }

    public static boolean isInline(long word0) {
        return size(word0) <= INLINE_THRESHOLD;
    }

    /** Copies an inline value into {@code dst[off]}; returns its size. */
    public static int copyInline(long word0, long word1, byte[] dst, int off) {
        int n = size(word0);
        long prefix = word0 >>> 32;
        for (int i = 0; i < Math.min(4, n); i++) dst[off + i] = (byte) (prefix >>> (8 * i));
        for (int i = 4; i < n; i++) dst[off + i] = (byte) (word1 >>> (8 * (i - 4)));
        return n;
    }
}

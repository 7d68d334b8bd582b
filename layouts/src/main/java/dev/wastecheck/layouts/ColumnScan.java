package dev.wastecheck.layouts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The inner loop of a columnar scan (PAX mini-pages, HPL segments): up to 64 consecutive
 * values of one field tested against [lo, hi] into one word of a selection bitmap. The type
 * switch runs once per 64 values; each loop reads one value per iteration with no branch on the
 * outcome (the comparison becomes a flag, the flag a bit).
 */
final class ColumnScan {
    private ColumnScan() {}

    /** Bit j set iff value j (of {@code count} <= 64 starting at absolute {@code at}) is in [lo, hi]. */
    static long matchWord(ByteBuffer buf, int at, FieldType type, int count, long lo, long hi) {
        long bits = 0;
        switch (type) {
            case INT32:
                return matchInt32(buf, at, count, lo, hi);
            case INT64:
                for (int j = 0; j < count; j++) {
                    long v = buf.getLong(at + (j << 3));
                    bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
                }
                return bits;
            case INT16:
                for (int j = 0; j < count; j++) {
                    long v = buf.getShort(at + (j << 1));
                    bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
                }
                return bits;
            case INT8:
                for (int j = 0; j < count; j++) {
                    long v = buf.get(at + j);
                    bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
                }
                return bits;
            default:
                throw new IllegalArgumentException("no columnar scan for " + type);
        }
    }

    /**
     * INT32, the common case, on its own so it inlines into the scans: two values per 8-byte
     * read (little-endian: the first value is the low half), halving the bounds checks a
     * ByteBuffer access costs.
     */
    static long matchInt32(ByteBuffer buf, int at, int count, long lo, long hi) {
        if (buf.hasArray()) return matchInt32(buf.array(), buf.arrayOffset() + at, count, lo, hi);
        long bits = 0;
        int j = 0;
        for (; j + 1 < count; j += 2) {
            long pair = buf.getLong(at + (j << 2));
            long v0 = (int) pair, v1 = pair >> 32;
            bits |= (v0 >= lo & v0 <= hi ? 1L : 0L) << j | (v1 >= lo & v1 <= hi ? 2L : 0L) << j;
        }
        if (j < count) {
            long v = buf.getInt(at + (j << 2));
            bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
        }
        return bits;
    }

    /** Little-endian 8-byte reads straight from a heap buffer's array: one bounds check per read. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static long matchInt32(byte[] a, int at, int count, long lo, long hi) {
        long bits = 0;
        int j = 0;
        for (; j + 1 < count; j += 2) {
            long pair = (long) LONGS.get(a, at + (j << 2));
            long v0 = (int) pair, v1 = pair >> 32;
            bits |= (v0 >= lo & v0 <= hi ? 1L : 0L) << j | (v1 >= lo & v1 <= hi ? 2L : 0L) << j;
        }
        if (j < count) {
            long v = (int) INTS.get(a, at + (j << 2));
            bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
        }
        return bits;
    }

    /** The same for a BIT column: {@code values} holds the bits; keeps the low {@code count} bits. */
    static long matchBits(long values, int count, long lo, long hi) {
        long mask = count == 64 ? -1L : (1L << count) - 1;
        long zeros = (lo <= 0 && 0 <= hi) ? ~values : 0L;
        long ones = (lo <= 1 && 1 <= hi) ? values : 0L;
        return (zeros | ones) & mask;
    }
}

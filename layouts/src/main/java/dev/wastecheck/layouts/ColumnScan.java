package dev.wastecheck.layouts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The inner loop of a columnar scan (PAX mini-pages, HPL segments): up to 64 consecutive
 * values of one field tested against [lo, hi] into one word of a selection bitmap.
 *
 * <p>For 1-, 2- and 4-byte fields the range test is one unsigned comparison done with
 * arithmetic: {@code v} is in [lo, hi] iff {@code (v - lo)} taken as an unsigned 32-bit number is
 * below {@code span1 = hi - lo + 1}, i.e. iff the sign bit of {@code uint(v - lo) - span1} is
 * set. There is no compare and no branch in the loop. Written as {@code v >= lo & v <= hi ? 1 : 0}
 * instead, C2 (JDK 17) compiles at least one of the two comparisons to a conditional jump,
 * which mispredicts on about half of the values of a ~14% selective predicate; that, and a
 * 64-value loop whose trip count C2 could not see, made the old PAX scan 2.2x slower than the
 * same loop over an {@code int[]} even in cache (docs/benchmarks.md, layouts). A full word of 64
 * values therefore goes through a loop with a constant trip count.
 *
 * <p>Callers clamp [lo, hi] to the field type's range once per scan ({@link #clampLo},
 * {@link #span1}; an empty range selects nothing), so the per-value work is a load, a subtract,
 * a subtract, a shift and an OR. One-byte values go eight at a time through one register
 * ({@link #match64Bytes}).
 *
 * <p>Public only so that the benchmarks' plain-array ceilings can run the very same kernels on
 * their arrays; the page formats are its real callers.
 */
public final class ColumnScan {
    private ColumnScan() {}

    /** Little-endian 8-byte reads straight from a heap buffer's array: one bounds check per two INT32 values. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORTS =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    // ---------------------------------------------------------------- bounds

    /** Whether [lo, hi] holds no value of the 1/2/4-byte type {@code t} (the scan then selects nothing). */
    static boolean emptyRange(FieldType t, long lo, long hi) {
        return lo > hi || hi < minValue(t) || lo > maxValue(t);
    }

    /** lo clamped into the type's range, as an int. */
    static int clampLo(FieldType t, long lo) {
        return (int) Math.max(lo, minValue(t));
    }

    /** Number of values in [lo, hi] clamped into the type's range: 1 .. 2^32. Needs a non-empty range. */
    static long span1(FieldType t, long lo, long hi) {
        return Math.min(hi, maxValue(t)) - Math.max(lo, minValue(t)) + 1;
    }

    private static long minValue(FieldType t) {
        switch (t) {
            case INT8:
                return Byte.MIN_VALUE;
            case INT16:
                return Short.MIN_VALUE;
            case INT32:
                return Integer.MIN_VALUE;
            case UINT8:
            case UINT16:
            case UINT32:
                return 0;
            default:
                throw new IllegalArgumentException("no int-range scan for " + t);
        }
    }

    private static long maxValue(FieldType t) {
        switch (t) {
            case INT8:
                return Byte.MAX_VALUE;
            case INT16:
                return Short.MAX_VALUE;
            case INT32:
                return Integer.MAX_VALUE;
            case UINT8:
                return 0xFF;
            case UINT16:
                return 0xFFFF;
            case UINT32:
                return 0xFFFF_FFFFL;
            default:
                throw new IllegalArgumentException("no int-range scan for " + t);
        }
    }

    /**
     * 1 if v is in the clamped range starting at lo with span1 values, else 0; no branch. The
     * difference is taken mod 2^32, so it holds for a UINT32's raw bits too (lo then being the
     * raw bits of the clamped bound: unsigned order is the order of the raw bits).
     */
    static long inRange(int v, int lo, long span1) {
        return (Integer.toUnsignedLong(v - lo) - span1) >>> 63;
    }

    // ---------------------------------------------------------------- kernels

    /** The kernel a scan uses, chosen once per scan from the field's type and the buffer ({@link #kernel}). */
    static final int K_INT32_ARRAY = 0,
            K_INT8_ARRAY = 1,
            K_UINT8_ARRAY = 2,
            K_INT16_ARRAY = 3,
            K_UINT16_ARRAY = 4,
            K_BUFFER = 5,
            K_BIT = 6,
            K_INT64 = 7;

    /** Which kernel scans a BIT or integer column of type t in buf: a heap buffer's array where it has one. */
    static int kernel(FieldType t, ByteBuffer buf) {
        if (t.isBit()) return K_BIT;
        if (t == FieldType.INT64) return K_INT64;
        if (!buf.hasArray()) return K_BUFFER;
        switch (t) {
            case INT32:
            case UINT32:
                return K_INT32_ARRAY;
            case INT8:
                return K_INT8_ARRAY;
            case UINT8:
                return K_UINT8_ARRAY;
            case INT16:
                return K_INT16_ARRAY;
            case UINT16:
                return K_UINT16_ARRAY;
            default:
                return K_BUFFER;
        }
    }

    /**
     * One selection word: {@code count} <= 64 values from absolute index {@code at} (for a BIT
     * column, the byte holding the first one's bit, which must be the first of an 8-byte word) in
     * the range (lo32/span1 for 1-4-byte types, lo/hi for INT64 and BIT). A switch on a kernel
     * chosen per scan, each case a small loop the JIT inlines here: before, one method chose per
     * word and grew too big to be inlined into the page scans.
     */
    static long match(
            int kernel,
            ByteBuffer buf,
            byte[] array,
            int arrayBase,
            int at,
            FieldType t,
            int count,
            int lo32,
            long span1,
            long lo,
            long hi) {
        switch (kernel) {
            case K_INT32_ARRAY:
                return matchInt32(array, arrayBase + at, count, lo32, span1);
            case K_INT8_ARRAY:
                return matchInt8(array, arrayBase + at, count, lo32, span1, false);
            case K_UINT8_ARRAY:
                return matchInt8(array, arrayBase + at, count, lo32, span1, true);
            case K_INT16_ARRAY:
                return matchInt16(array, arrayBase + at, count, lo32, span1, false);
            case K_UINT16_ARRAY:
                return matchInt16(array, arrayBase + at, count, lo32, span1, true);
            case K_BIT:
                return matchBits(buf.getLong(at), count, lo, hi);
            case K_INT64:
                return matchInt64(buf, at, count, lo, hi);
            default:
                return matchInt(buf, at, t, count, lo32, span1);
        }
    }

    /**
     * Like {@link #match} for the {@code count} values of one block of an HPL segment that grows
     * by cache lines (§5.1): only the block's own values are read (a 64-value read would pull in
     * the neighbouring blocks of other fields). A block of 1-, 2- and 4-byte values holds a
     * multiple of 8, 4 and 2 of them, so the 8-byte reads below never leave it; the values past
     * {@code count} are masked off.
     */
    static long matchBlock(
            int kernel,
            ByteBuffer buf,
            byte[] array,
            int arrayBase,
            int at,
            FieldType t,
            int count,
            int lo32,
            long span1,
            long lo,
            long hi) {
        if (count == 64) return match(kernel, buf, array, arrayBase, at, t, 64, lo32, span1, lo, hi);
        long bits = 0;
        int a = arrayBase + at;
        switch (kernel) {
            case K_INT32_ARRAY:
                for (int j = 0; j < count; j += 2) {
                    long pair = (long) LONGS.get(array, a + (j << 2));
                    bits |= (inRange((int) pair, lo32, span1) | inRange((int) (pair >>> 32), lo32, span1) << 1) << j;
                }
                break;
            case K_INT8_ARRAY:
            case K_UINT8_ARRAY:
                if (span1 >= 256) return (1L << count) - 1;
                for (int j = 0; j < count; j += 8)
                    bits |= matchEightBytes((long) LONGS.get(array, a + j), lo32, span1) << j;
                break;
            case K_INT16_ARRAY:
            case K_UINT16_ARRAY:
                boolean unsigned = kernel == K_UINT16_ARRAY;
                for (int j = 0; j < count; j += 4) {
                    long x = (long) LONGS.get(array, a + (j << 1));
                    for (int k = 0; k < 4; k++) {
                        int v = unsigned ? (int) (x >>> (k << 4)) & 0xFFFF : (short) (x >>> (k << 4));
                        bits |= inRange(v, lo32, span1) << (j + k);
                    }
                }
                break;
            default:
                return match(kernel, buf, array, arrayBase, at, t, count, lo32, span1, lo, hi);
        }
        return bits & ((1L << count) - 1);
    }

    /**
     * A whole column of one HPL segment (HPL-2012-240 §5.1) in one call, its blocks walked as
     * they lie: selection word w (the segment's values 64w .. 64w + 63) lies in block
     * {@code blocks[first + (w >>> (shift - 6))]}, at {@code ((w << 6) & mask) * width} bytes into
     * it, where a block holds {@code 1 << shift} >= 64 values (an INCREMENTAL block at U = 256 of
     * 1-, 2- and 4-byte values; a RIGID or SIMPLISTIC column is one block with shift 31 and mask
     * -1). Every word reads 64 values, which stay in their block: a block holds a multiple of 64
     * whole-word runs, and the last, partly filled one is allocated whole (§5.1); the caller masks
     * the values past the segment's records. The switch on the kernel is outside the word loop,
     * so each case is a loop of 64-value kernels with one block-table load per word. {@code
     * refine}: only words with a selected slot are read, and the result is ANDed; else each word
     * is overwritten. Writes {@code sel[w0 + w]} for w in [0, words).
     */
    static void matchColumn(
            int kernel,
            ByteBuffer buf,
            byte[] array,
            int arrayBase,
            int seg,
            int[] blocks,
            int first,
            int shift,
            int mask,
            int width,
            FieldType t,
            int words,
            int lo32,
            long span1,
            long lo,
            long hi,
            long[] sel,
            int w0,
            boolean refine) {
        int s = shift - 6, base = arrayBase + seg;
        switch (kernel) {
            case K_INT32_ARRAY:
                for (int w = 0; w < words; w++) {
                    long keep = refine ? sel[w0 + w] : -1L;
                    if (keep == 0) continue;
                    int at = base + blocks[first + (w >>> s)] + (((w << 6) & mask) << 2);
                    sel[w0 + w] = keep & match64Int32(array, at, lo32, span1);
                }
                return;
            case K_INT8_ARRAY:
            case K_UINT8_ARRAY:
                for (int w = 0; w < words; w++) {
                    long keep = refine ? sel[w0 + w] : -1L;
                    if (keep == 0) continue;
                    int at = base + blocks[first + (w >>> s)] + ((w << 6) & mask);
                    sel[w0 + w] = keep & match64Bytes(array, at, lo32, span1);
                }
                return;
            default:
                for (int w = 0; w < words; w++) {
                    long keep = refine ? sel[w0 + w] : -1L;
                    if (keep == 0) continue;
                    int at = seg + blocks[first + (w >>> s)] + ((w << 6) & mask) * width;
                    sel[w0 + w] = keep & match(kernel, buf, array, arrayBase, at, t, 64, lo32, span1, lo, hi);
                }
        }
    }

    /** Eight one-byte values of {@code x} tested at once (as in {@link #match64Bytes}): bit k for byte k. */
    private static long matchEightBytes(long x, int lo, long span1) {
        long l = (lo & 0xFFL) * ONES, s = span1 * ONES;
        long d = subBytes(x, l);
        long borrow = ((~d & s) | (~(d ^ s) & subBytes(d, s))) & HIGH_BITS;
        return ((borrow >>> 7) * 0x0102040810204080L) >>> 56;
    }

    /** Bit j set iff INT32 value j of the 64 at {@code a[at..]} (little-endian) is in range. */
    static long match64Int32(byte[] a, int at, int lo, long span1) {
        long bits = 0;
        for (int j = 0; j < 64; j += 2) {
            long pair = (long) LONGS.get(a, at + (j << 2));
            bits |= (inRange((int) pair, lo, span1) | inRange((int) (pair >>> 32), lo, span1) << 1) << j;
        }
        return bits;
    }

    /**
     * Like {@link #match64Int32} for the first {@code count} values only, when the array holds 64
     * values' bytes from {@code at} (the rest are read and masked off: a partly filled last word
     * of a column then takes the fast loop too); else through {@link #matchInt}.
     */
    static long matchInt32(byte[] a, int at, int count, int lo, long span1) {
        if (at + 256 <= a.length) {
            long bits = match64Int32(a, at, lo, span1);
            return count == 64 ? bits : bits & ((1L << count) - 1);
        }
        long bits = 0;
        for (int j = 0; j < count; j++) bits |= inRange((int) INTS.get(a, at + (j << 2)), lo, span1) << j;
        return bits;
    }

    /**
     * Bit j set iff value j of the {@code count} <= 64 values of 1/2/4-byte type {@code t} at
     * absolute {@code at} is in the clamped range: the general path (partial words, direct
     * buffers, INT8 and INT16).
     */
    static long matchInt(ByteBuffer buf, int at, FieldType t, int count, int lo, long span1) {
        long bits = 0;
        switch (t) {
            case INT32:
            case UINT32:
                for (int j = 0; j < count; j++) bits |= inRange(buf.getInt(at + (j << 2)), lo, span1) << j;
                return bits;
            case UINT16:
                for (int j = 0; j < count; j++) bits |= inRange(buf.getChar(at + (j << 1)), lo, span1) << j;
                return bits;
            case UINT8:
                for (int j = 0; j < count; j++) bits |= inRange(buf.get(at + j) & 0xFF, lo, span1) << j;
                return bits;
            case INT16:
                for (int j = 0; j < count; j++) bits |= inRange(buf.getShort(at + (j << 1)), lo, span1) << j;
                return bits;
            case INT8:
                for (int j = 0; j < count; j++) bits |= inRange(buf.get(at + j), lo, span1) << j;
                return bits;
            default:
                throw new IllegalArgumentException("no int-range scan for " + t);
        }
    }

    /**
     * INT8/UINT8 from a heap buffer's array: a full word is a loop of 64 over {@code byte[]}
     * elements with a constant trip count (C2 hoists the bounds check out of it), as the plain
     * array baseline's loop is; before, each value was a ByteBuffer.get with its own checks.
     */
    static long matchInt8(byte[] a, int at, int count, int lo, long span1, boolean unsigned) {
        if (at + 64 <= a.length) { // a partly filled last word too: 64 bytes read, the rest masked off
            long bits = match64Bytes(a, at, lo, span1);
            return count == 64 ? bits : bits & ((1L << count) - 1);
        }
        long bits = 0;
        int mask = unsigned ? 0xFF : -1;
        for (int j = 0; j < count; j++) bits |= inRange(a[at + j] & mask, lo, span1) << j;
        return bits;
    }

    private static final long HIGH_BITS = 0x8080808080808080L, ONES = 0x0101010101010101L;

    /**
     * 64 one-byte values at {@code a[at..]}, eight to an 8-byte read, each eight tested at once in
     * the register (SWAR): byte j is in range iff {@code (v - lo) mod 256 < span1}, which for a
     * range clamped to the byte type (span1 <= 256 - (lo - type minimum)) is the same test as
     * {@link #inRange} and holds for signed and unsigned bytes alike. Both subtractions are
     * done per byte without borrows crossing bytes; the borrow out of each byte's second
     * subtraction is its answer, and a multiplication gathers the eight answers into a byte.
     */
    public static long match64Bytes(byte[] a, int at, int lo, long span1) {
        if (span1 >= 256) return -1L;
        long l = (lo & 0xFFL) * ONES, s = span1 * ONES;
        long bits = 0;
        for (int j = 0; j < 64; j += 8) {
            long x = (long) LONGS.get(a, at + j);
            long d = subBytes(x, l);
            long borrow = ((~d & s) | (~(d ^ s) & subBytes(d, s))) & HIGH_BITS;
            bits |= (((borrow >>> 7) * 0x0102040810204080L) >>> 56) << j;
        }
        return bits;
    }

    /** Byte-wise x - y (mod 256 in each byte), with no borrow from one byte into the next. */
    private static long subBytes(long x, long y) {
        return ((x | HIGH_BITS) - (y & ~HIGH_BITS)) ^ ((x ^ ~y) & HIGH_BITS);
    }

    /** INT16/UINT16 from a heap buffer's array, four values to an 8-byte read where the array holds them. */
    static long matchInt16(byte[] a, int at, int count, int lo, long span1, boolean unsigned) {
        long bits = 0;
        if (count == 64 && at + 128 <= a.length) {
            for (int j = 0; j < 64; j += 4) {
                long x = (long) LONGS.get(a, at + (j << 1));
                for (int k = 0; k < 4; k++) {
                    int v = unsigned ? (int) (x >>> (k << 4)) & 0xFFFF : (short) (x >>> (k << 4));
                    bits |= inRange(v, lo, span1) << (j + k);
                }
            }
            return bits;
        }
        for (int j = 0; j < count; j++) {
            int v = (short) SHORTS.get(a, at + (j << 1));
            bits |= inRange(unsigned ? v & 0xFFFF : v, lo, span1) << j;
        }
        return bits;
    }

    /** INT64: bit j set iff value j of {@code count} <= 64 at absolute {@code at} is in [lo, hi]. */
    static long matchInt64(ByteBuffer buf, int at, int count, long lo, long hi) {
        long bits = 0;
        for (int j = 0; j < count; j++) {
            long v = buf.getLong(at + (j << 3));
            bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
        }
        return bits;
    }

    /**
     * Gathers from a run of values of type {@code t} starting at absolute {@code at}: for every
     * set bit j of {@code bits}, value j goes to {@code out[i++]}. Returns the new i. The switch
     * is outside the loops, so each loop is a load and a store per selected value.
     */
    static int gatherRun(ByteBuffer buf, int at, FieldType t, long bits, long[] out, int i) {
        if (buf.hasArray()) return gatherRun(buf.array(), buf.arrayOffset() + at, t, bits, out, i);
        switch (t) {
            case INT8:
                for (; bits != 0; bits &= bits - 1) out[i++] = buf.get(at + Long.numberOfTrailingZeros(bits));
                return i;
            case UINT8:
                for (; bits != 0; bits &= bits - 1) out[i++] = buf.get(at + Long.numberOfTrailingZeros(bits)) & 0xFFL;
                return i;
            case INT16:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = buf.getShort(at + (Long.numberOfTrailingZeros(bits) << 1));
                return i;
            case UINT16:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = buf.getChar(at + (Long.numberOfTrailingZeros(bits) << 1));
                return i;
            case INT32:
                for (; bits != 0; bits &= bits - 1) out[i++] = buf.getInt(at + (Long.numberOfTrailingZeros(bits) << 2));
                return i;
            case UINT32:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = buf.getInt(at + (Long.numberOfTrailingZeros(bits) << 2)) & 0xFFFF_FFFFL;
                return i;
            case INT64:
            case FLOAT64:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = buf.getLong(at + (Long.numberOfTrailingZeros(bits) << 3));
                return i;
            default:
                throw new IllegalArgumentException("no values to gather in a " + t + " run");
        }
    }

    /** {@link #gatherRun(ByteBuffer, int, FieldType, long, long[], int)} from a heap buffer's array. */
    static int gatherRun(byte[] a, int at, FieldType t, long bits, long[] out, int i) {
        switch (t) {
            case INT8:
                for (; bits != 0; bits &= bits - 1) out[i++] = a[at + Long.numberOfTrailingZeros(bits)];
                return i;
            case UINT8:
                for (; bits != 0; bits &= bits - 1) out[i++] = a[at + Long.numberOfTrailingZeros(bits)] & 0xFFL;
                return i;
            case INT16:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = (short) SHORTS.get(a, at + (Long.numberOfTrailingZeros(bits) << 1));
                return i;
            case UINT16:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = (short) SHORTS.get(a, at + (Long.numberOfTrailingZeros(bits) << 1)) & 0xFFFFL;
                return i;
            case INT32:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = (int) INTS.get(a, at + (Long.numberOfTrailingZeros(bits) << 2));
                return i;
            case UINT32:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = (int) INTS.get(a, at + (Long.numberOfTrailingZeros(bits) << 2)) & 0xFFFF_FFFFL;
                return i;
            case INT64:
            case FLOAT64:
                for (; bits != 0; bits &= bits - 1)
                    out[i++] = (long) LONGS.get(a, at + (Long.numberOfTrailingZeros(bits) << 3));
                return i;
            default:
                throw new IllegalArgumentException("no values to gather in a " + t + " run");
        }
    }

    /** The same for a BIT column: {@code values} holds the bits; keeps the low {@code count} bits. */
    static long matchBits(long values, int count, long lo, long hi) {
        long mask = count == 64 ? -1L : (1L << count) - 1;
        long zeros = (lo <= 0 && 0 <= hi) ? ~values : 0L;
        long ones = (lo <= 1 && 1 <= hi) ? values : 0L;
        return (zeros | ones) & mask;
    }
}

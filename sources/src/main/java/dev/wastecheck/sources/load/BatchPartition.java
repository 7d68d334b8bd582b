package dev.wastecheck.sources.load;

import java.util.function.IntPredicate;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.memory.util.hash.SimpleHasher;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.ValueVector;

/**
 * How a column's values part a batch's rows: rows that hold the same value (NULL counting as one
 * value) fall in one part. Two columns map one to one over a table's rows (the analysis's
 * duplicate-column check: as many distinct pairs as values) only if they part every subset of
 * those rows alike, so a first batch whose parts differ proves that they do not, and the check
 * need not read either column (nor need it be in DuckDB's table).
 *
 * <p>The parts are kept as a 64-bit fingerprint: each row's first row with the same value,
 * folded in row order by a multiply-and-mix hash. Columns whose parts are the same have the same
 * fingerprint; different fingerprints always mean different parts (a collision only leaves the
 * check to SQL, as before). A batch whose rows are all distinct and not NULL is {@link #ALL_SINGLE}:
 * every such column parts it alike, and the check never compares a column that stays unique.
 */
final class BatchPartition {
    /** The fingerprint of rows that each hold their own value. */
    static final long ALL_SINGLE = Long.MIN_VALUE;

    private BatchPartition() {}

    /**
     * The fingerprint of {@code vector}'s parts over its first {@code rows} rows, {@link
     * #ALL_SINGLE}, or null for a vector whose values it does not read (not a bit vector, a
     * variable-width one, or a fixed-width one of at most eight bytes that is not floating point).
     */
    static Long of(ValueVector vector, int rows) {
        int[] firstRow = new int[rows];
        int firstNull = -1; // NULL is one value, as to SQL's DISTINCT
        int mask = Integer.highestOneBit(Math.max(2, rows) * 2) * 2 - 1; // at most a quarter full
        int[] slots = new int[mask + 1]; // a row + 1 whose value is the slot's, 0: empty
        if (vector instanceof BaseVariableWidthVector v) {
            ArrowBuf data = v.getDataBuffer();
            for (int r = 0; r < rows; r++) {
                if (v.isNull(r)) {
                    firstNull = firstNull < 0 ? r : firstNull;
                    firstRow[r] = firstNull;
                    continue;
                }
                long from = v.getStartOffset(r);
                long to = v.getEndOffset(r);
                int at = mix(SimpleHasher.INSTANCE.hashCode(data, from, to - from)) & mask;
                firstRow[r] = first(
                        slots,
                        mask,
                        at,
                        r,
                        q -> ByteFunctionHelpers.equal(data, v.getStartOffset(q), v.getEndOffset(q), data, from, to)
                                == 1);
            }
        } else if (vector instanceof BitVector v) {
            int[] first = {-1, -1};
            for (int r = 0; r < rows; r++) {
                if (v.isNull(r)) {
                    firstNull = firstNull < 0 ? r : firstNull;
                    firstRow[r] = firstNull;
                } else {
                    int bit = v.get(r);
                    first[bit] = first[bit] < 0 ? r : first[bit];
                    firstRow[r] = first[bit];
                }
            }
        } else if (vector instanceof BaseFixedWidthVector v
                && v.getTypeWidth() <= Long.BYTES
                && !(v instanceof FloatingPointVector)) { // -0.0 and 0.0: one value to SQL, two bit patterns
            return fixed(v, rows, firstRow, slots, mask);
        } else {
            return null;
        }
        return fold(firstRow);
    }

    /**
     * The fingerprint of a double column's parts ({@link ArrowRowBuilder}'s sidecars: the
     * doubles DuckDB spells as they were spelled, and beside them the text of the others; the
     * relation reads each value as its text), or null where a value is NaN (NaNs of other bits
     * are one text). A double's text is DuckDB's spelling of it, one text a double; a text goes
     * to one side or the other by its spelling alone: so equal texts are equal bits or equal
     * text beside, and a double and a text beside are never equal.
     */
    static Long ofDoubles(ValueVector doubles, ValueVector text, int rows) {
        if (!(doubles instanceof BaseFixedWidthVector v)
                || v.getTypeWidth() != Long.BYTES
                || !(text instanceof BaseVariableWidthVector t)) {
            return null;
        }
        int[] firstRow = new int[rows];
        int firstNull = -1;
        int mask = Integer.highestOneBit(Math.max(2, rows) * 2) * 2 - 1;
        int[] slots = new int[mask + 1];
        long[] keys = new long[rows];
        boolean[] spelled = new boolean[rows];
        ArrowBuf data = v.getDataBuffer();
        ArrowBuf chars = t.getDataBuffer();
        for (int r = 0; r < rows; r++) {
            if (!t.isNull(r)) {
                spelled[r] = true;
                long from = t.getStartOffset(r);
                long to = t.getEndOffset(r);
                int at = mix(~SimpleHasher.INSTANCE.hashCode(chars, from, to - from)) & mask;
                firstRow[r] = first(
                        slots,
                        mask,
                        at,
                        r,
                        q -> spelled[q]
                                && ByteFunctionHelpers.equal(
                                                chars, t.getStartOffset(q), t.getEndOffset(q), chars, from, to)
                                        == 1);
            } else if (!v.isNull(r)) {
                long bits = data.getLong((long) r * Long.BYTES);
                if (Double.isNaN(Double.longBitsToDouble(bits))) {
                    return null;
                }
                keys[r] = bits;
                firstRow[r] = first(
                        slots,
                        mask,
                        mix(Long.hashCode(bits * 0x9E3779B97F4A7C15L)) & mask,
                        r,
                        q -> !spelled[q] && keys[q] == bits);
            } else {
                firstNull = firstNull < 0 ? r : firstNull;
                firstRow[r] = firstNull;
            }
        }
        return fold(firstRow);
    }

    /** {@link #of} for a fixed-width vector of at most eight bytes, read by its bits. */
    private static Long fixed(BaseFixedWidthVector v, int rows, int[] firstRow, int[] slots, int mask) {
        int firstNull = -1;
        int width = v.getTypeWidth();
        ArrowBuf data = v.getDataBuffer();
        long[] keys = new long[rows];
        for (int r = 0; r < rows; r++) {
            if (v.isNull(r)) {
                firstNull = firstNull < 0 ? r : firstNull;
                firstRow[r] = firstNull;
                continue;
            }
            long bits = 0;
            long off = (long) r * width;
            for (int i = 0; i < width; i++) {
                bits |= (data.getByte(off + i) & 0xffL) << (8 * i);
            }
            keys[r] = bits;
            long key = bits;
            firstRow[r] =
                    first(slots, mask, mix(Long.hashCode(bits * 0x9E3779B97F4A7C15L)) & mask, r, q -> keys[q] == key);
        }
        return fold(firstRow);
    }

    /**
     * The first row whose value is row {@code r}'s, found from slot {@code at} on (linear
     * probing; {@code same} tells a row of the same value), or {@code r}, entered, when none is.
     */
    private static int first(int[] slots, int mask, int at, int r, IntPredicate same) {
        while (true) {
            int q = slots[at] - 1;
            if (q < 0) {
                slots[at] = r + 1;
                return r;
            }
            if (same.test(q)) {
                return q;
            }
            at = (at + 1) & mask;
        }
    }

    private static int mix(int h) {
        h *= 0x85EBCA6B;
        return h ^ (h >>> 16);
    }

    /** Every row's first row folded in order; {@link #ALL_SINGLE} when each row is its own. */
    static long fold(int[] firstRow) {
        long h = 0x9E3779B97F4A7C15L;
        boolean single = true;
        for (int r = 0; r < firstRow.length; r++) {
            single &= firstRow[r] == r;
            long x = (h ^ firstRow[r]) * 0xBF58476D1CE4E5B9L;
            h = x ^ (x >>> 31);
        }
        return single ? ALL_SINGLE : (h == ALL_SINGLE ? h + 1 : h);
    }
}

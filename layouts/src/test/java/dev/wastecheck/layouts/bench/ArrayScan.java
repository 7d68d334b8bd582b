package dev.wastecheck.layouts.bench;

/**
 * The Java ceiling for a one-field scan: ColumnScan's INT32 kernel (the PAX and HPL scans' inner
 * loop) over a plain {@code int[]} of the same values. Same range test (one unsigned comparison
 * done with arithmetic, no branch), same 64-value words with a constant trip count, same
 * selection bitmap and match count; only the storage differs (a contiguous array with one
 * bounds check per value, against values read two at a time out of a page's bytes).
 */
final class ArrayScan {
    private ArrayScan() {}

    /** Sets bit i of {@code sel} iff {@code c[i]} is in [lo, hi] (both inside the int range); returns the matches. */
    static long scan(int[] c, long lo, long hi, long[] sel) {
        int lo32 = (int) lo;
        long span1 = hi - lo + 1;
        long matches = 0;
        int full = c.length >>> 6;
        for (int w = 0; w < full; w++) {
            int first = w << 6;
            long bits = 0;
            for (int j = 0; j < 64; j++) bits |= ((Integer.toUnsignedLong(c[first + j] - lo32) - span1) >>> 63) << j;
            sel[w] = bits;
            matches += Long.bitCount(bits);
        }
        if ((full << 6) < c.length) {
            long bits = 0;
            for (int j = 0, first = full << 6; first + j < c.length; j++) {
                bits |= ((Integer.toUnsignedLong(c[first + j] - lo32) - span1) >>> 63) << j;
            }
            sel[full] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }
}

package dev.wastecheck.sources.load;

/**
 * Whether a FLOAT or DOUBLE value's text is the one DuckDB gives back from the double it parses
 * to, through {@link #TEXT}: then the column can go to DuckDB as 8-byte doubles and still be read
 * as its text, every value spelled as the dump spelled it. Equal texts then mean equal doubles
 * and different texts different doubles, so a count of distinct values, an estimate of it (which
 * hashes the text), a grouping or a value shown in a finding are the same as on the text itself.
 *
 * <p>DuckDB casts a double to text in its shortest form that parses back to it (of the shortest,
 * the nearest): fixed notation from 1e-4 up to below 1e16 ({@code 0.0001}, {@code 2400.0},
 * {@code 0.30000000000000004}), an exponent outside ({@code 1e-05}, {@code 1e+16}). {@link #TEXT}
 * writes a whole value below 1e15 as an integer ({@code 2400}, as MySQL and pandas write it), any
 * other through that cast. A spelling is taken when it is that text:
 *
 * <ul>
 *   <li>plain: an optional minus, no leading zero but a lone one before the point, no trailing
 *       zero after it, no exponent, not {@code -0} ({@link PlainNumber#canonical});
 *   <li>a whole value: at most 15 digits (so below 1e15 and exact in a double);
 *   <li>otherwise at least 1e-4 and below 1e15, not whole as a double, and the shortest text of
 *       its double: at most 15 significant digits always is (two decimals of at most 15 digits
 *       never parse to one double: DBL_DIG, C11 5.2.4.2.2), 16 or 17 when it is the nearest
 *       decimal of its length to the double and no decimal one digit shorter parses to it
 *       ({@link #shortest}); 18 and more never.
 * </ul>
 *
 * Anything else (an exponent, {@code 1.50}, {@code 1.0}, {@code -0}, {@code NaN}, 18 digits) is
 * kept as text beside the double: the loader's fallback, a value at a time.
 */
final class DoubleSpelling {
    private DoubleSpelling() {}

    /**
     * DuckDB's text of a double column {@code d} whose taken values {@link #rendered} vouches for,
     * its other values' text in {@code x} (NULL where the double holds the value).
     */
    static String text(String d, String x) {
        return "COALESCE(" + x + ", CASE WHEN " + d + " = trunc(" + d + ") THEN CAST(CAST(" + d
                + " AS BIGINT) AS VARCHAR) ELSE CAST(" + d + " AS VARCHAR) END)";
    }

    /** The text {@link #text} gives for a whole value: below this in magnitude. */
    static final double WHOLE_BELOW = 1e15;

    /** DuckDB's fixed notation starts here. */
    static final double FIXED_FROM = 1e-4;

    /**
     * Whether {@code n} (read, plain) spelled {@code d} (its correctly rounded double) as
     * {@link #text} gives {@code d} back.
     */
    static boolean rendered(PlainNumber n, double d) {
        if (!n.plain || !n.canonical()) {
            return false;
        }
        double a = Math.abs(d);
        if (n.fracDigits == 0) {
            return n.intDigits <= 15;
        }
        // the digits as one long below 10^18 (a lone zero before the point is none of them)
        int digits = n.significantIntDigits == 0 ? n.fracDigits : n.intDigits + n.fracDigits;
        if (a < FIXED_FROM || a >= WHOLE_BELOW || d == Math.rint(d) || digits > 18) {
            return false;
        }
        int significant;
        if (n.significantIntDigits > 0) {
            significant = n.significantIntDigits + n.fracDigits;
        } else {
            significant = digits(n.fraction);
        }
        if (significant <= 15) {
            return true;
        }
        if (significant > 17) {
            return false;
        }
        long m = n.whole * PlainNumber.POW10[n.fracDigits] + n.fraction;
        return shortest(m, n.fracDigits, Double.doubleToRawLongBits(a));
    }

    /** The decimal digits of {@code v > 0}. */
    private static int digits(long v) {
        int k = 1;
        while (k < 19 && v >= PlainNumber.POW10[k]) {
            k++;
        }
        return k;
    }

    /**
     * Whether {@code m / 10^s} ({@code m} below 10^18, not a multiple of 10, {@code s >= 1}) is the
     * shortest decimal that parses to the positive normal double of {@code bits}, and of that
     * length the nearest to it. With {@code d = f * 2^-t} ({@code f} its 53-bit significand): the
     * nearest of its length when {@code |m * 2^t - f * 10^s| < 2^(t-1)} (half a unit of its last
     * digit; a tie is refused); none a digit shorter parses to it when neither {@code L = m / 10}
     * nor {@code L + 1}, the two at one digit fewer around it, lies within half a unit of
     * {@code d}'s last bit: {@code |L * 2^(t+1) - 2f * 10^(s-1)| <= 10^(s-1)} refuses (the wider
     * half of a power of two's interval taken on both sides, and its ends, so a doubt refuses).
     * A shorter decimal inside the interval would bring L or L + 1 into it, as the interval is
     * one piece around {@code d} and those two are the nearest on each side. All of it in 128-bit
     * integers: {@code t} is at most 66 for doubles from 1e-4, {@code m * 2^(t+1)} below 2^127.
     */
    static boolean shortest(long m, int s, long bits) {
        int exp = (int) (bits >>> 52) & 0x7ff;
        if (exp == 0 || exp == 0x7ff) {
            return false;
        }
        long f = (bits & ((1L << 52) - 1)) | (1L << 52);
        int t = 1075 - exp; // d = f * 2^-t
        if (t < 2 || t > 66 || s < 1 || s > 18) {
            return false;
        }
        // nearest of its length: |m * 2^t - f * 10^s| < 2^(t-1)
        long p = PlainNumber.POW10[s];
        long yLo = f * p;
        long yHi = Math.multiplyHigh(f, p); // both below 2^63: the signed high word is the unsigned one
        if (!below(m, t, yHi, yLo, t - 1, false)) {
            return false;
        }
        // none a digit shorter: for L and L + 1, |L * 2^(t+1) - 2f * 10^(s-1)| > 10^(s-1)
        long q = PlainNumber.POW10[s - 1];
        long zLo = (2 * f) * q;
        long zHi = Math.multiplyHigh(2 * f, q);
        long l = m / 10;
        return !within(l, t + 1, zHi, zLo, q) && !within(l + 1, t + 1, zHi, zLo, q);
    }

    /** Whether {@code |x * 2^shift - (yHi:yLo)| < 2^bound} (a power of two below 2^127). */
    private static boolean below(long x, int shift, long yHi, long yLo, int bound, boolean orEqual) {
        // |x * 2^shift - y| in two words, high first (x >= 0, 0 < shift < 128)
        long xHi = shift >= 64 ? x << (shift - 64) : x >>> (64 - shift);
        long xLo = shift >= 64 ? 0 : x << shift;
        long lo = xLo - yLo;
        long hi = xHi - yHi - (Long.compareUnsigned(xLo, yLo) < 0 ? 1 : 0);
        if (hi < 0) { // the 128-bit negation
            lo = -lo;
            hi = ~hi + (lo == 0 ? 1 : 0);
        }
        long bHi = bound >= 64 ? 1L << (bound - 64) : 0;
        long bLo = bound >= 64 ? 0 : 1L << bound;
        int c = hi != bHi ? Long.compareUnsigned(hi, bHi) : Long.compareUnsigned(lo, bLo);
        return orEqual ? c <= 0 : c < 0;
    }

    /** Whether {@code |x * 2^shift - (yHi:yLo)| <= bound} ({@code bound >= 0}, one word). */
    private static boolean within(long x, int shift, long yHi, long yLo, long bound) {
        long xHi = shift >= 64 ? x << (shift - 64) : x >>> (64 - shift);
        long xLo = shift >= 64 ? 0 : x << shift;
        long lo = xLo - yLo;
        long hi = xHi - yHi - (Long.compareUnsigned(xLo, yLo) < 0 ? 1 : 0);
        if (hi < 0) {
            lo = -lo;
            hi = ~hi + (lo == 0 ? 1 : 0);
        }
        return hi == 0 && Long.compareUnsigned(lo, bound) <= 0;
    }
}

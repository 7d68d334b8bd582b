package dev.wastecheck.sources.load;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * One value's text read once as a plain number, {@code -?D+(.D+)?} with an optional exponent
 * {@code [eE][+-]?D+}, for everything the loader asks of a number's text: the declared DECIMAL's
 * range ({@link DeclaredRange}), and the facts of DECIMAL, FLOAT, DOUBLE and integer text
 * ({@link ColumnFacts}). Anything else (spaces, a sign {@code +}, {@code NaN}, {@code inf},
 * hexadecimal) is not plain: {@link #read} returns false and each reader takes its slow path.
 *
 * <p>Mutable and reused: the filler reads a column's values into one instance, one at a time.
 */
final class PlainNumber {
    static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** Exact powers of ten as doubles (10^22 is the last exactly representable). */
    private static final double[] DOUBLE_POW10 = new double[23];

    static {
        for (int i = 0; i < DOUBLE_POW10.length; i++) {
            DOUBLE_POW10[i] = Double.parseDouble("1e" + i);
        }
    }

    /*
     * Up to eight digits a step. A run of digits is read as one little-endian word, the first
     * digit in its lowest byte, each byte XORed with '0' (a digit becomes 0-9, any other byte
     * 10 or more, or has its top bit):
     *
     *   byte:     0    1    2    3    4    5    6    7
     *   "1234.5": 0x01 0x02 0x03 0x04 0x1e 0x05 ...        low (the first byte 10 or more): byte 4, n = 4
     *   << 8*(8-n): 0    0    0    0  0x01 0x02 0x03 0x04   the n digits in the top bytes, zeros below them
     *   *10 + >>>8:  each byte k = 10*d(k) + d(k+1): the pairs in bytes 0, 2, 4, 6
     *   pairs 0, 4 times 100 + 10^6 << 32 and pairs 2, 6 times 1 + 10^4 << 32, summed, >>> 32:
     *             the eight digits' number (here 00001234)
     *
     * n, the digits before the first byte that is none, is counted without a call
     * (Long.numberOfTrailingZeros is one under C1): the lowest top bit set, moved to its byte's
     * bottom, less one, is n bytes of ones, summed by one multiply into the top byte (8 when no
     * byte stops the run). A byte 0x8a or more carries into the byte above it in x + NOT_DIGIT,
     * but has its own top bit set, so the lowest stop is found all the same. The three
     * multiplications are the technique D. Lemire describes ("SWAR explained: parsing eight
     * digits", lemire.me, 2022-01-21); the reader finds a number's end the same way
     * (SqlScriptReader.nextTupleInto).
     */
    static final boolean LITTLE = MemoryUtil.LITTLE_ENDIAN;
    static final long ZEROS = 0x3030303030303030L;
    static final long NOT_DIGIT = 0x7676767676767676L;
    static final long HIGH_BITS = 0x8080808080808080L;
    static final long ONES = 0x0101010101010101L;
    static final long PAIRS = 0x000000FF000000FFL;
    static final long PAIRS_HIGH = 100 + (1_000_000L << 32);
    static final long PAIRS_LOW = 1 + (10_000L << 32);

    /** What the last {@link #read} returned. */
    boolean plain;

    boolean negative;
    /** Digits before the point, leading zeros included. */
    int intDigits;
    /** Digits before the point without leading zeros (0 for {@code 0.5}). */
    int significantIntDigits;
    /** Digits after the point, trailing zeros included. */
    int fracDigits;
    /** Digits after the point up to the last that is not zero. */
    int scale;
    /** Whether an exponent follows. */
    boolean exponent;
    /** The whole part, when {@link #intDigits} is at most 18. */
    long whole;
    /** The digits after the point as an integer, when {@link #fracDigits} is at most 18. */
    long fraction;

    private byte[] b;
    private int off;
    private int len;

    /** Reads {@code b[off, off+len)}; false when it is not a plain number. */
    boolean read(byte[] b, int off, int len) {
        parsed = false;
        plain = parse(b, off, len);
        return plain;
    }

    private boolean parse(byte[] b, int off, int len) {
        if (this.b != b) {
            // stored only when it changes (once a chunk): this object outlives the young
            // collections and the array does not, so each store took G1's card-marking slow
            // path, a fence and a call under C1 (2.3% of the filler's samples, orders at 100 MB)
            this.b = b;
        }
        this.off = off;
        this.len = len;
        int i = off;
        int end = off + len;
        negative = i < end && b[i] == '-';
        if (negative) {
            i++;
        }
        int start = i;
        long w = 0;
        while (LITTLE && i < end && i + 8 <= b.length) {
            // up to eight digits a step (digitRun, written out here: C1 inlines no call of its size)
            long x = MemoryUtil.getLong(b, i) ^ ZEROS;
            long low = ((x + NOT_DIGIT) | x) & HIGH_BITS;
            int n = (int) (((((low & -low) >>> 7) - 1) & ONES) * ONES >>> 56);
            n = Math.min(n, end - i);
            if (n == 0) {
                break;
            }
            x <<= (8 - n) << 3;
            x = x * 10 + (x >>> 8);
            x = ((x & PAIRS) * PAIRS_HIGH + ((x >>> 16) & PAIRS) * PAIRS_LOW) >>> 32;
            w = w * POW10[n] + x; // wraps past 18 digits: then not used
            i += n;
            if (n < 8) {
                break;
            }
        }
        for (; i < end; i++) { // the digits the words did not take: near the array's end
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            w = w * 10 + d; // wraps past 18 digits: then not used
        }
        intDigits = i - start;
        if (intDigits == 0) {
            return false;
        }
        // the leading zeros counted once after the digits, not tested at each digit
        int firstSignificant = start;
        while (firstSignificant < i && b[firstSignificant] == '0') {
            firstSignificant++;
        }
        significantIntDigits = i - firstSignificant;
        whole = w;
        fracDigits = 0;
        scale = 0;
        fraction = 0;
        exponent = false;
        if (i < end && b[i] == '.') {
            i++;
            int fracStart = i;
            long f = 0;
            while (LITTLE && i < end && i + 8 <= b.length) { // as the whole part's
                long x = MemoryUtil.getLong(b, i) ^ ZEROS;
                long low = ((x + NOT_DIGIT) | x) & HIGH_BITS;
                int n = (int) (((((low & -low) >>> 7) - 1) & ONES) * ONES >>> 56);
                n = Math.min(n, end - i);
                if (n == 0) {
                    break;
                }
                x <<= (8 - n) << 3;
                x = x * 10 + (x >>> 8);
                x = ((x & PAIRS) * PAIRS_HIGH + ((x >>> 16) & PAIRS) * PAIRS_LOW) >>> 32;
                f = f * POW10[n] + x;
                i += n;
                if (n < 8) {
                    break;
                }
            }
            for (; i < end; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                f = f * 10 + d;
            }
            fracDigits = i - fracStart;
            if (fracDigits == 0) {
                return false; // "1." is not plain
            }
            int lastSignificant = i; // the trailing zeros, counted back once
            while (lastSignificant > fracStart && b[lastSignificant - 1] == '0') {
                lastSignificant--;
            }
            scale = lastSignificant - fracStart;
            fraction = f;
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int expStart = i;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == expStart) {
                return false;
            }
            exponent = true;
        }
        return i == end;
    }

    /** Whether the value is zero (all its digits are, before any exponent). */
    boolean zero() {
        return significantIntDigits == 0 && scale == 0;
    }

    /**
     * The value as a double, as a correctly rounded parse gives it (DuckDB's cast, Java's
     * {@link Double#parseDouble}): exactly a quotient of two exact doubles where the digits fit
     * 53 bits and the power of ten is exact (Clinger's fast path), else through FastDoubleParser
     * (Eisel-Lemire, the same correctly rounded double as {@link Double#parseDouble}, without a
     * String: the 17-digit doubles pandas writes took 10% of the loader in {@code parseDouble}).
     */
    double toDouble() {
        if (parsed) {
            return value;
        }
        double d;
        if (!exponent && intDigits + fracDigits <= 18 && whole * POW10[fracDigits] + fraction < (1L << 53)) {
            d = (double) (whole * POW10[fracDigits] + fraction) / DOUBLE_POW10[fracDigits];
            d = negative ? -d : d;
        } else {
            d = JavaDoubleParser.parseDouble(b, off, len);
        }
        value = d;
        parsed = true;
        return d;
    }

    /** Whether {@link #value} holds this value's double (the loader asks twice: the Arrow write and the facts). */
    private boolean parsed;

    private double value;

    /** Whether this is the only spelling of its value: no leading zero, no trailing zero after the point, no -0. */
    boolean canonical() {
        return !exponent
                && (intDigits == 1 || significantIntDigits == intDigits)
                && scale == fracDigits
                && !(negative && zero());
    }
}

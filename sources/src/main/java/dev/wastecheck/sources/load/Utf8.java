package dev.wastecheck.sources.load;

import java.nio.ByteOrder;
import org.apache.arrow.memory.util.MemoryUtil;

/** UTF-8 validation without allocating (DuckDB rejects invalid UTF-8 in VARCHAR). */
final class Utf8 {
    private Utf8() {}

    static boolean isValid(byte[] b, int off, int len) {
        return chars(b, off, len) >= 0;
    }

    /**
     * The characters (code points) of valid UTF-8 in {@code b[off, off+len)}, or -1 when it is not
     * valid UTF-8: the check and the count of {@link ColumnFacts}' longest value in one pass, eight
     * bytes a word (a value's last bytes in a word of their own, zero-padded). Each byte of a word
     * is classed by its high bits at once (SWAR: a mask with bit 7 of each byte):
     *
     * <pre>
     *   0xxxxxxx ASCII     10xxxxxx continuation     110xxxxx 1110xxxx 11110xxx lead of 2, 3, 4
     *   11111xxx, C0, C1, F5-F7: never in UTF-8
     * </pre>
     *
     * The word is valid where the continuations are exactly the bytes the leads before them call
     * for (each lead marks the next one, two or three bytes, carried into the next word past its
     * end), and where the byte after an E0, ED, F0 or F4 is in its range (RFC 3629, 4: A0-BF after
     * E0, not an overlong form; 80-9F after ED, not a surrogate; 90-BF after F0; 80-8F after F4, at
     * most U+10FFFF). The count is the length less the continuations. The text shape's values, a
     * multi-byte character every few bytes, took a third of the run's CPU in the loop this
     * replaces, which stepped a character at a time between words of
     * ASCII (docs/benchmarks.md, issue 32).
     */
    static int chars(byte[] b, int off, int len) {
        int end = off + len;
        if (off < 0 || end > b.length || len < 0) {
            throw new IndexOutOfBoundsException(off + "+" + len + " in " + b.length);
        }
        int i = off;
        int continuations = 0;
        long carried = 0; // continuations the last word's leads call for in this word's first bytes
        long afterE0 = 0, afterED = 0, afterF0 = 0, afterF4 = 0; // the same for a last byte E0, ED, F0, F4
        while (i < end) {
            long w;
            if (i + 8 <= end) {
                w = MemoryUtil.getLong(b, i);
                if (!LITTLE_ENDIAN) {
                    w = Long.reverseBytes(w);
                }
                i += 8;
            } else {
                w = 0;
                for (int k = 0; i < end; k += 8) {
                    w |= (b[i++] & 0xffL) << k;
                }
            }
            long hi = w & HIGH;
            if (hi == 0) {
                if (carried != 0) {
                    return -1; // a lead's continuation is missing
                }
                continue;
            }
            long b6 = (w << 1) & HIGH; // bit k of each byte, moved to its bit 7
            long b5 = (w << 2) & HIGH;
            long b4 = (w << 3) & HIGH;
            long b3 = (w << 4) & HIGH;
            long b2 = (w << 5) & HIGH;
            long b1 = (w << 6) & HIGH;
            long b0 = (w << 7) & HIGH;
            long cont = hi & ~b6;
            long lead = hi & b6;
            long lead2 = lead & ~b5;
            long lead3 = lead & b5 & ~b4;
            long lead4 = lead & b5 & b4 & ~b3;
            long bad = (lead & b5 & b4 & b3) // F8-FF
                    | (lead2 & ~(b4 | b3 | b2 | b1)) // C0, C1
                    | (lead4 & b2 & (b1 | b0)); // F5-F7
            long any = lead2 | lead3 | lead4;
            long long3 = lead3 | lead4;
            if (bad != 0 || (carried | any << 8 | long3 << 16 | lead4 << 24) != cont) {
                return -1;
            }
            carried = any >>> 56 | long3 >>> 48 | lead4 >>> 40;
            long low0 = ~(b2 | b1 | b0);
            long e0 = lead3 & ~b3 & low0;
            long ed = lead3 & b3 & b2 & ~b1 & b0;
            long f0 = lead4 & low0;
            long f4 = lead4 & b2 & ~b1 & ~b0;
            if (((afterE0 | e0 << 8) & ~b5) != 0
                    || ((afterED | ed << 8) & b5) != 0
                    || ((afterF0 | f0 << 8) & ~(b5 | b4)) != 0
                    || ((afterF4 | f4 << 8) & (b5 | b4)) != 0) {
                return -1;
            }
            afterE0 = e0 >>> 56;
            afterED = ed >>> 56;
            afterF0 = f0 >>> 56;
            afterF4 = f4 >>> 56;
            continuations += (int) (((cont >>> 7) * 0x0101010101010101L) >>> 56);
        }
        return carried != 0 ? -1 : len - continuations;
    }

    /** Bit 7 of each byte of a word. */
    private static final long HIGH = 0x8080808080808080L;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
}

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
     * valid UTF-8: the check and the count of {@link ColumnFacts}' longest value in one pass.
     *
     * <p>The check is a DFA of RFC 3629's grammar run a byte at a time, in the shift-based form
     * (Per Vognsen's): each state is a shift of 6 bits, and a byte's row in {@link #ROWS} holds, at
     * bits {@code [s, s+6)}, the state that follows state {@code s} on that byte, so one step is
     * {@code s = ROWS[byte] >>> s}: one load that depends on the byte alone and one shift on the
     * chain from byte to byte, no branch (Java's {@code >>>} takes the shift's low six bits, so
     * the rows' other bits that a step leaves above them never matter). The error state is 0 (its
     * bits are 0 in every row: once there, always there), accepting is 6. Nine states:
     *
     * <pre>
     *   0 ERR     6 ACC (between characters)     12 one continuation to go   18 two to go
     *  24 after E0 (A0-BF, then one)    30 after ED (80-9F: no surrogate, then one)
     *  36 three to go    42 after F0 (90-BF, then two)    48 after F4 (80-8F: at most U+10FFFF, then two)
     * </pre>
     *
     * The count is the length less the continuations (10xxxxxx), a popcount a word. Words are read
     * eight bytes at a time and stepped by their bytes; where 32 bytes in a row (or, in a value
     * shorter than 32 bytes, a word) are ASCII and the DFA is between characters, they are skipped
     * at once. Against the SWAR classes of bytes this replaces, in one JVM ({@code Utf8Benchmark},
     * docs/benchmarks.md, issue 32): 0.77x the time on the text shape's values (a multi-byte
     * character every few bytes), 0.19x on English text with an accent every hundred words, 0.86x
     * on short values.
     */
    static int chars(byte[] b, int off, int len) {
        int end = off + len;
        if (off < 0 || end > b.length || len < 0) {
            throw new IndexOutOfBoundsException(off + "+" + len + " in " + b.length);
        }
        long s = ACC;
        int continuations = 0;
        int i = off;
        if (len >= 32) {
            for (; i + 32 <= end; i += 32) {
                long w0 = word(b, i);
                long w1 = word(b, i + 8);
                long w2 = word(b, i + 16);
                long w3 = word(b, i + 24);
                if (((w0 | w1 | w2 | w3) & HIGH) == 0) {
                    if ((s & 63) != ACC) {
                        return -1; // ASCII where a continuation was due
                    }
                    continue;
                }
                continuations += Long.bitCount(w0 & ~(w0 << 1) & HIGH)
                        + Long.bitCount(w1 & ~(w1 << 1) & HIGH)
                        + Long.bitCount(w2 & ~(w2 << 1) & HIGH)
                        + Long.bitCount(w3 & ~(w3 << 1) & HIGH);
                s = step(step(step(step(s, w0), w1), w2), w3);
            }
            for (; i + 8 <= end; i += 8) {
                long w = word(b, i);
                continuations += Long.bitCount(w & ~(w << 1) & HIGH);
                s = step(s, w);
            }
        } else {
            for (; i + 8 <= end; i += 8) {
                long w = word(b, i);
                long hi = w & HIGH;
                if (hi == 0) {
                    if ((s & 63) != ACC) {
                        return -1;
                    }
                    continue;
                }
                continuations += Long.bitCount(hi & ~(w << 1));
                s = step(s, w);
            }
        }
        for (; i < end; i++) {
            int x = b[i];
            s = ROWS[x & 0xff] >>> s;
            continuations += (x >> 6) == -2 ? 1 : 0;
        }
        return (s & 63) == ACC ? len - continuations : -1;
    }

    /** Eight bytes from {@code i}, the first in the low byte. */
    private static long word(byte[] b, int i) {
        long w = MemoryUtil.getLong(b, i);
        return LITTLE_ENDIAN ? w : Long.reverseBytes(w);
    }

    /** The DFA after the eight bytes of {@code w}, low byte first, from state {@code s}. */
    private static long step(long s, long w) {
        s = ROWS[(int) w & 0xff] >>> s;
        s = ROWS[(int) (w >>> 8) & 0xff] >>> s;
        s = ROWS[(int) (w >>> 16) & 0xff] >>> s;
        s = ROWS[(int) (w >>> 24) & 0xff] >>> s;
        s = ROWS[(int) (w >>> 32) & 0xff] >>> s;
        s = ROWS[(int) (w >>> 40) & 0xff] >>> s;
        s = ROWS[(int) (w >>> 48) & 0xff] >>> s;
        return ROWS[(int) (w >>> 56)] >>> s;
    }

    private static final int ERR = 0;
    private static final int ACC = 6;
    private static final int ONE = 12;
    private static final int TWO = 18;
    private static final int AFTER_E0 = 24;
    private static final int AFTER_ED = 30;
    private static final int THREE = 36;
    private static final int AFTER_F0 = 42;
    private static final int AFTER_F4 = 48;

    /** Per byte, the state after it from each state (at the state's bits); see {@link #chars}. */
    private static final long[] ROWS = new long[256];

    static {
        for (int x = 0; x < 256; x++) {
            long[] next; // pairs: from, to
            if (x < 0x80) {
                next = new long[] {ACC, ACC};
            } else if (x < 0x90) {
                next = new long[] {ONE, ACC, TWO, ONE, AFTER_ED, ONE, THREE, TWO, AFTER_F4, TWO};
            } else if (x < 0xa0) {
                next = new long[] {ONE, ACC, TWO, ONE, AFTER_ED, ONE, THREE, TWO, AFTER_F0, TWO};
            } else if (x < 0xc0) {
                next = new long[] {ONE, ACC, TWO, ONE, AFTER_E0, ONE, THREE, TWO, AFTER_F0, TWO};
            } else if (x < 0xc2) {
                next = new long[0]; // C0, C1: overlong
            } else if (x < 0xe0) {
                next = new long[] {ACC, ONE};
            } else if (x == 0xe0) {
                next = new long[] {ACC, AFTER_E0};
            } else if (x == 0xed) {
                next = new long[] {ACC, AFTER_ED};
            } else if (x < 0xf0) {
                next = new long[] {ACC, TWO};
            } else if (x == 0xf0) {
                next = new long[] {ACC, AFTER_F0};
            } else if (x < 0xf4) {
                next = new long[] {ACC, THREE};
            } else if (x == 0xf4) {
                next = new long[] {ACC, AFTER_F4};
            } else {
                next = new long[0]; // F5-FF
            }
            long row = ERR; // at bits [0, 6): from the error state to itself on every byte
            for (int k = 0; k < next.length; k += 2) {
                row |= next[k + 1] << next[k];
            }
            ROWS[x] = row;
        }
    }

    /** Bit 7 of each byte of a word. */
    private static final long HIGH = 0x8080808080808080L;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
}

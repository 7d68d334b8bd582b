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
     * valid UTF-8: the check and the count of {@link ColumnFacts}' longest value in one pass. Runs
     * of ASCII are skipped eight bytes a word, also between multi-byte characters (text in most
     * languages mixes them), and the ASCII before a word's first high byte in one step. The word is
     * read by {@link MemoryUtil#getLong(byte[], long)}, one load under C1, where a byte-array
     * {@code VarHandle} is a chain of calls C1 does not inline.
     */
    static int chars(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        if (off < 0 || end > b.length || len < 0) {
            throw new IndexOutOfBoundsException(off + "+" + len + " in " + b.length);
        }
        int continuation = 0; // the bytes after a multi-byte character's first: len less these is the count
        while (i < end) {
            if (i + 8 <= end) {
                long high = MemoryUtil.getLong(b, i) & 0x8080808080808080L;
                if (high == 0) {
                    i += 8;
                    continue;
                }
                // the ASCII bytes before the word's first high byte, in one step
                i += LITTLE_ENDIAN ? lowestHighByte(high) : Long.numberOfLeadingZeros(high) >>> 3;
            }
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            // RFC 3629, 4: the second byte's range excludes overlong forms (E0, F0), surrogates
            // (ED) and code points past U+10FFFF (F4); C0, C1 and F5-FF never lead
            c &= 0xff;
            if (c < 0xc2) {
                return -1;
            }
            if (c < 0xe0) {
                if (i + 1 >= end || (b[i + 1] & 0xc0) != 0x80) {
                    return -1;
                }
                i += 2;
                continuation++;
                continue;
            }
            if (c < 0xf0) {
                if (i + 2 >= end) {
                    return -1;
                }
                int c1 = b[i + 1] & 0xff;
                if ((c1 & 0xc0) != 0x80
                        || (b[i + 2] & 0xc0) != 0x80
                        || c == 0xe0 && c1 < 0xa0
                        || c == 0xed && c1 >= 0xa0) {
                    return -1;
                }
                i += 3;
                continuation += 2;
                continue;
            }
            if (c > 0xf4 || i + 3 >= end) {
                return -1;
            }
            int c1 = b[i + 1] & 0xff;
            if ((c1 & 0xc0) != 0x80
                    || (b[i + 2] & 0xc0) != 0x80
                    || (b[i + 3] & 0xc0) != 0x80
                    || c == 0xf0 && c1 < 0x90
                    || c == 0xf4 && c1 >= 0x90) {
                return -1;
            }
            i += 4;
            continuation += 3;
        }
        return len - continuation;
    }

    /**
     * The index (0-7) of the lowest byte whose high bit {@code high} holds ({@code high}: bits 7,
     * 15, ..., 63 only, at least one set): {@code Long.numberOfTrailingZeros(high) / 8} without the
     * call, which C1 (the compiler of the runs below the launcher's line) does not make an
     * instruction: the text shape's one multi-byte character every ten bytes or so made it 30% of
     * the filler's samples. The lowest bit set, moved to bit {@code 8k}, times a word whose byte
     * {@code 7 - j} is {@code j}, leaves {@code k} in the top byte.
     */
    static int lowestHighByte(long high) {
        return (int) ((((high & -high) >>> 7) * 0x0001020304050607L) >>> 56);
    }

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
}

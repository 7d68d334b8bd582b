package dev.wastecheck.sources.load;

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
     * languages mixes them), the word read by {@link MemoryUtil#getLong(byte[], long)}, one load
     * under C1, where a byte-array {@code VarHandle} is a chain of calls C1 does not inline.
     */
    static int chars(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        if (off < 0 || end > b.length || len < 0) {
            throw new IndexOutOfBoundsException(off + "+" + len + " in " + b.length);
        }
        int continuation = 0; // the bytes after a multi-byte character's first: len less these is the count
        while (i < end) {
            while (i + 8 <= end && (MemoryUtil.getLong(b, i) & 0x8080808080808080L) == 0) {
                i += 8;
            }
            if (i == end) {
                break;
            }
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            c &= 0xff;
            int n;
            int min;
            if (c >= 0xc2 && c <= 0xdf) {
                n = 1;
                min = 0x80;
            } else if (c >= 0xe0 && c <= 0xef) {
                n = 2;
                min = 0x800;
            } else if (c >= 0xf0 && c <= 0xf4) {
                n = 3;
                min = 0x10000;
            } else {
                return -1;
            }
            if (i + n >= end) { // the sequence runs past the value (its last byte is at i + n)
                return -1;
            }
            int cp = c & (0x3f >> n);
            for (int k = 1; k <= n; k++) {
                int cc = b[i + k] & 0xff;
                if ((cc & 0xc0) != 0x80) {
                    return -1;
                }
                cp = (cp << 6) | (cc & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                return -1;
            }
            i += n + 1;
            continuation += n;
        }
        return len - continuation;
    }
}

package dev.wastecheck.sources.load;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** UTF-8 validation without allocating (DuckDB rejects invalid UTF-8 in VARCHAR). */
final class Utf8 {
    private Utf8() {}

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static boolean isValid(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        // Most dump text is ASCII: check eight bytes at a time for a high bit.
        while (i + 8 <= end && ((long) LONGS.get(b, i) & 0x8080808080808080L) == 0) {
            i += 8;
        }
        while (i < end) {
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
                return false;
            }
            if (i + n >= end + 1) {
                return false;
            }
            int cp = c & (0x3f >> n);
            for (int k = 1; k <= n; k++) {
                int cc = b[i + k] & 0xff;
                if ((cc & 0xc0) != 0x80) {
                    return false;
                }
                cp = (cp << 6) | (cc & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                return false;
            }
            i += n + 1;
        }
        return true;
    }
}

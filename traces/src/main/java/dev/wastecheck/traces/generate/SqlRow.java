package dev.wastecheck.traces.generate;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One row of an extended INSERT, encoded straight into bytes as mysqldump prints it: numbers bare,
 * strings single-quoted with MySQL's backslash escapes ({@code \0 \n \r \\ \' \" \Z}), NULL bare.
 * Reused for every row, so writing a row allocates nothing.
 */
final class SqlRow {
    byte[] buf = new byte[1 << 16];
    int len;
    private boolean first;

    SqlRow begin() {
        len = 0;
        first = true;
        put((byte) '(');
        return this;
    }

    SqlRow end() {
        put((byte) ')');
        return this;
    }

    private void sep() {
        if (!first) {
            put((byte) ',');
        }
        first = false;
    }

    SqlRow num(long v) {
        sep();
        if (v == Long.MIN_VALUE) {
            ascii(Long.toString(v));
            return this;
        }
        if (v < 0) {
            put((byte) '-');
            v = -v;
        }
        ensure(20);
        int start = len;
        do {
            buf[len++] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v != 0);
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
        return this;
    }

    /** A value printed verbatim (a double already formatted). */
    SqlRow raw(String s) {
        sep();
        ascii(s);
        return this;
    }

    SqlRow nul() {
        sep();
        ascii("NULL");
        return this;
    }

    SqlRow str(String s) {
        return str(s.getBytes(StandardCharsets.UTF_8), 0, -1);
    }

    SqlRow str(byte[] b, int off, int n) {
        sep();
        if (n < 0) {
            n = b.length - off;
        }
        ensure(2 * n + 2);
        buf[len++] = '\'';
        escapeInto(b, off, n);
        buf[len++] = '\'';
        return this;
    }

    /** A string value of {@code n} bytes taken cyclically from {@code corpus} at {@code off}. */
    SqlRow strCyclic(byte[] corpus, int off, int n) {
        sep();
        ensure(2 * n + 2);
        buf[len++] = '\'';
        while (n > 0) {
            int take = Math.min(n, corpus.length - off);
            escapeInto(corpus, off, take);
            n -= take;
            off = 0;
        }
        buf[len++] = '\'';
        return this;
    }

    private void escapeInto(byte[] b, int off, int n) {
        byte[] d = buf;
        int p = len;
        for (int i = off, end = off + n; i < end; i++) {
            byte c = b[i];
            switch (c) {
                case 0 -> {
                    d[p++] = '\\';
                    d[p++] = '0';
                }
                case '\n' -> {
                    d[p++] = '\\';
                    d[p++] = 'n';
                }
                case '\r' -> {
                    d[p++] = '\\';
                    d[p++] = 'r';
                }
                case '\\' -> {
                    d[p++] = '\\';
                    d[p++] = '\\';
                }
                case '\'' -> {
                    d[p++] = '\\';
                    d[p++] = '\'';
                }
                case '"' -> {
                    d[p++] = '\\';
                    d[p++] = '"';
                }
                case 0x1A -> {
                    d[p++] = '\\';
                    d[p++] = 'Z';
                }
                default -> d[p++] = c;
            }
        }
        len = p;
    }

    private void ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
    }

    private void put(byte b) {
        ensure(1);
        buf[len++] = b;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more + 1024));
        }
    }

    /** The SQL text of a single string literal, escaped the same way (for trace statements). */
    static void appendLiteral(StringBuilder sb, String s) {
        sb.append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case 0 -> sb.append("\\0");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case '"' -> sb.append("\\\"");
                case 0x1A -> sb.append("\\Z");
                default -> sb.append(c);
            }
        }
        sb.append('\'');
    }
}

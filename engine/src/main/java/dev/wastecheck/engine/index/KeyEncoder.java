package dev.wastecheck.engine.index;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Encodes (composite) key values as byte strings whose unsigned lexicographic order is the
 * order of the values, so that the B+tree compares every key type with one memcmp-style
 * compare and its poor man's normalized key prefix ({@link BTreePage}) is simply the first
 * bytes of the encoding.
 *
 * <ul>
 *   <li>int, long: big-endian with the sign bit flipped (4 / 8 bytes).</li>
 *   <li>string: UTF-8 (whose byte order is code-point order), each 0x00 escaped as 0x00 0xFF,
 *       then the terminator 0x00 0x01, so "ab" sorts before "ab\0" and before "abc", and a
 *       following component cannot bleed into the string's order.</li>
 * </ul>
 * A reusable builder: {@link #reset()}, append components, then {@link #toBytes()}.
 */
public final class KeyEncoder {
    private byte[] buf = new byte[32];
    private int len;

    public KeyEncoder reset() {
        len = 0;
        return this;
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }

    public KeyEncoder appendInt(int v) {
        ensure(4);
        int x = v ^ Integer.MIN_VALUE;
        buf[len++] = (byte) (x >>> 24);
        buf[len++] = (byte) (x >>> 16);
        buf[len++] = (byte) (x >>> 8);
        buf[len++] = (byte) x;
        return this;
    }

    public KeyEncoder appendLong(long v) {
        ensure(8);
        long x = v ^ Long.MIN_VALUE;
        for (int s = 56; s >= 0; s -= 8) buf[len++] = (byte) (x >>> s);
        return this;
    }

    public KeyEncoder appendString(String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        ensure(u.length * 2 + 2);
        for (byte c : u) {
            buf[len++] = c;
            if (c == 0) buf[len++] = (byte) 0xFF;
        }
        buf[len++] = 0;
        buf[len++] = 1;
        return this;
    }

    /**
     * A signed integer in {@code width} bytes (1, 2, 4 or 8): big-endian with the sign bit
     * flipped, so a narrower field type makes a narrower key. The caller checks that the value fits.
     */
    public KeyEncoder appendSigned(long v, int width) {
        ensure(width);
        long x = v ^ (1L << (8 * width - 1));
        for (int s = 8 * (width - 1); s >= 0; s -= 8) buf[len++] = (byte) (x >>> s);
        return this;
    }

    /**
     * An unsigned integer in {@code width} bytes (1, 2 or 4): big-endian as it is, since unsigned
     * order is byte order. The caller checks that the value fits.
     */
    public KeyEncoder appendUnsigned(long v, int width) {
        ensure(width);
        for (int s = 8 * (width - 1); s >= 0; s -= 8) buf[len++] = (byte) (v >>> s);
        return this;
    }

    /** A double, its bits transformed so that unsigned byte order is numeric order (8 bytes). */
    public KeyEncoder appendDouble(double d) {
        long b = Double.doubleToLongBits(d);
        b ^= (b >> 63) | Long.MIN_VALUE;
        ensure(8);
        for (int s = 56; s >= 0; s -= 8) buf[len++] = (byte) (b >>> s);
        return this;
    }

    /** A byte string, escaped and terminated as {@link #appendString} does. */
    public KeyEncoder appendBytes(byte[] u, int off, int n) {
        ensure(n * 2 + 2);
        for (int i = off; i < off + n; i++) {
            byte c = u[i];
            buf[len++] = c;
            if (c == 0) buf[len++] = (byte) 0xFF;
        }
        buf[len++] = 0;
        buf[len++] = 1;
        return this;
    }

    public int length() {
        return len;
    }

    public byte[] toBytes() {
        return Arrays.copyOf(buf, len);
    }

    /** Copies the key built so far into {@code dst} from index 0 ({@link #length()} bytes): {@link #toBytes()} into the caller's array. */
    public byte[] copyTo(byte[] dst) {
        System.arraycopy(buf, 0, dst, 0, len);
        return dst;
    }

    public static byte[] ofInt(int v) {
        return new KeyEncoder().appendInt(v).toBytes();
    }

    public static byte[] ofLong(long v) {
        return new KeyEncoder().appendLong(v).toBytes();
    }

    public static byte[] ofString(String s) {
        return new KeyEncoder().appendString(s).toBytes();
    }

    /** Decodes a key made by {@link #appendInt} alone. */
    public static int decodeInt(byte[] k, int off) {
        int x = ((k[off] & 0xFF) << 24)
                | ((k[off + 1] & 0xFF) << 16)
                | ((k[off + 2] & 0xFF) << 8)
                | (k[off + 3] & 0xFF);
        return x ^ Integer.MIN_VALUE;
    }

    /** Unsigned lexicographic compare, the order of every encoded key. */
    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * The poor man's normalized key (Graefe): 4 bytes of an encoded key from {@code off} ({@code
     * len} of them available, zero-padded past them) as an unsigned int. If two keys share their
     * first {@code off} bytes and their PMNKs differ, the PMNKs' unsigned order is the keys'
     * order; if they are equal the rest must be compared. B+tree nodes take it after the prefix
     * all their keys share ({@link BTreePage}).
     */
    public static int prefix(byte[] k, int off, int len) {
        int p = 0;
        for (int i = 0; i < 4; i++) p = (p << 8) | (i < len ? k[off + i] & 0xFF : 0);
        return p;
    }
}

package dev.wastecheck.engine.exec;

import dev.wastecheck.model.access.ResultDigest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The rows one event returns, written as the engine hands them to its client: each projected
 * value, in the table's column order, copied into one buffer reused from event to event. This is
 * the engine's result building, and it is inside the event's measured latency. Reducing the rows
 * to a {@link ResultDigest} (what {@code replay --check} compares) is the harness's work, not the
 * engine's: {@link #digest} runs after the event's clock has stopped.
 *
 * <p>The buffer, a sequence of entries, each a tag byte and what the tag says follows:
 *
 * <pre>
 *   ROW_BEGIN (1)
 *   NULL      (3)
 *   LONG      (4)  value: 8 bytes, big-endian
 *   BYTES     (5)  length: 4 bytes, big-endian | the value's bytes (text as UTF-8)
 *   DOUBLE    (6)  IEEE 754 bits: 8 bytes, big-endian (the digest hashes Double.toString of it)
 *   ROW_END   (2)
 * </pre>
 *
 * {@link #digest} feeds the entries to a {@link ResultDigest} in order, so the digest equals the one
 * the same calls made on the digest directly.
 */
final class ResultRows {
    static final byte ROW_BEGIN = 1, ROW_END = 2, NULL = 3, LONG = 4, BYTES = 5, DOUBLE = 6;

    private byte[] buf = new byte[4096];
    private int end;
    private long rows;

    /** Forgets the rows of the last event. */
    void reset() {
        end = 0;
        rows = 0;
    }

    /** The rows written since the last {@link #reset}. */
    long rows() {
        return rows;
    }

    void beginRow() {
        room(1);
        buf[end++] = ROW_BEGIN;
    }

    void endRow() {
        room(1);
        buf[end++] = ROW_END;
        rows++;
    }

    void addNull() {
        room(1);
        buf[end++] = NULL;
    }

    void addLong(long v) {
        room(9);
        buf[end++] = LONG;
        putLong(v);
    }

    void addDouble(double v) {
        room(9);
        buf[end++] = DOUBLE;
        putLong(Double.doubleToRawLongBits(v));
    }

    void addBytes(byte[] b, int off, int len) {
        room(5 + len);
        buf[end++] = BYTES;
        buf[end++] = (byte) (len >>> 24);
        buf[end++] = (byte) (len >>> 16);
        buf[end++] = (byte) (len >>> 8);
        buf[end++] = (byte) len;
        System.arraycopy(b, off, buf, end, len);
        end += len;
    }

    void addString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        addBytes(b, 0, b.length);
    }

    /** The rows' digest ({@link ResultDigest#value()}: 0 for no rows), computed into {@code d}, which is reset first. */
    long digest(ResultDigest d) {
        d.reset();
        int p = 0;
        while (p < end) {
            byte tag = buf[p++];
            switch (tag) {
                case ROW_BEGIN -> d.beginRow();
                case ROW_END -> d.endRow();
                case NULL -> d.addNull();
                case LONG -> {
                    d.addLong(getLong(p));
                    p += 8;
                }
                case DOUBLE -> {
                    d.addString(Double.toString(Double.longBitsToDouble(getLong(p))));
                    p += 8;
                }
                case BYTES -> {
                    int len = ((buf[p] & 0xFF) << 24)
                            | ((buf[p + 1] & 0xFF) << 16)
                            | ((buf[p + 2] & 0xFF) << 8)
                            | (buf[p + 3] & 0xFF);
                    p += 4;
                    d.addBytes(buf, p, len);
                    p += len;
                }
                default -> throw new IllegalStateException("result buffer: tag " + tag + " at " + (p - 1));
            }
        }
        return d.value();
    }

    private void room(int n) {
        if (end + n > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, end + n));
    }

    private void putLong(long v) {
        for (int s = 56; s >= 0; s -= 8) buf[end++] = (byte) (v >>> s);
    }

    private long getLong(int p) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (buf[p + i] & 0xFF);
        return v;
    }
}

package dev.wastecheck.model.access;

import java.nio.charset.StandardCharsets;

/**
 * An order-independent 64-bit digest of a query's result rows, so that two engines that
 * execute the same access event (our storage engine under any configuration, SQLite, DuckDB)
 * can be checked to return the same rows without keeping the rows.
 *
 * <p>A row's values are hashed in the table's column order (of the projected columns) with
 * FNV-1a over a canonical form: an integer as its decimal digits, a string or byte string as its
 * bytes (UTF-8 for text), NULL as a single 0xFF marker, each value followed by 0x00 0x01. The
 * result's digest is the sum of its rows' hashes (mixed, so that swapped rows cancel nothing),
 * plus the row count, so the order rows come back in does not matter.
 *
 * <p>Use: {@link #beginRow()}, the values, {@link #endRow()}, for each row; then {@link #value()}.
 */
public final class ResultDigest {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private long row = FNV_OFFSET;
    private long sum;
    private long rows;

    public ResultDigest reset() {
        row = FNV_OFFSET;
        sum = 0;
        rows = 0;
        return this;
    }

    public void beginRow() {
        row = FNV_OFFSET;
    }

    private void mix(int b) {
        row = (row ^ (b & 0xFF)) * FNV_PRIME;
    }

    private void endValue() {
        mix(0);
        mix(1);
    }

    public void addNull() {
        mix(0xFF);
        endValue();
    }

    public void addLong(long v) {
        if (v == 0) {
            mix('0');
        } else {
            if (v < 0) {
                mix('-');
            }
            // digits most significant first, without allocating
            long div = 1;
            long a = v;
            while (a / div >= 10 || a / div <= -10) {
                div *= 10;
            }
            for (; div > 0; div /= 10) {
                mix('0' + (int) Math.abs((a / div) % 10));
            }
        }
        endValue();
    }

    public void addBytes(byte[] b, int off, int len) {
        for (int i = 0; i < len; i++) {
            mix(b[off + i]);
        }
        endValue();
    }

    public void addString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        addBytes(b, 0, b.length);
    }

    public void endRow() {
        long h = row;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        sum += h;
        rows++;
    }

    /** The digest of the rows so far (0 for no rows). */
    public long value() {
        return rows == 0 ? 0 : sum + rows * 0x9E3779B97F4A7C15L;
    }

    public long rows() {
        return rows;
    }
}

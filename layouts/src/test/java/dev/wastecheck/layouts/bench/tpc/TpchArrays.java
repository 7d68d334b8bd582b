package dev.wastecheck.layouts.bench.tpc;

import static dev.wastecheck.layouts.bench.tpc.Tpch.*;

import dev.wastecheck.layouts.ColumnScan;
import dev.wastecheck.layouts.Record;

/**
 * The ceiling for TPC-H's scan queries in Java: lineitem's columns as plain arrays (one
 * {@code int[]} or {@code byte[]} per field, the whole table contiguous), and Q1 and Q6 with the
 * same vectorized steps as {@link Tpch} on pages: 64 rows to a selection word, the same
 * branch-free range test (for one-byte columns the pages' own eight-at-a-time kernel), refinements
 * only where a word has a selected row, a gather of the
 * selected values into the same vectors, the same aggregation. Only the storage differs: no
 * pages, no page headers, one run per column.
 */
public final class TpchArrays implements TpchGenerator.Sink {
    private int rows;
    private int[] shipDate = new int[1 << 16];
    private int[] price = new int[1 << 16];
    private byte[] quantity = new byte[1 << 16];
    private byte[] discount = new byte[1 << 16];
    private byte[] tax = new byte[1 << 16];
    private byte[] returnFlag = new byte[1 << 16];
    private byte[] lineStatus = new byte[1 << 16];
    private final long[][] vectors = new long[6][64];

    private static final int[] FLAG_GROUP = new int[128], STATUS_GROUP = new int[128];

    static {
        FLAG_GROUP['N'] = 2;
        FLAG_GROUP['R'] = 4;
        STATUS_GROUP['O'] = 1;
    }

    @Override
    public void part(Record r) {}

    @Override
    public void order(Record r) {}

    @Override
    public void lineitem(Record r) {
        if (rows == shipDate.length) {
            int n = rows * 2;
            shipDate = java.util.Arrays.copyOf(shipDate, n);
            price = java.util.Arrays.copyOf(price, n);
            quantity = java.util.Arrays.copyOf(quantity, n);
            discount = java.util.Arrays.copyOf(discount, n);
            tax = java.util.Arrays.copyOf(tax, n);
            returnFlag = java.util.Arrays.copyOf(returnFlag, n);
            lineStatus = java.util.Arrays.copyOf(lineStatus, n);
        }
        shipDate[rows] = (int) r.getLong(L_SHIPDATE);
        price[rows] = (int) r.getLong(L_EXTENDEDPRICE);
        quantity[rows] = (byte) r.getLong(L_QUANTITY);
        discount[rows] = (byte) r.getLong(L_DISCOUNT);
        tax[rows] = (byte) r.getLong(L_TAX);
        returnFlag[rows] = (byte) r.getLong(L_RETURNFLAG);
        lineStatus[rows] = (byte) r.getLong(L_LINESTATUS);
        rows++;
    }

    public int rows() {
        return rows;
    }

    /** Bit j set iff value j of the 64 (or fewer) from {@code first} is in the range starting at lo with span1 values. */
    private static long match(int[] c, int first, int count, int lo, long span1) {
        long bits = 0;
        if (count == 64) {
            for (int j = 0; j < 64; j++) bits |= ((Integer.toUnsignedLong(c[first + j] - lo) - span1) >>> 63) << j;
        } else {
            for (int j = 0; j < count; j++) bits |= ((Integer.toUnsignedLong(c[first + j] - lo) - span1) >>> 63) << j;
        }
        return bits;
    }

    /** One-byte values: a full word through the pages' own kernel, eight values to a register ({@link ColumnScan#match64Bytes}). */
    private static long match(byte[] c, int first, int count, int lo, long span1) {
        if (count == 64 && first + 64 <= c.length) return ColumnScan.match64Bytes(c, first, lo, span1);
        long bits = 0;
        for (int j = 0; j < count; j++) bits |= ((Integer.toUnsignedLong(c[first + j] - lo) - span1) >>> 63) << j;
        return bits;
    }

    /** {@link Tpch#q6()} on the arrays. */
    public long q6() {
        long revenue = 0;
        long[] p = vectors[0], d = vectors[1];
        long dateSpan = Y1995 - Y1994, discSpan = 3, qtySpan = 23L - Byte.MIN_VALUE + 1;
        for (int first = 0; first < rows; first += 64) {
            int count = Math.min(64, rows - first);
            long bits = match(shipDate, first, count, Y1994, dateSpan);
            if (bits == 0) continue;
            bits &= match(discount, first, count, 5, discSpan);
            if (bits == 0) continue;
            bits &= match(quantity, first, count, Byte.MIN_VALUE, qtySpan);
            int n = 0;
            for (long b = bits; b != 0; b &= b - 1) {
                int j = first + Long.numberOfTrailingZeros(b);
                p[n] = price[j];
                d[n++] = discount[j];
            }
            for (int i = 0; i < n; i++) revenue += p[i] * d[i];
        }
        return revenue;
    }

    /** {@link Tpch#q1()} on the arrays: six columns gathered a word at a time, then the same aggregation. */
    public Tpch.Q1 q1() {
        Tpch.Q1 q = new Tpch.Q1();
        long[] flag = vectors[0],
                status = vectors[1],
                qty = vectors[2],
                pr = vectors[3],
                disc = vectors[4],
                tx = vectors[5];
        long span = (long) Q1_SHIPDATE_MAX - Integer.MIN_VALUE + 1;
        for (int first = 0; first < rows; first += 64) {
            int count = Math.min(64, rows - first);
            long bits = match(shipDate, first, count, Integer.MIN_VALUE, span);
            int n = 0;
            for (long b = bits; b != 0; b &= b - 1) {
                int j = first + Long.numberOfTrailingZeros(b);
                flag[n] = returnFlag[j];
                status[n] = lineStatus[j];
                qty[n] = quantity[j];
                pr[n] = price[j];
                disc[n] = discount[j];
                tx[n++] = tax[j];
            }
            for (int i = 0; i < n; i++) {
                int g = FLAG_GROUP[(int) flag[i]] + STATUS_GROUP[(int) status[i]];
                long discPrice = pr[i] * (100 - disc[i]);
                q.count[g]++;
                q.sumQuantity[g] += qty[i];
                q.sumBasePrice[g] += pr[i];
                q.sumDiscPrice[g] += discPrice;
                q.sumCharge[g] += discPrice * (100 + tx[i]);
                q.sumDiscount[g] += disc[i];
            }
        }
        return q;
    }
}

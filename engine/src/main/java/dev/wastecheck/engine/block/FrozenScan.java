package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import java.nio.ByteBuffer;

/**
 * Range scans over an {@link ArrowTable} the way an analytical reader would run them (Li et al.,
 * VLDB 2020, §4.3 and §5): a frozen block is read in place, straight from its Arrow validity and
 * values buffers, under the block's in-place read latch and with no version to check (a frozen
 * block has none, and every running transaction sees all of it); a hot block is materialized tuple by
 * tuple at the reader's snapshot.
 */
public final class FrozenScan {
    private FrozenScan() {}

    /** What a table scan did. */
    public record Result(long matches, int blocksInPlace, int blocksMaterialized) {}

    /** Counts the tuples of {@code txn}'s snapshot whose integer column {@code column} is non-null and in [lo, hi]. */
    public static Result countBetween(ArrowTable table, Transaction txn, int column, long lo, long hi) {
        FieldType type = table.layout().type(column);
        if (type.isVariable() || type == FieldType.FLOAT64)
            throw new IllegalArgumentException("column " + column + " is " + type);
        long matches = 0;
        int inPlace = 0, materialized = 0;
        long[] selection = new long[table.layout().slots() >>> 6];
        Record r = new Record(table.schema());
        RawRow row = new RawRow(table.schema().fieldCount());
        for (Block b : table.blocks()) {
            if (BlockAccess.tryEnterInPlace(b)) {
                try {
                    matches += scanBetween(b, column, lo, hi, selection);
                    inPlace++;
                } finally {
                    BlockAccess.exitInPlace(b);
                }
                continue;
            }
            materialized++;
            for (int off = 0, n = b.data.insertHead(); off < n; off++) {
                if (!table.read(txn, b, off, row) || !row.valid[column]) continue;
                long v = row.w0[column];
                if (v >= lo && v <= hi) matches++;
            }
        }
        return new Result(matches, inPlace, materialized);
    }

    /**
     * Sets bit i of {@code selection} for every record i of a frozen block whose column is non-null
     * and in [lo, hi] (clearing the others); returns the number of matches. The caller holds an
     * in-place read ({@link BlockAccess#tryEnterInPlace}). 64 values per word; the range test is
     * one unsigned comparison, with no branch (as {@code dev.wastecheck.layouts.ColumnScan} does it).
     */
    public static int scanBetween(Block b, int column, long lo, long hi, long[] selection) {
        ArrowBlock d = b.data;
        int n = d.numRecords();
        FieldType type = d.layout().type(column);
        int words = (n + 63) >>> 6;
        if (lo > hi || type == FieldType.INT32 && (hi < Integer.MIN_VALUE || lo > Integer.MAX_VALUE)) {
            for (int w = 0; w < words; w++) selection[w] = 0;
            return 0;
        }
        ByteBuffer buf = d.buffer();
        int at = d.layout().valuesOffset(column);
        int matches = 0;
        if (type == FieldType.INT32) {
            int lo32 = (int) Math.max(lo, Integer.MIN_VALUE);
            long span1 = Math.min(hi, Integer.MAX_VALUE) - (long) lo32 + 1; // 1 .. 2^32
            for (int w = 0; w < words; w++) {
                long sel = 0;
                int first = w << 6, count = Math.min(64, n - first);
                int idx = at + (first << 2);
                for (int i = 0; i < count; i++) {
                    // v in [lo, hi] iff (v - lo) as an unsigned 32-bit number is below span1: the sign of the
                    // difference.
                    long diff = ((buf.getInt(idx + (i << 2)) - lo32) & 0xFFFF_FFFFL) - span1;
                    sel |= (diff >>> 63) << i;
                }
                sel &= d.validityWord(column, w);
                if (count < 64) sel &= (1L << count) - 1;
                selection[w] = sel;
                matches += Long.bitCount(sel);
            }
        } else {
            for (int w = 0; w < words; w++) {
                long sel = 0;
                int first = w << 6, count = Math.min(64, n - first);
                for (int i = 0; i < count; i++) {
                    long v = d.getFixed(column, first + i);
                    if (v >= lo && v <= hi) sel |= 1L << i;
                }
                sel &= d.validityWord(column, w);
                if (count < 64) sel &= (1L << count) - 1;
                selection[w] = sel;
                matches += Long.bitCount(sel);
            }
        }
        return matches;
    }
}

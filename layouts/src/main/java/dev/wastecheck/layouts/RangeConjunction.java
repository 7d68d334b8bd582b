package dev.wastecheck.layouts;

import java.nio.ByteBuffer;

/**
 * The predicates of one {@link Page#scanAllBetween} call, resolved once per page scan for the
 * columnar formats: per predicate the field's type, the kernel {@link ColumnScan} runs, and the
 * bounds clamped to the type. A page flyweight keeps one and reuses its arrays, so a scan
 * allocates nothing.
 */
final class RangeConjunction {
    int size;
    int[] field = new int[4];
    FieldType[] type = new FieldType[4];
    int[] kernel = new int[4];
    int[] lo32 = new int[4];
    long[] span1 = new long[4];
    long[] lo = new long[4];
    long[] hi = new long[4];
    /** Per predicate, what the format needs to find the field's run (a mini-page, a column offset). */
    int[] at = new int[4];
    /** Per predicate, the presence or null bitmap's offset, or -1 when the field is not nullable. */
    int[] nulls = new int[4];
    /** Per predicate, the bytes between the starts of two consecutive words' values in a run. */
    int[] stride = new int[4];

    /**
     * Resolves fields[k] in [lo[k], hi[k]] for {@code buf}; false when some range holds no value
     * of its field's type (the conjunction then selects nothing). {@code page} checks each field.
     */
    boolean prepare(AbstractPage page, ByteBuffer buf, int[] fields, long[] los, long[] his) {
        if (fields.length != los.length || fields.length != his.length)
            throw new IllegalArgumentException(
                    "fields, lo and hi differ in length: " + fields.length + ", " + los.length + ", " + his.length);
        ensure(fields.length);
        size = fields.length;
        boolean empty = false;
        for (int k = 0; k < size; k++) {
            int f = fields[k];
            page.checkScannable(f);
            FieldType t = page.schema.type(f);
            boolean intRange = t.isFixedBytes() && t.width <= 4;
            field[k] = f;
            type[k] = t;
            kernel[k] = ColumnScan.kernel(t, buf);
            lo[k] = los[k];
            hi[k] = his[k];
            if (intRange && ColumnScan.emptyRange(t, los[k], his[k])) {
                empty = true;
                continue;
            }
            lo32[k] = intRange ? ColumnScan.clampLo(t, los[k]) : 0;
            span1[k] = intRange ? ColumnScan.span1(t, los[k], his[k]) : 0;
        }
        return !empty;
    }

    private void ensure(int n) {
        if (field.length >= n) return;
        field = new int[n];
        type = new FieldType[n];
        kernel = new int[n];
        lo32 = new int[n];
        span1 = new long[n];
        lo = new long[n];
        hi = new long[n];
        at = new int[n];
        nulls = new int[n];
        stride = new int[n];
    }
}

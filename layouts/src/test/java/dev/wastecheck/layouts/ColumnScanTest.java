package dev.wastecheck.layouts;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The one-byte kernel that tests eight values in one register ({@link ColumnScan#matchInt8},
 * {@link ColumnScan#match64Bytes}) against the plain per-value test, for signed and unsigned
 * bytes, every clamped range, full and partly filled words, and words that end too near the
 * array's end for an 8-byte read.
 */
class ColumnScanTest {
    @Property(tries = 2000)
    void oneByteWordsMatchTheValueByValueTest(
            @ForAll byte[] seed,
            @ForAll @IntRange(min = -200, max = 300) int lo,
            @ForAll @IntRange(min = -10, max = 300) int span,
            @ForAll @IntRange(min = 1, max = 64) int count,
            @ForAll @IntRange(min = 0, max = 80) int slack,
            @ForAll boolean unsigned) {
        FieldType t = unsigned ? FieldType.UINT8 : FieldType.INT8;
        long hi = (long) lo + span;
        byte[] a = new byte[count + slack];
        for (int i = 0; i < a.length; i++) a[i] = seed.length == 0 ? (byte) (i * 37) : seed[i % seed.length];
        int at = slack / 2; // the word starts inside the array and ends at most slack - at before its end
        int n = Math.min(count, a.length - at);
        long want = 0;
        for (int j = 0; j < n; j++) {
            long v = unsigned ? a[at + j] & 0xFF : a[at + j];
            if (v >= lo && v <= hi) want |= 1L << j;
        }
        long got = ColumnScan.emptyRange(t, lo, hi)
                ? 0
                : ColumnScan.matchInt8(a, at, n, ColumnScan.clampLo(t, lo), ColumnScan.span1(t, lo, hi), unsigned);
        assertThat(got)
                .as("%s in [%d, %d], %d values at %d of %d", t, lo, hi, n, at, a.length)
                .isEqualTo(want);
    }

    @Test
    void aWholeByteRangeSelectsEveryValue() {
        byte[] a = new byte[64];
        for (int i = 0; i < 64; i++) a[i] = (byte) (i * 4 - 128);
        assertThat(ColumnScan.match64Bytes(a, 0, -128, 256)).isEqualTo(-1L);
        assertThat(ColumnScan.match64Bytes(a, 0, -128, 1)).isEqualTo(1L); // only -128
        assertThat(ColumnScan.match64Bytes(a, 0, 124, 4)).isEqualTo(1L << 63); // only 124
    }
}

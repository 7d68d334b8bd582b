package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/** The first batch's parts by a column: alike for columns that map one to one, NULL a value of its own. */
class BatchPartitionTest {
    @Test
    void columnsThatMapOneToOnePartAlikeAndOthersDoNot() {
        try (BufferAllocator a = new RootAllocator();
                BigIntVector ints = new BigIntVector("i", a);
                VarCharVector names = new VarCharVector("n", a);
                VarCharVector shifted = new VarCharVector("s", a);
                BigIntVector unique = new BigIntVector("u", a);
                VarCharVector uniqueText = new VarCharVector("t", a)) {
            long[] values = {3, 1, 3, 2, -1, 1, -1, 2};
            String[] words = {"c", "a", "c", "b", null, "a", null, "b"};
            ints.allocateNew(values.length);
            names.allocateNew(values.length);
            shifted.allocateNew(values.length);
            unique.allocateNew(values.length);
            uniqueText.allocateNew(values.length);
            for (int r = 0; r < values.length; r++) {
                if (values[r] < 0) {
                    ints.setNull(r);
                } else {
                    ints.set(r, values[r]);
                }
                if (words[r] == null) {
                    names.setNull(r);
                } else {
                    names.setSafe(r, words[r].getBytes(StandardCharsets.UTF_8));
                }
                // the same values one row later: another partition
                String w = words[(r + 1) % words.length];
                if (w == null) {
                    shifted.setNull(r);
                } else {
                    shifted.setSafe(r, w.getBytes(StandardCharsets.UTF_8));
                }
                unique.set(r, r * 10);
                uniqueText.setSafe(r, ("v" + r).getBytes(StandardCharsets.UTF_8));
            }
            for (var v : new org.apache.arrow.vector.ValueVector[] {ints, names, shifted, unique, uniqueText}) {
                v.setValueCount(values.length);
            }
            int n = values.length;
            assertThat(BatchPartition.of(ints, n)).isEqualTo(BatchPartition.of(names, n));
            assertThat(BatchPartition.of(ints, n)).isNotEqualTo(BatchPartition.of(shifted, n));
            assertThat(BatchPartition.of(unique, n)).isEqualTo(BatchPartition.ALL_SINGLE);
            assertThat(BatchPartition.of(uniqueText, n)).isEqualTo(BatchPartition.ALL_SINGLE);
            assertThat(BatchPartition.of(ints, n)).isNotEqualTo(BatchPartition.ALL_SINGLE);
        }
    }

    @Test
    void nullsPartTogetherAndFloatingPointIsNotRead() {
        try (BufferAllocator a = new RootAllocator();
                BigIntVector nulls = new BigIntVector("x", a);
                BigIntVector ones = new BigIntVector("y", a);
                Float8Vector doubles = new Float8Vector("d", a)) {
            nulls.allocateNew(4);
            ones.allocateNew(4);
            doubles.allocateNew(4);
            for (int r = 0; r < 4; r++) {
                nulls.setNull(r);
                ones.set(r, 1);
                doubles.set(r, 0.5);
            }
            nulls.setValueCount(4);
            ones.setValueCount(4);
            doubles.setValueCount(4);
            assertThat(BatchPartition.of(nulls, 4)).isEqualTo(BatchPartition.of(ones, 4));
            assertThat(BatchPartition.of(doubles, 4)).isNull();
        }
    }

    /**
     * A double column's parts: its doubles' by their bits, the values spelled otherwise (in the
     * text beside) by their text, NULL where both are; none where a value is NaN.
     */
    @Test
    void doublesArePartedByTheirBitsAndTheTextBeside() {
        try (BufferAllocator a = new RootAllocator();
                Float8Vector doubles = new Float8Vector("d", a);
                VarCharVector text = new VarCharVector("x", a);
                BigIntVector ints = new BigIntVector("i", a)) {
            // 2.5, 0.1, 2.5, NULL, 0.1, "7.00", -0.0, "7.00", "1e5"
            Object[] values = {2.5, 0.1, 2.5, null, 0.1, "7.00", -0.0, "7.00", "1e5"};
            long[] same = {1, 2, 1, -1, 2, 3, 4, 3, 5};
            int n = values.length;
            doubles.allocateNew(n);
            text.allocateNew(n);
            ints.allocateNew(n);
            for (int r = 0; r < n; r++) {
                if (values[r] instanceof Double d) {
                    doubles.set(r, d);
                    text.setNull(r);
                } else if (values[r] instanceof String s) {
                    doubles.setNull(r);
                    text.setSafe(r, s.getBytes(StandardCharsets.UTF_8));
                } else {
                    doubles.setNull(r);
                    text.setNull(r);
                }
                if (same[r] < 0) {
                    ints.setNull(r);
                } else {
                    ints.set(r, same[r]);
                }
            }
            doubles.setValueCount(n);
            text.setValueCount(n);
            ints.setValueCount(n);
            assertThat(BatchPartition.ofDoubles(doubles, text, n)).isNotNull().isEqualTo(BatchPartition.of(ints, n));
            doubles.set(6, 0.1); // now parted as rows 1 and 4
            assertThat(BatchPartition.ofDoubles(doubles, text, n)).isNotEqualTo(BatchPartition.of(ints, n));
            doubles.set(6, Double.NaN);
            assertThat(BatchPartition.ofDoubles(doubles, text, n)).as("NaN").isNull();
        }
    }
}

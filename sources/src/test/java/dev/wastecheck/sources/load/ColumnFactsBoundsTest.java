package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ColumnFacts}' least and greatest values, as DuckDB orders text (unsigned bytes, a prefix
 * first), where the values share their first eight or sixteen bytes and end on either side of
 * those words: the compares that {@link ColumnFacts#prefix} and {@link ColumnFacts#second} decide
 * and those they leave to the bytes. The same for timestamps of one month ({@code timestampMin},
 * {@code isoMin}) and with null markers among the values ({@code realMinText}).
 */
class ColumnFactsBoundsTest {
    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;
    private static final String[] STEMS = {"", "value 4-", "value 4-12", "2020-09-13 12:", "abcdefghijklmnop", "ab"};
    private static final List<String> MARKERS = List.of("NULL", "-");

    @Test
    void boundsAreTheLeastAndGreatestByBytes() {
        Random r = new Random(32);
        for (int trial = 0; trial < 400; trial++) {
            ColumnFacts f = new ColumnFacts(false, MARKERS);
            List<byte[]> all = new ArrayList<>();
            List<byte[]> real = new ArrayList<>();
            String stem = STEMS[r.nextInt(STEMS.length)];
            int n = 1 + r.nextInt(60);
            for (int i = 0; i < n; i++) {
                String v;
                if (r.nextInt(10) == 0) {
                    v = MARKERS.get(r.nextInt(MARKERS.size()));
                } else {
                    StringBuilder s = new StringBuilder(stem.substring(0, r.nextInt(stem.length() + 1)));
                    int more = r.nextInt(12);
                    for (int k = 0; k < more; k++) {
                        s.append("09az ~".charAt(r.nextInt(6)));
                    }
                    v = s.toString();
                }
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                byte[] padded = new byte[b.length + 5]; // the value in the middle of a larger buffer
                System.arraycopy(b, 0, padded, 3, b.length);
                f.add(padded, 3, b.length, true);
                all.add(b);
                if (!MARKERS.contains(v)) {
                    real.add(b);
                }
            }
            assertThat(f.minText())
                    .as("trial %d", trial)
                    .isEqualTo(text(all.stream().min(BYTES).get()));
            assertThat(f.maxText())
                    .as("trial %d", trial)
                    .isEqualTo(text(all.stream().max(BYTES).get()));
            if (!real.isEmpty()) {
                assertThat(f.realMinText())
                        .as("trial %d", trial)
                        .isEqualTo(text(real.stream().min(BYTES).get()));
                assertThat(f.realMaxText())
                        .as("trial %d", trial)
                        .isEqualTo(text(real.stream().max(BYTES).get()));
            }
        }
    }

    @Test
    void timestampsOfOneMonthHaveTheirBounds() {
        Random r = new Random(33);
        for (int trial = 0; trial < 100; trial++) {
            ColumnFacts plain = new ColumnFacts(false, MARKERS);
            ColumnFacts iso = new ColumnFacts(false, MARKERS);
            List<String> plainValues = new ArrayList<>();
            List<String> isoValues = new ArrayList<>();
            int hour = r.nextInt(24);
            for (int i = 0; i < 1 + r.nextInt(80); i++) {
                // one day, often one hour: the values share 8, 11 or 14 bytes
                String t = String.format(
                        "2020-09-13 %02d:%02d:%02d",
                        r.nextBoolean() ? hour : r.nextInt(24), r.nextInt(60), r.nextInt(60));
                String f = t + String.format(".%06d", r.nextInt(3) == 0 ? 0 : r.nextInt(1_000_000));
                plain.add(t.getBytes(StandardCharsets.US_ASCII), 0, t.length(), true);
                iso.add(f.getBytes(StandardCharsets.US_ASCII), 0, f.length(), true);
                plainValues.add(t);
                isoValues.add(f);
            }
            assertThat(plain.timestampMin())
                    .isEqualTo(plainValues.stream().min(String::compareTo).get());
            assertThat(plain.timestampMax())
                    .isEqualTo(plainValues.stream().max(String::compareTo).get());
            assertThat(iso.isoMin())
                    .isEqualTo(isoValues.stream().min(String::compareTo).get());
            assertThat(iso.isoMax())
                    .isEqualTo(isoValues.stream().max(String::compareTo).get());
            assertThat(iso.minText()).isEqualTo(iso.isoMin());
        }
    }

    /**
     * Values whose words are equal (their first eight or sixteen bytes, zeros past a value's end)
     * are ordered by their lengths alone where one of them ends within those words: also where a
     * value's own bytes are zeros, which the words cannot tell from its end ({@code "ab"} and
     * {@code "ab\0"}), and where both repeat a bound of 17-19 bytes (pandas' {@code discount}).
     */
    private static final char[] ODD = {0, 0, '0', 'a', '2'};

    @Test
    void equalWordsOrderByLengthEvenWithZeroBytes() {
        Random r = new Random(34);
        String[] stems = {"0.15000000000000002", "0.1500000", "abcdefghijklmnop", "ab", ""};
        for (int trial = 0; trial < 2000; trial++) {
            ColumnFacts f = new ColumnFacts(false, List.of());
            List<byte[]> all = new ArrayList<>();
            String stem = stems[r.nextInt(stems.length)];
            int n = 1 + r.nextInt(40);
            for (int i = 0; i < n; i++) {
                StringBuilder v = new StringBuilder(stem.substring(0, r.nextInt(stem.length() + 1)));
                int more = r.nextInt(4);
                for (int k = 0; k < more; k++) {
                    v.append(ODD[r.nextInt(ODD.length)]);
                }
                byte[] b = v.toString().getBytes(StandardCharsets.UTF_8);
                byte[] padded = new byte[b.length + 9];
                System.arraycopy(b, 0, padded, 4, b.length);
                f.add(padded, 4, b.length, true);
                all.add(b);
            }
            assertThat(f.minText())
                    .as("trial %d", trial)
                    .isEqualTo(text(all.stream().min(BYTES).get()));
            assertThat(f.maxText())
                    .as("trial %d", trial)
                    .isEqualTo(text(all.stream().max(BYTES).get()));
        }
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * {@link ColumnFacts#prefix} and {@link ColumnFacts#second} read as bytes one at a time would,
     * for values of every length up to 17 at every place in an array, its end included; and the
     * byte swap written out for C1 ({@link ColumnFacts#swapBytes}) as {@code Long.reverseBytes}.
     */
    @Test
    void prefixWordsAreTheBytesBigEndianWithZerosPastTheEnd() {
        Random r = new Random(8);
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] b = new byte[1 + r.nextInt(40)];
            r.nextBytes(b);
            int len = r.nextInt(Math.min(b.length, 17) + 1);
            int off = r.nextBoolean() ? b.length - len : r.nextInt(b.length - len + 1);
            long want = 0;
            long want2 = 0;
            for (int k = 0; k < 16; k++) {
                long v = k < len ? b[off + k] & 0xff : 0;
                if (k < 8) {
                    want |= v << (8 * (7 - k));
                } else {
                    want2 |= v << (8 * (15 - k));
                }
            }
            assertThat(ColumnFacts.prefix(b, off, len))
                    .as("len %d off %d of %d", len, off, b.length)
                    .isEqualTo(want);
            assertThat(ColumnFacts.second(b, off, len)).isEqualTo(len > 8 ? want2 : 0);
        }
        for (int k = 0; k < 10_000; k++) {
            long w = r.nextLong();
            assertThat(ColumnFacts.swapBytes(w)).isEqualTo(Long.reverseBytes(w));
        }
    }
}

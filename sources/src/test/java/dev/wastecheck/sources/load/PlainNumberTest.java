package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlainNumberTest {
    /**
     * toDouble gives the double Java's own parse gives, bit for bit, on the doubles pandas writes
     * (17 significant digits, Python's repr), on short decimals (the fast path), on exponents and
     * on the edges of the double range.
     */
    @Test
    void toDoubleIsTheCorrectlyRoundedParse() {
        SplittableRandom rnd = new SplittableRandom(20261202);
        PlainNumber n = new PlainNumber();
        for (int i = 0; i < 200_000; i++) {
            double d = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isNaN(d) || Double.isInfinite(d)) continue;
            String[] texts = {
                String.format(Locale.ROOT, "%.17g", d).replace("e+", "e"),
                String.format(Locale.ROOT, "%.16f", rnd.nextDouble() * 1e4),
                Long.toString(rnd.nextLong(1L << 60)) + "." + rnd.nextInt(1000),
                Double.toString(d)
            };
            for (String t : texts) {
                byte[] b = t.getBytes(StandardCharsets.US_ASCII);
                if (!n.read(b, 0, b.length)) continue;
                assertThat(Double.doubleToRawLongBits(n.toDouble()))
                        .as(t)
                        .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(t)));
            }
        }
        for (String t : new String[] {"4.9e-324", "2.4703282292062328e-324", "1.7976931348623157e308", "0.1", "-0.0"}) {
            byte[] b = t.getBytes(StandardCharsets.US_ASCII);
            assertThat(n.read(b, 0, b.length)).as(t).isTrue();
            assertThat(n.toDouble()).as(t).isEqualTo(Double.parseDouble(t));
        }
    }

    /**
     * Eight digits a step read the same fields as a digit a step: random numbers (runs of 1 to 40
     * digits, signs, points, exponents, stray bytes) at random offsets, with digits on both sides
     * of the value in the array, so that a read past either end would show.
     */
    @Test
    void eightDigitsAStepReadWhatOneAStepReads() {
        SplittableRandom rnd = new SplittableRandom(32);
        PlainNumber n = new PlainNumber();
        for (int t = 0; t < 200_000; t++) {
            StringBuilder v = new StringBuilder();
            if (rnd.nextInt(4) == 0) v.append('-');
            digits(v, rnd, rnd.nextInt(4) == 0 ? rnd.nextInt(41) : rnd.nextInt(20));
            if (rnd.nextBoolean()) {
                v.append('.');
                digits(v, rnd, rnd.nextInt(4) == 0 ? rnd.nextInt(41) : rnd.nextInt(20));
            }
            if (rnd.nextInt(5) == 0) v.append(rnd.nextBoolean() ? "e-" : "E").append(rnd.nextInt(400));
            if (rnd.nextInt(20) == 0) v.insert(rnd.nextInt(v.length() + 1), "x. +");
            byte[] value = v.toString().getBytes(StandardCharsets.US_ASCII);
            int off = rnd.nextInt(12);
            byte[] b = new byte[off + value.length + rnd.nextInt(12)];
            for (int i = 0; i < b.length; i++) b[i] = (byte) ('0' + rnd.nextInt(10));
            System.arraycopy(value, 0, b, off, value.length);
            Reference r = new Reference(b, off, value.length);
            String at = v + " at " + off;
            assertThat(n.read(b, off, value.length)).as(at).isEqualTo(r.plain);
            if (!r.plain) continue;
            assertThat(new long[] {n.intDigits, n.significantIntDigits, n.fracDigits, n.scale, n.whole, n.fraction})
                    .as(at)
                    .containsExactly(r.intDigits, r.significantIntDigits, r.fracDigits, r.scale, r.whole, r.fraction);
            assertThat(n.negative).as(at).isEqualTo(r.negative);
            assertThat(n.exponent).as(at).isEqualTo(r.exponent);
        }
    }

    @Test
    void eightDigitsValueIsTheNumber() {
        SplittableRandom rnd = new SplittableRandom(8);
        for (int t = 0; t < 100_000; t++) {
            long v = rnd.nextLong(100_000_000L);
            byte[] b = String.format(Locale.ROOT, "%08d", v).getBytes(StandardCharsets.US_ASCII);
            long w = Words.little(b, 0);
            assertThat(ColumnFacts.eightDigits(w)).isTrue();
            assertThat(PlainNumber.eightDigitsValue(w)).isEqualTo(v);
        }
    }

    private static void digits(StringBuilder v, SplittableRandom rnd, int count) {
        int zeros = rnd.nextInt(3) == 0 ? rnd.nextInt(count + 1) : 0; // leading or trailing zeros
        for (int i = 0; i < count; i++) {
            v.append(i < zeros ? '0' : (char) ('0' + rnd.nextInt(10)));
        }
        if (rnd.nextInt(3) == 0) {
            v.reverse(); // zeros at the end: a fraction's trailing zeros
        }
    }

    /** PlainNumber's parse a digit at a time (as it was before 8 digits a step), fields only. */
    private static final class Reference {
        boolean plain, negative, exponent;
        long intDigits, significantIntDigits, fracDigits, scale, whole, fraction;

        Reference(byte[] b, int off, int len) {
            int i = off, end = off + len;
            negative = i < end && b[i] == '-';
            if (negative) i++;
            int start = i;
            long w = 0;
            for (; i < end && b[i] >= '0' && b[i] <= '9'; i++) w = w * 10 + (b[i] - '0');
            intDigits = i - start;
            if (intDigits == 0) return;
            int first = start;
            while (first < i && b[first] == '0') first++;
            significantIntDigits = i - first;
            whole = w;
            if (i < end && b[i] == '.') {
                i++;
                int fs = i;
                long f = 0;
                for (; i < end && b[i] >= '0' && b[i] <= '9'; i++) f = f * 10 + (b[i] - '0');
                fracDigits = i - fs;
                if (fracDigits == 0) return;
                int last = i;
                while (last > fs && b[last - 1] == '0') last--;
                scale = last - fs;
                fraction = f;
            }
            if (i < end && (b[i] == 'e' || b[i] == 'E')) {
                i++;
                if (i < end && (b[i] == '+' || b[i] == '-')) i++;
                int es = i;
                while (i < end && b[i] >= '0' && b[i] <= '9') i++;
                if (i == es) return;
                exponent = true;
            }
            plain = i == end;
        }
    }
}

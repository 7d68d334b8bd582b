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
     * A value {@link ArrowRowBuilder#dated} sets aside (a dash after a digit at its fifth byte) is
     * never a plain number: random spellings of digits, signs, points, exponents and dashes, and
     * dates and timestamps, so skipping the read changes nothing.
     */
    @Test
    void aDatedValueIsNoPlainNumber() {
        SplittableRandom rnd = new SplittableRandom(32);
        PlainNumber n = new PlainNumber();
        String alphabet = "0123456789-.eE+";
        int dated = 0;
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = 1 + rnd.nextInt(12);
            for (int k = 0; k < len; k++) {
                sb.append(
                        k < 4 && rnd.nextBoolean()
                                ? (char) ('0' + rnd.nextInt(10))
                                : alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            if (rnd.nextInt(8) == 0) {
                sb.setLength(0);
                sb.append(String.format(
                        Locale.ROOT, "%04d-%02d-%02d", rnd.nextInt(10000), rnd.nextInt(13), rnd.nextInt(32)));
            }
            byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
            if (ArrowRowBuilder.dated(b, 0, b.length)) {
                dated++;
                assertThat(n.read(b, 0, b.length)).as(sb.toString()).isFalse();
            }
        }
        assertThat(dated).as("dated values drawn").isGreaterThan(10_000);
        byte[] exp = "123e-4".getBytes(StandardCharsets.US_ASCII);
        assertThat(ArrowRowBuilder.dated(exp, 0, exp.length)).isFalse();
    }

    /**
     * The word steps (up to eight digits at once) read every field a digit-a-step reference
     * reads: random spellings (runs of 0-40 digits, signs, points, exponents, stray bytes) at
     * random offsets of arrays whose bytes around the value are digits, points or others, so a
     * word that reads past the value's end sees digits there; values at the array's very end take
     * the byte loop.
     */
    @Test
    void wordStepsReadWhatOneDigitAStepReads() {
        SplittableRandom rnd = new SplittableRandom(3220);
        PlainNumber n = new PlainNumber();
        String alphabet = "0123456789.-eE+x ";
        for (int i = 0; i < 300_000; i++) {
            StringBuilder sb = new StringBuilder();
            if (rnd.nextInt(4) == 0) {
                sb.append('-');
            }
            sb.append(digits(rnd, rnd.nextInt(rnd.nextBoolean() ? 10 : 41)));
            if (rnd.nextBoolean()) {
                sb.append('.').append(digits(rnd, rnd.nextInt(rnd.nextBoolean() ? 10 : 41)));
            }
            if (rnd.nextInt(8) == 0) {
                sb.append('e').append(digits(rnd, rnd.nextInt(4)));
            }
            if (rnd.nextInt(10) == 0) { // a stray byte anywhere
                int at = rnd.nextInt(sb.length() + 1);
                sb.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            byte[] value = sb.toString().getBytes(StandardCharsets.US_ASCII);
            int before = rnd.nextInt(12);
            int after = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(12);
            byte[] b = new byte[before + value.length + after];
            String around = rnd.nextBoolean() ? "0123456789" : alphabet;
            for (int k = 0; k < b.length; k++) {
                b[k] = (byte) around.charAt(rnd.nextInt(around.length()));
            }
            System.arraycopy(value, 0, b, before, value.length);
            String what = sb + " at " + before + " of " + b.length;
            long[] want = reference(value);
            assertThat(n.read(b, before, value.length)).as(what).isEqualTo(want[0] == 1);
            if (want[0] != 1 && want[2] == 0) {
                continue; // no digits: nothing else was read
            }
            assertThat(n.negative).as(what).isEqualTo(want[1] == 1);
            assertThat(n.intDigits).as(what).isEqualTo((int) want[2]);
            if (n.intDigits == 0) {
                continue;
            }
            assertThat(n.significantIntDigits).as(what).isEqualTo((int) want[3]);
            if (n.intDigits <= 18) {
                assertThat(n.whole).as(what).isEqualTo(want[4]);
            }
            if (want[0] == 1) {
                assertThat(n.fracDigits).as(what).isEqualTo((int) want[5]);
                assertThat(n.scale).as(what).isEqualTo((int) want[6]);
                assertThat(n.exponent).as(what).isEqualTo(want[8] == 1);
                if (n.fracDigits <= 18) {
                    assertThat(n.fraction).as(what).isEqualTo(want[7]);
                }
            }
        }
    }

    /**
     * {@link ArrowRowBuilder#parseLong} with its word steps gives what {@link Long#parseLong} gives
     * (or {@link Long#MIN_VALUE} where that throws, and past 20 bytes), on random integers of 0-20 digits with signs
     * and stray bytes, at random offsets of arrays with digits around them.
     */
    @Test
    void parseLongWordStepsAreLongParseLong() {
        SplittableRandom rnd = new SplittableRandom(3221);
        String alphabet = "0123456789.-+x ";
        for (int i = 0; i < 300_000; i++) {
            StringBuilder sb = new StringBuilder();
            int sign = rnd.nextInt(6);
            if (sign == 0) {
                sb.append('-');
            } else if (sign == 1) {
                sb.append('+');
            }
            sb.append(digits(rnd, rnd.nextInt(21)));
            if (rnd.nextInt(10) == 0) {
                int at = rnd.nextInt(sb.length() + 1);
                sb.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            if (rnd.nextInt(50) == 0) {
                sb.setLength(0);
                sb.append(rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE);
            }
            String t = sb.toString();
            byte[] value = t.getBytes(StandardCharsets.US_ASCII);
            int before = rnd.nextInt(12);
            int after = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(12);
            byte[] b = new byte[before + value.length + after];
            for (int k = 0; k < b.length; k++) {
                b[k] = (byte) ('0' + rnd.nextInt(10));
            }
            System.arraycopy(value, 0, b, before, value.length);
            long want;
            try {
                want = value.length > 20 ? Long.MIN_VALUE : Long.parseLong(t); // no more than 20 bytes taken
            } catch (NumberFormatException e) {
                want = Long.MIN_VALUE;
            }
            assertThat(ArrowRowBuilder.parseLong(b, before, value.length))
                    .as(t + " at " + before + " of " + b.length)
                    .isEqualTo(want);
        }
    }

    private static String digits(SplittableRandom rnd, int count) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < count; k++) {
            sb.append((char) ('0' + (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(10))));
        }
        return sb.toString();
    }

    /**
     * A digit-a-step reading of a whole array: plain, negative, intDigits, significantIntDigits,
     * whole, fracDigits, scale, fraction, exponent.
     */
    private static long[] reference(byte[] b) {
        int i = 0;
        int end = b.length;
        long[] r = new long[9];
        r[1] = i < end && b[i] == '-' ? 1 : 0;
        if (r[1] == 1) {
            i++;
        }
        int start = i;
        long w = 0;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            w = w * 10 + (b[i++] - '0');
        }
        r[2] = i - start;
        int first = start;
        while (first < i && b[first] == '0') {
            first++;
        }
        r[3] = i - first;
        r[4] = w;
        if (r[2] == 0) {
            return r;
        }
        if (i < end && b[i] == '.') {
            i++;
            int fs = i;
            long f = 0;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                f = f * 10 + (b[i++] - '0');
            }
            r[5] = i - fs;
            if (r[5] == 0) {
                return r;
            }
            int last = i;
            while (last > fs && b[last - 1] == '0') {
                last--;
            }
            r[6] = last - fs;
            r[7] = f;
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int es = i;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == es) {
                return r;
            }
            r[8] = 1;
        }
        r[0] = i == end ? 1 : 0;
        return r;
    }
}

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
}

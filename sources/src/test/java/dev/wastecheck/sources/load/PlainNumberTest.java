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
}

package dev.wastecheck.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.access.ResultDigest;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The rows an event returns, digested after its clock stops, give the digest the same values give directly. */
class ResultRowsTest {
    @Test
    void rowsDigestAsTheirValuesDoDirectlyWhateverTheirKindsAndSizes() {
        Random random = new Random(27);
        ResultRows rows = new ResultRows();
        ResultDigest direct = new ResultDigest(), after = new ResultDigest();
        for (int event = 0; event < 200; event++) {
            rows.reset();
            direct.reset();
            int n = random.nextInt(4);
            for (int row = 0; row < n; row++) {
                rows.beginRow();
                direct.beginRow();
                for (int v = 0; v < 1 + random.nextInt(6); v++) {
                    switch (random.nextInt(5)) {
                        case 0 -> {
                            rows.addNull();
                            direct.addNull();
                        }
                        case 1 -> {
                            long x = random.nextLong() >> random.nextInt(64);
                            rows.addLong(x);
                            direct.addLong(x);
                        }
                        case 2 -> {
                            double x = random.nextGaussian() * 1e6;
                            rows.addDouble(x);
                            direct.addString(Double.toString(x));
                        }
                        case 3 -> {
                            // up to 20 KB: past the buffer's first 4 KB, so it grows
                            byte[] b = new byte[random.nextInt(20_000)];
                            random.nextBytes(b);
                            int off = b.length == 0 ? 0 : random.nextInt(b.length);
                            rows.addBytes(b, off, b.length - off);
                            direct.addBytes(b, off, b.length - off);
                        }
                        default -> {
                            String s = "wörd " + random.nextInt();
                            rows.addString(s);
                            direct.addBytes(
                                    s.getBytes(StandardCharsets.UTF_8), 0, s.getBytes(StandardCharsets.UTF_8).length);
                        }
                    }
                }
                rows.endRow();
                direct.endRow();
            }
            assertThat(rows.rows()).isEqualTo(n);
            assertThat(rows.digest(after)).as("event %d", event).isEqualTo(direct.value());
        }
        rows.reset();
        assertThat(rows.digest(after)).as("no rows").isZero();
    }
}

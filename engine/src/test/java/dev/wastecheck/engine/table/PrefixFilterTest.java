package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.index.KeyEncoder;
import org.junit.jupiter.api.Test;

class PrefixFilterTest {
    @Test
    void neverMissesWhatWasAddedAndRarelyClaimsWhatWasNot() {
        PrefixFilter f = new PrefixFilter(20_000);
        KeyEncoder e = new KeyEncoder();
        for (long i = 0; i < 20_000; i++) {
            byte[] k = e.reset().appendLong(2 * i).appendString("role").toBytes();
            f.add(k, 8); // the first column's prefix only
        }
        assertThat(f.consulted()).isFalse();
        for (long i = 0; i < 20_000; i++) {
            byte[] k = e.reset().appendLong(2 * i).toBytes();
            assertThat(f.mightContain(k, k.length)).as("added %d", 2 * i).isTrue();
        }
        int falsePositives = 0;
        for (long i = 0; i < 20_000; i++) {
            byte[] k = e.reset().appendLong(2 * i + 1).toBytes();
            if (f.mightContain(k, k.length)) falsePositives++;
        }
        // 26 bits an entry here: about 0.004% expected, 0.1% allowed (at 13 bits, the ten-bit sizing, about 0.2%)
        assertThat(falsePositives).isLessThan(20);
        assertThat(f.consulted()).isTrue();
        assertThat(f.bytes()).isBetween(20_000L * PrefixFilter.BITS_PER_ENTRY / 8, 20_000L * 40 / 8);
    }
}

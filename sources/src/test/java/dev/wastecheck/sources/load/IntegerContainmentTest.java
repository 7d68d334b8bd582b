package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A reference by values, counted from two BIGINT columns' bits as SQL counts it. */
class IntegerContainmentTest {
    @Test
    void countsWhatTheContainmentQueryCounts() {
        Random r = new Random(7);
        for (int round = 0; round < 50; round++) {
            ColumnFacts c = ColumnFacts.integers();
            ColumnFacts k = ColumnFacts.integers();
            Set<Long> cs = new TreeSet<>();
            Set<Long> ks = new TreeSet<>();
            long base = r.nextInt(2001) - 1000; // negative values too, and words that straddle zero
            for (int i = 0; i < 1 + r.nextInt(300); i++) {
                long v = base + r.nextInt(500);
                c.addLong(v);
                cs.add(v);
            }
            for (int i = 0; i < 1 + r.nextInt(600); i++) {
                long v = base - 300 + r.nextInt(1100);
                k.addLong(v);
                ks.add(v);
            }
            long min = cs.iterator().next();
            long max = ((TreeSet<Long>) cs).last();
            long held = cs.stream().filter(ks::contains).count();
            long inRange = ks.stream().filter(v -> v >= min && v <= max).count();
            assertThat(c.containment(k)).as("round %d", round).containsExactly(cs.size(), held, inRange);
        }
    }

    @Test
    void noBitsNoCount() {
        ColumnFacts c = ColumnFacts.integers();
        ColumnFacts k = ColumnFacts.integers();
        assertThat(c.containment(k)).isNull(); // no values
        c.addLong(5);
        k.addLong(5);
        assertThat(c.containment(k)).containsExactly(1, 1, 1);
        c.addLong(Long.MAX_VALUE); // a range past the bits' budget
        assertThat(c.containment(k)).isNull();
    }
}

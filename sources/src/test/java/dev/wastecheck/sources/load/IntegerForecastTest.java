package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A BIGINT column's distinct count past the range its bits hold ({@link ColumnFacts#BITS_MAX}),
 * and the forecast at a run's cut ({@link ColumnFacts#countedWhole}) that decides whether the
 * rest of the run may leave it out: MediaWiki's 43 M revisions at 4 GB gave up the bits of
 * {@code rev_id} and {@code rev_parent_id} after the cut, and the sources loaded again.
 */
class IntegerForecastTest {
    @Test
    void anAscendingColumnIsCountedPastItsBitsAndAnotherIsNot() {
        ColumnFacts ids = new ColumnFacts(false, List.of());
        ColumnFacts parents = new ColumnFacts(false, List.of());
        long step = ColumnFacts.BITS_MAX / 8;
        for (long i = 0; i < 40; i++) {
            ids.addLong(i * step); // past BITS_MAX by the ninth value
            parents.addLong(i % 2 == 0 ? i * step : (i - 1) * step); // repeats: not ascending
        }
        assertThat(ids.integerDistinct()).isEqualTo(40L);
        assertThat(ids.countedWhole(ColumnStorage.INT64))
                .as("its bits gone already: a reference by values would read it")
                .isFalse();
        assertThat(parents.integerDistinct()).as("bits given up").isNull();
        assertThat(parents.countedWhole(ColumnStorage.INT64)).isFalse();
    }

    @Test
    void anAscendingColumnWhoseBitsHoldIsCountedWholeThoughItsRangeGrows() {
        ColumnFacts ids = new ColumnFacts(false, List.of());
        for (int i = 0; i < 1_000; i++) {
            ids.addLong(i);
        }
        ids.firstBatchRead();
        for (int i = 1_000; i < 20_000; i++) {
            ids.addLong(i);
        }
        assertThat(ids.countedWhole(ColumnStorage.INT64)).isTrue();
    }

    @Test
    void aRangeStillGrowingSinceTheFirstBatchIsNotCountedWhole() {
        ColumnFacts bounded = new ColumnFacts(false, List.of());
        ColumnFacts growing = new ColumnFacts(false, List.of());
        for (int i = 0; i < 1_000; i++) {
            bounded.addLong((i * 7919L) % 500); // every value of 0-499 by the first batch's end
            growing.addLong(i - (i % 3)); // parent ids: 0 0 0 3 3 3 ...
        }
        bounded.firstBatchRead();
        growing.firstBatchRead();
        for (int i = 1_000; i < 20_000; i++) {
            bounded.addLong((i * 7919L) % 500);
            growing.addLong(i - (i % 3));
        }
        assertThat(bounded.countedWhole(ColumnStorage.INT64)).isTrue();
        assertThat(growing.countedWhole(ColumnStorage.INT64)).isFalse();
        assertThat(growing.integerDistinct()).as("its bits still hold it").isEqualTo(6_667L);
    }
}

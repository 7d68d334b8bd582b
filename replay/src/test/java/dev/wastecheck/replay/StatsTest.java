package dev.wastecheck.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Medians and their distribution-free 95% intervals, and paired ratios. */
class StatsTest {
    @Test
    void theIntervalIsTheWidestOrderStatisticsThatCoverTheMedianAt95Percent() {
        assertThat(Stats.median(new double[] {5, 1, 3})).isEqualTo(3);
        assertThat(Stats.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        // five samples: no pair of order statistics reaches 95%, so the whole range (93.75%)
        assertThat(Stats.medianCi95(new double[] {9, 1, 5, 3, 7})).containsExactly(1, 9);
        // six: x(1)..x(6) covers 1 - 2/64 = 96.9%
        assertThat(Stats.medianCi95(new double[] {6, 5, 4, 3, 2, 1})).containsExactly(1, 6);
        // nine: x(2)..x(8) covers 1 - 2 * 10/512 = 96.1%, x(3)..x(7) only 82%
        assertThat(Stats.medianCi95(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9})).containsExactly(2, 8);
        assertThat(Stats.binomialCdf(9, 1)).isCloseTo(10.0 / 512, within(1e-12));
    }

    @Test
    void ratiosArePairedByRound() {
        assertThat(Stats.ratios(new double[] {10, 20, 40}, new double[] {5, 5, 10}))
                .containsExactly(2, 4, 4);
        assertThat(Stats.median(Stats.ratios(new double[] {10, 20, 40}, new double[] {5, 5, 10})))
                .isEqualTo(4);
    }

    @Test
    void theMedianRepeatIsTheOneWhoseCostIsTheMedian() {
        // the latencies a report shows come from this repeat, not from the first one
        assertThat(Stats.medianIndex(new double[] {9, 1, 5, 3, 7})).isEqualTo(2);
        // an even count: the lower of the two middle ones
        assertThat(Stats.medianIndex(new double[] {40, 10, 30, 20})).isEqualTo(3);
        // equal costs keep the repeats' order
        assertThat(Stats.medianIndex(new double[] {2, 2, 2})).isEqualTo(1);
        assertThat(Stats.medianIndex(new double[] {3, 1, 1, 3})).isEqualTo(2);
        assertThat(Stats.medianIndex(new double[] {8})).isZero();
    }
}

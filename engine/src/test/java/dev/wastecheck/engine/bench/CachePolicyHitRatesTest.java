package dev.wastecheck.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.index.CachePolicy;
import org.junit.jupiter.api.Test;

/**
 * Fig. 2a's bounds at a small scale (20,000 items, Zipf exponent 1.0, BenchBase Wikipedia's): the
 * index cache's Swap policy stays within 5 points of the oracle's hit rate, and Shrink, which
 * loses a quarter of its capacity on average, uses what it keeps as well as Swap does at that
 * size. {@link HitRateExperiment} prints the whole figure.
 */
class CachePolicyHitRatesTest {
    @Test
    void swapTracksTheOracleAndShrinkUsesWhatItKeepsAsWellAsSwap() {
        int n = 20_000;
        long warm = 50L * n, measured = 5L * n;
        HitRateSimulator sim = new HitRateSimulator(n, 256, 1.0, 42);
        for (double size : new double[] {0.10, 0.50}) {
            double oracle = sim.oracle(size);
            double swap = sim.run(CachePolicy.SWAP, size, warm, measured);
            double shrink = sim.run(CachePolicy.SHRINK, size, warm, measured);
            double swapAtShrinksMeanSize = sim.run(CachePolicy.SWAP, 0.75 * size, warm, measured);
            assertThat(oracle - swap).as("oracle - Swap at size %.2f", size).isLessThan(0.05);
            assertThat(swapAtShrinksMeanSize - shrink)
                    .as("Swap at 75%% of %.2f - Shrink", size)
                    .isLessThan(0.05);
            // no cache that shrinks as Shrink does can beat this oracle
            assertThat(shrink).as("Shrink at size %.2f", size).isLessThan(sim.shrinkOracle(size) + 0.01);
            assertThat(swap).as("Swap at size %.2f", size).isGreaterThan(0).isLessThanOrEqualTo(oracle + 0.01);
        }
    }
}

package dev.wastecheck.engine.bench;

import dev.wastecheck.engine.index.CachePolicy;
import java.util.Locale;

/**
 * Fig. 2a: the index cache's hit rate under Swap and Shrink against the oracle, per cache size and
 * skew. An experiment, not a test (its correctness bounds are {@link CachePolicyHitRatesTest}):
 * {@code ./bench fig2a} prints a small table; {@code ./bench fig2a full} the paper's scale
 * (100,000 items, five exponents, eight sizes); {@code warm=N} sets the warm-up lookups per item
 * (default 50; the swap rule converges slowly at s = 0.5, and docs/benchmarks.md's table uses 200):
 * <pre>./bench fig2a full warm=200</pre>
 */
public final class HitRateExperiment {
    static final double[] SIZES = {0.05, 0.10, 0.15, 0.25, 0.35, 0.50, 0.75, 1.00};

    private HitRateExperiment() {}

    public static void main(String[] args) {
        boolean full = java.util.Arrays.asList(args).contains("full");
        long warmPerItem = java.util.Arrays.stream(args)
                .filter(a -> a.startsWith("warm="))
                .mapToLong(a -> Long.parseLong(a.substring(5)))
                .findFirst()
                .orElse(50);
        int n = full ? 100_000 : 20_000;
        long warm = warmPerItem * n, meas = (full ? 10L : 5L) * n;
        double[] exps = full
                ? new double[] {0.5, 0.8, 1.0, 1.05, 1.2}
                : new double[] {1.0
                }; // quick: BenchBase Wikipedia's exponent (1.0001); s = 0.8 sits at the 5-point line
        double[] sizes = full ? SIZES : new double[] {0.10, 0.25, 0.50};
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "items %d, keys/leaf %d, warm-up %d, measured %d lookups; Shrink overwrites half of each cache at a constant rate over the measured lookups%n%n",
                n,
                256,
                warm,
                meas));
        out.append(
                "| s | cache size | oracle | leaf oracle | Swap | Shrink | oracle - Swap | Swap - Shrink | Swap at 75% size | that - Shrink | oracle under Shrink | Swap - that |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        double worstSwapGap = 0, worstShrinkGap = 0, worstShrinkVsCapacity = 0;
        for (double s : exps) {
            HitRateSimulator sim = new HitRateSimulator(n, 256, s, 42);
            for (double c : sizes) {
                double o = sim.oracle(c);
                double sw = sim.run(CachePolicy.SWAP, c, warm, meas);
                double sh = sim.run(CachePolicy.SHRINK, c, warm, meas);
                double o75 = sim.run(CachePolicy.SWAP, 0.75 * c, warm, meas); // Swap at Shrink's mean capacity
                double os = sim.shrinkOracle(c); // the best any cache that shrinks as Shrink does can reach
                out.append(String.format(
                        Locale.ROOT,
                        "| %.2f | %.0f%% | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |%n",
                        s,
                        c * 100,
                        o * 100,
                        sim.leafOracle(c) * 100,
                        sw * 100,
                        sh * 100,
                        (o - sw) * 100,
                        (sw - sh) * 100,
                        o75 * 100,
                        (o75 - sh) * 100,
                        os * 100,
                        (sw - os) * 100));
                if (s <= 1.0) {
                    worstSwapGap = Math.max(worstSwapGap, o - sw);
                    worstShrinkGap = Math.max(worstShrinkGap, sw - sh);
                    worstShrinkVsCapacity = Math.max(worstShrinkVsCapacity, o75 - sh);
                }
            }
        }
        out.append(String.format(
                Locale.ROOT,
                "%nworst (s = 0.5, 0.8, 1.0): oracle - Swap %.1f points, Swap - Shrink %.1f points, Swap at Shrink's mean size - Shrink %.1f points%n",
                worstSwapGap * 100,
                worstShrinkGap * 100,
                worstShrinkVsCapacity * 100));
        System.out.println(out);
    }
}

package dev.wastecheck.engine.bench;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.index.CacheRegion;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Fig. 2a of the paper: index cache hit rate against cache size, for Swap and Shrink, beside an
 * oracle cache that always holds the most popular items.
 *
 * <p>What is real: the replacement mechanism is the engine's own {@link CacheRegion} (random
 * placement, swap toward the stable point, random eviction in the peripheral buckets, Shrink's
 * periphery overwrites), running on page buffers. What is modeled: each leaf's cache window is
 * sized to exactly {@code cache_size x keysPerLeaf} item slots, with the stable point where a
 * leaf of 4-byte keys puts it (K/(K+D) = 14/20), so that sizes up to 100% of the table can be
 * tried: real leaves of 8 KB hold free space for roughly 60% of their tuples' 16-byte items
 * (see docs/benchmarks.md (engine)), which caps cache_size in the engine, not here.
 *
 * <p>The workload: N items, item of popularity rank r drawn with probability proportional to
 * (r+1)^-s, ranks scattered over keys by a random permutation (hot tuples are not clustered),
 * keys in order over leaves of {@code keysPerLeaf}. The oracle holds the globally most popular
 * cache_size x N items and sees the same draws.
 */
public final class HitRateSimulator {
    public static final int ITEM_SIZE = 16;
    public static final double STABLE = 14.0 / 20.0;

    private final int n;
    private final int keysPerLeaf;
    private final double[] cdf;
    private final int[] keyOfRank;
    private final long seed;

    public HitRateSimulator(int n, int keysPerLeaf, double exponent, long seed) {
        this.n = n;
        this.keysPerLeaf = keysPerLeaf;
        this.seed = seed;
        cdf = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) {
            sum += Math.pow(r + 1, -exponent);
            cdf[r] = sum;
        }
        for (int r = 0; r < n; r++) cdf[r] /= sum;
        keyOfRank = new int[n];
        for (int i = 0; i < n; i++) keyOfRank[i] = i;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = keyOfRank[i];
            keyOfRank[i] = keyOfRank[j];
            keyOfRank[j] = t;
        }
    }

    /** The oracle's hit rate: the probability mass of the top cacheSize x N items. */
    public double oracle(double cacheSize) {
        int c = (int) Math.round(cacheSize * n);
        return c <= 0 ? 0 : cdf[Math.min(n, c) - 1];
    }

    /**
     * The oracle under Shrink: a cache that always holds the most popular items but loses
     * capacity as Shrink's does, from cacheSize x N to half of it at a constant rate over the
     * measured lookups. Its hit rate is the mean of the oracle's over that range of sizes: no
     * policy whose cache shrinks so can do better.
     */
    public double shrinkOracle(double cacheSize) {
        int steps = 1000;
        double sum = 0;
        for (int i = 0; i < steps; i++) sum += oracle(cacheSize * (1 - (i + 0.5) / steps / 2));
        return sum / steps;
    }

    /** The best any per-leaf cache can do: each leaf holds its own most popular cap items. */
    public double leafOracle(double cacheSize) {
        int leaves = (n + keysPerLeaf - 1) / keysPerLeaf;
        int cap = (int) Math.ceil(cacheSize * keysPerLeaf);
        int[] held = new int[leaves];
        double sum = 0;
        for (int r = 0; r < n; r++) { // ranks in popularity order: a leaf takes its first cap
            int leaf = keyOfRank[r] / keysPerLeaf;
            if (held[leaf] < cap) {
                held[leaf]++;
                sum += cdf[r] - (r == 0 ? 0 : cdf[r - 1]);
            }
        }
        return sum;
    }

    private int draw(SplittableRandom r) {
        double u = r.nextDouble();
        int lo = 0, hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /**
     * Runs {@code warmup} then {@code measured} lookups against per-leaf caches; returns the hit
     * rate over the measured ones. Shrink overwrites the periphery of every leaf's cache at a
     * constant rate during the measured lookups, so that half of it is gone at the end.
     */
    public double run(CachePolicy policy, double cacheSize, long warmup, long measured) {
        int leaves = (n + keysPerLeaf - 1) / keysPerLeaf;
        int cap = (int) Math.ceil(cacheSize * keysPerLeaf);
        ByteBuffer[] pages = new ByteBuffer[leaves];
        int[] trims = new int[leaves];
        for (int i = 0; i < leaves; i++) pages[i] = ByteBuffer.allocate(cap * ITEM_SIZE);
        CacheRegion region = new CacheRegion();
        SplittableRandom r = new SplittableRandom(seed * 31 + 7);
        byte[] fields = new byte[ITEM_SIZE - CacheRegion.ITEM_FIELDS];
        long hits = 0;
        for (long i = 0; i < warmup + measured; i++) {
            int key = keyOfRank[draw(r)];
            int leaf = key / keysPerLeaf;
            ByteBuffer page = pages[leaf];
            int hi = page.capacity();
            region.wrap(page, ITEM_SIZE, 0, hi, STABLE * hi, cap, trims[leaf]);
            if (policy == CachePolicy.SHRINK && i >= warmup) {
                // overwrite the periphery at a constant rate: half the window by the end of the run
                int target = (int) ((i - warmup) * (long) (cap / 2) / measured);
                if (trims[leaf] < target) {
                    while (trims[leaf] < target) trims[leaf] = region.trimOne(trims[leaf]);
                    region.wrap(page, ITEM_SIZE, 0, hi, STABLE * hi, cap, trims[leaf]);
                }
            }
            int slot = region.find(key);
            if (slot >= 0) {
                region.promote(slot);
                if (i >= warmup) hits++;
            } else {
                region.place(key, fields, r, false);
            }
        }
        return (double) hits / measured;
    }
}

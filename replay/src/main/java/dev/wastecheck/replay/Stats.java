package dev.wastecheck.replay;

import java.util.Arrays;

/**
 * Figures one can trust from a few repeats on a shared machine: the median and a distribution-free
 * 95% interval for it (order statistics of the binomial: no normality assumed), and ratios taken
 * pair by pair from interleaved repeats, so that a slow moment of the machine hits both sides of
 * a ratio.
 */
public final class Stats {
    private Stats() {}

    public static double median(double[] xs) {
        if (xs.length == 0) return 0;
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * The position of the median sample (of an even count, the lower of the two middle ones; ties
     * go to the earlier repeat): the repeat whose other measurements stand for the median one.
     */
    public static int medianIndex(double[] xs) {
        if (xs.length == 0) throw new IllegalArgumentException("no samples");
        Integer[] order = new Integer[xs.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> xs[a] != xs[b] ? Double.compare(xs[a], xs[b]) : Integer.compare(a, b));
        return order[(xs.length - 1) / 2];
    }

    /**
     * The interval [x(k), x(n+1-k)] of the sorted samples with the largest k whose coverage of the
     * median is at least 95% (P(k <= B(n, 1/2) <= n-k) >= 0.95); with fewer than 6 samples no k
     * reaches 95% and the interval is [min, max] (coverage 1 - 2^(1-n): 94% for 5, 88% for 4).
     */
    public static double[] medianCi95(double[] xs) {
        if (xs.length == 0) return new double[] {0, 0};
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        int best = 1;
        for (int k = 1; k <= n / 2; k++) {
            if (1 - 2 * binomialCdf(n, k - 1) >= 0.95) best = k;
            else break;
        }
        return new double[] {s[best - 1], s[n - best]};
    }

    /** P(B(n, 1/2) <= k). */
    static double binomialCdf(int n, int k) {
        double sum = 0, c = 1;
        for (int i = 0; i <= k; i++) {
            sum += c;
            c = c * (n - i) / (i + 1);
        }
        return sum / Math.pow(2, n);
    }

    /** Ratios a[i] / b[i] of paired samples. */
    public static double[] ratios(double[] a, double[] b) {
        double[] out = new double[Math.min(a.length, b.length)];
        for (int i = 0; i < out.length; i++) out[i] = b[i] == 0 ? 0 : a[i] / b[i];
        return out;
    }
}

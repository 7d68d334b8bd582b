package dev.wastecheck.engine.block;

import java.util.List;

/** The median, minimum and maximum of a benchmark's repeats (the figure and its spread). */
final class Spread {
    private Spread() {}

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(d -> d).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static double min(List<Double> xs) {
        return xs.stream().mapToDouble(d -> d).min().orElse(0);
    }

    static double max(List<Double> xs) {
        return xs.stream().mapToDouble(d -> d).max().orElse(0);
    }
}

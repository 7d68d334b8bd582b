package dev.wastecheck.traces.generate;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * How often each popularity rank is requested: rank 0 is the most read page. Either Zipf-like
 * ({@code weight(r) = 1 / (r + 1)^s}) or a real curve from a counts file (one count per line, such
 * as elwiki's readcount.txt), resampled onto the generated page count so that the hottest x% of
 * ranks keep the share of reads they have in the file.
 */
public final class Popularity {
    private final double[] cumulative;

    private Popularity(double[] weights) {
        cumulative = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            cumulative[i] = sum;
        }
        for (int i = 0; i < cumulative.length; i++) {
            cumulative[i] /= sum;
        }
    }

    public static Popularity zipf(int ranks, double exponent) {
        double[] w = new double[ranks];
        for (int r = 0; r < ranks; r++) {
            w[r] = Math.pow(r + 1, -exponent);
        }
        return new Popularity(w);
    }

    /**
     * Reads one non-negative count per line (blank lines skipped) and resamples them onto {@code
     * ranks} buckets: with more counts than ranks, bucket i sums the counts of the file's ranks
     * [i*M/n, (i+1)*M/n); with fewer, each count is shared evenly by the buckets it covers.
     *
     * @throws GeneratorInputException naming the file and line of a value that is not a count
     */
    public static Popularity fromCounts(Path file, int ranks) throws IOException {
        long[] counts = new long[1 << 16];
        int m = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String t = line.trim();
                if (t.isEmpty()) {
                    continue;
                }
                long v;
                try {
                    v = Long.parseLong(t);
                } catch (NumberFormatException e) {
                    v = -1;
                }
                if (v < 0) {
                    throw new GeneratorInputException(
                            file + ":" + lineNo + ": expected a non-negative count, found '" + abbreviate(t) + "'");
                }
                if (m == counts.length) {
                    counts = Arrays.copyOf(counts, m * 2);
                }
                counts[m++] = v;
            }
        }
        if (m == 0) {
            throw new GeneratorInputException(file + ":1: expected one count per line, found no counts");
        }
        long[] sorted = Arrays.copyOf(counts, m);
        Arrays.sort(sorted);
        double[] w = new double[ranks];
        if (m >= ranks) {
            for (int i = 0; i < ranks; i++) {
                long from = (long) i * m / ranks;
                long to = (long) (i + 1) * m / ranks;
                double s = 0;
                for (long k = from; k < to; k++) {
                    s += sorted[m - 1 - (int) k];
                }
                w[i] = s;
            }
        } else {
            int[] covered = new int[m];
            for (int i = 0; i < ranks; i++) {
                covered[(int) ((long) i * m / ranks)]++;
            }
            for (int i = 0; i < ranks; i++) {
                int k = (int) ((long) i * m / ranks);
                w[i] = (double) sorted[m - 1 - k] / covered[k];
            }
        }
        return new Popularity(w);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    public int ranks() {
        return cumulative.length;
    }

    /** The rank a uniform draw {@code u} in [0,1) falls on. */
    public int rank(double u) {
        int i = Arrays.binarySearch(cumulative, u);
        int r = i >= 0 ? i + 1 : -i - 1;
        return Math.min(r, cumulative.length - 1);
    }

    /** The expected share of requests on the hottest {@code fraction} of ranks. */
    public double shareOfTop(double fraction) {
        int k = (int) Math.ceil(fraction * cumulative.length);
        return k == 0 ? 0 : cumulative[k - 1];
    }
}

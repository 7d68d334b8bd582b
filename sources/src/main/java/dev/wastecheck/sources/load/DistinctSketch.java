package dev.wastecheck.sources.load;

/**
 * An estimate of a column's distinct values where the loader keeps no exact count: a
 * HyperLogLog sketch (Flajolet, Fusy, Gandouet, Meunier, "HyperLogLog: the analysis of a
 * near-optimal cardinality estimation algorithm", AofA 2007) of 2^14 registers, read by Ertl's
 * improved raw estimator (O. Ertl, "New cardinality estimation algorithms for HyperLogLog
 * sketches", arXiv:1702.01284, 2017, Algorithm 6), which needs neither the original's
 * linear-counting switch nor HyperLogLog++'s tables of empirical bias. Its relative standard
 * error is about 1.04 / sqrt(2^14) = 0.81%.
 *
 * <p>It stands for the profile's {@code approx_count_distinct}, whose DuckDB sketch keeps 64
 * registers (error about 16%, {@code HyperLogLog::P = 6} in DuckDB 2.0): with that error the
 * profile's screen had to count a column exactly whenever its estimate came within a factor of
 * two of another column's count (MediaWiki's 10.96 M {@code rev_sha1} checksums beside {@code
 * rev_parent_id}'s 6.93 M: 2.3 s of a 16 s run at 1 GB, docs/benchmarks.md, issue 32); with
 * this one's, a margin of a few percent decides.
 *
 * <p>Each value is hashed once, by a hash the loader has at hand: a value of at most {@link
 * DistinctHashes#WORDS_MAX} bytes by the mix of its two words that its word table keys on
 * ({@link DistinctHashes#wordKey}), a longer one by the low half of its 128-bit MurmurHash3
 * ({@link DistinctHashes#murmur3}); a column whose values were counted by MurmurHash3 until its
 * table outgrew the budget keeps MurmurHash3 for every length ({@code murmurAll}), so that each
 * value always has one hash. A table given up pours its hashes in ({@link
 * DistinctHashes#spillInto}): a sketch of distinct values is the sketch of all of them.
 *
 * <pre>
 *   a 64-bit hash:   bit 63 ........ 50 | 49 .................................. 0
 *                    register (14 bits)  | rank: leading zeros of these 50 bits + 1 (1..51)
 *
 *   byte:            0        1        2                 16383
 *   registers      [ r0     | r1     | r2     | ...    | r16383 ]   each the greatest rank seen, 0: none
 * </pre>
 */
final class DistinctSketch {
    /** Index bits: 2^14 registers, 16 KB a column. */
    static final int P = 14;
    /** Registers. */
    static final int M = 1 << P;
    /** Bits of the hash past the index: a register's rank is at most {@code Q + 1}. */
    private static final int Q = 64 - P;

    /**
     * The factor an estimate stays within of the true count, to the profile's decisions: six
     * standard errors (6 * 0.81% = 4.9%), which a sketch of a million-value column misses with
     * a chance of about 2e-9.
     */
    static final double MARGIN = 1.05;

    private final byte[] registers = new byte[M];
    /** MurmurHash3 for every value, short ones too (a sketch poured from a table of such hashes). */
    private final boolean murmurAll;
    /** Computes MurmurHash3; its own table is not used. */
    private final DistinctHashes hasher = DistinctHashes.hasher();

    private boolean any;

    DistinctSketch(boolean murmurAll) {
        this.murmurAll = murmurAll;
    }

    boolean murmurAll() {
        return murmurAll;
    }

    /** Adds the value {@code b[off, off+len)}, whose words ({@link ColumnFacts#prefix}, {@link ColumnFacts#second}) are {@code w} and {@code w2}. */
    void add(byte[] b, int off, int len, long w, long w2) {
        addHash(
                !murmurAll && len <= DistinctHashes.WORDS_MAX
                        ? DistinctHashes.wordKey(w, w2, len)
                        : hasher.murmur3(b, off, len));
    }

    /** Adds a value given whole ({@link #add}), reading its words here. */
    void add(byte[] v) {
        add(v, 0, v.length, ColumnFacts.prefix(v, 0, v.length), ColumnFacts.second(v, 0, v.length));
    }

    /** Adds a value by its 64-bit hash. */
    void addHash(long h) {
        int at = (int) (h >>> Q);
        // the rank: leading zeros of the low Q bits plus one; a sentinel bit caps it at Q + 1
        byte rank = (byte) (Long.numberOfLeadingZeros((h << P) | (1L << (P - 1))) + 1);
        if (rank > registers[at]) {
            registers[at] = rank;
        }
        any = true;
    }

    /** The estimated number of distinct values added, rounded. */
    long estimate() {
        if (!any) {
            return 0;
        }
        int[] c = new int[Q + 2]; // how many registers hold each rank
        for (byte r : registers) {
            c[r]++;
        }
        double z = M * tau(1.0 - (double) c[Q + 1] / M);
        for (int k = Q; k >= 1; k--) {
            z = 0.5 * (z + c[k]);
        }
        z += M * sigma((double) c[0] / M);
        double alphaInf = 0.5 / Math.log(2);
        return Math.round(alphaInf * M * (double) M / z);
    }

    /** Ertl's sigma: the registers still 0, as a share {@code x} of them (below 1: something was added). */
    private static double sigma(double x) {
        double y = 1;
        double z = x;
        double previous;
        do {
            x *= x;
            previous = z;
            z += x * y;
            y += y;
        } while (z != previous);
        return z;
    }

    /** Ertl's tau: the registers below the greatest rank, as a share {@code x} of them. */
    private static double tau(double x) {
        if (x == 0 || x == 1) {
            return 0;
        }
        double y = 1;
        double z = 1 - x;
        double previous;
        do {
            x = Math.sqrt(x);
            previous = z;
            y *= 0.5;
            z -= (1 - x) * (1 - x) * y;
        } while (z != previous);
        return z / 3;
    }
}

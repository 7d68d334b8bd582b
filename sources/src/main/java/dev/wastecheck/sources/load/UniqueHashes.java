package dev.wastecheck.sources.load;

import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Whether every value of a column differs from every other, told by the loader from 64-bit hashes
 * of the values, with a proof: equal values have equal hashes, so if no two hashes are equal no
 * two values are, and {@code count(DISTINCT c)} is the number of values. Where two hashes agree
 * (two equal values, or a collision) nothing is claimed: the count is left to SQL as before. So
 * the answer is exact or absent, never an estimate; the hash's quality decides only how often a
 * unique column falls back (for n values, about n^2 / 2^65 of them: 3e-6 at 11 million).
 *
 * <p>For the near-unique keys of under {@link DistinctHashes.Budget#minMean} bytes that get no
 * 128-bit hashes (MediaWiki's 31-byte {@code rev_sha1}, a UUID column): DuckDB's exact {@code
 * count(DISTINCT)} of them, after its estimate, was the profile's largest query (1.1 M values at
 * 100 MB, 11 M at 1 GB; docs/benchmarks.md, issue 32). A hash is appended, not probed into a table
 * of millions of slots (a cache miss a value: an32c's word tables of a million values cost the
 * load more than the count they replaced); the equal hashes are looked for at the run's end, a
 * partition at a time, in a table that fits the cache. A column that repeats is told early
 * by a sample: the hashes whose low {@link #SAMPLE_BITS} bits are zero (one in 64) also go into
 * an open-addressing set, and a repeat there gives the column up at once (ORM's short codes,
 * pandas' doubles), its memory returned.
 *
 * <p>Memory, drawn from the loader's {@link DistinctHashes.Budget} (shared with the 128-bit
 * hashes; over it the column is given up): a hash's top {@link #PARTITION_BITS} bits choose its
 * partition, and a partition is a list of blocks of {@link #BLOCK} hashes, filled in order:
 *
 * <pre>
 *   partitions[p]:  block 0                      block 1               block k (filling)
 *                   [ h | h | ... | h ]  (1024)  [ h | h | ... | h ]   [ h | ... | h | 0 ... ]
 *                   8 bytes a hash, every h with top 8 bits = p; used[p] of them in all
 *   sample:         [ s | 0 | s | s | 0 | ... ]  open addressing, 0 empty, the h with h & 63 == 0
 * </pre>
 *
 * At 11 million values: 88 MB of blocks (at most one partly filled block a partition beyond),
 * the sample's 172,000 hashes in 4 MB at most.
 */
final class UniqueHashes {
    /** Bits of a hash that choose its partition. */
    static final int PARTITION_BITS = 8;

    static final int PARTITIONS = 1 << PARTITION_BITS;

    /** Hashes a block holds. */
    static final int BLOCK = 1024;

    private static final int BLOCK_SHIFT = 10;

    /** Hashes with this many low bits zero also go into the sample set. */
    static final int SAMPLE_BITS = 6;

    private static final long SAMPLE_MASK = (1L << SAMPLE_BITS) - 1;

    /** The sample set's first size, in hashes (a power of two). */
    private static final int SAMPLE_FIRST = 1 << 10;

    private final DistinctHashes.Budget budget;
    /** Per partition its blocks, in order. */
    private long[][][] blocks = new long[PARTITIONS][][];
    /** Per partition, its hashes so far. */
    private final int[] used = new int[PARTITIONS];
    /** The sample's set: 0 for an empty slot (a sampled hash of 0 is not kept). */
    private long[] sample;

    private int sampleSize;
    /** Slots of the budget drawn ({@link DistinctHashes#SLOT_BYTES} each), given back at the end. */
    private long drawn;

    private long count;

    private UniqueHashes(DistinctHashes.Budget budget) {
        this.budget = budget;
    }

    /** Null when the budget cannot give the sample set's first table. */
    static UniqueHashes start(DistinctHashes.Budget budget) {
        if (budget == null || !budget.take(SAMPLE_FIRST / 2)) {
            return null;
        }
        UniqueHashes u = new UniqueHashes(budget);
        u.drawn = SAMPLE_FIRST / 2;
        u.sample = new long[SAMPLE_FIRST];
        return u;
    }

    /**
     * The 64-bit hash of the value {@code b[off, off+len)}, whose first sixteen bytes are the
     * words {@code w} and {@code w2} ({@link ColumnFacts#prefix}, {@link ColumnFacts#second}: read
     * for the bounds already); the rest is read a word at a time, the last word ending at the
     * value's end (overlapping the one before it). Every byte and the length are mixed in.
     */
    static long hash(long w, long w2, byte[] b, int off, int len) {
        long h = len * 0x9E3779B97F4A7C15L;
        h = round(h, w);
        h = round(h, w2);
        if (len > 16) {
            int at = off + 16;
            int end = off + len;
            for (; at + 8 <= end; at += 8) {
                h = round(h, MemoryUtil.getLong(b, at));
            }
            if (at < end) {
                h = round(h, MemoryUtil.getLong(b, end - 8));
            }
        }
        return fmix(h);
    }

    private static long round(long h, long k) {
        k *= 0x87c37b91114253d5L;
        k = Long.rotateLeft(k, 31);
        k *= 0x4cf5ad432745937fL;
        h ^= k;
        h = Long.rotateLeft(h, 27);
        return h * 5 + 0x52dce729;
    }

    /** MurmurHash3's finalizer, a bijection of the 64 bits. */
    static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /**
     * Keeps a value's hash ({@link #hash}); false when the sample saw it before or the budget
     * cannot give a block: then the hashes are given up (their memory returned) and this must
     * not be used again.
     */
    boolean add(long h) {
        if ((h & SAMPLE_MASK) == 0 && h != 0 && !sampled(h)) {
            giveUp();
            return false;
        }
        int p = (int) (h >>> (64 - PARTITION_BITS));
        int u = used[p];
        int k = u & (BLOCK - 1);
        long[][] list = blocks[p];
        if (k == 0) {
            if (!budget.take(BLOCK / 2)) {
                giveUp();
                return false;
            }
            drawn += BLOCK / 2;
            int n = u >>> BLOCK_SHIFT;
            if (list == null) {
                list = blocks[p] = new long[4][];
            } else if (n == list.length) {
                list = blocks[p] = Arrays.copyOf(list, 2 * n);
            }
            list[n] = new long[BLOCK];
        }
        list[u >>> BLOCK_SHIFT][k] = h;
        used[p] = u + 1;
        count++;
        return true;
    }

    /** Puts a sampled hash in the sample's set; false when it is there already. */
    private boolean sampled(long h) {
        if (2 * (sampleSize + 1) > sample.length) {
            if (!budget.take(sample.length / 2)) {
                return true; // no room to grow: sample no more (the end's check still sees every hash)
            }
            drawn += sample.length / 2;
            long[] old = sample;
            sample = new long[2 * old.length];
            sampleSize = 0;
            for (long x : old) {
                if (x != 0) {
                    put(sample, x);
                    sampleSize++;
                }
            }
        }
        if (!put(sample, h)) {
            return false;
        }
        sampleSize++;
        return true;
    }

    /** Inserts {@code h} (not 0) into an open-addressing set of longs; false when present. */
    private static boolean put(long[] table, long h) {
        int mask = table.length - 1;
        for (int at = (int) ((h * 0x9E3779B97F4A7C15L) >>> 40) & mask; ; at = (at + 1) & mask) {
            long x = table[at];
            if (x == 0) {
                table[at] = h;
                return true;
            }
            if (x == h) {
                return false;
            }
        }
    }

    /** The hashes kept so far: the values added. */
    long count() {
        return count;
    }

    /**
     * Looks for two equal hashes, a partition at a time; returns the number of values when there
     * are none (then every value differs), else -1. Frees the memory either way.
     */
    long finish() {
        long n = count;
        long[] table = null;
        boolean zero = false; // a hash of 0, which the table cannot hold (0 marks an empty slot)
        try {
            for (int p = 0; p < PARTITIONS; p++) {
                int u = used[p];
                if (u == 0) {
                    continue;
                }
                int size = Integer.highestOneBit(u) << 2; // at most half full
                if (table == null || table.length < size) {
                    table = new long[size];
                } else {
                    Arrays.fill(table, 0, size, 0);
                }
                int mask = size - 1;
                long[][] list = blocks[p];
                blocks[p] = null;
                for (int i = 0; i < u; i++) {
                    long h = list[i >>> BLOCK_SHIFT][i & (BLOCK - 1)];
                    if (h == 0) {
                        if (zero) {
                            return -1;
                        }
                        zero = true;
                        continue;
                    }
                    for (int at = (int) ((h * 0x9E3779B97F4A7C15L) >>> 40) & mask; ; at = (at + 1) & mask) {
                        long x = table[at];
                        if (x == 0) {
                            table[at] = h;
                            break;
                        }
                        if (x == h) {
                            return -1; // two values with one hash: equal, or a collision; not told apart here
                        }
                    }
                }
            }
            return n;
        } finally {
            giveUp();
        }
    }

    /** Frees the hashes and returns their slots to the budget. */
    void giveUp() {
        blocks = null;
        sample = null;
        if (drawn > 0) {
            budget.give(drawn);
            drawn = 0;
        }
    }
}

package dev.wastecheck.engine.table;

/**
 * A Bloom filter over encoded key prefixes: "might a tuple whose key starts with these bytes be
 * here?" The cold partition of a table keeps one per index and prefix length, so that a lookup
 * by a key prefix (MediaWiki's slots by {@code slot_revision_id} alone), which must otherwise
 * search the cold partition too, skips it when the answer is no. Deletes leave their bits set:
 * a stale bit costs a needless search, never a missed tuple.
 *
 * <p>At least {@value #BITS_PER_ENTRY} bits per expected entry (the next power of two) and seven probes (double
 * hashing over a 64-bit hash): under 0.1% false positives. It was ten bits (about 1%): held out on a 2,000-page
 * wiki, the cold {@code slots} filter then had 11.3 bits an entry, and its false positives descended the cold
 * {@code slots} index, 16 of the recommended design's 42 device reads and 0.125 MiB of its working set, four times
 * the filter's own 32 KiB (docs/benchmarks.md, issue 27).
 */
public final class PrefixFilter {
    private static final int PROBES = 7;
    /** The fewest bits a filter gives each expected entry. */
    static final int BITS_PER_ENTRY = 16;

    private final long[] bits;
    private final long mask;
    private volatile boolean consulted;

    /** A filter sized for {@code expected} prefixes. */
    public PrefixFilter(long expected) {
        long n = Long.highestOneBit(Math.max(64, expected * BITS_PER_ENTRY - 1)) << 1;
        bits = new long[(int) Math.min(Integer.MAX_VALUE - 8, n >>> 6)];
        mask = (long) bits.length * 64 - 1;
    }

    public void add(byte[] key, int len) {
        long h = hash(key, len);
        long h2 = (h >>> 32) | 1;
        for (int i = 0; i < PROBES; i++) {
            long b = (h + i * h2) & mask;
            bits[(int) (b >>> 6)] |= 1L << b;
        }
    }

    public boolean mightContain(byte[] key, int len) {
        if (!consulted) consulted = true;
        long h = hash(key, len);
        long h2 = (h >>> 32) | 1;
        for (int i = 0; i < PROBES; i++) {
            long b = (h + i * h2) & mask;
            if ((bits[(int) (b >>> 6)] & (1L << b)) == 0) return false;
        }
        return true;
    }

    /** Whether any lookup has asked this filter (one never asked need not be kept in memory). */
    public boolean consulted() {
        return consulted;
    }

    /** Memory the filter takes. */
    public long bytes() {
        return (long) bits.length * 8;
    }

    private static long hash(byte[] k, int len) {
        long h = 0x9E3779B97F4A7C15L ^ len;
        for (int i = 0; i < len; i++) {
            h = (h ^ (k[i] & 0xFF)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}

package dev.wastecheck.sources.load;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;

/**
 * The number of distinct byte strings of a column, counted by the loader as it fills the column
 * in: each value's 128-bit MurmurHash3 (x64 variant) kept once in an
 * open-addressing table. It stands for the profile's {@code count(DISTINCT c)} and its
 * estimate, which on a 1 GB text column (637,422 values of 200-3,000 characters) took 1.08 s of
 * the profile's 1.19 s after the load, on two cores (docs/benchmarks.md, issue 32).
 *
 * <p>Exact but for hash collisions: two different values count as one only when all 128 bits of
 * their hashes agree. For n values the chance of any such pair is at most n^2 / 2^129 (the
 * birthday bound): 1.2e-27 for a million values, 3e-25 for 16 million, far below the chance of
 * a memory error. The profile treats the count as exact (no {@code distinct_estimated}).
 *
 * <p>The table's memory comes from a {@link Budget} shared by one table's columns (both fillers
 * draw on it); a column whose table would outgrow it gives up ({@link #add} false), frees its
 * table, and leaves its count to SQL as before. The table is one array of longs, a slot two
 * of them side by side (a cache line holds four slots: a probe costs one miss, not one for each
 * half, as two parallel arrays did):
 *
 * <pre>
 *   long:    0       1       2       3       4       5            2 * capacity - 1
 *   slots [ h0.lo | h0.hi | 0     | 0     | h2.lo | h2.hi | ... | hk.hi ]   0 and 0: empty
 *           slot 0          slot 1          slot 2
 * </pre>
 *
 * A hash's slot is its {@code hi} word's top bits, probed linearly; the capacity doubles past
 * {@link #LOAD} of it full. A hash of (0, 0) is stored as (1, 0), so that it does not read as
 * empty (a collision of 2^-128 more).
 */
final class DistinctHashes {
    /** Bytes one slot takes: two longs. */
    static final int SLOT_BYTES = 16;
    /** Slots a table starts with. */
    private static final int FIRST = 1 << 10;
    /** The fill past which the table doubles: 0.7 of its slots. */
    private static final double LOAD = 0.7;
    /** The hash's seed (any fixed one; 0 as the library's defaults). */
    private static final int SEED = 0;

    /**
     * Slots one table's columns may hold together: a shared limit (both fillers draw on it), so
     * that the memory stays flat however many rows and columns a dump has.
     */
    static final class Budget {
        private final AtomicLong slots;
        /** The slots the tables of short values' words may hold together ({@link #startWords}). */
        private final AtomicLong wordSlots;
        /** The least mean value length of a column that is hashed ({@link #minMeanBytes}). */
        final long minMean;

        /** @param bytes the most bytes of slots the columns may hold together */
        Budget(long bytes) {
            this(bytes, 0, 0);
        }

        /** A loader's budget: {@code bytes} for hashes, and {@link #wordBudgetBytes} for short values' words. */
        Budget(long bytes, long minMean) {
            this(bytes, minMean, wordBudgetBytes());
        }

        /** @param wordBytes the most bytes of slots the tables of short values' words may hold together */
        Budget(long bytes, long minMean, long wordBytes) {
            this.slots = new AtomicLong(bytes / SLOT_BYTES);
            this.wordSlots = new AtomicLong(wordBytes / SLOT_BYTES);
            this.minMean = minMean;
        }

        /** The word slots not drawn by a table ({@link #startWords}). */
        long wordSlotsLeft() {
            return wordSlots.get();
        }

        /** Whether a column's first table could still be had ({@link #start}). */
        boolean any() {
            return slots.get() >= FIRST;
        }

        boolean take(long n) {
            return take(slots, n);
        }

        void give(long n) {
            slots.addAndGet(n);
        }

        private static boolean take(AtomicLong pool, long n) {
            long left;
            do {
                left = pool.get();
                if (left < n) {
                    return false;
                }
            } while (!pool.compareAndSet(left, left - n));
            return true;
        }
    }

    /**
     * The budget of a loader's tables of short values' words ({@link #startWords}): 64 MB of
     * slots, under C1 alone and under C2 (a million distinct values of up to 15 bytes take 16-32
     * MB; a column gives up at {@link #WORDS_MOST}, 2 MB); or the system property {@code
     * wastecheck.wordDistinctBytes} (0: their counts left to SQL).
     *
     * <p>Where C2 compiles (the launcher's choice from 320 MB) there were none until 2026-12-04:
     * the 1 GB ORM shape's twenty varchar columns of 1,000 values each then cost DuckDB 40
     * queries after the load (an estimate, then the exact count the screen asks: 2.3 s of 20 s),
     * which their words answer; in pairs against none at 1 GB, ORM 0.85-0.97x analyze's time,
     * the other shapes no change beyond the pairs' spread (pandas' 50,000 names save two queries
     * and cost about as much), reports the same (docs/benchmarks.md, issue 32).
     */
    static long wordBudgetBytes() {
        Long set = Long.getLong("wastecheck.wordDistinctBytes");
        if (set != null) {
            return set;
        }
        return 64L << 20;
    }

    /** The longest value counted by its words ({@link #addWords}): its length fits the second word's last byte. */
    static final int WORDS_MAX = 15;

    /**
     * The most distinct values a column counts by its words: a table of at most 2^17 slots (2
     * MB), a code or name column's values, not a key's. Without it, orders' 1.1 million 14-byte
     * timestamps and pandas' doubles of up to 15 characters grew tables of millions of slots,
     * each value a cache miss, and took the load phase from 1.42 to 1.78 s and 1.5 to 2.05 s
     * (quiet pairs, docs/benchmarks.md, issue 32), more than the SQL counts they replaced. Below
     * the profile's screen ({@code Profiler.SCREEN_MIN}, 100,000), where SQL counted exactly too.
     */
    static final int WORDS_MOST = 1 << 16;

    /**
     * The budget of a loader's columns: 96 MB of slots (a million distinct values take 16-32 MB),
     * under C2 and under C1 alone; or the system property {@code wastecheck.distinctBytes} (0:
     * every such count left to SQL).
     *
     * <p>Under C1 alone (the launcher's choice below 320 MB of input) there was none: it called
     * the byte-array VarHandle {@link #murmur3} read its words through, and the hashes then cost
     * more than DuckDB's counts they replace (in pairs against main under quiet, before {@link
     * Budget#minMean} kept short values out: 1.13-1.25x analyze's time on the 100 MB text shape,
     * 1.12-1.38x on ORM, 1.08-1.69x on pandas; docs/benchmarks.md, issue 32). The words are now
     * read by {@link MemoryUtil}, one load under C1 too.
     */
    static long budgetBytes() {
        Long set = Long.getLong("wastecheck.distinctBytes");
        if (set != null) {
            return set;
        }
        return 96L << 20;
    }

    /** Whether this JVM compiles with C1 alone ({@code -XX:TieredStopAtLevel} below 4, tiered). */
    static final boolean C1_ALONE = c1Alone();

    private static boolean c1Alone() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return vm != null
                    && Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue())
                    && Integer.parseInt(vm.getVMOption("TieredStopAtLevel").getValue()) < 4;
        } catch (RuntimeException | LinkageError e) {
            return false; // not HotSpot: its compiler is not known to be slow at this
        }
    }

    /**
     * The least mean length, in bytes, of a column's values (its first 257: when the short list
     * overflows) for the loader to hash them; {@code wastecheck.distinctMinMean} sets it. Short
     * values are left to SQL: on the 1 GB ORM shape (C2), hashing its twenty 1,000-value
     * varchar columns and its timestamps cost the filler 3.2 s of CPU more than it saved DuckDB
     * (2.9 s), analyze's wall the same (12.36 against 12.42 s); on the 1 GB text shape, whose
     * body values run to 200-3,000 characters, analyze took 0.83-0.89x main's time with them
     * (docs/benchmarks.md, issue 32). 64 is a line between those two, not tuned further.
     */
    static long minMeanBytes() {
        return Long.getLong("wastecheck.distinctMinMean", 64);
    }

    private final Budget budget;
    /** Whether this table holds short values' words ({@link #addWords}), drawn on the budget's word slots. */
    private final boolean words;
    /** The slots: {@code lo} at {@code 2 * slot}, {@code hi} after it. */
    private long[] slots;

    private int size;
    private int grow;

    /**
     * Whether a run's first batch shows a column the loader will count by hashes (as {@link
     * ColumnFacts} starts them: text or bytes past the short list of {@link ColumnFacts#FEW}
     * values, the values up to the one that overflows it of {@link Budget#minMean} bytes or more
     * on average, a budget left) and whose values in the batch are all distinct, with at most one
     * NULL. A forecast: a column that repeats later, or whose hashes outgrow the budget, is met by
     * the step that reads it ({@link ColumnNotLoaded}). Hashes the batch's values once, on a table
     * of its own outside the budget (at most {@code 2 * BATCH_ROWS} slots).
     */
    static boolean hashedAndUnique(ValueVector vector, Budget budget) {
        if (!(vector instanceof BaseVariableWidthVector v) || budget == null || !budget.any()) {
            return false;
        }
        int n = v.getValueCount();
        int nulls = v.getNullCount();
        if (nulls > 1 || n - nulls <= ColumnFacts.FEW) {
            return false;
        }
        long end = v.getOffsetBuffer().getInt((long) n * BaseVariableWidthVector.OFFSET_WIDTH);
        byte[] data = new byte[(int) end];
        v.getDataBuffer().getBytes(0, data, 0, data.length);
        DistinctHashes h = new DistinctHashes(new Budget(1L << 40), false);
        long sum = 0;
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (v.isNull(i)) {
                continue;
            }
            int off = v.getStartOffset(i);
            int len = v.getValueLength(i);
            sum += len;
            if (++seen == ColumnFacts.FEW + 1 && sum < budget.minMean * seen) {
                return false; // short values: the loader leaves their count to SQL
            }
            h.add(data, off, len);
        }
        return h.size == seen;
    }

    /** Null when the budget cannot give the first table. */
    static DistinctHashes start(Budget budget) {
        return budget != null && budget.take(FIRST) ? new DistinctHashes(budget, false) : null;
    }

    /**
     * A table of values of at most {@link #WORDS_MAX} bytes kept whole as their two words, not
     * hashed ({@link #addWords}); null when the budget's word slots cannot give the first table.
     */
    static DistinctHashes startWords(Budget budget) {
        return budget != null && Budget.take(budget.wordSlots, FIRST) ? new DistinctHashes(budget, true) : null;
    }

    /** A MurmurHash3 of one's own ({@link #murmur3}), with no table. */
    static DistinctHashes hasher() {
        return new DistinctHashes();
    }

    private DistinctHashes() {
        this.budget = null;
        this.words = false;
    }

    private DistinctHashes(Budget budget, boolean words) {
        this.budget = budget;
        this.words = words;
        this.slots = new long[2 * FIRST];
        this.grow = (int) (FIRST * LOAD);
    }

    /**
     * Counts a value of at most {@link #WORDS_MAX} bytes by its words ({@link ColumnFacts#prefix}
     * {@code w} and {@link ColumnFacts#second} {@code w2}, which the facts read for the bounds
     * anyway), with no hash over its bytes: under C1 alone, which calls a VarHandle's access
     * rather than inline it, {@link #murmur3} cost more than the SQL count it replaced. Exact: a
     * value of up to 15 bytes has zeros in the second word's last byte, which takes its length
     * plus one, so {@code (w, w2 | len + 1)} is the value whole, never (0, 0); the slot holds
     * {@code w} and that second word mixed with {@code w} by an invertible mix (MurmurHash3's
     * {@code fmix64}, a bijection), so two values share a slot's contents only if they are equal,
     * and the mixed word's top bits spread the slots. False when the table would outgrow the
     * budget or {@link #WORDS_MOST}: the value is not counted, and the caller gives the table up,
     * as after {@link #add}.
     */
    boolean addWords(long w, long w2, int len) {
        long k = wordKey(w, w2, len);
        if (size >= WORDS_MOST || size >= grow && !doubleTable()) {
            return false;
        }
        insert(slots, w, k);
        return true;
    }

    /**
     * The second word a value of at most {@link #WORDS_MAX} bytes is kept by ({@link #addWords}):
     * its words mixed, the slot's bits on top; also the value's hash in a {@link DistinctSketch}.
     */
    static long wordKey(long w, long w2, int len) {
        long k = w * 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k ^= w2 | (len + 1);
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /**
     * Pours the values counted into {@code sketch}, before the table is given up: a word table's
     * values by their {@link #wordKey}, a hash table's by their MurmurHash3's low half (a sketch
     * that goes on with {@link DistinctSketch#murmurAll}).
     */
    void spillInto(DistinctSketch sketch) {
        for (int i = 0; i < slots.length; i += 2) {
            if ((slots[i] | slots[i + 1]) != 0) {
                sketch.addHash(words ? slots[i + 1] : slots[i]);
            }
        }
    }

    /**
     * Counts the value {@code b[off, off+len)}; false when the table would outgrow the budget:
     * the value is not counted, and the caller gives the table up ({@link #giveUp}), after
     * pouring what it holds into a sketch if it will ({@link #spillInto}).
     */
    boolean add(byte[] b, int off, int len) {
        long l = murmur3(b, off, len);
        long u = upper;
        if ((l | u) == 0) {
            l = 1;
        }
        if (size >= grow && !doubleTable()) {
            return false;
        }
        insert(slots, l, u);
        return true;
    }

    /** Inserts unless present; counts a new one. */
    private void insert(long[] table, long l, long u) {
        int mask = table.length - 2; // even indices: a slot's first long
        for (int at = (int) (u >>> 32) & mask; ; at = (at + 2) & mask) {
            long x = table[at];
            long y = table[at + 1];
            if ((x | y) == 0) {
                table[at] = l;
                table[at + 1] = u;
                size++;
                return;
            }
            if (x == l && y == u) {
                return;
            }
        }
    }

    private boolean doubleTable() {
        int capacity = slots.length / 2;
        if (capacity >= 1 << 28 || !(words ? Budget.take(budget.wordSlots, capacity) : budget.take(capacity))) {
            return false; // the caller gives the table up
        }
        long[] old = slots;
        slots = new long[4 * capacity];
        size = 0;
        for (int i = 0; i < old.length; i += 2) {
            if ((old[i] | old[i + 1]) != 0) {
                insert(slots, old[i], old[i + 1]);
            }
        }
        grow = (int) (2 * capacity * LOAD);
        return true;
    }

    /** Frees the table and returns its slots to the budget. */
    void giveUp() {
        if (slots != null) {
            (words ? budget.wordSlots : budget.slots).addAndGet(slots.length / 2);
            slots = null;
        }
    }

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    /** The upper half of the last {@link #murmur3}. */
    private long upper;

    /**
     * MurmurHash3 x64 128 (Austin Appleby's {@code MurmurHash3_x64_128}) of {@code b[off,
     * off+len)}, seed {@link #SEED}: returns the first half, leaves the second in {@link #upper}.
     * The same bits as Apache Commons Codec's {@code MurmurHash3.hash128x64} ({@code
     * DistinctHashesTest} compares them on 100,000 values), which reads each 8-byte word as eight
     * bytes and allocates its result: this reads it as one little-endian long (about 1.5 s of the
     * filler's CPU on the 1 GB text shape with the library's, docs/benchmarks.md).
     */
    long murmur3(byte[] b, int off, int len) {
        long h1 = SEED;
        long h2 = SEED;
        int blocks = len >>> 4;
        int at = off;
        for (int i = 0; i < blocks; i++, at += 16) {
            long k1 = littleEndian(b, at);
            long k2 = littleEndian(b, at + 8);
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        int tail = len & 15;
        for (int i = tail - 1; i >= 8; i--) {
            k2 ^= (b[at + i] & 0xffL) << ((i - 8) << 3);
        }
        if (tail > 8) {
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
        }
        for (int i = Math.min(tail, 8) - 1; i >= 0; i--) {
            k1 ^= (b[at + i] & 0xffL) << (i << 3);
        }
        if (tail > 0) {
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        upper = h2;
        return h1;
    }

    /**
     * The eight bytes at {@code at} as a little-endian long: one load ({@link MemoryUtil#getLong(byte[],
     * long)}, which C1 too makes one instruction, where it calls a byte-array VarHandle's access
     * through its guard and form methods; the caller reads inside the array).
     */
    private static long littleEndian(byte[] b, int at) {
        long w = MemoryUtil.getLong(b, at);
        return LITTLE_ENDIAN ? w : Long.reverseBytes(w);
    }

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** The upper half of the last {@link #murmur3}. */
    long upper() {
        return upper;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** The distinct values counted. */
    long count() {
        return size;
    }
}

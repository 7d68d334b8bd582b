package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link UniqueHashes}: the loader's proof that a column's values all differ. The count it gives
 * is checked against a {@link HashSet} of the values; where two hashes agree (a repeat, or a
 * collision forced by cutting the hashes to a few bits) it must give none.
 */
class UniqueHashesTest {
    private static final List<String> MARKERS = List.of("NULL", "-");

    private static ColumnFacts facts(DistinctHashes.Budget budget) {
        ColumnFacts f = new ColumnFacts(true, false, false, false, MARKERS);
        f.distinctBudget(budget);
        return f;
    }

    private static void add(ColumnFacts f, byte[] b) {
        f.add(b, 0, b.length, b.length, null);
    }

    /** A random value of {@code len} base-36 characters (a checksum's spelling), from {@code r}. */
    private static byte[] value(SplittableRandom r, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) Character.forDigit(r.nextInt(36), 36);
        }
        return b;
    }

    private static long hash(byte[] b) {
        return UniqueHashes.hash(
                ColumnFacts.prefix(b, 0, b.length), ColumnFacts.second(b, 0, b.length), b, 0, b.length);
    }

    @Test
    void uniqueValuesOfEveryLengthAreCountedAsTheSet() {
        SplittableRandom r = new SplittableRandom(31);
        DistinctHashes.Budget budget = new DistinctHashes.Budget(96L << 20, 64, 0);
        ColumnFacts f = facts(budget);
        Set<String> set = new HashSet<>();
        int n = 0;
        while (n < 300_000) {
            // 1 to 63 bytes: below the 128-bit hashes' mean, the words' lengths and past them
            byte[] v = value(r, 1 + r.nextInt(63));
            if (set.add(new String(v, StandardCharsets.ISO_8859_1))) {
                add(f, v);
                n++;
            }
        }
        assertThat(f.exactDistinct()).isNull(); // told at the run's end
        f.endRun();
        assertThat(f.exactDistinct()).isEqualTo((long) set.size()).isEqualTo(f.nonNull());
        assertThat(budget.any()).isTrue();
    }

    @Test
    void aRepeatLeavesTheCountToSql() {
        for (int at : new int[] {300, 5_000, 99_999}) {
            SplittableRandom r = new SplittableRandom(at);
            ColumnFacts f = facts(new DistinctHashes.Budget(96L << 20, 64, 0));
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < 100_000; i++) {
                // one value of the first 256 again, at row `at`: the sample, or the end, sees it
                byte[] v = i == at ? values.get(at % 256) : value(r, 31);
                values.add(v);
                add(f, v);
            }
            f.endRun();
            assertThat(f.exactDistinct()).as("repeat at %d", at).isNull();
        }
    }

    @Test
    void aRepeatAmongTheFirstValuesStartsNoHashes() {
        DistinctHashes.Budget budget = new DistinctHashes.Budget(96L << 20, 64, 0);
        ColumnFacts f = facts(budget);
        SplittableRandom r = new SplittableRandom(7);
        byte[] first = value(r, 20);
        add(f, first);
        add(f, first);
        for (int i = 0; i < 10_000; i++) {
            add(f, value(r, 20));
        }
        f.endRun();
        assertThat(f.exactDistinct()).isNull();
    }

    @Test
    void forcedCollisionsAreFoundAndNeverCounted() {
        // hashes cut to 20 bits: among thousands of distinct values many share one; the end's
        // check must see every shared hash, whichever partition and block it falls in
        for (int seed = 0; seed < 20; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            DistinctHashes.Budget budget = new DistinctHashes.Budget(96L << 20, 64, 0);
            UniqueHashes u = UniqueHashes.start(budget);
            int values = 500 + r.nextInt(3_000);
            Set<Long> hashes = new HashSet<>();
            Set<String> set = new HashSet<>();
            boolean added = true;
            for (int i = 0; i < values && added; i++) {
                byte[] v = value(r, 31);
                set.add(new String(v, StandardCharsets.ISO_8859_1));
                // keep the top bits (the partition) and 12 low bits (the sample): 2^20 hashes in all
                long h = hash(v) & 0xff00_0000_0000_0fffL;
                hashes.add(h);
                added = u.add(h);
            }
            long counted = added ? u.finish() : -1;
            if (hashes.size() < set.size()) {
                assertThat(counted).as("seed %d", seed).isEqualTo(-1);
            } else {
                assertThat(counted).as("seed %d", seed).isEqualTo(set.size());
            }
        }
    }

    @Test
    void collisionsInOnePartitionAcrossBlocksAndTheZeroHash() {
        DistinctHashes.Budget budget = new DistinctHashes.Budget(96L << 20, 64, 0);
        UniqueHashes u = UniqueHashes.start(budget);
        for (long i = 1; i <= 5_000; i++) {
            assertThat(u.add((i << 6) | 1)).isTrue(); // partition 0, five blocks, none sampled
        }
        assertThat(u.add(3_000L << 6 | 1)).isTrue(); // the same as the 3,000th: past the sample
        assertThat(u.finish()).isEqualTo(-1);

        UniqueHashes zero = UniqueHashes.start(budget);
        assertThat(zero.add(0)).isTrue();
        assertThat(zero.add(1)).isTrue();
        assertThat(zero.finish()).isEqualTo(2);
        UniqueHashes zeros = UniqueHashes.start(budget);
        zeros.add(0);
        zeros.add(0);
        assertThat(zeros.finish()).isEqualTo(-1);
    }

    @Test
    void everyByteAndTheLengthChangeTheHash() {
        SplittableRandom r = new SplittableRandom(5);
        Set<Long> seen = new HashSet<>();
        int made = 0;
        for (int len = 0; len <= 72; len++) {
            byte[] base = value(r, len);
            assertThat(seen.add(hash(base))).isTrue();
            made++;
            for (int i = 0; i < len; i++) {
                byte[] v = base.clone();
                v[i] ^= 1;
                assertThat(seen.add(hash(v))).as("length %d, byte %d", len, i).isTrue();
                made++;
            }
            byte[] longer = java.util.Arrays.copyOf(base, len + 1); // a zero byte more
            seen.add(hash(longer));
        }
        assertThat(seen.size()).isGreaterThanOrEqualTo(made);
    }

    @Test
    void aDoubleColumnIsNotProvenUnique() {
        ColumnFacts f = new ColumnFacts(false, false, true, false, MARKERS); // a DOUBLE's text
        f.distinctBudget(new DistinctHashes.Budget(96L << 20, 64, 0));
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) {
            add(f, Double.toString(i + r.nextDouble()).getBytes(StandardCharsets.US_ASCII));
        }
        f.endRun();
        assertThat(f.exactDistinct()).isNull(); // all different, but left to SQL
    }

    @Test
    void overTheBudgetGivesUpAndReturnsItsSlots() {
        DistinctHashes.Budget budget = new DistinctHashes.Budget(64L << 10, 64, 0); // 4,096 slots
        ColumnFacts f = facts(budget);
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++) {
            add(f, value(r, 24));
        }
        f.endRun();
        assertThat(f.exactDistinct()).isNull();
        assertThat(budget.take(4_096)).isTrue(); // every slot back
    }
}

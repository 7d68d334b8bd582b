package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sketch's estimate stays within its margin of the true count, on the spellings a dump's
 * columns have (codes and names counted by their words, checksums and long text by
 * MurmurHash3), from one value to millions; and a value's hash does not depend on how the
 * loader came to sketch it.
 */
class DistinctSketchTest {
    private static final List<String> MARKERS = List.of("NULL", "-");

    /** Four standard errors (1.04 / sqrt(2^14)): the tests' bound, inside the profile's margin of six. */
    private static final double BOUND = 4 * 1.04 / Math.sqrt(DistinctSketch.M);

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** MediaWiki's rev_sha1: 31 characters of base 36. */
    private static String sha1(Random r) {
        StringBuilder sb = new StringBuilder(31);
        for (int i = 0; i < 31; i++) {
            sb.append(Character.forDigit(r.nextInt(36), 36));
        }
        return sb.toString();
    }

    @Test
    void estimatesWithinItsErrorFromOneValueToMillions() {
        int[] sizes = {1, 2, 10, 100, 1000, 10_000, 65_536, 100_000, 500_000, 2_000_000};
        for (int n : sizes) {
            DistinctSketch codes = new DistinctSketch(false); // "value 4-N": up to 15 bytes, by their words
            DistinctSketch times = new DistinctSketch(false); // 14-digit timestamps, a second apart
            DistinctSketch checksums = new DistinctSketch(false); // 31 bytes: MurmurHash3
            DistinctSketch murmur = new DistinctSketch(true); // short ones by MurmurHash3 too
            Random r = new Random(n);
            for (int i = 0; i < n; i++) {
                codes.add(utf8("value 4-" + i));
                times.add(utf8(Long.toString(20_200_101_000_000L + i)));
                checksums.add(utf8(sha1(r)));
                murmur.add(utf8("v" + i));
            }
            for (DistinctSketch s : List.of(codes, times, checksums, murmur)) {
                assertThat((double) s.estimate()).as("%d values", n).isCloseTo(n, within(Math.max(1.0, BOUND * n)));
            }
        }
        assertThat(new DistinctSketch(false).estimate()).isZero();
    }

    @Test
    void repeatsChangeNothing() {
        DistinctSketch once = new DistinctSketch(false);
        DistinctSketch thrice = new DistinctSketch(false);
        for (int i = 0; i < 300_000; i++) {
            byte[] v = utf8(i % 2 == 0 ? "k" + i : HexFormat.of().toHexDigits((long) i * 0x9E3779B97F4A7C15L));
            once.add(v);
            for (int k = 0; k < 3; k++) {
                thrice.add(v);
            }
        }
        assertThat(thrice.estimate()).isEqualTo(once.estimate());
    }

    /**
     * A column's facts sketch its values whether their words' table gave up (past {@link
     * DistinctHashes#WORDS_MOST}, or at a longer value), their hashes' table outgrew the budget,
     * or no table started: each ends with the registers of a sketch fed every value directly.
     */
    @Test
    void aTableGivenUpPoursItsValuesIntoTheSketch() {
        Random r = new Random(4243);
        ColumnFacts pastMost = facts(new DistinctHashes.Budget(0, 64, 64L << 20));
        ColumnFacts longer = facts(new DistinctHashes.Budget(0, 64, 64L << 20));
        ColumnFacts none = facts(new DistinctHashes.Budget(0, 64, 0));
        // hashes (values of 64 bytes and more) in a budget of three tables' worth of 2^13 slots
        ColumnFacts hashed = facts(new DistinctHashes.Budget(3L * (1 << 13) * DistinctHashes.SLOT_BYTES, 64, 0));
        DistinctSketch mixed = new DistinctSketch(false);
        DistinctSketch mixedLonger = new DistinctSketch(false);
        DistinctSketch murmur = new DistinctSketch(true);
        for (int i = 0; i < 200_000; i++) {
            byte[] code = utf8(r.nextInt(30) == 0 ? "NULL" : "c" + r.nextInt(150_000));
            add(pastMost, code);
            add(none, code);
            mixed.add(code);
            byte[] v = utf8(i == 5000 ? "a value of more than fifteen bytes" : "c" + r.nextInt(150_000));
            add(longer, v);
            mixedLonger.add(v);
            byte[] text = utf8("ä".repeat(40) + r.nextInt(50_000));
            add(hashed, text);
            murmur.add(text);
        }
        for (ColumnFacts f : List.of(pastMost, longer, none, hashed)) {
            assertThat(f.exactDistinct()).isNull();
        }
        assertThat(pastMost.estimatedDistinct()).isEqualTo(mixed.estimate());
        assertThat(none.estimatedDistinct()).isEqualTo(mixed.estimate());
        assertThat(longer.estimatedDistinct()).isEqualTo(mixedLonger.estimate());
        assertThat(hashed.estimatedDistinct()).isEqualTo(murmur.estimate());
        assertThat(hashed.estimatedDistinct()).isCloseTo(50_000L, within((long) (BOUND * 50_000)));
    }

    /** Columns counted exactly anyway (values that rise, numbers as bits) keep no sketch. */
    @Test
    void noSketchWhereTheCountIsExactOrWithoutTheLoadersBudget() {
        ColumnFacts rising = facts(new DistinctHashes.Budget(0, 64, 0));
        ColumnFacts noBudget = new ColumnFacts(false, false, false, false, MARKERS);
        for (int i = 0; i < 5000; i++) {
            add(rising, String.format("u%09d", i));
            add(noBudget, "c" + (i * 7919 % 5000));
        }
        assertThat(rising.exactDistinct()).isEqualTo(5000);
        assertThat(rising.estimatedDistinct()).isNull();
        assertThat(noBudget.exactDistinct()).isNull();
        assertThat(noBudget.estimatedDistinct()).isNull();
        // the rise ends after the list: SQL estimates and counts it, as before the sketch
        add(rising, "u000000001");
        assertThat(rising.exactDistinct()).isNull();
        assertThat(rising.estimatedDistinct()).isNull();
    }

    private static ColumnFacts facts(DistinctHashes.Budget budget) {
        ColumnFacts f = new ColumnFacts(false, false, false, false, MARKERS);
        f.distinctBudget(budget);
        return f;
    }

    private static void add(ColumnFacts f, byte[] b) {
        f.add(b, 0, b.length, -1, null);
    }

    private static void add(ColumnFacts f, String v) {
        add(f, utf8(v));
    }
}

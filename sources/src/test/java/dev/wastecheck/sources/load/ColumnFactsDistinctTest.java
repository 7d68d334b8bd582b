package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ColumnFacts#exactDistinct} past the short list without hashes (C1 alone): values of up
 * to 15 bytes counted by their words, and values each above all before them, which are distinct
 * whatever their length; {@code count(DISTINCT)} is the size of a set of the values.
 */
class ColumnFactsDistinctTest {
    private static final List<String> MARKERS = List.of("NULL", "-");

    private static ColumnFacts facts(long wordBytes) {
        ColumnFacts f = new ColumnFacts(false, false, false, false, MARKERS);
        f.distinctBudget(new DistinctHashes.Budget(0, 64, wordBytes));
        return f;
    }

    private static void add(ColumnFacts f, String v) {
        byte[] b = v.getBytes(StandardCharsets.UTF_8);
        f.add(b, 0, b.length, b.length, null);
    }

    @Test
    void shortValuesPastTheListAreCountedByTheirWords() {
        Random r = new Random(1000);
        ColumnFacts f = facts(64L << 20);
        Set<String> set = new HashSet<>();
        for (int i = 0; i < 50_000; i++) {
            // ORM's spelling: "value 4-328", 1,000 values of 9-11 bytes, and the markers
            String v = r.nextInt(50) == 0 ? MARKERS.get(r.nextInt(2)) : "value 4-" + r.nextInt(1000);
            add(f, v);
            set.add(v);
        }
        assertThat(f.exactDistinct()).isEqualTo(set.size());
        f.endRun();
        assertThat(f.exactDistinct()).isEqualTo(set.size());
        add(f, "value 4-1"); // a later run's value, not counted: SQL counts them
        assertThat(f.exactDistinct()).isNull();
    }

    @Test
    void aLongerValueOrNoWordSlotsLeaveTheCountToSql() {
        ColumnFacts longer = facts(64L << 20);
        ColumnFacts none = facts(0);
        for (int i = 0; i < 1000; i++) {
            add(longer, "v" + (i * 7919 % 1000));
            add(none, "v" + (i * 7919 % 1000));
        }
        assertThat(longer.exactDistinct()).isEqualTo(1000);
        assertThat(none.exactDistinct()).isNull();
        add(longer, "a value of sixteen+ bytes");
        assertThat(longer.exactDistinct()).isNull();
    }

    @Test
    void numbersCountedAsBitsOrRisingValuesDrawNoWordTable() {
        DistinctHashes.Budget budget = new DistinctHashes.Budget(0, 64, 64L << 20);
        long slots = budget.wordSlotsLeft();
        Random r = new Random(721_705);
        ColumnFacts price = new ColumnFacts(false, false, true, false, MARKERS); // pandas' DOUBLE
        price.distinctBudget(budget);
        ColumnFacts rising = new ColumnFacts(false, false, false, false, MARKERS);
        rising.distinctBudget(budget);
        Set<String> set = new HashSet<>();
        for (int i = 0; i < 50_000; i++) {
            // pandas' spelling: at most two digits after the point, none trailing, 5,000 values
            int cents = r.nextInt(5000);
            String v = cents % 100 == 0
                    ? Integer.toString(cents / 100)
                    : cents % 10 == 0
                            ? cents / 100 + "." + cents / 10 % 10
                            : cents / 100 + "." + String.format("%02d", cents % 100);
            add(price, v);
            set.add(v);
            add(rising, String.format("u%09d", i));
        }
        assertThat(price.exactDistinct()).isEqualTo(set.size()); // the bits' count
        assertThat(rising.exactDistinct()).isEqualTo(50_000);
        assertThat(budget.wordSlotsLeft()).isEqualTo(slots); // neither started a table of words
        add(price, "no number"); // the bits end, and no words were kept: SQL counts them
        add(rising, "u000000000"); // below the max
        assertThat(price.exactDistinct()).isNull();
        assertThat(rising.exactDistinct()).isNull();
    }

    @Test
    void valuesEachAboveAllBeforeThemAreDistinct() {
        ColumnFacts rising = facts(0);
        ColumnFacts repeated = facts(0);
        for (int i = 0; i < 2000; i++) {
            // 26-byte timestamps (DATETIME(6)), too long for the words, rising with the row
            String v = String.format(
                    "2020-09-%02d %02d:%02d:%02d.000000", 1 + i / 86400, i / 3600 % 24, i / 60 % 60, i % 60);
            add(rising, v);
            add(repeated, v);
            if (i == 1500) {
                add(repeated, v); // the same again: not above the max
            }
        }
        assertThat(rising.exactDistinct()).isEqualTo(2000);
        assertThat(repeated.exactDistinct()).isNull();
    }
}

package dev.wastecheck.analyzer.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.RowStore;
import dev.wastecheck.sources.sql.ProfileDialect;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A key whose values fill its range is told from its profile ({@link References#everyValueAKey}),
 * and only such a key: for random keys with and without gaps, the test agrees with the key's own
 * values, and where it holds, the count {@link References}'s containment query would return (the
 * key's values within any column range inside the key's) equals that range's width, so the
 * chance of containment by accident is 1 and the query can find no evidence.
 */
class DenseKeyContainmentTest {
    private static final RowStore LOCAL = RowStore.local(null);

    private static References.Col key(ColumnStorage storage) {
        ColumnDef id = new ColumnDef("id", TypeParser.parse("int", Dialect.MYSQL), false, false);
        TableDef def = new TableDef("k", List.of(id), List.of("id"), List.of(), null, "k.sql:1", true);
        return new References.Col(new LoadedTable(def, "t_0", 1, new ColumnStorage[] {storage}), 0);
    }

    private static ColumnProfile profile(TreeSet<Long> values, boolean estimated) {
        ColumnProfile p = new ColumnProfile();
        p.distinct = values.size();
        p.distinctEstimated = estimated;
        p.minInt = BigInteger.valueOf(values.first());
        p.maxInt = BigInteger.valueOf(values.last());
        return p;
    }

    @Test
    void aKeyFillsItsRangeExactlyWhenItsProfileSaysSo() {
        Random r = new Random(20261204);
        References.Col k = key(ColumnStorage.INT64);
        int dense = 0;
        for (int trial = 0; trial < 2000; trial++) {
            long start = r.nextInt(1000) - 500;
            int width = 1 + r.nextInt(200);
            TreeSet<Long> values = new TreeSet<>();
            for (long v = start; v < start + width; v++) {
                values.add(v);
            }
            // half the keys lose one inner value or more (a gap); the ends stay
            if (r.nextBoolean() && width > 2) {
                int gaps = 1 + r.nextInt(width - 2);
                for (int g = 0; g < gaps; g++) {
                    values.remove(start + 1 + r.nextInt(width - 2));
                }
            }
            boolean fills = values.size() == width;
            boolean told = References.everyValueAKey(LOCAL, k, profile(values, false));
            assertThat(told).as("key %s", values).isEqualTo(fills);
            if (told) {
                dense++;
                // any column range inside the key's: the key's values within it, as the query counts them
                long lo = start + r.nextInt(width);
                long hi = lo + r.nextInt((int) (start + width - lo));
                long inRange = values.subSet(lo, true, hi, true).size();
                assertThat(inRange).isEqualTo(hi - lo + 1);
                double chance = Math.pow(Math.min(1.0, inRange / (double) (hi - lo + 1)), 1 + r.nextInt(1000));
                assertThat(chance).isGreaterThanOrEqualTo(References.CHANCE);
            }
        }
        assertThat(dense).isBetween(900, 1100);
    }

    @Test
    void onlyAnExactCountOfStoredIntegersOnTheLocalDatabaseIsTrusted() {
        TreeSet<Long> values = new TreeSet<>(List.of(1L, 2L, 3L, 4L));
        assertThat(References.everyValueAKey(LOCAL, key(ColumnStorage.INT64), profile(values, false)))
                .isTrue();
        // an estimate may be off by the one value a gap would be
        assertThat(References.everyValueAKey(LOCAL, key(ColumnStorage.INT64), profile(values, true)))
                .isFalse();
        // text counts spellings ('1' and '01'), not integers
        assertThat(References.everyValueAKey(LOCAL, key(ColumnStorage.TEXT), profile(values, false)))
                .isFalse();
        // a server's profile: its query runs as before
        assertThat(References.everyValueAKey(
                        new RowStore(null, ProfileDialect.DUCKDB, true),
                        key(ColumnStorage.INT64),
                        profile(values, false)))
                .isFalse();
    }
}

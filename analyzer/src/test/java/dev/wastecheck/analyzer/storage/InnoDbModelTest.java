package dev.wastecheck.analyzer.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The page and segment arithmetic of {@link InnoDbModel}, on figures worked by hand from btr0bulk and fsp0fsp. */
class InnoDbModelTest {

    /** How many records of {@code size} bytes the bulk load puts on a page. */
    private static int perPage(int reserve, int size) {
        InnoDbModel.Level level = new InnoDbModel.Level(reserve);
        level.add(size);
        int n = 1;
        while (!level.add(size)) {
            n++;
        }
        return n;
    }

    @Test
    void aClusteredPageTakesRecordsUntilLessThanASixteenthWouldBeLeftFree() {
        // n records of 100 bytes take 100n + (2n + 3) / 4 bytes with their directory slots:
        // 151 take 15,176 of the 16,252, leaving 1,076; a 152nd would leave less than the 1,024 kept free.
        assertThat(perPage(InnoDbModel.CLUSTERED_RESERVE, 100)).isEqualTo(151);
        // a secondary index page keeps nothing free: 161 take 16,181; a 162nd would need 16,281
        assertThat(perPage(0, 100)).isEqualTo(161);
        // a page always takes two records, however long (the bulk load keeps the tree from growing tall)
        assertThat(perPage(InnoDbModel.CLUSTERED_RESERVE, 7_000)).isEqualTo(2);
    }

    @Test
    void theDirectoryTakesTwoBytesForEveryFourRecords() {
        assertThat(InnoDbModel.Level.slotBytes(0)).isZero();
        assertThat(InnoDbModel.Level.slotBytes(1)).isEqualTo(1);
        assertThat(InnoDbModel.Level.slotBytes(4)).isEqualTo(2);
        assertThat(InnoDbModel.Level.slotBytes(400)).isEqualTo(200);
    }

    @Test
    void aSegmentTakes32SinglePagesThenExtentsAnEighthAhead() {
        InnoDbModel.Segment s = new InnoDbModel.Segment();
        for (int i = 0; i < 32; i++) {
            s.allocate(true);
        }
        assertThat(s.reserved()).isEqualTo(32);
        s.allocate(true); // the 33rd page: a whole extent
        assertThat(s.reserved()).isEqualTo(32 + 64);
        while (s.fragments + s.usedInExtents < 85) {
            s.allocate(true);
        }
        assertThat(s.reserved()).isEqualTo(96); // 11 of 96 free: still at least an eighth
        s.allocate(true); // 86th: less than 96 / 8 = 12 free, so the next extent comes first
        assertThat(s.reserved()).isEqualTo(160);
    }

    /**
     * Leaf segments of clustered indexes rebuilt by OPTIMIZE TABLE on MariaDB 11.4.5 (a table of
     * six narrow columns and no primary key, 14,000 to 3.4 million rows): the pages in use
     * ({@code n_leaf_pages}) against what the segment reserved ({@code size} less the non-leaf
     * segment's pages). An eighth ahead holds to 1,600 pages; past that, four extents.
     */
    @Test
    void aLargeSegmentKeepsAtMostFourExtentsAhead() {
        long[][] measured = {
            {51, 96}, {201, 288}, {802, 928}, {1_604, 1_888}, {3_222, 3_488}, {6_443, 6_752}, {12_170, 12_448}
        };
        for (long[] m : measured) {
            InnoDbModel.Segment s = new InnoDbModel.Segment();
            for (long i = 0; i < m[0]; i++) {
                s.allocate(true);
            }
            assertThat(s.reserved()).as("%d pages", m[0]).isEqualTo(m[1]);
        }
    }

    @Test
    void aFreedSinglePageGoesBackButAnExtentPageStays() {
        InnoDbModel.Segment small = new InnoDbModel.Segment();
        small.allocate(true);
        small.freeLast();
        assertThat(small.reserved()).isZero();
        InnoDbModel.Segment big = new InnoDbModel.Segment();
        for (int i = 0; i < 40; i++) {
            big.allocate(true);
        }
        big.freeLast();
        assertThat(big.reserved()).isEqualTo(96);
    }
}

package dev.wastecheck.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node prefix behind the PMNK: set by the first key, shortened by keys that share less of it. */
class BTreePagePrefixTest {

    private static BTreePage leaf() {
        BTreePage p = new BTreePage().wrap(ByteBuffer.allocate(4096));
        p.init(BTreePage.TYPE_LEAF, BTreePage.NO_PAGE);
        return p;
    }

    @Test
    void eightByteKeysBelowTwoToThe32ShareAPrefixAndStillSortByThePmnk() {
        BTreePage p = leaf();
        long[] values = {7, 5, 300, 70_000, 9};
        for (long v : values) p.insertAt(p.lowerBound(KeyEncoder.ofLong(v), 0, true), KeyEncoder.ofLong(v), v, 0);
        // 0x80 00 00 00 00 ... : the sign-flipped encodings agree on their first 5 bytes
        assertThat(p.prefixLength()).isEqualTo(5);
        assertThat(p.lowerBound(KeyEncoder.ofLong(9), 0, true)).isEqualTo(2); // 5, 7 | 9
        assertThat(p.compare(2, KeyEncoder.ofLong(9), 0, true)).isZero();
        assertThat(p.lowerBound(KeyEncoder.ofLong(301), 0, true)).isEqualTo(4);
    }

    @Test
    void aKeySharingLessShortensThePrefixAndKeysOutsideItSortBeforeOrAfterEverything() {
        BTreePage p = leaf();
        for (long v : new long[] {10, 20, 30})
            p.insertAt(p.lowerBound(KeyEncoder.ofLong(v), 0, true), KeyEncoder.ofLong(v), v, 0);
        assertThat(p.prefixLength()).isEqualTo(7);
        // outside the prefix, decided from the header: below every entry, above every entry
        assertThat(p.lowerBound(KeyEncoder.ofLong(-1), 0, true)).isZero();
        assertThat(p.upperBound(KeyEncoder.ofLong(1L << 40), 0, true)).isEqualTo(3);
        assertThat(p.lowerBound(new byte[0], 0, true)).isZero();

        long big = 1L << 40;
        p.insertAt(p.lowerBound(KeyEncoder.ofLong(big), 0, true), KeyEncoder.ofLong(big), big, 0);
        assertThat(p.prefixLength()).isEqualTo(2); // 0x80 0x00 | 0x00 0x00 ... against 0x80 0x00 | 0x01 0x00 ...
        for (int i = 0; i < 4; i++) {
            long v = new long[] {10, 20, 30, big}[i];
            assertThat(p.lowerBound(KeyEncoder.ofLong(v), 0, true)).isEqualTo(i);
            assertThat(p.compare(i, KeyEncoder.ofLong(v), 0, true)).isZero();
            assertThat(p.tid(i)).isEqualTo(v);
        }
        assertThat(p.lowerBound(KeyEncoder.ofLong(25), 0, true)).isEqualTo(2);
    }

    @Test
    void stringKeysLongerThanThePrefixCompareOnTheBytesAfterIt() {
        BTreePage p = leaf();
        String[] keys = {"revision:000012", "revision:000010", "revision:000011", "revision:0000", "revision:"};
        for (String k : keys)
            p.insertAt(p.lowerBound(KeyEncoder.ofString(k), 0, true), KeyEncoder.ofString(k), k.length(), 0);
        assertThat(p.prefixLength()).isEqualTo(BTreePage.MAX_PREFIX); // "revision" is 8 bytes
        String[] sorted = {"revision:", "revision:0000", "revision:000010", "revision:000011", "revision:000012"};
        for (int i = 0; i < sorted.length; i++)
            assertThat(p.compare(i, KeyEncoder.ofString(sorted[i]), 0, true))
                    .as(sorted[i])
                    .isZero();
        assertThat(p.lowerBound(KeyEncoder.ofString("revision:00001"), 0, true)).isEqualTo(2);
        assertThat(p.lowerBound(KeyEncoder.ofString("revisio"), 0, true)).isZero();
        assertThat(p.lowerBound(KeyEncoder.ofString("rz"), 0, true)).isEqualTo(5);
    }

    /**
     * Keys that end inside the 4 PMNK bytes after the prefix, keys with zero bytes there (which the
     * zero padding must not confuse with a shorter key), and duplicate keys ordered by tuple id in
     * a non-unique node: the directory's order is unsigned byte order, then tid.
     */
    @Test
    void shortKeysZeroBytesAndTidTiesSortAsBytesThenTid() {
        BTreePage p = leaf();
        byte[][] keys = {
            {1, 2, 3, 4, 5, 6, 7, 8, 9}, // sets the prefix to 8 bytes
            {1, 2, 3, 4, 5, 6, 7, 8}, // exactly the prefix: nothing after it, PMNK 0
            {1, 2, 3, 4, 5, 6, 7, 8, 0}, // a zero byte after it: sorts after the shorter key
            {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 1}, // longer than prefix + 4, ties the PMNK of the one above
            {1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1},
            {1, 2, 3, 4, 5, 6, 7}, // shorter than the prefix: shortens it to 7
        };
        // non-unique: two entries per key, tids 2 and 1 inserted in that order
        for (byte[] k : keys) {
            for (long tid : new long[] {2, 1}) p.insertAt(p.lowerBound(k, tid, false), k, tid, 0);
        }
        assertThat(p.prefixLength()).isEqualTo(7);
        List<byte[]> sorted = new ArrayList<>(List.of(keys));
        sorted.sort(Arrays::compareUnsigned);
        assertThat(p.keyCount()).isEqualTo(2 * keys.length);
        for (int i = 0; i < sorted.size(); i++) {
            for (int d = 0; d < 2; d++) {
                int pos = 2 * i + d;
                assertThat(p.key(pos)).as("entry %d", pos).isEqualTo(sorted.get(i));
                assertThat(p.tid(pos)).as("entry %d", pos).isEqualTo(d + 1L);
                assertThat(p.compare(pos, sorted.get(i), d + 1L, false)).isZero();
            }
            assertThat(p.lowerBound(sorted.get(i), 0, false)).isEqualTo(2 * i);
            assertThat(p.upperBound(sorted.get(i), Long.MAX_VALUE, false)).isEqualTo(2 * i + 2);
        }
    }
}

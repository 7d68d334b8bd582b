package dev.wastecheck.layouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What every page does, shown on a small orders table. */
class PageExamplesTest {
    static final int ID = 0, SHIPPED = 1, QTY = 2, NOTE = 3;
    static final RecordSchema ORDERS = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("shipped", FieldType.BIT),
            Field.nullable("qty", FieldType.INT16),
            Field.varlen("note", true, 8));

    static Page emptyPage(Layout layout, int size) {
        return layout.newPage(ORDERS).format(ByteBuffer.allocate(size), 0, size);
    }

    static Record order(long id, boolean shipped, Integer qty, String note) {
        Record r = new Record(ORDERS).setLong(ID, id).setLong(SHIPPED, shipped ? 1 : 0);
        if (qty == null) r.setNull(QTY);
        else r.setLong(QTY, qty);
        if (note == null) r.setNull(NOTE);
        else r.setString(NOTE, note);
        return r;
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = "ARROW", mode = EnumSource.Mode.EXCLUDE)
    void insertedRecordsReadBackFieldByFieldAndWhole(Layout layout) {
        Page page = emptyPage(layout, 4096);
        assertThat(page.insert(order(7, true, 12, "fragile"))).isZero();
        assertThat(page.insert(order(8, false, null, null))).isOne();

        assertThat(page.getLong(0, ID)).isEqualTo(7);
        assertThat(page.getLong(0, SHIPPED)).isEqualTo(1);
        assertThat(page.getLong(0, QTY)).isEqualTo(12);
        assertThat(page.getLength(0, NOTE)).isEqualTo(7);
        assertThat(page.isNull(1, QTY)).isTrue();
        assertThat(page.isNull(1, NOTE)).isTrue();

        Record r = new Record(ORDERS);
        page.read(0, r);
        assertThat(r.getString(NOTE)).isEqualTo("fragile");
        assertThat(r).isEqualTo(order(7, true, 12, "fragile"));
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = "ARROW", mode = EnumSource.Mode.EXCLUDE)
    void aDeletedRecordIsAGhostUntilCompactionRenumbersTheRest(Layout layout) {
        Page page = emptyPage(layout, 4096);
        for (int i = 0; i < 5; i++) page.insert(order(i, false, i * 10, "n" + i));
        page.delete(1);
        page.delete(3);

        long[] selection = new long[1];
        assertThat(page.scanBetween(QTY, 0, 100, selection)).isEqualTo(3);
        assertThat(selection[0]).isEqualTo(0b10101L);
        assertThat(page.slotCount()).isEqualTo(5);
        assertThat(page.ghostCount()).isEqualTo(2);
        assertThat(page.reclaimableBytes()).isPositive();

        page.compact();
        assertThat(page.slotCount()).isEqualTo(3);
        assertThat(page.ghostCount()).isZero();
        assertThat(page.getLong(1, ID)).isEqualTo(2);
        assertThat(page.getLong(2, ID)).isEqualTo(4);
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = "ARROW", mode = EnumSource.Mode.EXCLUDE)
    void aValueGrowsAndShrinksWithoutDisturbingItsNeighbours(Layout layout) {
        Page page = emptyPage(layout, 4096);
        for (int i = 0; i < 3; i++) page.insert(order(i, false, 1, "abc"));
        byte[] longer = "a much longer note than before".getBytes();
        assertThat(page.setBytes(1, NOTE, longer, 0, longer.length)).isTrue();
        assertThat(page.setBytes(0, NOTE, longer, 0, 1)).isTrue();
        page.setNull(2, NOTE);
        page.setLong(2, QTY, -5);

        Record r = new Record(ORDERS);
        page.read(0, r);
        assertThat(r.getString(NOTE)).isEqualTo("a");
        page.read(1, r);
        assertThat(r.getString(NOTE)).isEqualTo("a much longer note than before");
        page.read(2, r);
        assertThat(r.isNull(NOTE)).isTrue();
        assertThat(r.getLong(QTY)).isEqualTo(-5);
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = "ARROW", mode = EnumSource.Mode.EXCLUDE)
    void aFullPageRefusesTheNextRecordAndStaysIntact(Layout layout) {
        Page page = emptyPage(layout, 4096);
        int n = 0;
        while (page.insert(order(n, n % 2 == 0, n, "note " + n)) >= 0) n++;
        assertThat(n).isBetween(100, 4096 / 13);
        assertThat(page.slotCount()).isEqualTo(n);
        assertThat(page.fill()).isGreaterThan(layout == Layout.NSM ? 0.95 : 0.75);
        assertThat(page.getLong(n - 1, ID)).isEqualTo(n - 1);
    }

    @Test
    void paxReorganizesWhenAVMinipageFillsButHplNeverDoes() {
        Page pax = emptyPage(Layout.PAX, 32 << 10);
        Page hpl = emptyPage(Layout.HPL, 32 << 10);
        byte[] big = new byte[120];
        for (int i = 0; i < 200; i++) {
            pax.insert(order(i, false, i, "x"));
            hpl.insert(order(i, false, i, "x"));
        }
        // Notes that grow far beyond the expected 8 bytes overflow PAX's V-minipage.
        for (int i = 0; i < 200; i += 2) {
            assertThat(pax.setBytes(i, NOTE, big, 0, big.length)).isTrue();
            assertThat(hpl.setBytes(i, NOTE, big, 0, big.length)).isTrue();
        }
        assertThat(pax.reorganizations()).isPositive();
        assertThat(hpl.reorganizations()).isZero();
    }

    @Test
    void refineNarrowsASelectionAndGatherReadsTheSelectedValues() {
        for (Layout layout : Layout.PAGES) {
            Page page = emptyPage(layout, 4096);
            for (int i = 0; i < 100; i++) page.insert(order(i, i % 3 == 0, i % 7 == 0 ? null : i, null));
            page.delete(30);
            long[] selection = new long[2];
            assertThat(page.scanBetween(SHIPPED, 1, 1, selection))
                    .as("%s", layout)
                    .isEqualTo(33); // 0, 3, .., 99 but 30
            assertThat(page.refineBetween(QTY, 10, 40, selection)).isEqualTo(8); // 12 15 18 24 27 33 36 39 (21 is NULL)
            long[][] out = new long[2][100];
            assertThat(page.gather(selection, new int[] {ID, SHIPPED}, out)).isEqualTo(8);
            assertThat(java.util.Arrays.copyOf(out[0], 8)).containsExactly(12, 15, 18, 24, 27, 33, 36, 39);
            assertThat(java.util.Arrays.copyOf(out[1], 8)).containsOnly(1);
        }
    }

    @Test
    void hplVarlenReferencesTakeTwoByteOffsetsUpToSixtyFourKilobytePages() {
        for (int size : new int[] {64 << 10, 128 << 10}) {
            Page page = emptyPage(Layout.HPL, size);
            byte[] big = new byte[size / 2];
            java.util.Arrays.fill(big, (byte) 'z');
            Record r = new Record(ORDERS).setLong(ID, 1).setLong(QTY, 2);
            r.setBytes(NOTE, big, 0, big.length);
            assertThat(page.insert(r)).isZero();
            // The value sits at the page's end: offset size / 2 and length size / 2 (65,536 in the 128 KB page).
            assertThat(page.getLength(0, NOTE)).isEqualTo(size / 2);
            byte[] back = new byte[size / 2];
            page.getBytes(0, NOTE, back, 0);
            assertThat(back).isEqualTo(big);
        }
    }

    @Test
    void hplKeepsThePoorMansNormalizedKeyOfEachValue() {
        assertThat(HybridPage.normalizedKey("abcdef".getBytes(), 0, 6)).isEqualTo(0x61626364);
        assertThat(HybridPage.normalizedKey("ab".getBytes(), 0, 2)).isEqualTo(0x61620000);
        Page page = emptyPage(Layout.HPL, 4096);
        page.insert(order(1, false, 1, "abcdX"));
        page.insert(order(2, false, 1, "abcdY"));
        long[] selection = new long[1];
        assertThat(page.scanEquals(NOTE, "abcdY".getBytes(), selection)).isOne();
        assertThat(selection[0]).isEqualTo(0b10L);
    }

    @Test
    void pageSizesOutsideFourKilobytesToOneMegabyteAreRefused() {
        for (Layout layout : Layout.PAGES) {
            assertThatThrownBy(() -> emptyPage(layout, 2048)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> emptyPage(layout, (1 << 20) + 1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aValueOutsideItsTypeIsRefusedAtTheRecord() {
        assertThatThrownBy(() -> new Record(ORDERS).setLong(QTY, 40_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Record(ORDERS).setNull(ID)).isInstanceOf(IllegalArgumentException.class);
    }
}

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

    static HybridPage emptyHpl(HybridPage.Variant variant, int size) {
        return (HybridPage) new HybridPage(ORDERS, variant).format(ByteBuffer.allocate(size), 0, size);
    }

    @Test
    void hplVariantsSizeSegmentsByCacheLineBlocksPerPageSize() {
        // 18 bytes of columns per record (the VARLEN reference is 8 bytes on pages up to 64 KB):
        // at R = 64 a segment (1,216 bytes) and its notes (8 bytes expected) take 1,728 bytes,
        // within 4096 / 2; at R = 128, 2,880 do not.
        assertThat(emptyHpl(HybridPage.Variant.RIGID, 4 << 10).recordsPerSegment())
                .isEqualTo(64);
        assertThat(emptyHpl(HybridPage.Variant.RIGID, 1 << 20).recordsPerSegment())
                .isEqualTo(256);
        assertThat(emptyHpl(HybridPage.Variant.SIMPLISTIC, 1 << 20).recordsPerSegment())
                .isEqualTo(64);
        assertThat(emptyHpl(HybridPage.Variant.SIMPLISTIC, 4 << 10).recordsPerSegment())
                .isEqualTo(64);
        // INCREMENTAL: the records a page holds, rounded up: 18 column bytes, an 8-byte note and
        // 4 bits a record: 157 in 4 KB (R = 256), 2,510 in 64 KB (R = 4096), at least 64.
        assertThat(emptyHpl(HybridPage.Variant.INCREMENTAL, 4 << 10).recordsPerSegment())
                .isEqualTo(256);
        assertThat(emptyHpl(HybridPage.Variant.INCREMENTAL, 64 << 10).recordsPerSegment())
                .isEqualTo(4096);
        HybridPage fixed = (HybridPage)
                new HybridPage(ORDERS, HybridPage.Variant.RIGID, 8).format(ByteBuffer.allocate(8192), 0, 8192);
        assertThat(fixed.recordsPerSegment()).isEqualTo(8);
        assertThatThrownBy(() -> new HybridPage(ORDERS, HybridPage.Variant.INCREMENTAL, 32))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HybridPage(ORDERS, HybridPage.Variant.RIGID, 100))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Fills the page with orders whose notes are "note N"; returns how many it took. */
    static int fill(Page page) {
        int n = 0;
        while (page.insert(order(n, n % 2 == 0, n, "note " + n)) >= 0) n++;
        return n;
    }

    @Test
    void aFullIncrementalPageWastesLessThanABlockPerColumnWhereARigidOneLosesUpToASegment() {
        int size = 64 << 10;
        HybridPage incremental = emptyHpl(HybridPage.Variant.INCREMENTAL, size);
        HybridPage rigid = emptyHpl(HybridPage.Variant.RIGID, size);
        int n = fill(incremental), m = fill(rigid);
        // INCREMENTAL (R = 4096, one segment): the refused record needed at most a block for each
        // of its 3 columns and its ~8-byte note: what is left is less than that.
        assertThat(incremental.recordsPerSegment()).isEqualTo(4096);
        assertThat(incremental.freeBytes()).isLessThan(3 * 64 + 10);
        assertThat(incremental.openRecords()).isPositive();
        assertThat(incremental.openSegmentSealed())
                .as("the refusal sealed the open segment")
                .isTrue();
        // RIGID (R = 256): a page is full when a whole next segment does not fit, 4,672 bytes (a
        // 64-byte head for four 32-byte bit regions, then 2,048 + 512 + 2,048 of columns).
        assertThat(rigid.recordsPerSegment()).isEqualTo(256);
        assertThat(rigid.freeBytes()).isLessThan(4672 + 10);
        assertThat(n).isGreaterThan(m);
        for (HybridPage page : new HybridPage[] {incremental, rigid}) {
            int count = page.slotCount();
            for (int i = 0; i < count; i++) assertThat(page.getLong(i, ID)).isEqualTo(i);
            assertThat(page.getLength(count - 1, NOTE)).isEqualTo(("note " + (count - 1)).length());
            long[] selection = new long[(count + 63) / 64];
            assertThat(page.scanBetween(SHIPPED, 1, 1, selection)).isEqualTo((count + 1) / 2);
            assertThat(page.scanBetween(QTY, 100, 199, selection)).isEqualTo(100);
        }
    }

    @Test
    void aSealedOpenSegmentGrowsAgainAfterCompactionAndSealsWhenFull() {
        HybridPage page = emptyHpl(HybridPage.Variant.INCREMENTAL, 16 << 10);
        int n = fill(page);
        int open = page.openRecords();
        assertThat(open).isPositive();
        assertThat(page.openSegmentSealed()).isTrue();
        // Deleting the last ten records and compacting frees their blocks and notes.
        for (int i = n - 10; i < n; i++) page.delete(i);
        int before = page.freeBytes() + page.reclaimableBytes();
        page.compact();
        assertThat(page.freeBytes()).isEqualTo(before);
        assertThat(page.slotCount()).isEqualTo(n - 10);
        // The next insert unseals the open segment (its blocks move back into growing order).
        assertThat(page.insert(order(1000, true, 7, "again"))).isEqualTo(n - 10);
        assertThat(page.openSegmentSealed()).isFalse();
        assertThat(page.getLong(n - 10, ID)).isEqualTo(1000);
        assertThat(page.getLong(n - 11, ID)).isEqualTo(n - 11);
        assertThat(page.getLong(n - 11, QTY)).isEqualTo(n - 11);
        // Growing or sealed, a scan reads the same values.
        long[] growing = new long[(n + 63) / 64];
        page.scanBetween(QTY, 0, 20, growing);
        while (page.insert(order(2000, true, 7, "fill")) >= 0) {}
        assertThat(page.openSegmentSealed()).isTrue();
        long[] sealed = new long[(page.slotCount() + 63) / 64];
        page.scanBetween(QTY, 0, 20, sealed);
        assertThat(sealed[0]).isEqualTo(growing[0]);
        assertThat(page.getLong(n - 10, ID)).isEqualTo(1000);
    }

    /** The class comment's drawing, byte for byte: (INT64 a, INT32 b, INT8 c), R = 64, a page at offset 0. */
    @Test
    void theOpenSegmentTakesCacheLineBlocksInTheOrderTheDrawingShows() {
        RecordSchema abc = RecordSchema.of(
                Field.of("a", FieldType.INT64), Field.of("b", FieldType.INT32), Field.of("c", FieldType.INT8));
        ByteBuffer buf = ByteBuffer.allocate(8192);
        HybridPage page = (HybridPage) new HybridPage(abc, HybridPage.Variant.INCREMENTAL, 64).format(buf, 0, 8192);
        Record r = new Record(abc);
        for (int i = 0; i < 20; i++)
            page.insert(r.setLong(0, 1000 + i).setLong(1, 2000 + i).setLong(2, i));
        // Header 64 bytes; the segment's head (64 ghost bits, rounded to a line) 64..128; then blocks:
        // a0 128, b0 192, c0 256, a1 320 (record 8), a2 384 and b1 448 (record 16), a3 512 (record 24).
        assertThat(page.openSegmentSealed()).isFalse();
        assertThat(buf.getLong(128)).isEqualTo(1000);
        assertThat(buf.getInt(192)).isEqualTo(2000);
        assertThat(buf.get(256)).isEqualTo((byte) 0);
        assertThat(buf.getLong(320)).isEqualTo(1008);
        assertThat(buf.getLong(384)).isEqualTo(1016);
        assertThat(buf.getInt(448)).isEqualTo(2016);
        assertThat(page.freeBytes()).isEqualTo(8192 - 64 - 448); // the head and 6 blocks; no VARLEN
        for (int i = 20; i < 64; i++)
            page.insert(r.setLong(0, 1000 + i).setLong(1, 2000 + i).setLong(2, i));
        // At 64 records the segment is sealed whole: a at 128 (8 lines), b at 640 (4), c at 896 (1).
        assertThat(page.openRecords()).isZero();
        for (int k = 0; k < 64; k++) {
            assertThat(buf.getLong(128 + 8 * k)).isEqualTo(1000 + k);
            assertThat(buf.getInt(640 + 4 * k)).isEqualTo(2000 + k);
            assertThat(buf.get(896 + k)).isEqualTo((byte) k);
        }
        assertThat(page.freeBytes()).isEqualTo(8192 - 64 - 896);
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

package dev.wastecheck.layouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.layouts.HybridPage.Variant;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * The arithmetic of HPL-2012-240 §3-§5, each figure asserted against what {@link HybridPage}
 * allocates and where it puts the bytes (read back from the page's buffer), not against a copy of
 * the arithmetic. The running example (§3, after [ADH 01]): a 4-byte identifier, a 1-byte age, a
 * name whose offset and size take 2 bytes each; with the 4-byte normalized key the reference is 8
 * bytes, and a record has 4 + 1 + 8 = 13 bytes of fixed-size fields, §3's count.
 */
class HybridPagePaperTest {
    static final int ID = 0, AGE = 1, NAME = 2;
    /** §3's running example. */
    static final RecordSchema ADH01 = RecordSchema.of(
            Field.of("id", FieldType.INT32), Field.of("age", FieldType.INT8), Field.varlen("name", false, 8));
    /** Figure 5's table: NULLs allowed in the non-key columns. */
    static final RecordSchema FIGURE5 = RecordSchema.of(
            Field.of("id", FieldType.INT32), Field.nullable("age", FieldType.INT8), Field.varlen("name", true, 8));

    static HybridPage page(RecordSchema schema, Variant v, int unit, boolean keys, int size, ByteBuffer buf) {
        return (HybridPage) new HybridPage(schema, v, unit, keys).format(buf, 0, size);
    }

    static ByteBuffer buffer(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    static Record employee(int id) {
        return new Record(ADH01).setLong(ID, id).setLong(AGE, 20 + id % 50).setString(NAME, "n" + id);
    }

    /** §3.1: 64 records a segment (a record per byte of a 64-byte line), 13 cache lines = 832 bytes. */
    @Test
    void simplisticSegmentsHoldSixtyFourRecordsInThirteenCacheLines() {
        ByteBuffer buf = buffer(64 << 10);
        HybridPage p = page(ADH01, Variant.SIMPLISTIC, 64, true, 64 << 10, buf);
        assertThat(p.recordsPerSegment()).isEqualTo(64);
        assertThat(p.headBytes()).isZero(); // no ghost or null bits in §3
        assertThat(p.segmentBytes()).isEqualTo(13 * 64).isEqualTo(832);
        // §3.1: "grows one segment at a time": the first record takes a whole segment, the 64th none more.
        int empty = p.freeBytes();
        p.insert(employee(0));
        assertThat(empty - p.freeBytes()).isEqualTo(832 + 2);
        for (int i = 1; i < 64; i++) p.insert(employee(i));
        assertThat(p.segmentBytesFor(64)).isEqualTo(832);
        assertThat(p.segmentBytesFor(65)).isEqualTo(2 * 832);
    }

    /** §3.1: record 145 is in segment 145 / 64 = 2 at 2 x 832 = 1,664 after the header, position 17, its id at 1,732. */
    @Test
    void recordOneHundredFortyFiveIsWhereSectionThreeComputesIt() {
        ByteBuffer buf = buffer(64 << 10);
        HybridPage p = page(ADH01, Variant.SIMPLISTIC, 64, true, 64 << 10, buf);
        for (int i = 0; i < 200; i++) p.insert(employee(1_000 + i));
        int header = HybridPage.HEADER_SIZE;
        assertThat(145 / 64).isEqualTo(2);
        assertThat(145 % 64).isEqualTo(17);
        assertThat(buf.getInt(header + 1_732)).isEqualTo(1_145);
        // The column order of §3.1: 4 lines of identifiers, one of ages, then the references.
        assertThat(buf.get(header + 1_664 + 256 + 17)).isEqualTo((byte) (20 + 1_145 % 50));
        assertThat(buf.getShort(header + 1_664 + 320 + 17 * 8 + HybridPage.NARROW_VREF_LENGTH))
                .isEqualTo((short) "n1145".length());
        assertThat(p.getLong(145, ID)).isEqualTo(1_145);
    }

    /** §4.1: with blocks of 4 lines (256 bytes) a segment holds 256 records in 256 x 13 = 3,328 bytes. */
    @Test
    void readAheadBlocksMakeSegmentsOfTwoHundredFiftySixRecords() {
        ByteBuffer buf = buffer(64 << 10);
        HybridPage p = page(ADH01, Variant.SIMPLISTIC, HybridPage.READ_AHEAD_BLOCK, true, 64 << 10, buf);
        assertThat(p.recordsPerSegment()).isEqualTo(256);
        assertThat(p.segmentBytes()).isEqualTo(256 * 13).isEqualTo(3_328);
        for (int i = 0; i < 300; i++) p.insert(employee(i));
        // Record 299: segment 1 at 3,328, position 43.
        assertThat(buf.getInt(HybridPage.HEADER_SIZE + 3_328 + 43 * 4)).isEqualTo(299);
    }

    /** §4.3: ghost bits fill the first line: 512 records, 512 / 8 + 512 x 13 = 6,720 bytes; at 256-byte blocks 2,048 and 26,880. */
    @Test
    void rigidSegmentsAreSixThousandSevenHundredTwentyAndTwentySixThousandEightHundredEightyBytes() {
        ByteBuffer buf = buffer(32 << 10);
        HybridPage p = page(ADH01, Variant.RIGID, 64, true, 32 << 10, buf);
        assertThat(p.recordsPerSegment()).isEqualTo(512);
        assertThat(p.headBytes()).isEqualTo(512 / 8);
        assertThat(p.segmentBytes()).isEqualTo(512 / 8 + 512 * 13).isEqualTo(6_720);
        int empty = p.freeBytes();
        for (int i = 0; i < 20; i++) p.insert(employee(i));
        assertThat(empty - p.freeBytes()).isEqualTo(6_720 + 20 * 2 + 10 * 1); // "n0".."n9": 2 bytes, "n10".."n19": 3
        p.delete(5);
        assertThat(buf.get(HybridPage.HEADER_SIZE) & 0xFF).isEqualTo(1 << 5); // the ghost bit in the first line
        assertThat(buf.getInt(HybridPage.HEADER_SIZE + 64 + 7 * 4)).isEqualTo(7); // ids after the ghost line

        ByteBuffer big = buffer(32 << 10);
        HybridPage q = page(ADH01, Variant.RIGID, HybridPage.READ_AHEAD_BLOCK, true, 32 << 10, big);
        assertThat(q.recordsPerSegment()).isEqualTo(2_048);
        assertThat(q.segmentBytes()).isEqualTo(2_048 / 8 + 2_048 * 13).isEqualTo(26_880);
        // §4.5: "a single page could not even hold a single segment": 16 KB is too small.
        assertThatThrownBy(
                        () -> page(ADH01, Variant.RIGID, HybridPage.READ_AHEAD_BLOCK, true, 16 << 10, buffer(16 << 10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit");
    }

    /**
     * §5.1: 150 bytes of fixed-size fields in 2K-record segments need 300 KB a segment; the
     * incremental layout allocates 2K bits, 256 one-byte, 128 two-byte and 32 eight-byte values
     * at a time, and a new segment first supports 2K bits / 64 bits = 32 records.
     */
    @Test
    void oneHundredFiftyBytesOfFixedFieldsNeedThreeHundredKilobyteSegments() {
        Field[] fields = new Field[20];
        for (int i = 0; i < 18; i++) fields[i] = Field.of("l" + i, FieldType.INT64);
        fields[18] = Field.of("i", FieldType.INT32);
        fields[19] = Field.of("s", FieldType.INT16);
        RecordSchema wide = RecordSchema.of(fields);
        assertThat(wide.fixedByteWidth()).isEqualTo(150);
        HybridPage rigid = page(wide, Variant.RIGID, HybridPage.READ_AHEAD_BLOCK, true, 1 << 20, buffer(1 << 20));
        assertThat(rigid.recordsPerSegment()).isEqualTo(2_048);
        assertThat(rigid.segmentBytes() - rigid.headBytes())
                .isEqualTo(300 << 10 | 0)
                .isEqualTo(2_048 * 150);
        // A full incremental segment is a rigid one (§5).
        HybridPage inc = page(wide, Variant.INCREMENTAL, HybridPage.READ_AHEAD_BLOCK, true, 32 << 10, buffer(32 << 10));
        assertThat(inc.segmentBytes()).isEqualTo(rigid.segmentBytes());
        // Opening: a 256-byte unit of ghost bits and one unit per column: 20 units, room for 32 records.
        assertThat(inc.segmentBytesFor(1)).isEqualTo(256 + 20 * 256);
        assertThat(inc.segmentBytesFor(32)).isEqualTo(inc.segmentBytesFor(1));
        // Record 32 needs new units for the 8-byte fields only; record 64 also for the 4-byte one;
        // record 128 also for the 2-byte one (128 two-byte values a unit).
        assertThat(inc.segmentBytesFor(33) - inc.segmentBytesFor(32)).isEqualTo(18 * 256);
        assertThat(inc.segmentBytesFor(65) - inc.segmentBytesFor(64)).isEqualTo(19 * 256);
        assertThat(inc.segmentBytesFor(129) - inc.segmentBytesFor(128)).isEqualTo(20 * 256);
        // A one-byte field takes a unit per 256 records.
        RecordSchema bytes = RecordSchema.of(Field.of("b", FieldType.INT8));
        HybridPage one =
                page(bytes, Variant.INCREMENTAL, HybridPage.READ_AHEAD_BLOCK, true, 32 << 10, buffer(32 << 10));
        assertThat(one.segmentBytesFor(256)).isEqualTo(2 * 256);
        assertThat(one.segmentBytesFor(257)).isEqualTo(3 * 256);
    }

    /**
     * Figure 6 (8-byte cache lines, Figure 5's table, references without keys): 3 lines of
     * bitmaps (ghosts and the two nullable columns), 8 records in 12 lines (3 + 9), the smallest
     * segment holding 2 records; a full segment of 64 records has 9 x 8 x 8 = 576 bytes of field
     * values (the paper adds them to the 3 bitmap lines as "579 cache lines"; as lines they are
     * 72, so the segment is 75 lines). With offset and size as one 4-byte field, the smallest
     * segment is 6 lines, not the figure's 7 (offset and size there are separate columns).
     */
    @Test
    void figureSixIncrementalSegmentCountsCacheLines() {
        int line = 8;
        HybridPage p = page(FIGURE5, Variant.INCREMENTAL, line, false, 4096, buffer(4096));
        assertThat(p.recordsPerSegment()).isEqualTo(64);
        assertThat(p.headBytes() / line).isEqualTo(3);
        assertThat(p.segmentBytesFor(8) / line).isEqualTo(12);
        assertThat(p.segmentBytesFor(1) / line).isEqualTo(6);
        assertThat(p.segmentBytesFor(2)).isEqualTo(p.segmentBytesFor(1));
        assertThat(p.segmentBytesFor(3)).isGreaterThan(p.segmentBytesFor(2));
        int fieldBytes = p.segmentBytesFor(64) - p.headBytes();
        assertThat(fieldBytes).isEqualTo(9 * 8 * 8).isEqualTo(576);
        assertThat(p.headBytes() / line + fieldBytes).isEqualTo(579);
        assertThat(p.segmentBytesFor(64) / line).isEqualTo(75);
        // Values and NULLs read back from those lines.
        Record r = new Record(FIGURE5);
        for (int i = 0; i < 9; i++) {
            r.setLong(ID, 962 + i);
            if (i % 3 == 0) r.setNull(AGE);
            else r.setLong(AGE, 30 + i);
            if (i == 4) r.setNull(NAME);
            else r.setString(NAME, "Jane" + i);
            p.insert(r);
        }
        Record back = new Record(FIGURE5);
        p.read(3, back);
        assertThat(back.isNull(AGE)).isTrue();
        assertThat(back.getString(NAME)).isEqualTo("Jane3");
        p.read(4, back);
        assertThat(back.getLong(AGE)).isEqualTo(34);
        assertThat(back.isNull(NAME)).isTrue();
    }

    /** §5.1: a full page wastes at most a block per fixed-size field; a rigid one up to a segment. */
    @Test
    void aFullIncrementalPageWastesLessThanALinePerFieldWhereARigidOneLosesASegment() {
        int size = 64 << 10;
        HybridPage inc = page(ADH01, Variant.INCREMENTAL, 64, true, size, buffer(size));
        HybridPage rigid = page(ADH01, Variant.RIGID, 64, true, size, buffer(size));
        int n = 0, m = 0;
        while (inc.insert(employee(n)) >= 0) n++;
        while (rigid.insert(employee(m)) >= 0) m++;
        // The refused record needed at most a line for each of its 3 columns and its name.
        assertThat(inc.freeBytes()).isLessThan(3 * 64 + 6);
        assertThat(rigid.freeBytes()).isLessThan(6_720 + 6);
        assertThat(n).isGreaterThan(m);
        for (HybridPage p : new HybridPage[] {inc, rigid}) {
            int count = p.slotCount();
            for (int i = 0; i < count; i++) assertThat(p.getLong(i, ID)).isEqualTo(i);
            long[] sel = new long[(count + 63) / 64];
            assertThat(p.scanBetween(AGE, 20, 29, sel)).isEqualTo((int) java.util.stream.IntStream.range(0, count)
                    .filter(i -> i % 50 < 10)
                    .count());
        }
    }

    /** The class comment's drawing of an INCREMENTAL segment, byte for byte: (INT64 a, INT32 b, INT8 c), U = 64. */
    @Test
    void incrementalBlocksGoWhereTheDrawingPutsThem() {
        RecordSchema abc = RecordSchema.of(
                Field.of("a", FieldType.INT64), Field.of("b", FieldType.INT32), Field.of("c", FieldType.INT8));
        ByteBuffer buf = buffer(65536);
        HybridPage page = page(abc, Variant.INCREMENTAL, 64, true, 65536, buf);
        Record r = new Record(abc);
        for (int i = 0; i < 600; i++)
            page.insert(r.setLong(0, 1000 + i).setLong(1, 2000 + i).setLong(2, i % 100));
        // Header 64; the head (512 ghost bits) 64..128; then a0 128, b0 192, c0 256, a1 320 (record 8),
        // a2 384 and b1 448 (record 16), a3 512, a4 576 b2 640, a5 704, a6 768 b3 832, a7 896, a8 960 b4 1024 c1 1088.
        int h = HybridPage.HEADER_SIZE;
        assertThat(buf.getLong(h)).isZero(); // no ghosts
        assertThat(buf.getLong(128)).isEqualTo(1000);
        assertThat(buf.getInt(192)).isEqualTo(2000);
        assertThat(buf.get(256)).isEqualTo((byte) 0);
        assertThat(buf.getLong(320)).isEqualTo(1008);
        assertThat(buf.getLong(384)).isEqualTo(1016);
        assertThat(buf.getInt(448)).isEqualTo(2016);
        assertThat(buf.getLong(960)).isEqualTo(1064);
        assertThat(buf.getInt(1024)).isEqualTo(2064);
        assertThat(buf.get(1088)).isEqualTo((byte) 64);
        // The full segment is a rigid one: the second starts at 64 + 64 + 512 * 13; record 512's a there.
        assertThat(page.segmentBytes()).isEqualTo(64 + 512 * 13);
        assertThat(buf.getLong(h + page.segmentBytes() + 64)).isEqualTo(1512);
        assertThat(page.freeBytes()).isEqualTo(65536 - h - page.segmentBytesFor(600));
    }

    /** §3.1 has no NULLs, no bit fields and no ghost records: SIMPLISTIC refuses them. */
    @Test
    void theSimplisticLayoutRefusesWhatSectionThreeIgnores() {
        assertThatThrownBy(() -> new HybridPage(FIGURE5, Variant.SIMPLISTIC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("§3.1");
        HybridPage p = page(ADH01, Variant.SIMPLISTIC, 64, true, 8192, buffer(8192));
        p.insert(employee(1));
        assertThatThrownBy(() -> p.delete(0)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(p.isGhost(0)).isFalse();
        assertThatThrownBy(() -> new HybridPage(ADH01, Variant.INCREMENTAL, 48))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.wastecheck.layouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sub-byte fields ("No Bits Left Behind" §4.1, "8, or even 4 bits"): the packing, and what it saves in every format. */
class SubByteFieldsTest {

    @Test
    void fieldsArePackedWidestFirstIntoTheFirstWordWithRoomAsDrawn() {
        RecordSchema s = RecordSchema.of(
                Field.bits("ns", 4),
                Field.bits("model", 2),
                Field.bits("role", 4),
                Field.bits("level", 3),
                Field.bits("minor", 2),
                Field.varlen("title", false, 10));
        assertThat(s.packs()).isTrue();
        RecordSchema stored = s.stored();
        assertThat(stored.fieldCount()).isEqualTo(3); // title, #word0, #word1
        assertThat(stored.field(0).name()).isEqualTo("title");
        assertThat(s.storedField(5)).isZero();
        int word0 = 1, word1 = 2;
        assertThat(new int[] {s.storedField(0), s.shift(0)}).containsExactly(word0, 0); // ns
        assertThat(new int[] {s.storedField(2), s.shift(2)}).containsExactly(word0, 4); // role
        assertThat(new int[] {s.storedField(3), s.shift(3)}).containsExactly(word1, 0); // level
        assertThat(new int[] {s.storedField(1), s.shift(1)}).containsExactly(word1, 3); // model
        assertThat(new int[] {s.storedField(4), s.shift(4)}).containsExactly(word1, 5); // minor
        assertThat(stored.type(word0)).isEqualTo(FieldType.UINT8);

        Record r = new Record(s)
                .setLong(0, 9)
                .setLong(1, 2)
                .setLong(2, 15)
                .setLong(3, 5)
                .setLong(4, 3);
        r.setString(5, "Main_Page");
        Record image = new Record(stored);
        r.packInto(image);
        assertThat(image.getLong(word0)).isEqualTo(15 << 4 | 9);
        assertThat(image.getLong(word1)).isEqualTo(3 << 5 | 2 << 3 | 5);
        Record back = new Record(s);
        back.unpackFrom(image);
        assertThat(back).isEqualTo(r);
    }

    @Test
    void aValueOutsideItsBitsIsRefusedNeverTruncated() {
        RecordSchema s = RecordSchema.of(Field.bits("a", 4), Field.bits("b", 4));
        assertThatThrownBy(() -> new Record(s).setLong(0, 16)).hasMessageContaining("4 bits");
        assertThatThrownBy(() -> new Record(s).setLong(0, -1)).hasMessageContaining("4 bits");
        Page page = PackedPage.of(Layout.NSM, s).format(ByteBuffer.allocate(4096), 0, 4096);
        page.insert(new Record(s).setLong(0, 3).setLong(1, 12));
        assertThatThrownBy(() -> page.setLong(0, 0, 16)).isInstanceOf(IllegalArgumentException.class);
        page.setLong(0, 0, 15);
        assertThat(page.getLong(0, 0)).isEqualTo(15);
        assertThat(page.getLong(0, 1)).as("the neighbour in the word").isEqualTo(12);
        assertThatThrownBy(() -> new Field("x", FieldType.INT16, false, 0, 4))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A revision-like record (an 8-byte id, a 4-byte page, eight small codes of 4 and 2 bits) fills a
     * page with more records in every format when the codes are packed, and every record reads back.
     */
    @Test
    void packedRecordsRoundTripAndTakeFewerBytesInEveryFormat() {
        List<Field> packedFields =
                new ArrayList<>(List.of(Field.of("id", FieldType.INT64), Field.of("page", FieldType.INT32)));
        List<Field> wholeFields = new ArrayList<>(packedFields);
        for (int i = 0; i < 8; i++) {
            int bits = i < 4 ? 4 : 2;
            packedFields.add(Field.bits("c" + i, bits));
            wholeFields.add(Field.of("c" + i, FieldType.UINT8));
        }
        RecordSchema packed = new RecordSchema(packedFields), whole = new RecordSchema(wholeFields);
        assertThat(packed.stored().fixedByteWidth()).isEqualTo(8 + 4 + 3); // 24 bits: three words
        assertThat(whole.fixedByteWidth()).isEqualTo(8 + 4 + 8);
        for (Layout layout : Layout.PAGES) {
            List<Record> written = new ArrayList<>();
            Page p = PackedPage.of(layout, packed).format(ByteBuffer.allocate(8192), 0, 8192);
            assertThat(p).isInstanceOf(PackedPage.class);
            int n = fill(p, packed, written);
            Page w = PackedPage.of(layout, whole).format(ByteBuffer.allocate(8192), 0, 8192);
            assertThat(w).isNotInstanceOf(PackedPage.class);
            int m = fill(w, whole, new ArrayList<>());
            assertThat(n)
                    .as("%s: packed records a page against whole bytes (%d)", layout, m)
                    .isGreaterThan(m);
            Record read = new Record(packed);
            for (int s = 0; s < n; s++) {
                p.read(s, read);
                assertThat(read).as("%s slot %d", layout, s).isEqualTo(written.get(s));
                for (int f = 2; f < 10; f++)
                    assertThat(p.getLong(s, f)).isEqualTo(written.get(s).getLong(f));
            }
            long[] sel = new long[(n + 63) / 64 + 1];
            int matches = p.scanBetween(4, 1, 2, sel); // c2 in [1, 2]
            long expected = written.stream()
                    .filter(r -> r.getLong(4) >= 1 && r.getLong(4) <= 2)
                    .count();
            assertThat(matches).as("%s scan", layout).isEqualTo((int) expected);
        }
    }

    private static int fill(Page p, RecordSchema s, List<Record> written) {
        int n = 0;
        while (true) {
            Record r = new Record(s).setLong(0, 1000L + n).setLong(1, n * 7);
            for (int i = 0; i < 8; i++) r.setLong(2 + i, (n * 31L + i) % (i < 4 ? 16 : 4));
            if (p.insert(r) < 0) return n;
            written.add(r);
            n++;
        }
    }
}

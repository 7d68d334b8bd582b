package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two writes that keep bytes where they are: an update of fixed-width fields that changes an index's key
 * keeps the tuple's id and moves only that index's entry; a demotion (§3.1, the hot partition to the cold
 * one) moves a value stored inline, a zstd frame or plain, as its stored bytes, neither decompressed nor
 * compressed again.
 */
class UpdateAndDemotionInPlaceTest {
    private static final int ROWS = 400;

    private static TableSpec pageSpec() {
        return new TableSpec(
                "page",
                List.of(
                        new ColumnSpec("page_id", FieldType.INT64, false, false),
                        new ColumnSpec("page_title", FieldType.VARLEN, false, false),
                        new ColumnSpec("page_latest", FieldType.INT64, false, false),
                        new ColumnSpec("page_len", FieldType.INT64, false, false)),
                List.of(
                        new IndexSpec("PRIMARY", List.of("page_id"), true),
                        new IndexSpec("name_title", List.of("page_title"), true),
                        new IndexSpec("page_len", List.of("page_len"), false)));
    }

    private static List<Long> find(Table t, int index, String literal) {
        List<Long> out = new ArrayList<>();
        byte[] key = t.keyOfLiterals(index, List.of(literal));
        if (key == null) return out;
        t.find(index, key, true, (p, tid) -> {
            out.add(tid);
            return true;
        });
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void anUpdateOfAnIndexedFixedWidthFieldKeepsTheTupleAndMovesOnlyThatEntry(Layout layout) {
        TableDesign d = TableDesign.BASELINE.with("layout", layout.name());
        try (Database db = new Database(List.of(pageSpec()), n -> d, 8192, 64L << 20, DeviceModel.NVME)) {
            Table t = db.table("page");
            Record r = new Record(t.schema());
            for (int i = 0; i < ROWS; i++) {
                r.setLong(0, i);
                r.setString(1, "Title_" + i);
                r.setLong(2, 1000 + i);
                r.setLong(3, i % 7);
                t.insert(t.main(), r);
            }
            Record values = new Record(t.schema());
            Record scratch = new Record(t.schema());
            for (int i = 0; i < ROWS; i += 3) {
                long tid = find(t, 0, Integer.toString(i)).get(0);
                values.setLong(2, 5000 + i);
                values.setLong(3, 100 + i); // page_len's key changes, the other two do not
                long after = t.update(t.main(), tid, new int[] {2, 3}, values, scratch);
                assertThat(after).as("the tuple keeps its id").isEqualTo(tid);
                assertThat(find(t, 2, Integer.toString(100 + i))).containsExactly(tid);
                assertThat(find(t, 1, "Title_" + i)).containsExactly(tid);
            }
            Record read = new Record(t.schema());
            for (int i = 0; i < ROWS; i++) {
                List<Long> tids = find(t, 0, Integer.toString(i));
                assertThat(tids).hasSize(1);
                t.read(t.main(), tids.get(0), read);
                boolean updated = i % 3 == 0;
                assertThat(read.getLong(2)).isEqualTo(updated ? 5000 + i : 1000 + i);
                assertThat(read.getLong(3)).isEqualTo(updated ? 100 + i : i % 7);
                assertThat(new String(read.bytes(1), 0, read.length(1), StandardCharsets.UTF_8))
                        .isEqualTo("Title_" + i);
            }
            // the old keys of page_len hold exactly the tuples not updated
            for (int k = 0; k < 7; k++) {
                long expected = 0;
                for (int i = 0; i < ROWS; i++) if (i % 3 != 0 && i % 7 == k) expected++;
                assertThat(find(t, 2, Integer.toString(k))).hasSize((int) expected);
            }
        }
    }

    private static TableSpec textSpec() {
        return new TableSpec(
                "text",
                List.of(
                        new ColumnSpec("old_id", FieldType.INT64, false, false),
                        new ColumnSpec("old_text", FieldType.VARLEN, true, true)),
                List.of(new IndexSpec("PRIMARY", List.of("old_id"), true)));
    }

    private static final String[] WORDS = {"the", "wiki", "page", "[[link]]", "{{template}}", "of", "==Section=="};

    /** Short texts (inline, plain or a frame), long ones (out of line), and NULL. */
    private static String value(Random rnd, int i) {
        if (i % 11 == 0) return null;
        StringBuilder b = new StringBuilder();
        int words = i % 4 == 0 ? 2 + rnd.nextInt(400) : 2 + rnd.nextInt(40);
        for (int w = 0; w < words; w++)
            b.append(WORDS[rnd.nextInt(WORDS.length)]).append(' ');
        return b.toString();
    }

    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void aDemotionMovesInlineFramesAsTheirBytes(Layout layout) {
        for (String kind : new String[] {"trained", "content"}) {
            TableDesign d = TableDesign.BASELINE
                    .with("layout", layout.name())
                    .with("compress", "large")
                    .with("compress_dict_kind", kind);
            try (Database db = new Database(List.of(textSpec()), n -> d, 8192, 64L << 20, DeviceModel.NVME)) {
                Table t = db.table("text");
                Random rnd = new Random(29);
                List<String> expected = new ArrayList<>();
                Record r = new Record(t.schema());
                for (int i = 0; i < ROWS; i++) {
                    String v = value(rnd, i);
                    expected.add(v);
                    r.setLong(0, i);
                    if (v == null) r.setNull(1);
                    else r.setString(1, v);
                    t.insert(t.main(), r);
                }
                t.createHotPartition(); // trains the field's dictionary
                Record scratch = new Record(t.schema());
                for (int i = 0; i < ROWS; i++)
                    t.move(t.main(), find(t, 0, Integer.toString(i)).get(0), t.hot(), scratch);
                long compressedBefore = t.compression()[0];
                long decompressedBefore = t.decompressedBytes();
                int inline = 0;
                Record raw = new Record(t.schema());
                for (int i = 0; i < ROWS; i++) {
                    long tid = find(t, 0, Integer.toString(i)).get(0);
                    t.hot().heap().read(tid, raw);
                    if (!raw.isNull(1)) {
                        byte tag = raw.bytes(1)[0];
                        if (raw.length(1) != OverflowStore.REF_BYTES && tag == OverflowStore.INLINE_DICTIONARY)
                            inline++;
                    }
                    long cold = t.move(t.hot(), tid, t.main(), scratch);
                    assertThat(t.hot().heap().rows()).isEqualTo(ROWS - i - 1L);
                    assertThat(find(t, 0, Integer.toString(i))).containsExactly(cold);
                }
                assertThat(inline)
                        .as("inline dictionary frames demoted (" + kind + ")")
                        .isPositive();
                assertThat(t.compression()[0])
                        .as("nothing compressed again by the demotions")
                        .isEqualTo(compressedBefore);
                assertThat(t.decompressedBytes())
                        .as("nothing decompressed by the demotions")
                        .isEqualTo(decompressedBefore);
                Record read = new Record(t.schema());
                for (int i = 0; i < ROWS; i++) {
                    long tid = find(t, 0, Integer.toString(i)).get(0);
                    t.read(t.main(), tid, read);
                    String got = read.isNull(1)
                            ? null
                            : new String(read.bytes(1), 0, read.length(1), StandardCharsets.UTF_8);
                    assertThat(got).as("row " + i + " (" + kind + ")").isEqualTo(expected.get(i));
                }
            }
        }
    }
}

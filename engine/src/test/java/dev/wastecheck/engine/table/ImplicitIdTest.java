package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.heap.ImplicitIdStore;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Implicit ids ("No Bits Left Behind" §4.2), differential: the same revision-like rows, loaded in
 * id order with gaps, then updated (some values grow and move their tuples), deleted, inserted out
 * of order and moved into a hot partition, read back by the primary key and by a secondary index
 * through a table that stores the id and one that derives it from the address ({@code id=implicit}):
 * the same values, the id column included; the implicit table's records are smaller.
 */
class ImplicitIdTest {
    private static final int ROWS = 2000;

    /** A revision-like table: id, page, a nullable comment; the primary key and a non-unique index by page. */
    static TableSpec spec() {
        return new TableSpec(
                "revision",
                List.of(
                        new ColumnSpec("rev_id", FieldType.INT64, false, false),
                        new ColumnSpec("rev_page", FieldType.INT32, false, false),
                        new ColumnSpec("rev_comment", FieldType.VARLEN, true, false)),
                List.of(
                        new IndexSpec("PRIMARY", List.of("rev_id"), true),
                        new IndexSpec("rev_page", List.of("rev_page"), false)));
    }

    /** The ids loaded: dense, with a gap every 97 (a deleted revision in the dump). */
    private static long id(int i) {
        return 1 + i + i / 97;
    }

    private static final class Run {
        final List<String> byId = new ArrayList<>();
        final List<String> byPage = new ArrayList<>();
        long heapBytes, exceptions;
        int idField;
    }

    private static long find(Table t, long id) {
        long[] tid = {-1};
        Table.Part[] part = {null};
        byte[] k = t.keyOfLiterals(0, List.of(Long.toString(id)));
        t.find(0, k, true, (p, x) -> {
            tid[0] = x;
            part[0] = p;
            return false;
        });
        return tid[0];
    }

    private static Table.Part partOf(Table t, long id) {
        Table.Part[] part = {null};
        t.find(0, t.keyOfLiterals(0, List.of(Long.toString(id))), true, (p, x) -> {
            part[0] = p;
            return false;
        });
        return part[0];
    }

    private static String row(Record r) {
        return r.getLong(0) + ":" + r.getLong(1) + ":"
                + (r.isNull(2) ? "NULL" : new String(r.bytes(2), 0, r.length(2), StandardCharsets.UTF_8));
    }

    private static Run run(Layout layout, String id) {
        TableDesign d = TableDesign.BASELINE.with("layout", layout.name()).with("id", id);
        Run out = new Run();
        try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME)) {
            Table t = db.table("revision");
            out.idField = t.implicitId();
            Random rnd = new Random(31);
            Record r = new Record(t.schema());
            for (int i = 0; i < ROWS; i++) {
                r.setLong(0, id(i));
                r.setLong(1, i % 50);
                if (i % 7 == 0) r.setNull(2);
                else r.setString(2, "edit " + rnd.nextInt(1000));
                t.insert(t.main(), r);
            }
            out.heapBytes = t.heapBytes();
            Record values = new Record(t.schema());
            Record scratch = new Record(t.schema());
            // grow every 5th comment: on pages the tuple moves to the heap's end, an exception
            for (int i = 0; i < ROWS; i += 5) {
                values.setString(2, "a much longer comment than before, " + "x".repeat(rnd.nextInt(80)));
                t.update(t.main(), find(t, id(i)), new int[] {2}, values, scratch);
            }
            // in-place integer updates of other fields
            for (int i = 1; i < ROWS; i += 9) {
                values.setLong(1, 49 - i % 50);
                t.update(t.main(), find(t, id(i)), new int[] {1}, values, scratch);
            }
            for (int i = 3; i < ROWS; i += 11) t.delete(t.main(), find(t, id(i)), scratch);
            // inserted out of order: into the gaps
            for (int i = 96; i < ROWS; i += 97) {
                r.setLong(0, id(i) + 1);
                r.setLong(1, 7);
                r.setString(2, "gap " + i);
                t.insert(t.main(), r);
            }
            // a hot partition (§3.1): tuples moved there get new addresses
            Table.Part hot = t.createHotPartition();
            for (int i = 2; i < ROWS; i += 13) {
                long x = find(t, id(i));
                if (x >= 0 && partOf(t, id(i)) == t.main()) t.move(t.main(), x, hot, scratch);
            }
            Record read = new Record(t.schema());
            for (int i = 0; i < ROWS + ROWS / 97 + 2; i++) {
                long x = find(t, i);
                if (x < 0) {
                    out.byId.add(i + ": none");
                    continue;
                }
                t.read(partOf(t, i), x, read);
                out.byId.add(row(read));
            }
            // by the secondary index: the id is read from the address, not known from the key
            Record proj = new Record(t.schema());
            for (int page = 0; page < 50; page++) {
                t.find(1, t.keyOfLiterals(1, List.of(Integer.toString(page))), false, (p, x) -> {
                    t.project(p, x, new int[] {0, 2}, proj);
                    out.byPage.add(proj.getLong(0) + ":"
                            + (proj.isNull(2)
                                    ? "NULL"
                                    : new String(proj.bytes(2), 0, proj.length(2), StandardCharsets.UTF_8)));
                    return true;
                });
            }
            for (Table.Part p : t.parts()) if (p.heap() instanceof ImplicitIdStore s) out.exceptions += s.exceptions();
            return out;
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void anImplicitIdTableAnswersWhatTheStoredIdTableAnswers(Layout layout) {
        Run stored = run(layout, "stored");
        Run implicit = run(layout, "implicit");
        assertThat(stored.idField).isEqualTo(-1);
        assertThat(implicit.idField).isEqualTo(0);
        assertThat(implicit.byId).isEqualTo(stored.byId);
        assertThat(implicit.byPage).containsExactlyInAnyOrderElementsOf(stored.byPage);
        assertThat(stored.byId).filteredOn(s -> s.endsWith("none")).hasSizeLessThan(ROWS / 5);
        assertThat(implicit.byPage).hasSizeGreaterThan(ROWS / 2);
        // gaps, rewritten, out-of-order and hot tuples start runs of their pages: the heap only appends, so no slot is
        // reused below a derived one and no id needs the exceptions' tree
        assertThat(implicit.exceptions).isZero();
        assertThat(implicit.heapBytes).isLessThan(stored.heapBytes);
    }

    /** Bytes per record loaded, with and without the id stored (8 B INT64 in the records). */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void theRecordsAreSmallerWithoutTheId(Layout layout) {
        TableDesign stored = TableDesign.BASELINE.with("layout", layout.name());
        TableDesign implicit = stored.with("id", "implicit");
        double[] perRecord = new double[2];
        int k = 0;
        for (TableDesign d : List.of(stored, implicit)) {
            try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME)) {
                Table t = db.table("revision");
                Record r = new Record(t.schema());
                int n = 20_000;
                for (int i = 0; i < n; i++) {
                    r.setLong(0, i + 1);
                    r.setLong(1, i % 50);
                    r.setString(2, "c" + (i % 10));
                    t.insert(t.main(), r);
                }
                perRecord[k++] = (double) t.heapBytes() / n;
            }
        }
        // the id's 8 bytes go; the address map adds 8 bytes and a bit per slot per page
        assertThat(perRecord[1]).isLessThan(perRecord[0] - 5);
    }

    @Test
    void tablesWithoutAnIntegerPrimaryKeyStoreTheirRowsAsTheyAre() {
        TableSpec text = new TableSpec(
                "t",
                List.of(new ColumnSpec("name", FieldType.VARLEN, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("name"), true)));
        assertThat(Table.implicitIdField(text)).isEqualTo(-1);
        assertThat(Table.implicitIdField(spec())).isEqualTo(0);
        assertThat(TableDesign.BASELINE.with("id", "implicit").describe()).endsWith(",id=implicit");
        assertThat(TableDesign.BASELINE.describe()).doesNotContain("id=");
    }
}

package dev.wastecheck.layouts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The trivial in-memory model every page layout must agree with: a list of records in slot
 * order, each live or a ghost.
 */
final class PageModel {
    static final class Entry {
        final Record record;
        boolean ghost;

        Entry(Record record) {
            this.record = record;
        }
    }

    final RecordSchema schema;
    final List<Entry> entries = new ArrayList<>();

    PageModel(RecordSchema schema) {
        this.schema = schema;
    }

    void insert(Record r) {
        entries.add(new Entry(new Record(schema).copyFrom(r)));
    }

    int slotCount() {
        return entries.size();
    }

    int ghostCount() {
        return (int) entries.stream().filter(e -> e.ghost).count();
    }

    /** The {@code pick}-th live slot (modulo the live count), or -1 if none. */
    int liveSlot(int pick) {
        int live = slotCount() - ghostCount();
        if (live == 0) return -1;
        int k = Math.floorMod(pick, live);
        for (int s = 0; s < entries.size(); s++) {
            if (!entries.get(s).ghost && k-- == 0) return s;
        }
        throw new AssertionError();
    }

    void delete(int slot) {
        entries.get(slot).ghost = true;
    }

    /** What {@link Page#gather} reads for a fixed field: 0 for NULL, else the value (a FLOAT64's raw bits). */
    long value(int slot, int field) {
        Record r = entries.get(slot).record;
        return r.isNull(field) ? 0 : r.getLong(field);
    }

    void compact() {
        entries.removeIf(e -> e.ghost);
    }

    long[] scanBetween(int field, long lo, long hi) {
        long[] sel = new long[(slotCount() + 63) / 64 + 1];
        for (int s = 0; s < entries.size(); s++) {
            Entry e = entries.get(s);
            if (e.ghost || e.record.isNull(field)) continue;
            long v = e.record.getLong(field);
            if (v >= lo && v <= hi) sel[s >>> 6] |= 1L << s;
        }
        return sel;
    }

    long[] scanEquals(int field, byte[] key) {
        long[] sel = new long[(slotCount() + 63) / 64 + 1];
        for (int s = 0; s < entries.size(); s++) {
            Entry e = entries.get(s);
            if (e.ghost || e.record.isNull(field)) continue;
            if (Arrays.equals(e.record.bytes(field), 0, e.record.length(field), key, 0, key.length))
                sel[s >>> 6] |= 1L << s;
        }
        return sel;
    }

    /** Asserts that the page holds exactly the model's records, field by field. */
    void assertSame(Page page) {
        assertThat(page.slotCount()).as("slots").isEqualTo(slotCount());
        assertThat(page.ghostCount()).as("ghosts").isEqualTo(ghostCount());
        Record read = new Record(schema);
        Record projected = new Record(schema);
        byte[] bytes = new byte[1 << 20];
        for (int s = 0; s < entries.size(); s++) {
            Entry e = entries.get(s);
            assertThat(page.isGhost(s)).as("ghost %d", s).isEqualTo(e.ghost);
            if (e.ghost) continue;
            // a projection of every other field (which ones turns with the slot) reads those fields alone, into a
            // record that holds the previous slot's values: the others must stay as they were
            int turn = s;
            int[] fields = IntStream.range(0, schema.fieldCount())
                    .filter(f -> (f + turn) % 2 == 0)
                    .toArray();
            Record before = new Record(schema).copyFrom(projected);
            page.project(s, fields, projected);
            for (int f = 0; f < schema.fieldCount(); f++) {
                Record expected = (f + s) % 2 == 0 ? e.record : before;
                assertThat(projected.isNull(f)).as("projected null %d.%d", s, f).isEqualTo(expected.isNull(f));
                if (expected.isNull(f)) continue;
                if (schema.type(f).isVariable())
                    assertThat(Arrays.copyOf(projected.bytes(f), projected.length(f)))
                            .as("projected %d.%d", s, f)
                            .isEqualTo(Arrays.copyOf(expected.bytes(f), expected.length(f)));
                else
                    assertThat(projected.getLong(f)).as("projected %d.%d", s, f).isEqualTo(expected.getLong(f));
            }
            page.read(s, read);
            assertThat(read).as("slot %d", s).isEqualTo(e.record);
            for (int f = 0; f < schema.fieldCount(); f++) {
                assertThat(page.isNull(s, f)).as("null %d.%d", s, f).isEqualTo(e.record.isNull(f));
                if (schema.type(f).isVariable()) {
                    int len = page.getBytes(s, f, bytes, 3);
                    assertThat(len).isEqualTo(e.record.length(f)).isEqualTo(page.getLength(s, f));
                    assertThat(Arrays.copyOfRange(bytes, 3, 3 + len)).isEqualTo(Arrays.copyOf(e.record.bytes(f), len));
                } else if (!e.record.isNull(f)) {
                    assertThat(page.getLong(s, f)).as("value %d.%d", s, f).isEqualTo(e.record.getLong(f));
                }
            }
        }
        double fill = page.fill();
        assertThat(fill).isBetween(0.0, 1.0);
        assertThat(page.freeBytes()).isBetween(0, page.pageSize());
        assertThat(page.reclaimableBytes()).isBetween(0, page.pageSize());
    }
}

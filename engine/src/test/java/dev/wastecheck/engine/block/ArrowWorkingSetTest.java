package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.layouts.arrow.TupleSlot;
import dev.wastecheck.layouts.arrow.VarlenEntry;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The working set a replay measures on Arrow blocks: the distinct 4 KB pages of blocks and heap
 * chunks its reads touched, counted against a plain set of (block or chunk, page) pairs. The values
 * are sized to cross page and bit-word boundaries: inline, a few pages, a dedicated chunk of 300 KB
 * and one of 1.5 MB, whose pages past its first megabyte are kept apart.
 */
class ArrowWorkingSetTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.nullable("qty", FieldType.INT32),
            Field.nullable("text", FieldType.VARLEN));
    static final int PAGE = 4096;

    final TransactionManager tm = new TransactionManager();
    final ArrowTable table =
            new ArrowTable("t", SCHEMA, tm, BlockLayout.DEFAULT_BLOCK_SIZE, ArrowTable.FreezeMode.GATHER);
    final ArrowStore store = new ArrowStore(table);

    @Test
    void readsCountEveryPageTheyTouchOnce() {
        List<Integer> sizes = List.of(5, 40, 5_000, 9_000, 300_000, 1_500_000, 70_000, 3);
        long[] slots = new long[sizes.size() * 16];
        for (int i = 0; i < slots.length; i++) {
            byte[] text = new byte[sizes.get(i % sizes.size())];
            Arrays.fill(text, (byte) ('a' + i % 26));
            Record r = new Record(SCHEMA).setLong(0, i).setLong(1, i * 7L).setBytes(2, text, 0, text.length);
            slots[i] = store.insert(r);
        }
        store.trackTouched();
        Set<Long> expected = new HashSet<>();
        Record into = new Record(SCHEMA);
        int[] idAndText = {0, 2};
        for (int i = 0; i < slots.length; i += 3) {
            int[] fields = i % 2 == 0 ? idAndText : new int[] {0, 1, 2};
            store.project(slots[i], fields, into, null);
            assertThat(into.length(2)).isEqualTo(sizes.get(i % sizes.size()));
            expect(expected, slots[i], fields);
        }
        assertThat(expected.stream().filter(p -> p < 0).count())
                .as("heap pages")
                .isGreaterThan(100);
        assertThat(store.touchedBytes()).isEqualTo((long) expected.size() * PAGE);
    }

    /** The pages a read of {@code fields} touches: block pages as non-negative keys, heap pages as negative ones. */
    void expect(Set<Long> pages, long slot, int[] fields) {
        BlockLayout l = table.layout();
        int b = TupleSlot.block(slot), off = TupleSlot.offset(slot);
        pages.add(blockPage(b, l.allocationOffset() + (off >>> 3)));
        for (int c : fields) {
            pages.add(blockPage(b, l.validityOffset(c) + (off >>> 3)));
            pages.add(blockPage(b, l.valuesOffset(c) + (l.width(c) == 0 ? off >>> 3 : off * l.width(c))));
            if (!l.isVarlen(c)) continue;
            Block block = table.block(slot);
            long w0 = block.data.entryWord0(c, off);
            if (VarlenEntry.isInline(w0)) continue;
            long handle = block.data.entryWord1(c, off);
            long chunk = handle >>> 32, at = (int) handle;
            for (long p = at / PAGE; p <= (at + VarlenEntry.size(w0) - 1) / PAGE; p++)
                pages.add(-1 - (chunk << 20 | p));
        }
    }

    static long blockPage(int block, int byteOffset) {
        return (long) block << 20 | byteOffset / PAGE;
    }
}

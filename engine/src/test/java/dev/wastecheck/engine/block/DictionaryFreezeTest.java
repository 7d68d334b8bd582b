package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Dictionary compression (§4.4): a sorted dictionary of the distinct values, and each record's code finds its value. */
class DictionaryFreezeTest {
    @Test
    void theDictionaryIsSortedDistinctAndEveryCodeFindsItsValue() {
        TransactionManager tm = new TransactionManager();
        GarbageCollector gc = new GarbageCollector(tm);
        ArrowTable table = new ArrowTable(
                "t", ArrowTableTest.SCHEMA, tm, ArrowTableTest.SMALL_BLOCK, ArrowTable.FreezeMode.DICTIONARY);
        Random rnd = new Random(5);
        // Values that share long prefixes (the sort's packed first 44 bits tie), duplicates, empty and
        // short (inline) values, bytes above 0x7F, a value that is a prefix of another, and NULLs.
        String[] pool = {
            "https://example.org/page/1",
            "https://example.org/page/10",
            "https://example.org/page/2",
            "https://example.org/",
            "https://example.org",
            "",
            "a",
            "ab",
            "ab\0",
            "zzzzzzzzzzzzzzzzzz",
            "éé prefix",
            "e prefix long enough to live out of line"
        };
        Transaction t = tm.begin();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3 * table.layout().slots(); i++) {
            String name = i % 13 == 0 ? null : pool[rnd.nextInt(pool.length)] + (i % 4 == 0 ? "" : "#" + (i % 50));
            names.add(name);
            table.insert(t, ArrowTableTest.row(i, i, true, name));
        }
        tm.commit(t);
        assertThat(new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 50)).isEqualTo(table.blockCount());

        int record = 0;
        for (Block b : table.blocks()) {
            assertThat(b.state()).isEqualTo(ArrowBlock.FROZEN);
            FrozenVarlen f = b.frozenVarlen(3);
            assertThat(f.encoding()).isEqualTo(FrozenVarlen.Encoding.DICTIONARY);
            byte[][] dict = new byte[f.dictionarySize()][];
            ByteBuffer buf = f.buffer();
            for (int i = 0; i < dict.length; i++) {
                dict[i] = new byte[f.offset(i + 1) - f.offset(i)];
                buf.get(f.valuesOffset() + f.offset(i), dict[i]);
                if (i > 0)
                    assertThat(Arrays.compareUnsigned(dict[i - 1], dict[i]))
                            .as("sorted, distinct")
                            .isNegative();
            }
            for (int off = 0; off < b.data().numRecords(); off++, record++) {
                String expected = names.get(record);
                if (expected == null) {
                    assertThat(b.data().isValid(3, off)).isFalse();
                    continue;
                }
                assertThat(new String(dict[f.index(off)], StandardCharsets.UTF_8))
                        .isEqualTo(expected);
            }
        }
        assertThat(record).isEqualTo(names.size());
        Transaction s = tm.begin();
        List<String> read = new ArrayList<>();
        table.scan(s, (slot, r) -> read.add(r.isNull(3) ? null : r.getString(3)));
        tm.commit(s);
        assertThat(read).containsExactlyElementsOf(names);
    }
}

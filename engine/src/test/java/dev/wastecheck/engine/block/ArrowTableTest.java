package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import dev.wastecheck.layouts.arrow.TupleSlot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Snapshot isolation, first writer wins, rollback in place and pruning on one Arrow table (§3 of the paper). */
class ArrowTableTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("qty", FieldType.INT32),
            Field.nullable("flag", FieldType.BIT),
            Field.nullable("name", FieldType.VARLEN));
    static final int SMALL_BLOCK = 4096;

    final TransactionManager tm = new TransactionManager();
    final GarbageCollector gc = new GarbageCollector(tm);
    final ArrowTable table = new ArrowTable("t", SCHEMA, tm, SMALL_BLOCK, ArrowTable.FreezeMode.GATHER);

    static Record row(long id, int qty, Boolean flag, String name) {
        Record r = new Record(SCHEMA).setLong(0, id).setLong(1, qty);
        if (flag == null) r.setNull(2);
        else r.setLong(2, flag ? 1 : 0);
        if (name == null) r.setNull(3);
        else r.setString(3, name);
        return r;
    }

    long insertCommitted(Record r) {
        Transaction t = tm.begin();
        long slot = table.insert(t, r);
        assertThat(tm.commit(t)).isTrue();
        return slot;
    }

    Record readCommitted(long slot) {
        Transaction t = tm.begin();
        Record r = read(t, slot);
        tm.commit(t);
        return r;
    }

    Record read(Transaction t, long slot) {
        Record r = new Record(SCHEMA);
        return table.select(t, slot, r) ? r : null;
    }

    @Test
    void aCommittedInsertIsVisibleOnlyToTransactionsThatStartAfterIt() {
        Transaction before = tm.begin();
        Transaction writer = tm.begin();
        long slot = table.insert(writer, row(1, 10, true, "a value longer than twelve bytes"));
        assertThat(read(writer, slot)).isEqualTo(row(1, 10, true, "a value longer than twelve bytes"));
        assertThat(read(before, slot)).isNull();
        tm.commit(writer);
        Transaction after = tm.begin();
        assertThat(read(before, slot)).as("snapshot taken before the commit").isNull();
        assertThat(read(after, slot)).isEqualTo(row(1, 10, true, "a value longer than twelve bytes"));
    }

    @Test
    void theFirstWriterWinsAndTheSecondMustAbort() {
        long slot = insertCommitted(row(1, 10, false, "x"));
        Transaction t1 = tm.begin(), t2 = tm.begin();
        assertThat(table.update(t1, slot, new int[] {1}, row(1, 11, false, "x")))
                .isTrue();
        assertThat(table.update(t2, slot, new int[] {1}, row(1, 12, false, "x")))
                .isFalse();
        assertThat(t2.mustAbort()).isTrue();
        assertThat(tm.commit(t2)).isFalse();
        assertThat(tm.commit(t1)).isTrue();
        // A transaction that began before t1 committed conflicts with t1's committed write too.
        Transaction t3 = tm.begin();
        Transaction old = tm.begin();
        Transaction t4 = tm.begin();
        assertThat(table.update(t3, slot, new int[] {1}, row(1, 13, false, "x")))
                .isTrue();
        tm.commit(t3);
        assertThat(table.update(t4, slot, new int[] {1}, row(1, 14, false, "x")))
                .isFalse();
        assertThat(read(old, slot).getLong(1)).as("old snapshot").isEqualTo(11);
        assertThat(readCommitted(slot).getLong(1)).isEqualTo(13);
    }

    @Test
    void anAbortRollsBackInPlaceAndFreesTheValuesItWrote() {
        long slot = insertCommitted(row(1, 10, null, "the original long value"));
        gc.run();
        long live = table.heap().liveBytes();
        Transaction t = tm.begin();
        assertThat(table.update(t, slot, new int[] {1, 2, 3}, row(1, 99, true, "a replacement that is longer still")))
                .isTrue();
        assertThat(table.heap().liveBytes()).isEqualTo(live + "a replacement that is longer still".length());
        tm.abort(t);
        Block b = table.block(slot);
        int off = TupleSlot.offset(slot);
        assertThat(b.data().getFixed(1, off)).as("in place").isEqualTo(10);
        assertThat(b.data().isValid(2, off)).isFalse();
        assertThat(readCommitted(slot)).isEqualTo(row(1, 10, null, "the original long value"));
        gc.run();
        assertThat(b.versions.get(off)).as("aborted record unlinked").isNull();
        assertThat(table.heap().liveBytes()).as("the aborted value is freed").isEqualTo(live);
    }

    @Test
    void theCollectorPrunesChainsOnlyWhenNoRunningTransactionNeedsThem() {
        long slot = insertCommitted(row(1, 1, true, "first value of some length"));
        Transaction reader = tm.begin();
        for (int v = 2; v <= 4; v++) {
            Transaction t = tm.begin();
            table.update(t, slot, new int[] {1, 3}, row(1, v, true, "value number " + v + " of some length"));
            tm.commit(t);
        }
        gc.run();
        Block b = table.block(slot);
        int off = TupleSlot.offset(slot);
        assertThat(chainLength(b, off))
                .as("the reader still needs three before-images")
                .isEqualTo(3);
        assertThat(read(reader, slot)).isEqualTo(row(1, 1, true, "first value of some length"));
        long liveWithOld = table.heap().liveBytes();
        tm.commit(reader);
        gc.run();
        assertThat(chainLength(b, off)).isZero();
        gc.run();
        assertThat(table.heap().liveBytes())
                .as("three old values freed")
                .isLessThan(liveWithOld)
                .isEqualTo("value number 4 of some length".length());
        assertThat(readCommitted(slot)).isEqualTo(row(1, 4, true, "value number 4 of some length"));
    }

    static int chainLength(Block b, int off) {
        int n = 0;
        for (VersionRecord r = b.versions.get(off); r != null; r = r.nextRecord()) n++;
        return n;
    }

    @Test
    void aDeleteIsInvisibleToLaterSnapshotsAndVisibleToEarlierOnes() {
        long slot = insertCommitted(row(7, 70, false, "seven"));
        Transaction early = tm.begin();
        Transaction d = tm.begin();
        assertThat(table.delete(d, slot)).isTrue();
        assertThat(table.delete(d, slot)).as("already deleted by itself").isFalse();
        assertThat(d.mustAbort()).isFalse();
        tm.commit(d);
        assertThat(read(early, slot)).isEqualTo(row(7, 70, false, "seven"));
        assertThat(readCommitted(slot)).isNull();
        Transaction late = tm.begin();
        assertThat(table.update(late, slot, new int[] {1}, row(7, 71, false, "seven")))
                .as("nothing to update")
                .isFalse();
        assertThat(late.mustAbort()).isFalse();
    }

    @Test
    void aFullBlockIsColdAfterTheGivenNumberOfEpochsWithoutAWrite() {
        List<Block> cold = new ArrayList<>();
        gc.addObserver(new AccessObserver(table, 3, cold::add));
        int slots = table.layout().slots();
        Transaction t = tm.begin();
        long first = 0;
        for (int i = 0; i < slots + 1; i++) {
            long s = table.insert(t, row(i, i, true, "r" + i));
            if (i == 0) first = s;
        }
        tm.commit(t);
        Block full = table.block(first);
        gc.run(); // epoch 1 sees the writes
        gc.run();
        gc.run();
        assertThat(cold).as("two epochs without a write").isEmpty();
        Transaction u = tm.begin();
        table.update(u, first, new int[] {1}, row(0, 5, true, "r0"));
        tm.commit(u);
        gc.run(); // epoch 4 sees the update: the count starts again
        gc.run();
        gc.run();
        assertThat(cold).isEmpty();
        gc.run(); // epoch 7: three epochs without a write
        assertThat(cold).containsExactly(full);
        assertThat(table.blockCount())
                .as("the block still taking inserts is never watched")
                .isEqualTo(2);
    }

    @Test
    void coldBlocksAreCompactedFrozenAndStillReadTheSame() {
        BlockTransformer transformer = new BlockTransformer(table, gc, 1, 8);
        int slots = table.layout().slots();
        List<Long> slotsInserted = new ArrayList<>();
        Transaction load = tm.begin();
        for (int i = 0; i < slots * 4 + 10; i++)
            slotsInserted.add(table.insert(
                    load, row(i, i % 100, i % 3 == 0 ? null : i % 2 == 0, i % 5 == 0 ? null : "name number " + i)));
        tm.commit(load);
        Transaction del = tm.begin();
        for (int i = 0; i < slotsInserted.size(); i += 3) table.delete(del, slotsInserted.get(i));
        tm.commit(del);
        Map<Long, Record> expected = contents();
        assertThat(table.blockCount()).isEqualTo(5);
        for (int i = 0; i < 6; i++) {
            gc.run();
            transformer.runOnce();
        }
        BlockTransformer.Stats s = transformer.stats();
        assertThat(s.compactions()).isEqualTo(1);
        assertThat(s.emptied())
                .as("4 full blocks with a third deleted fit in 3 (2.67)")
                .isEqualTo(1);
        assertThat(s.frozen()).isEqualTo(3);
        assertThat(table.blockCount()).isEqualTo(4);
        assertThat(contents()).isEqualTo(expected);
        int frozen = 0;
        for (Block b : table.blocks()) {
            if (b.state() != ArrowBlock.FROZEN) continue;
            frozen++;
            int n = b.data().numRecords();
            FrozenVarlen names = b.frozenVarlen(3);
            int nulls = 0;
            for (int i = 0; i < n; i++) {
                if (!b.data().isValid(3, i)) {
                    nulls++;
                    assertThat(names.offset(i + 1)).isEqualTo(names.offset(i));
                    continue;
                }
                byte[] v = new byte[names.offset(i + 1) - names.offset(i)];
                names.buffer().get(names.valuesOffset() + names.offset(i), v);
                Record r = readCommitted(TupleSlot.of(b.id(), i));
                assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo(r.getString(3));
            }
            assertThat(b.data().nullCount(3)).isEqualTo(nulls);
        }
        assertThat(frozen).isEqualTo(3);
    }

    /** The table as a new transaction sees it, by id (the transaction ends: a running one would pin the collector). */
    Map<Long, Record> contents() {
        Transaction t = tm.begin();
        Map<Long, Record> out = new TreeMap<>();
        table.scan(t, (slot, r) -> {
            Record copy = new Record(SCHEMA).copyFrom(r);
            assertThat(out.put(copy.getLong(0), copy))
                    .as("id %d twice", copy.getLong(0))
                    .isNull();
            return true;
        });
        tm.commit(t);
        return out;
    }
}

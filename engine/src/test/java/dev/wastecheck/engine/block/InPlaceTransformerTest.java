package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.export.TableArrowReader;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.VarlenEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** The In-Place baseline of §6.2: the whole transformation in one transaction, then frozen without a copy. */
class InPlaceTransformerTest {
    final TransactionManager tm = new TransactionManager();
    final GarbageCollector gc = new GarbageCollector(tm);
    final ArrowTable table =
            new ArrowTable("t", ArrowTableTest.SCHEMA, tm, ArrowTableTest.SMALL_BLOCK, ArrowTable.FreezeMode.GATHER);

    /** Five full blocks, a third of the tuples deleted at random; returns the slots still holding a tuple. */
    List<Long> load(long seed) {
        int slots = table.layout().slots();
        Random rnd = new Random(seed);
        Transaction load = tm.begin();
        List<Long> inserted = new ArrayList<>();
        for (int i = 0; i < 5 * slots; i++) {
            String name = i % 7 == 0 ? null : i % 5 == 0 ? "short " + i : "row " + i + " with a longer name";
            inserted.add(table.insert(load, ArrowTableTest.row(i, i, i % 2 == 0, name)));
        }
        tm.commit(load);
        table.seal();
        Transaction del = tm.begin();
        List<Long> kept = new ArrayList<>();
        for (long slot : inserted) {
            if (rnd.nextInt(3) == 0) table.delete(del, slot);
            else kept.add(slot);
        }
        tm.commit(del);
        for (int i = 0; i < 3; i++) gc.run();
        return kept;
    }

    long outOfLineBytes(Map<Long, Record> rows) {
        long n = 0;
        for (Record r : rows.values()) if (!r.isNull(3) && r.length(3) > VarlenEntry.INLINE_THRESHOLD) n += r.length(3);
        return n;
    }

    @Test
    void compactsGathersInATransactionAndFreezesEveryKeptBlockWithTheSameRows() throws Exception {
        load(11);
        Map<Long, Record> before = CompactionPlannerTest.contents(tm, table);
        int t = before.size(), slots = table.layout().slots();
        InPlaceTransformer inPlace = new InPlaceTransformer(table, 8);

        int frozen = inPlace.transform(table.blocks(), gc, 20);

        assertThat(inPlace.stats().compactions()).isEqualTo(1);
        assertThat(inPlace.stats().moves()).isPositive();
        assertThat(frozen).isEqualTo((t + slots - 1) / slots).isEqualTo(table.blockCount());
        int records = 0;
        for (Block b : table.blocks()) {
            assertThat(b.state()).isEqualTo(ArrowBlock.FROZEN);
            assertThat(b.hasVersions()).isFalse();
            records += b.data().numRecords();
        }
        assertThat(records).isEqualTo(t);
        assertThat(CompactionPlannerTest.contents(tm, table)).isEqualTo(before);
        for (int i = 0; i < 3; i++) gc.run();
        assertThat(table.heap().liveBytes())
                .as("the old values freed by the update records, the gathered ones owned by the slots")
                .isEqualTo(outOfLineBytes(before));

        // The frozen blocks go out without a copy, their names read from the gathered buffers.
        try (BufferAllocator allocator = new RootAllocator();
                TableArrowReader reader = new TableArrowReader(allocator, table)) {
            List<String> names = new ArrayList<>();
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                VarCharVector v = (VarCharVector) root.getVector(3);
                for (int i = 0; i < root.getRowCount(); i++) names.add(v.isNull(i) ? null : new String(v.get(i)));
            }
            assertThat(reader.inPlaceBatches()).isEqualTo(table.blockCount());
            assertThat(reader.snapshotBatches()).isZero();
            List<String> expected = new ArrayList<>();
            Transaction s = tm.begin();
            table.scan(s, (slot, r) -> expected.add(r.isNull(3) ? null : r.getString(3)));
            tm.commit(s);
            assertThat(names).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aWriterHoldingATupleAbortsTheTransformationAndNothingChangesOrLeaks() {
        List<Long> kept = load(12);
        Map<Long, Record> before = CompactionPlannerTest.contents(tm, table);
        // A user transaction updates a name in the last block and has not committed: the In-Place
        // transaction's update of that entry (or its move of the tuple) conflicts.
        long victim = kept.get(kept.size() - 1);
        Transaction writer = tm.begin();
        Record r = new Record(ArrowTableTest.SCHEMA);
        assertThat(table.select(writer, victim, r)).isTrue();
        r.setString(3, "a new name that is long enough to live out of line");
        assertThat(table.update(writer, victim, new int[] {3}, r)).isTrue();

        InPlaceTransformer inPlace = new InPlaceTransformer(table, 8);
        assertThat(inPlace.transform(table.blocks(), gc, 5)).isZero();
        assertThat(inPlace.stats().aborted()).isEqualTo(1);
        tm.abort(writer);
        for (int i = 0; i < 3; i++) gc.run();

        assertThat(CompactionPlannerTest.contents(tm, table)).isEqualTo(before);
        for (Block b : table.blocks()) assertThat(b.state()).isEqualTo(ArrowBlock.HOT);
        assertThat(table.heap().liveBytes())
                .as("every gathered copy of the aborted transaction freed, the originals kept")
                .isEqualTo(outOfLineBytes(before));

        // With the writer gone it goes through.
        assertThat(new InPlaceTransformer(table, 8).transform(table.blocks(), gc, 20))
                .isEqualTo(table.blockCount());
        assertThat(CompactionPlannerTest.contents(tm, table)).isEqualTo(before);
    }

    @Test
    void aLoggedTableIsRefused() {
        load(13);
        table.logAs(0);
        InPlaceTransformer inPlace = new InPlaceTransformer(table, 8);
        assertThatThrownBy(() -> inPlace.transform(table.blocks(), gc, 5))
                .hasMessageContaining("in-place transformation of a logged table");
    }
}

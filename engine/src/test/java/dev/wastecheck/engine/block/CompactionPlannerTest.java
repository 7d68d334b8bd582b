package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** Alg. 1 of the paper: its plan is right, and makes at most (t mod s) moves more than the optimum. */
class CompactionPlannerTest {

    static BitSet[] randomGroup(Random rnd, int blocks, int slots) {
        BitSet[] occupied = new BitSet[blocks];
        for (int b = 0; b < blocks; b++) {
            occupied[b] = new BitSet(slots);
            double density = rnd.nextDouble();
            for (int s = 0; s < slots; s++) if (rnd.nextDouble() < density) occupied[b].set(s);
        }
        return occupied;
    }

    @Property(tries = 400)
    void thePlanFillsFullBlocksAndAPrefixWithinTheBoundOfTheOptimum(
            @ForAll @IntRange(min = 1, max = 8) int blocks,
            @ForAll @IntRange(min = 1, max = 40) int slots,
            @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        BitSet[] occupied = randomGroup(new Random(seed), blocks, slots);
        CompactionPlanner.Plan plan = CompactionPlanner.plan(occupied, slots);
        int optimum = CompactionPlanner.optimalMoves(occupied, slots);
        assertThat(plan.moves().size()).isBetween(optimum, optimum + plan.remainder());

        BitSet[] after = new BitSet[blocks];
        for (int b = 0; b < blocks; b++) after[b] = (BitSet) occupied[b].clone();
        Set<Long> usedFrom = new HashSet<>(), usedTo = new HashSet<>();
        for (CompactionPlanner.Move m : plan.moves()) {
            assertThat(after[m.fromBlock()].get(m.fromOffset()))
                    .as("moves a tuple")
                    .isTrue();
            assertThat(after[m.toBlock()].get(m.toOffset())).as("into a gap").isFalse();
            assertThat(usedFrom.add((long) m.fromBlock() << 32 | m.fromOffset()))
                    .isTrue();
            assertThat(usedTo.add((long) m.toBlock() << 32 | m.toOffset())).isTrue();
            after[m.fromBlock()].clear(m.fromOffset());
            after[m.toBlock()].set(m.toOffset());
        }
        for (int f : plan.filled())
            assertThat(after[f].cardinality()).as("F full").isEqualTo(slots);
        if (plan.partial() >= 0) {
            assertThat(after[plan.partial()].cardinality()).isEqualTo(plan.remainder());
            assertThat(after[plan.partial()].nextClearBit(0))
                    .as("p holds a prefix, no gap (Arrow)")
                    .isEqualTo(plan.remainder());
        }
        for (int e : plan.emptied())
            assertThat(after[e].isEmpty()).as("E empty").isTrue();
        assertThat(plan.filled().length).isEqualTo(plan.tuples() / slots);
    }

    @Test
    void theApproximationCanPickTheWrongPartialBlockButNoWorseThanTheRemainder() {
        // s = 4, two blocks of 3 tuples: t = 6, one block full, the other keeps a 2-tuple prefix.
        BitSet a = BitSet.valueOf(new long[] {0b0111}); // slots 0..2
        BitSet b = BitSet.valueOf(new long[] {0b1110}); // slots 1..3
        BitSet[] group = {a, b};
        // Both have one gap; the sort keeps A first, so A is filled (1 move) and B's prefix [0, 2) needs slot 0 (1
        // move).
        CompactionPlanner.Plan plan = CompactionPlanner.plan(group, 4);
        assertThat(plan.filled()).containsExactly(0);
        assertThat(plan.partial()).isEqualTo(1);
        assertThat(plan.moves()).hasSize(2);
        // The optimum fills B and keeps A's prefix, which is already there: 1 move.
        assertThat(CompactionPlanner.optimalMoves(group, 4)).isEqualTo(1);
        assertThat(plan.moves().size()).isLessThanOrEqualTo(1 + plan.remainder());
    }

    /** The same bound on real blocks: the compaction transaction makes exactly the planned moves and the rows stay. */
    @Property(tries = 25)
    void compactionOfRandomBlocksMovesWithinTheBoundAndKeepsEveryRow(
            @ForAll @IntRange(min = 1, max = 5) int blocks, @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        TransactionManager tm = new TransactionManager();
        GarbageCollector gc = new GarbageCollector(tm);
        ArrowTable table = new ArrowTable(
                "t", ArrowTableTest.SCHEMA, tm, ArrowTableTest.SMALL_BLOCK, ArrowTable.FreezeMode.GATHER);
        int slots = table.layout().slots();
        Random rnd = new Random(seed);
        Transaction load = tm.begin();
        List<Long> inserted = new ArrayList<>();
        for (int i = 0; i < blocks * slots; i++)
            inserted.add(table.insert(load, ArrowTableTest.row(i, i, i % 2 == 0, "row " + i + " with a longer name")));
        tm.commit(load);
        Transaction del = tm.begin();
        for (long slot : inserted) if (rnd.nextInt(3) == 0) table.delete(del, slot);
        tm.commit(del);
        gc.run();
        Map<Long, Record> before = contents(tm, table);

        List<Block> group = table.blocks();
        BitSet[] occupied = new BitSet[group.size()];
        for (int i = 0; i < group.size(); i++) {
            occupied[i] = new BitSet();
            for (int s = 0; s < slots; s++) if (group.get(i).data().isAllocated(s)) occupied[i].set(s);
        }
        int optimum = CompactionPlanner.optimalMoves(occupied, slots);
        int t = before.size();
        BlockTransformer transformer = new BlockTransformer(table, gc, 0, 8);
        assertThat(transformer.compact(group)).isTrue();
        long moves = transformer.stats().moves();
        assertThat(moves).isBetween((long) optimum, (long) optimum + t % slots);
        for (int i = 0; i < 3; i++) {
            gc.run();
            transformer.runOnce();
        }
        assertThat(contents(tm, table)).isEqualTo(before);
        assertThat(table.blockCount()).as("emptied blocks leave").isEqualTo((t + slots - 1) / slots);
        int frozenRecords = 0;
        for (Block b : table.blocks()) {
            assertThat(b.state()).isEqualTo(ArrowBlock.FROZEN);
            frozenRecords += b.data().numRecords();
        }
        assertThat(frozenRecords).isEqualTo(t);
    }

    static Map<Long, Record> contents(TransactionManager tm, ArrowTable table) {
        Map<Long, Record> out = new TreeMap<>();
        Transaction t = tm.begin();
        table.scan(t, (slot, r) -> {
            out.put(r.getLong(0), new Record(r.schema()).copyFrom(r));
            return true;
        });
        tm.commit(t);
        return out;
    }
}

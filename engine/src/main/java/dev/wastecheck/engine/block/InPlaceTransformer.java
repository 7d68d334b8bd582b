package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The In-Place baseline of Li et al., VLDB 2020, §6.2 (Fig. 11): "perform the entire transformation
 * in-place in a transaction". Where the hybrid algorithm of §4.3 ({@link BlockTransformer}) moves
 * tuples in a transaction and then gathers under a short exclusive flag with plain stores, this
 * does both inside one transaction per compaction group:
 *
 * <ol>
 * <li>the compaction moves of Alg. 2, with the same plan ({@link CompactionPlanner});</li>
 * <li>for every block that keeps tuples, each VARLEN column gathered into one Arrow values buffer
 * with offsets, and every out-of-line entry pointed at its copy by a transactional update: an undo
 * record per value, which owns the old value and frees it once no reader can need it. This is the
 * version maintenance the paper names as In-Place's cost;</li>
 * <li>the blocks that keep tuples marked COOLING; commit.</li>
 * </ol>
 *
 * After the commit, once every transaction running at it has ended (a deferred action) and the
 * collector has pruned the update records, each block is frozen with the buffers of step 2: the
 * Arrow metadata is filled in under the FREEZING flag, with no copy. A writer in between flips the
 * block back to HOT, as with the hybrid algorithm. Emptied blocks leave the table after the same
 * wait. Gathering only: the paper's In-Place has no dictionary variant. A logged table is refused
 * (its redo records would need the gathered values' images; this is a benchmark baseline).
 */
public final class InPlaceTransformer {
    private final ArrowTable table;
    private final TransactionManager tm;
    private final int groupSize;
    private final Freezer freezer;
    private final ConcurrentLinkedQueue<Prepared> ready = new ConcurrentLinkedQueue<>();
    private long compactions, aborted, moves, frozen, emptied, transactionNanos, freezeNanos;

    /** A cooled block and the frozen buffers its entries already point into. */
    private record Prepared(Block block, FrozenVarlen[] columns) {}

    public InPlaceTransformer(ArrowTable table, int groupSize) {
        if (groupSize < 1) throw new IllegalArgumentException("group size " + groupSize);
        if (table.freezeMode() != ArrowTable.FreezeMode.GATHER)
            throw new IllegalArgumentException(table.name() + ": In-Place gathers; the table freezes by dictionary");
        this.table = table;
        this.tm = table.transactions();
        this.groupSize = groupSize;
        this.freezer = new Freezer(table);
    }

    /**
     * Transforms {@code blocks} (full and HOT; others are skipped) in groups of the group size, then
     * runs the collector (at most {@code maxEpochs} times) and freezes each block once its wait is
     * over. Returns the blocks frozen.
     */
    public int transform(List<Block> blocks, GarbageCollector gc, int maxEpochs) {
        if (table.logId() >= 0)
            throw new IllegalStateException(table.name() + ": in-place transformation of a logged table");
        List<Block> group = new ArrayList<>(groupSize);
        for (Block b : blocks) {
            if (b.removed || b.state() != ArrowBlock.HOT || !b.isFull()) continue;
            group.add(b);
            if (group.size() == groupSize) {
                transformGroup(group);
                group = new ArrayList<>(groupSize);
            }
        }
        if (!group.isEmpty()) transformGroup(group);
        int done = 0;
        for (int i = 0; i < maxEpochs && (!ready.isEmpty() || tm.deferred().pending() > 0); i++) {
            gc.run();
            done += freezeReady();
        }
        return done;
    }

    /** One group in one transaction; true when it committed. */
    boolean transformGroup(List<Block> group) {
        long t0 = System.nanoTime();
        try {
            int slots = table.layout().slots();
            CompactionPlanner.Plan plan = CompactionPlanner.plan(BlockTransformer.occupancy(group, slots), slots);
            Transaction txn = tm.begin();
            if (!BlockTransformer.move(table, txn, group, plan)) return abort(txn);
            List<Prepared> prepared = new ArrayList<>();
            List<Integer> keep = new ArrayList<>();
            for (int f : plan.filled()) keep.add(f);
            if (plan.partial() >= 0) keep.add(plan.partial());
            for (int k : keep) {
                Block b = group.get(k);
                int n = k == plan.partial() ? plan.remainder() : slots;
                FrozenVarlen[] columns = new FrozenVarlen[table.layout().columns()];
                for (int c : table.layout().varlenColumns()) {
                    columns[c] = freezer.gather(b, c, n, txn);
                    if (columns[c] == null) return abort(txn);
                }
                prepared.add(new Prepared(b, columns));
            }
            List<Prepared> cooled = new ArrayList<>();
            for (Prepared p : prepared) if (BlockAccess.startCooling(p.block)) cooled.add(p);
            if (!tm.commit(txn)) {
                aborted++;
                return false;
            }
            compactions++;
            moves += plan.moves().size();
            List<Block> empty = new ArrayList<>();
            for (int e : plan.emptied()) empty.add(group.get(e));
            tm.deferred().defer(() -> {
                ready.addAll(cooled);
                for (Block b : empty) {
                    if (b.data.insertHead() == slots && !BlockTransformer.anyAllocated(b)) {
                        table.remove(b);
                        emptied++;
                    }
                }
            });
            return true;
        } finally {
            transactionNanos += System.nanoTime() - t0;
        }
    }

    private boolean abort(Transaction txn) {
        tm.abort(txn);
        aborted++;
        return false;
    }

    /** Freezes the cooled blocks whose wait is over; returns how many froze. */
    private int freezeReady() {
        long t0 = System.nanoTime();
        int done = 0;
        List<Prepared> later = new ArrayList<>();
        for (Prepared p; (p = ready.poll()) != null; ) {
            // GAPS or PREEMPTED: a writer came first; the block stays (or goes back to) HOT, its values gathered.
            Freezer.Outcome o = freezer.freeze(p.block, p.columns);
            if (o == Freezer.Outcome.FROZEN) done++;
            else if (o == Freezer.Outcome.NOT_READY) later.add(p);
        }
        ready.addAll(later);
        frozen += done;
        freezeNanos += System.nanoTime() - t0;
        return done;
    }

    /**
     * What it has done: compaction groups committed and aborted, tuples moved, blocks frozen and
     * emptied, time in the transactions (moves, gathering, transactional swings, commits) and in
     * freezing (metadata under the FREEZING flag).
     */
    public record Stats(
            long compactions,
            long aborted,
            long moves,
            long frozen,
            long emptied,
            long transactionNanos,
            long freezeNanos) {}

    public Stats stats() {
        return new Stats(compactions, aborted, moves, frozen, emptied, transactionNanos, freezeNanos);
    }
}

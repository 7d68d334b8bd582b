package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.TupleSlot;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The background transformation of one table (Li et al., VLDB 2020, §4.2-§4.3): cold blocks, as the
 * {@link AccessObserver} finds them, go hot -> cooling -> freezing -> frozen.
 *
 * <ol>
 * <li><b>Compaction</b> (transactional): cold hot blocks form groups of up to {@code groupSize};
 * {@link CompactionPlanner} chooses the moves (Alg. 1) and one transaction makes them (Alg. 2). A
 * conflict with a user transaction aborts the compaction; the blocks come back when they are cold
 * again. The filled and partial blocks are marked COOLING before the commit.</li>
 * <li><b>The wait</b>: a transaction that saw a block HOT before it was marked may still write it
 * without looking at the flag again, so a cooled block is only frozen once every transaction that
 * was running at the commit has ended (a deferred action). Any writer after that sees COOLING and
 * flips the block back to HOT, which preempts the freeze.</li>
 * <li><b>Freezing</b> ({@link Freezer}): COOLING -> FREEZING by compare-and-swap, gathering (or
 * dictionary encoding), FROZEN. Emptied blocks leave the table, also after the wait.</li>
 * </ol>
 *
 * <p>{@link #runOnce()} is called by one thread at a time (a {@link Maintenance} thread, or the
 * replay between events).
 */
public final class BlockTransformer {
    private final ArrowTable table;
    private final TransactionManager tm;
    private final int groupSize;
    private final Freezer freezer;
    private final AccessObserver observer;
    private final ConcurrentLinkedQueue<Block> cold = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Block> cooled = new ConcurrentLinkedQueue<>();
    private final AtomicLong compactions = new AtomicLong(),
            abortedCompactions = new AtomicLong(),
            moves = new AtomicLong();
    private final AtomicLong frozen = new AtomicLong(), preempted = new AtomicLong(), emptied = new AtomicLong();
    /** Time in each phase (§6.2 Fig. 13): compaction transactions, and freezing (gathering or dictionary). */
    private final AtomicLong compactNanos = new AtomicLong(), freezeNanos = new AtomicLong();

    /**
     * Watches {@code table} through {@code gc} and transforms its blocks once cold.
     *
     * @param coldAfter GC epochs without a write after which a full block is cold
     * @param groupSize blocks compacted together at most
     */
    public BlockTransformer(ArrowTable table, GarbageCollector gc, long coldAfter, int groupSize) {
        if (groupSize < 1) throw new IllegalArgumentException("group size " + groupSize);
        this.table = table;
        this.tm = table.transactions();
        this.groupSize = groupSize;
        this.freezer = new Freezer(table);
        this.observer = new AccessObserver(table, coldAfter, cold::add);
        gc.addObserver(observer);
    }

    public ArrowTable table() {
        return table;
    }

    public AccessObserver observer() {
        return observer;
    }

    /** Blocks waiting in the transformation's queues: cold ones to compact, cooled ones to freeze (§6.1 Fig. 10). */
    public int queued() {
        return cold.size() + cooled.size();
    }

    /** Hands a block to the transformation as if the observer had found it cold. */
    public void enqueue(Block b) {
        cold.add(b);
    }

    /** Freezes the blocks whose wait is over, then compacts the cold ones; returns the blocks frozen. */
    public int runOnce() {
        int done = 0;
        List<Block> notReady = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Block b; (b = cooled.poll()) != null; ) {
            switch (freezer.freeze(b)) {
                case FROZEN -> {
                    frozen.incrementAndGet();
                    done++;
                }
                case NOT_READY -> notReady.add(b);
                case GAPS -> cold.add(b);
                case PREEMPTED -> preempted.incrementAndGet();
            }
        }
        cooled.addAll(notReady);
        long t1 = System.nanoTime();
        freezeNanos.addAndGet(t1 - t0);
        Set<Block> candidates = new LinkedHashSet<>();
        List<Block> retry = new ArrayList<>();
        for (Block b; (b = cold.poll()) != null; ) {
            if (b.removed || b.state() != ArrowBlock.HOT || !b.isFull()) continue;
            // Versions the collector has not pruned yet (an abort's records, say): the block is not stable; next time.
            if (b.hasVersions()) retry.add(b);
            else candidates.add(b);
        }
        cold.addAll(retry);
        List<Block> group = new ArrayList<>(groupSize);
        for (Block b : candidates) {
            group.add(b);
            if (group.size() == groupSize) {
                compact(group);
                group = new ArrayList<>(groupSize);
            }
        }
        if (!group.isEmpty()) compact(group);
        compactNanos.addAndGet(System.nanoTime() - t1);
        return done;
    }

    /**
     * Seals the table and transforms every block now, running the collector as often as it takes
     * (at most {@code maxEpochs}): what a bulk load followed by a quiet period would reach. Needs
     * no other transaction running. Returns the number of frozen blocks.
     */
    public int freezeNow(GarbageCollector gc, int maxEpochs) {
        table.seal();
        for (Block b : table.blocks()) {
            if (b.state() == ArrowBlock.HOT) cold.add(b);
            else if (b.state() == ArrowBlock.COOLING && !cooled.contains(b)) cooled.add(b);
        }
        for (int i = 0;
                i < maxEpochs
                        && (!cold.isEmpty()
                                || !cooled.isEmpty()
                                || tm.deferred().pending() > 0);
                i++) {
            gc.run();
            runOnce();
        }
        int frozenBlocks = 0;
        for (Block b : table.blocks()) if (b.state() == ArrowBlock.FROZEN) frozenBlocks++;
        return frozenBlocks;
    }

    /** The slots that hold a tuple in each block of a group, as {@link CompactionPlanner} takes them. */
    static BitSet[] occupancy(List<Block> group, int slots) {
        BitSet[] occupied = new BitSet[group.size()];
        for (int i = 0; i < group.size(); i++) {
            ArrowBlock d = group.get(i).data;
            BitSet o = new BitSet(slots);
            for (int w = 0; w < slots >>> 6; w++) {
                long word = d.allocationWord(w);
                while (word != 0) {
                    o.set((w << 6) + Long.numberOfTrailingZeros(word));
                    word &= word - 1;
                }
            }
            occupied[i] = o;
        }
        return occupied;
    }

    /** Makes the moves of {@code plan} in {@code txn} (Alg. 2); false on a conflict (the caller aborts). */
    static boolean move(ArrowTable table, Transaction txn, List<Block> group, CompactionPlanner.Plan plan) {
        RawRow scratch = new RawRow(table.schema().fieldCount());
        for (CompactionPlanner.Move m : plan.moves()) {
            long from = TupleSlot.of(group.get(m.fromBlock()).id, m.fromOffset());
            long to = TupleSlot.of(group.get(m.toBlock()).id, m.toOffset());
            if (!table.move(txn, from, to, scratch)) return false;
        }
        return true;
    }

    /** Compacts one group in a transaction (Alg. 2); true when it committed. */
    boolean compact(List<Block> group) {
        int slots = table.layout().slots();
        CompactionPlanner.Plan plan = CompactionPlanner.plan(occupancy(group, slots), slots);
        Transaction txn = tm.begin();
        if (!move(table, txn, group, plan)) {
            tm.abort(txn);
            abortedCompactions.incrementAndGet();
            return false;
        }
        List<Block> cooling = new ArrayList<>();
        for (int f : plan.filled()) cooling.add(group.get(f));
        if (plan.partial() >= 0) cooling.add(group.get(plan.partial()));
        List<Block> cooled = new ArrayList<>();
        for (Block b : cooling) if (BlockAccess.startCooling(b)) cooled.add(b);
        if (!tm.commit(txn)) {
            abortedCompactions.incrementAndGet();
            return false;
        }
        compactions.incrementAndGet();
        moves.addAndGet(plan.moves().size());
        List<Block> empty = new ArrayList<>();
        for (int e : plan.emptied()) empty.add(group.get(e));
        tm.deferred().defer(() -> {
            this.cooled.addAll(cooled);
            for (Block b : empty) {
                if (b.data.insertHead() == slots && !anyAllocated(b)) {
                    table.remove(b);
                    emptied.incrementAndGet();
                }
            }
        });
        return true;
    }

    static boolean anyAllocated(Block b) {
        for (int w = 0; w < b.data.slots() >>> 6; w++) if (b.data.allocationWord(w) != 0) return true;
        return false;
    }

    /**
     * What the transformation has done so far, with the time it spent compacting (planning and the
     * compaction transactions, commits included) and freezing (the checks, gathering or dictionary
     * encoding under the FREEZING flag).
     */
    public record Stats(
            long compactions,
            long abortedCompactions,
            long moves,
            long frozen,
            long preempted,
            long emptied,
            long compactNanos,
            long freezeNanos) {}

    public Stats stats() {
        return new Stats(
                compactions.get(),
                abortedCompactions.get(),
                moves.get(),
                frozen.get(),
                preempted.get(),
                emptied.get(),
                compactNanos.get(),
                freezeNanos.get());
    }
}

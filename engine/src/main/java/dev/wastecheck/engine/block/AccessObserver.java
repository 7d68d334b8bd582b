package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.UndoRecord;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Finds cold blocks by piggybacking on the garbage collector (Li et al., VLDB 2020, §4.2): every
 * committed transaction the collector processes stamps the blocks it wrote with the current GC
 * epoch, and a block that has gone {@code coldAfter} epochs without a write is handed to the
 * transformation. Only full blocks are watched (a block still taking inserts is hot by definition), and a
 * watched block leaves the watch list when it is handed over; its next write puts it back.
 *
 * <p>Runs on the collector's thread only.
 */
public final class AccessObserver implements GarbageCollector.Observer {
    private final ArrowTable table;
    private final long coldAfter;
    private final Consumer<Block> cold;
    private final Map<Block, Long> watched = new LinkedHashMap<>();

    /**
     * @param coldAfter epochs without a write after which a block is cold (0: cold at the end of the
     *                  epoch that processed its last write)
     * @param cold      receives each cold block
     */
    public AccessObserver(ArrowTable table, long coldAfter, Consumer<Block> cold) {
        if (coldAfter < 0) throw new IllegalArgumentException("coldAfter " + coldAfter);
        this.table = table;
        this.coldAfter = coldAfter;
        this.cold = cold;
    }

    @Override
    public void committed(Transaction t, long epoch) {
        Block last = null;
        for (UndoRecord u : t.undoRecords()) {
            if (!(u instanceof VersionRecord v) || v.table != table || v.block == last) continue;
            last = v.block;
            last.lastWriteEpoch = epoch;
            watched.put(last, epoch);
        }
    }

    @Override
    public void epochEnded(long epoch) {
        for (Iterator<Map.Entry<Block, Long>> it = watched.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Block, Long> e = it.next();
            Block b = e.getKey();
            if (b.removed) {
                it.remove();
            } else if (e.getValue() + coldAfter <= epoch && b.isFull()) {
                it.remove();
                cold.accept(b);
            }
        }
    }

    /** Blocks written and not yet cold. */
    public int watchedBlocks() {
        return watched.size();
    }
}

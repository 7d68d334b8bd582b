package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.UndoRecord;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
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
    /** Blocks whose time without a write is up but that still take inserts: cold once full. */
    private final List<Block> filling = new ArrayList<>();
    /** No watched block can be cold before this epoch: epochs before it skip the scan. */
    private long nextCheck = Long.MAX_VALUE;

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
        List<UndoRecord> undo = t.undoRecords();
        for (int i = 0, n = undo.size(); i < n; i++) {
            if (!(undo.get(i) instanceof VersionRecord v) || v.table != table || v.block == last) continue;
            last = v.block;
            last.lastWriteEpoch = epoch;
            watched.put(last, epoch);
            nextCheck = Math.min(nextCheck, epoch + coldAfter);
        }
    }

    /**
     * Hands over the blocks that have gone {@code coldAfter} epochs without a write and are full. A
     * block whose time is up but that still takes inserts waits in a short list of its own, looked at
     * every epoch without an iterator, until it fills (or is written again, which puts it back on the
     * watch list). The watch list itself is scanned only in the epochs where one of its blocks can
     * have gone cold: the replay ends an epoch per event, and a scan per table per event allocated an
     * iterator each time (105 MB over a 3,000-page replay).
     */
    @Override
    public void epochEnded(long epoch) {
        for (int i = filling.size() - 1; i >= 0; i--) {
            Block b = filling.get(i);
            Long written = watched.get(b);
            if (b.removed || (written != null && written + coldAfter > epoch)) {
                filling.remove(i); // gone, or written again: the watch list has it
            } else if (b.isFull()) {
                filling.remove(i);
                if (written == null) cold.accept(b);
            }
        }
        if (epoch < nextCheck) return;
        long next = Long.MAX_VALUE;
        for (Iterator<Map.Entry<Block, Long>> it = watched.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Block, Long> e = it.next();
            Block b = e.getKey();
            long due = e.getValue() + coldAfter;
            if (b.removed) {
                it.remove();
            } else if (due <= epoch) {
                it.remove();
                if (b.isFull()) cold.accept(b);
                else if (!filling.contains(b)) filling.add(b);
            } else {
                next = Math.min(next, due);
            }
        }
        nextCheck = next;
    }

    /** Blocks written and not yet cold. */
    public int watchedBlocks() {
        return watched.size() + filling.size();
    }
}

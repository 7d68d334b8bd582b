package dev.wastecheck.engine.txn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Prunes version chains and runs deferred actions (Li et al., VLDB 2020, §3.3). Each run is one
 * <em>GC epoch</em>: it takes the finished transactions no running transaction can still need (a
 * commit every snapshot sees; an abort every running transaction began after), unlinks their undo
 * records, registers the frees of memory only those records referenced, runs the deferred actions
 * every running transaction began after, and tells its observers (the access observer counts epochs
 * without a write to find cold blocks, §4.2).
 *
 * <p>One thread runs it at a time (a background thread, or the replay between events).
 */
public final class GarbageCollector {
    /** Learns what each epoch processed. */
    public interface Observer {
        /** A committed transaction's records were pruned in this epoch (its writes are old news to everyone). */
        void committed(Transaction t, long epoch);

        /** The epoch ended. */
        void epochEnded(long epoch);
    }

    private final TransactionManager tm;
    private final List<Observer> observers = new CopyOnWriteArrayList<>();
    private long epoch;
    /** The transactions one run takes (reused: the replay runs an epoch per event). */
    private final List<Transaction> done = new ArrayList<>();
    /** The low-water mark of one run (reused, for the same reason). */
    private final TransactionManager.Horizon horizon = new TransactionManager.Horizon();

    public GarbageCollector(TransactionManager tm) {
        this.tm = tm;
    }

    public void addObserver(Observer o) {
        observers.add(o);
    }

    public synchronized long epoch() {
        return epoch;
    }

    /**
     * Runs one epoch; returns how many finished transactions it pruned. An epoch with nothing to
     * prune or run (a replay's read events) allocates nothing and takes the latch at most once.
     */
    public synchronized int run() {
        epoch++;
        ConcurrentLinkedQueue<Transaction> completed = tm.completed();
        if (!completed.isEmpty()) prune(completed, tm.horizon(horizon));
        int transactions = done.size();
        done.clear();
        // A fresh horizon: an action registered above waits for any transaction that began meanwhile.
        DeferredActions deferred = tm.deferred();
        if (!deferred.isEmpty()) deferred.runReady(tm.oldestSequence());
        for (int k = 0; k < observers.size(); k++) observers.get(k).epochEnded(epoch);
        return transactions;
    }

    /** Takes the finished transactions no running one can need into {@link #done} and prunes them. */
    private void prune(ConcurrentLinkedQueue<Transaction> completed, TransactionManager.Horizon h) {
        for (Iterator<Transaction> it = completed.iterator(); it.hasNext(); ) {
            Transaction t = it.next();
            boolean ready = t.isCommitted() ? t.commitTs() <= h.oldestStart() : t.abortSequence < h.oldestSequence();
            if (ready) {
                done.add(t);
                it.remove();
            }
        }
        for (int i = 0; i < done.size(); i++) {
            List<UndoRecord> undo = done.get(i).undoRecords();
            for (int k = 0; k < undo.size(); k++) undo.get(k).unlink(h.oldestStart(), h.oldestSequence());
        }
        for (int i = 0; i < done.size(); i++) {
            Transaction t = done.get(i);
            if (t.isCommitted())
                for (int k = 0; k < observers.size(); k++) observers.get(k).committed(t, epoch);
            List<UndoRecord> undo = t.undoRecords();
            for (int k = 0; k < undo.size(); k++) undo.get(k).reclaim(tm.deferred());
            t.undo = null;
        }
    }
}

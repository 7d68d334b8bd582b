package dev.wastecheck.engine.txn;

import java.util.ArrayDeque;

/**
 * Actions the garbage collector runs once no transaction that was running when they were
 * registered is still running (Li et al., VLDB 2020, §3.3: memory a reader may still be looking at,
 * such as an old variable-length value or an emptied block, is freed only then). Epoch-style: an
 * action carries the last begin sequence at registration and runs when every running transaction
 * began later.
 */
public final class DeferredActions {
    private record Action(long sequence, Runnable run) {}

    private final TransactionManager tm;
    private final ArrayDeque<Action> queue = new ArrayDeque<>();

    DeferredActions(TransactionManager tm) {
        this.tm = tm;
    }

    /** Runs {@code action} once every transaction running now has finished. */
    public synchronized void defer(Runnable action) {
        queue.add(new Action(tm.lastSequence(), action));
    }

    /** Runs the actions every running transaction began after; returns how many ran. */
    int runReady(long oldestSequence) {
        int ran = 0;
        while (true) {
            Action a;
            synchronized (this) {
                a = queue.peek();
                if (a == null || a.sequence >= oldestSequence) return ran;
                queue.poll();
            }
            a.run.run();
            ran++;
        }
    }

    synchronized boolean isEmpty() {
        return queue.isEmpty();
    }

    public synchronized int pending() {
        return queue.size();
    }
}

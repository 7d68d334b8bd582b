package dev.wastecheck.engine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The garbage collector's low-water mark (Li et al., VLDB 2020, §3.3: versions committed before the
 * oldest running transaction's start are pruned, the rest stay) as {@link TransactionManager} keeps
 * it without a set of running transactions: readers that end out of order, a reader older than the
 * whole ring of running slots, the one whose slot such a reader still holds, and readers racing a
 * writer and the collector on other threads. Every check reads a versioned cell through the
 * transaction's snapshot: a version pruned too early shows as a wrong value, not as a count.
 */
class LowWaterMarkTest extends CellFixture {
    @Test
    void readersThatEndOutOfOrderKeepTheOldestSnapshot() {
        write(1);
        Transaction a = tm.begin();
        write(2);
        Transaction b = tm.begin();
        write(3);
        Transaction c = tm.begin();
        write(4);
        tm.commit(b);
        gc.run();
        assertThat(sequenceMark()).isEqualTo(a.sequence());
        assertThat(cell.read(a)).isEqualTo(1);
        assertThat(cell.read(c)).isEqualTo(3);
        tm.commit(a);
        write(5);
        assertThat(sequenceMark()).isEqualTo(c.sequence());
        assertThat(cell.read(c)).isEqualTo(3);
        assertThat(cell.chainLength()).as("versions only c still needs").isEqualTo(2);
        tm.commit(c);
        gc.run();
        assertThat(cell.chainLength()).isZero();
        assertThat(sequenceMark()).isEqualTo(tm.lastSequence() + 1);
        assertThat(tm.activeCount()).isZero();
    }

    @Test
    void aReaderOlderThanTheRingKeepsItsSnapshotAndSoDoesTheOneItsSlotPushedAside() {
        write(7);
        Transaction old = tm.begin();
        // More transactions than slots begin and end while it runs: the ring wraps around it.
        Transaction aside = null;
        for (int i = 0; i < TransactionManager.RING + 10; i++) {
            if (tm.lastSequence() + 1 == old.sequence() + TransactionManager.RING) {
                aside = tm.begin(); // its slot is old's
                continue;
            }
            write(100 + i);
        }
        assertThat(aside).isNotNull();
        assertThat(tm.activeCount()).isEqualTo(2);
        assertThat(sequenceMark()).isEqualTo(old.sequence());
        assertThat(cell.read(old)).isEqualTo(7);
        long asideSees = cell.read(aside);
        tm.commit(old);
        for (int i = 0; i < 20; i++) write(5000 + i);
        assertThat(sequenceMark()).isEqualTo(aside.sequence());
        assertThat(cell.read(aside)).isEqualTo(asideSees);
        tm.commit(aside);
        write(9999);
        assertThat(tm.activeCount()).isZero();
        assertThat(cell.chainLength()).isZero();
        assertThat(cell.read(tm.begin())).isEqualTo(9999);
    }

    @Test
    void aReaderMoreThanARingPastTheLastMarkIsStillFound() {
        write(1);
        Transaction first = tm.begin();
        for (int i = 0; i < TransactionManager.RING + 500; i++) write(10 + i);
        Transaction second = tm.begin();
        long secondSees = cell.read(second);
        assertThat(sequenceMark()).isEqualTo(first.sequence());
        tm.commit(first);
        // The mark is first's; second lies beyond a whole ring of ended slots from it.
        for (int i = 0; i < 5; i++) write(20_000 + i);
        assertThat(sequenceMark()).isEqualTo(second.sequence());
        assertThat(cell.read(second)).isEqualTo(secondSees);
        tm.commit(second);
    }

    @Test
    void deferredActionsWaitForEveryReaderRunningAtTheirRegistration() {
        Transaction reader = tm.begin();
        AtomicBoolean ran = new AtomicBoolean();
        tm.deferred().defer(() -> ran.set(true));
        Transaction later = tm.begin();
        gc.run();
        assertThat(ran).isFalse();
        tm.commit(reader);
        gc.run();
        assertThat(ran).as("later began after the registration").isTrue();
        tm.commit(later);
    }

    /**
     * One writer commits 1, 2, 3, ... (the k-th at commit timestamp k, as nothing else commits),
     * readers on other threads read the cell twice with a pause between, and a collector runs
     * epochs on a third: a reader that began at timestamp s must read s both times.
     */
    @Test
    void concurrentReadersReadTheirSnapshotWhileTheCollectorRuns() throws Exception {
        raceReadersAgainstAWriterAndTheCollector(previous -> tm.begin());
    }

    static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (InterruptedException | BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A versioned value with §3.1's delta storage: the newest value in place, before-images on a
     * chain newest first. Synchronized, so that only the low-water mark decides what a reader finds.
     */
    static final class Cell {
        private long value;
        private Version head;

        synchronized void write(Transaction t, long v) {
            head = new Version(this, t, value, head);
            value = v;
            t.addUndo(head);
        }

        /** The value as of {@code t}'s snapshot: the in-place value with every unseen write undone. */
        synchronized long read(Transaction t) {
            long v = value;
            for (Version r = head; r != null && !t.sees(r.txn()); r = r.next) {
                if (r.freed) throw new IllegalStateException("read a freed version");
                v = r.before;
            }
            return v;
        }

        synchronized int chainLength() {
            int n = 0;
            for (Version r = head; r != null; r = r.next) n++;
            return n;
        }

        /** Cuts the chain at {@code from}: it and every older version. */
        synchronized void truncate(Version from) {
            if (head == from) {
                head = null;
                return;
            }
            for (Version r = head; r != null; r = r.next)
                if (r.next == from) {
                    r.next = null;
                    return;
                }
        }
    }

    static final class Version extends UndoRecord {
        final Cell cell;
        final long before;
        volatile boolean freed;
        Version next;

        Version(Cell cell, Transaction txn, long before, Version next) {
            super(txn);
            this.cell = cell;
            this.before = before;
            this.next = next;
        }

        @Override
        protected void rollback() {
            throw new UnsupportedOperationException("these tests never abort");
        }

        @Override
        protected void unlink(long oldestStart, long oldestSequence) {
            if (visibleToAll(oldestStart)) cell.truncate(this);
        }

        @Override
        protected void reclaim(DeferredActions deferred) {
            deferred.defer(() -> freed = true);
        }
    }
}

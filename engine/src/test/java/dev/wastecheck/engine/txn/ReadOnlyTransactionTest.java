package dev.wastecheck.engine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Read-only transactions begun again in the same object ({@link TransactionManager#beginReadOnly}):
 * each begin is a new transaction under snapshot isolation (§3.1), with its own snapshot, sequence
 * and place among the running transactions the garbage collector's low-water mark is taken over
 * (§3.3), whether or not the object is new. Only an ended read-only transaction is begun again.
 */
class ReadOnlyTransactionTest extends CellFixture {
    @Test
    void anEndedReaderIsBegunAgainWithANewSnapshotAndSequence() {
        write(1);
        Transaction r = tm.beginReadOnly(null);
        long first = r.sequence();
        assertThat(cell.read(r)).isEqualTo(1);
        assertThat(tm.commit(r)).isTrue();
        write(2);
        Transaction again = tm.beginReadOnly(r);
        assertThat(again).isSameAs(r);
        assertThat(again.sequence()).isGreaterThan(first).isEqualTo(tm.lastSequence());
        assertThat(again.startTs()).isEqualTo(tm.clock());
        assertThat(cell.read(again))
                .as("the write committed since the last begin")
                .isEqualTo(2);
        assertThat(again.isAborted()).isFalse();
        assertThat(again.isCommitted()).isFalse();
        tm.commit(again);
        assertThat(tm.activeCount()).isZero();
    }

    @Test
    void aReaderBegunAgainHoldsTheLowWaterMarkAsANewOneWould() {
        write(1);
        Transaction r = tm.beginReadOnly(null);
        tm.commit(r);
        r = tm.beginReadOnly(r);
        write(2);
        write(3);
        gc.run();
        assertThat(sequenceMark()).isEqualTo(r.sequence());
        assertThat(cell.read(r)).as("versions the reader still needs stay").isEqualTo(1);
        assertThat(cell.chainLength()).isEqualTo(2);
        tm.commit(r);
        gc.run();
        assertThat(cell.chainLength()).isZero();
    }

    @Test
    void onlyAnEndedReadOnlyTransactionIsBegunAgain() {
        Transaction running = tm.beginReadOnly(null);
        Transaction other = tm.beginReadOnly(running);
        assertThat(other).as("still running").isNotSameAs(running);
        assertThat(tm.activeCount()).isEqualTo(2);
        tm.commit(running);
        tm.commit(other);
        Transaction readWrite = tm.begin();
        tm.commit(readWrite);
        assertThat(tm.beginReadOnly(readWrite)).as("begun read-write").isNotSameAs(readWrite);
        Transaction aborted = tm.beginReadOnly(null);
        tm.abort(aborted);
        Transaction afterAbort = tm.beginReadOnly(aborted);
        assertThat(afterAbort).isSameAs(aborted);
        assertThat(afterAbort.isAborted()).isFalse();
        assertThat(tm.commit(afterAbort)).isTrue();
    }

    @Test
    void aReadOnlyTransactionCannotWrite() {
        Transaction r = tm.beginReadOnly(null);
        assertThatThrownBy(() -> r.addUndo(new LowWaterMarkTest.Version(cell, r, 0, null)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read-only");
        assertThatThrownBy(r::redo).isInstanceOf(IllegalStateException.class);
        tm.commit(r);
    }

    /**
     * As {@link LowWaterMarkTest#concurrentReadersReadTheirSnapshotWhileTheCollectorRuns}, with each
     * reader thread beginning every read in its one reused object while a writer commits and a
     * collector runs epochs: a reader begun at timestamp s reads s, twice.
     */
    @Test
    void readersBegunAgainReadTheirSnapshotWhileTheCollectorRuns() throws Exception {
        int writes = 5_000, readers = 3;
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong overtaken = new AtomicLong(), reused = new AtomicLong();
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(readers + 2);
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> {
            LowWaterMarkTest.await(start);
            for (long v = 1; v <= writes; v++) {
                Transaction t = tm.begin();
                cell.write(t, v);
                tm.commit(t);
                Thread.yield();
            }
            done.set(true);
        }));
        threads.add(new Thread(() -> {
            LowWaterMarkTest.await(start);
            while (!done.get()) gc.run();
        }));
        for (int r = 0; r < readers; r++) {
            threads.add(new Thread(() -> {
                LowWaterMarkTest.await(start);
                Transaction t = null;
                long spin = 0;
                while (!done.get()) {
                    Transaction previous = t;
                    t = tm.beginReadOnly(t);
                    if (t == previous) reused.incrementAndGet();
                    long first = cell.read(t);
                    for (int i = 0; i < 200; i++) spin += i ^ spin;
                    Thread.yield();
                    long second = cell.read(t);
                    if (first != t.startTs() || second != t.startTs())
                        wrong.add("start " + t.startTs() + " read " + first + " then " + second);
                    if (tm.clock() > t.startTs()) overtaken.incrementAndGet();
                    tm.commit(t);
                }
                if (spin == 42) wrong.add("");
            }));
        }
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
        assertThat(wrong).isEmpty();
        assertThat(overtaken.get()).as("readers a commit overtook").isGreaterThan(100);
        assertThat(reused.get()).isGreaterThan(100);
        gc.run();
        assertThat(cell.chainLength()).isZero();
        assertThat(tm.activeCount()).isZero();
    }
}

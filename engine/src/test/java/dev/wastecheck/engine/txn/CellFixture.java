package dev.wastecheck.engine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.LowWaterMarkTest.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * What the transaction tests share: a transaction manager, its garbage collector, and one versioned
 * {@link Cell} written through committed transactions.
 */
abstract class CellFixture {
    final TransactionManager tm = new TransactionManager();
    final GarbageCollector gc = new GarbageCollector(tm);
    final Cell cell = new Cell();

    /** Commits one write of {@code value} to the cell, then runs a GC epoch. */
    void write(long value) {
        Transaction t = tm.begin();
        cell.write(t, value);
        assertThat(tm.commit(t)).isTrue();
        gc.run();
    }

    /** The oldest running transaction's sequence, as the low-water mark sees it. */
    long sequenceMark() {
        return tm.horizon(new TransactionManager.Horizon()).oldestSequence();
    }

    /**
     * One writer commits 1, 2, 3, ... (the k-th at commit timestamp k, as nothing else commits),
     * three readers on other threads read the cell twice with a pause between, each read in a
     * transaction from {@code begin} (given the reader's previous, ended transaction, or null), and
     * a collector runs epochs on a fourth: a reader that began at timestamp s must read s both times.
     * At the end every version is pruned and no transaction runs.
     *
     * <p>The writer commits at least 5,000 times and then goes on until the race has shown something
     * (more than 200 reads a commit overtook and more than 300 reader transactions), or for a minute
     * at most: on a loaded machine with two cores the writer could otherwise finish its 5,000 commits
     * before the readers were scheduled often enough, and the test would fail on the scheduler, not
     * on the code (CI, 2026-12-03: 14 overtaken reads).
     */
    void raceReadersAgainstAWriterAndTheCollector(UnaryOperator<Transaction> begin) throws Exception {
        int writes = 5_000, readers = 3;
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong overtaken = new AtomicLong(), transactions = new AtomicLong();
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(readers + 2);
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> {
            LowWaterMarkTest.await(start);
            long deadline = System.nanoTime() + 60_000_000_000L;
            for (long v = 1;
                    v <= writes
                            || (overtaken.get() <= 200 || transactions.get() <= 300) && System.nanoTime() < deadline;
                    v++) {
                Transaction t = tm.begin();
                cell.write(t, v);
                tm.commit(t);
                Thread.yield(); // let the readers be overtaken, not outrun
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
                    t = begin.apply(t);
                    long first = cell.read(t);
                    for (int i = 0; i < 200; i++) spin += i ^ spin;
                    Thread.yield();
                    long second = cell.read(t);
                    if (first != t.startTs() || second != t.startTs())
                        wrong.add("start " + t.startTs() + " read " + first + " then " + second);
                    if (tm.clock() > t.startTs()) overtaken.incrementAndGet();
                    tm.commit(t);
                    transactions.incrementAndGet();
                }
                if (spin == 42) wrong.add("");
            }));
        }
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
        assertThat(wrong).isEmpty();
        assertThat(overtaken.get())
                .as("readers a commit overtook (else the test shows nothing)")
                .isGreaterThan(100);
        gc.run();
        assertThat(cell.chainLength()).isZero();
        assertThat(tm.activeCount()).isZero();
    }
}

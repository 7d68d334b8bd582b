package dev.wastecheck.engine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.LowWaterMarkTest.Cell;

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
}

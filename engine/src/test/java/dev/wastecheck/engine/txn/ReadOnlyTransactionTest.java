package dev.wastecheck.engine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        AtomicLong reused = new AtomicLong();
        raceReadersAgainstAWriterAndTheCollector(previous -> {
            Transaction t = tm.beginReadOnly(previous);
            if (t == previous) reused.incrementAndGet();
            return t;
        });
        assertThat(reused.get()).as("reads begun again in the reader's object").isGreaterThan(100);
    }
}

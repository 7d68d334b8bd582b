package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The races around a block's state (§4.3): in-place readers against writers (the counter latch and
 * the check-and-miss race), and writers against the transformation (cooling, and the transaction
 * that looked at the flag before it changed).
 */
class FreezeRaceTest {
    /** Two columns every writer sets to the same value in one update: a reader that sees them differ saw a write in progress. */
    static final RecordSchema PAIR = RecordSchema.of(
            Field.of("id", FieldType.INT64), Field.of("left", FieldType.INT64), Field.of("right", FieldType.INT64));

    final TransactionManager tm = new TransactionManager();
    final GarbageCollector gc = new GarbageCollector(tm);
    final ArrowTable table = new ArrowTable("pairs", PAIR, tm, 4096, ArrowTable.FreezeMode.GATHER);
    final BlockTransformer transformer = new BlockTransformer(table, gc, 0, 4);
    final List<Long> slots = new ArrayList<>();

    void load(int rows) {
        Transaction t = tm.begin();
        for (int i = 0; i < rows; i++) slots.add(table.insert(t, pair(i, 0)));
        tm.commit(t);
    }

    static Record pair(long id, long v) {
        return new Record(PAIR).setLong(0, id).setLong(1, v).setLong(2, v);
    }

    boolean update(long slot, long v) {
        Transaction t = tm.begin();
        boolean ok = table.update(t, slot, new int[] {1, 2}, pair(0, v));
        return tm.commit(t) && ok;
    }

    @Test
    void aReaderThatCheckedFrozenBeforeAWriterThawedMissesInsteadOfReadingAHotBlock() {
        load(200);
        transformer.freezeNow(gc, 20);
        Block b = table.block(slots.get(0));
        assertThat(b.state()).isEqualTo(ArrowBlock.FROZEN);
        // The paper's race: the reader has seen FROZEN and not yet counted itself in; a writer flips
        // the block hot, finds no reader, and writes. The reader's increment must now fail.
        AtomicBoolean wrote = new AtomicBoolean();
        boolean entered = BlockAccess.tryEnterInPlace(b, () -> wrote.set(update(slots.get(0), 7)));
        assertThat(wrote).isTrue();
        assertThat(entered).as("the reader misses").isFalse();
        assertThat(BlockAccess.readers(b)).isZero();
        assertThat(b.state()).isEqualTo(ArrowBlock.HOT);
        // It falls back to a transactional read, which sees the write.
        Transaction t = tm.begin();
        FrozenScan.Result r = FrozenScan.countBetween(table, t, 1, 7, 7);
        tm.commit(t);
        assertThat(r.matches()).isEqualTo(1);
        assertThat(r.blocksInPlace()).isEqualTo(table.blockCount() - 1);
        assertThat(r.blocksMaterialized()).isEqualTo(1);
    }

    @Test
    void aWriterWaitsForTheInPlaceReadersOfAFrozenBlock() throws Exception {
        load(100);
        transformer.freezeNow(gc, 20);
        Block b = table.block(slots.get(5));
        assertThat(BlockAccess.tryEnterInPlace(b)).isTrue();
        long leftBefore = b.data().getFixed(1, 5);
        AtomicBoolean done = new AtomicBoolean();
        long stalls = BlockAccess.stalls();
        Thread writer = new Thread(() -> done.set(update(slots.get(5), 99)));
        writer.start();
        while (BlockAccess.stalls() == stalls) Thread.onSpinWait(); // the writer reached the frozen block
        Thread.sleep(100); // time it would need to finish, were it not waiting
        assertThat(done).as("still waiting").isFalse();
        assertThat(BlockAccess.stalls()).as("counted once as stalled (Fig. 8)").isEqualTo(stalls + 1);
        assertThat(b.data().getFixed(1, 5))
                .as("nothing written under the reader")
                .isEqualTo(leftBefore);
        assertThat(BlockAccess.tryEnterInPlace(b))
                .as("no new reader once the writer flipped it")
                .isFalse();
        BlockAccess.exitInPlace(b);
        writer.join();
        assertThat(done).isTrue();
        assertThat(b.data().getFixed(1, 5)).isEqualTo(99);
    }

    @Test
    void aTransactionRunningWhenTheBlockCooledDelaysTheFreezeUntilItEnds() {
        load(300);
        table.seal();
        Transaction early = tm.begin(); // may have looked at the flag while the block was HOT
        for (Block b : table.blocks()) transformer.enqueue(b);
        for (int i = 0; i < 10; i++) {
            gc.run();
            transformer.runOnce();
        }
        for (Block b : table.blocks())
            assertThat(b.state()).as("cooled, not frozen, while it runs").isEqualTo(ArrowBlock.COOLING);
        tm.commit(early);
        for (int i = 0; i < 3; i++) {
            gc.run();
            transformer.runOnce();
        }
        for (Block b : table.blocks()) assertThat(b.state()).isEqualTo(ArrowBlock.FROZEN);
    }

    @Test
    void aWriteToACoolingBlockPreemptsTheFreeze() {
        load(300);
        table.seal();
        Transaction early = tm.begin();
        for (Block b : table.blocks()) transformer.enqueue(b);
        gc.run();
        transformer.runOnce();
        Block b = table.block(slots.get(10));
        assertThat(b.state()).isEqualTo(ArrowBlock.COOLING);
        assertThat(update(slots.get(10), 5)).isTrue();
        assertThat(b.state()).isEqualTo(ArrowBlock.HOT);
        tm.commit(early);
        for (int i = 0; i < 3; i++) {
            gc.run();
            transformer.runOnce();
        }
        assertThat(transformer.stats().preempted()).isEqualTo(1);
        assertThat(b.state())
                .as("preempted, then cold again and frozen")
                .isIn(ArrowBlock.HOT, ArrowBlock.COOLING, ArrowBlock.FROZEN);
        for (int i = 0; i < 5; i++) {
            gc.run();
            transformer.runOnce();
        }
        assertThat(b.state()).isEqualTo(ArrowBlock.FROZEN);
    }

    /** In-place readers, writers thawing blocks and the transformation freezing them again, all at once. */
    @Test
    void inPlaceReadersNeverSeeAWriteInProgress() throws Exception {
        load(1500);
        transformer.freezeNow(gc, 30);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong inPlace = new AtomicLong(), misses = new AtomicLong(), torn = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            readers.add(new Thread(() -> {
                try {
                    while (!stop.get()) {
                        for (Block b : table.blocks()) {
                            if (!BlockAccess.tryEnterInPlace(b)) {
                                misses.incrementAndGet();
                                continue;
                            }
                            try {
                                ArrowBlock d = b.data();
                                for (int i = 0; i < d.numRecords(); i++)
                                    if (d.getFixed(1, i) != d.getFixed(2, i)) torn.incrementAndGet();
                                inPlace.incrementAndGet();
                            } finally {
                                BlockAccess.exitInPlace(b);
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        readers.forEach(Thread::start);
        try (Maintenance m = new Maintenance(gc, 200).add(transformer).start()) {
            java.util.Random rnd = new java.util.Random(3);
            for (int i = 0; i < 3000; i++) {
                update(slots.get(rnd.nextInt(slots.size())), i);
                if (i % 300 == 299) Thread.sleep(5); // let blocks cool and freeze again
            }
        } finally {
            stop.set(true);
            for (Thread t : readers) t.join();
        }
        assertThat(failures).isEmpty();
        assertThat(torn.get()).isZero();
        assertThat(inPlace.get()).isPositive();
        assertThat(misses.get()).isPositive();
        assertThat(transformer.stats().frozen())
                .as("blocks froze again under the writer")
                .isGreaterThan(table.blockCount());
    }
}

package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.log.LogFormat;
import dev.wastecheck.engine.log.LogReader;
import dev.wastecheck.engine.log.RedoBuffer;
import dev.wastecheck.engine.log.SegmentPool;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-ahead logging, checkpoints and recovery of {@link ArrowDatabase} on real files (Li et al.,
 * VLDB 2020, §3.4): what a commit callback confirmed comes back exactly, what did not commit does not,
 * and a torn or damaged log stops recovery at the damage.
 */
class ArrowDatabaseRecoveryTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("n", FieldType.INT32),
            Field.nullable("u", FieldType.UINT16),
            Field.of("d", FieldType.FLOAT64),
            Field.varlen("s", true, 16));
    static final List<ArrowDatabase.TableDef> DEFS = List.of(new ArrowDatabase.TableDef("t", SCHEMA));

    @TempDir
    Path dir;

    static Record row(long id, int n, Integer u, double d, String s) {
        Record r = new Record(SCHEMA).setLong(0, id).setLong(1, n).setDouble(3, d);
        if (u == null) r.setNull(2);
        else r.setLong(2, u);
        if (s == null) r.setNull(4);
        else r.setString(4, s);
        return r;
    }

    /** The table's rows by id, as a transaction sees them now. */
    static Map<Long, String> contents(ArrowDatabase db) {
        Map<Long, String> out = new TreeMap<>();
        TransactionManager tm = db.transactions();
        Transaction t = tm.begin();
        db.table("t").scan(t, (slot, r) -> {
            assertThat(out.put(r.getLong(0), r.toString()))
                    .as("duplicate id %s", r.getLong(0))
                    .isNull();
            return true;
        });
        tm.commit(t);
        return out;
    }

    /** Inserts ids [from, to) in one transaction and waits until its commit callback says it is durable. */
    static void insertDurably(ArrowDatabase db, long from, long to) throws InterruptedException {
        TransactionManager tm = db.transactions();
        Transaction t = tm.begin();
        for (long i = from; i < to; i++)
            db.table("t").insert(t, row(i, (int) -i, i % 3 == 0 ? null : (int) (i % 65536), i / 4.0, "v" + i));
        CountDownLatch done = new CountDownLatch(1);
        assertThat(tm.commit(t, done::countDown)).isTrue();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void committedWritesComeBackExactlyAcrossACheckpoint() throws Exception {
        Map<Long, String> expected;
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true, 1 << 14, ArrowTable.FreezeMode.GATHER)) {
            insertDurably(db, 0, 500);
            db.checkpoint();
            TransactionManager tm = db.transactions();
            ArrowTable t = db.table("t");
            // Updates and deletes after the checkpoint name slots the checkpoint holds.
            Map<Long, Long> slots = new TreeMap<>();
            Transaction scan = tm.begin();
            t.scan(scan, (slot, r) -> {
                slots.put(r.getLong(0), slot);
                return true;
            });
            tm.commit(scan);
            Transaction w = tm.begin();
            Record v = row(0, 0, null, 0, null).setLong(1, 777).setNull(2).setString(4, "x".repeat(300));
            for (long id = 10; id < 20; id++)
                assertThat(t.update(w, slots.get(id), new int[] {1, 2, 4}, v)).isTrue();
            for (long id = 20; id < 30; id++)
                assertThat(t.delete(w, slots.get(id))).isTrue();
            t.insert(w, row(1000, 1, 65535, -1.5, ""));
            CountDownLatch done = new CountDownLatch(1);
            tm.commit(w, done::countDown);
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            // An aborted transaction and one left running at the crash leave no trace.
            Transaction a = tm.begin();
            t.insert(a, row(2000, 2, 2, 2, "aborted"));
            t.delete(a, slots.get(5L));
            tm.abort(a);
            Transaction running = tm.begin();
            t.insert(running, row(3000, 3, 3, 3, "never committed"));
            expected = contents(db);
        }
        assertThat(expected).hasSize(500 - 10 + 1).doesNotContainKeys(20L, 2000L, 3000L);
        assertThat(expected.get(15L)).contains("777").contains("x".repeat(300));
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true, 1 << 14, ArrowTable.FreezeMode.GATHER)) {
            assertThat(db.recovery().checkpointTs()).isPositive();
            assertThat(db.recovery().checkpointTuples()).isEqualTo(500);
            assertThat(db.recovery().transactionsReplayed()).isEqualTo(1);
            assertThat(db.recovery().recordsReplayed()).isEqualTo(21);
            assertThat(db.recovery().damage()).isNull();
            assertThat(contents(db)).isEqualTo(expected);
            // New writes after recovery name the recovered slots; a second recovery finds both.
            insertDurably(db, 5000, 5003);
            expected.putAll(Map.of(5000L, "", 5001L, "", 5002L, ""));
        }
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, false, 1 << 14, ArrowTable.FreezeMode.GATHER)) {
            Map<Long, String> got = contents(db);
            assertThat(got.keySet()).isEqualTo(expected.keySet());
            assertThat(got.get(15L)).isEqualTo(expected.get(15L));
            assertThat(db.recovery().transactionsReplayed()).isEqualTo(1);
        }
    }

    /**
     * Records are encoded straight into the redo segment; one that runs out of room is dropped and
     * written again into the next segment, and one larger than a segment gets a buffer of its own.
     * Both come back exactly, and no half-written copy of either is replayed.
     */
    @Test
    void recordsThatOverflowASegmentOrAreLargerThanOneComeBackExactly() throws Exception {
        Map<Long, String> expected;
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true, 1 << 14, ArrowTable.FreezeMode.GATHER)) {
            TransactionManager tm = db.transactions();
            Transaction t = tm.begin();
            db.table("t").insert(t, row(1, 1, 1, 1, "small"));
            db.table("t").insert(t, row(2, 2, null, 2, "L".repeat(SegmentPool.SEGMENT_SIZE + 1000)));
            // 150-byte values: the segments fill in the middle of an image again and again
            for (long i = 3; i < 200; i++) db.table("t").insert(t, row(i, (int) i, 7, i, ("v" + i).repeat(40)));
            db.table("t").insert(t, row(200, 200, 200, 200, "E".repeat(3 * SegmentPool.SEGMENT_SIZE)));
            CountDownLatch done = new CountDownLatch(1);
            assertThat(tm.commit(t, done::countDown)).isTrue();
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            expected = contents(db);
        }
        assertThat(expected).hasSize(200);
        assertThat(expected.get(2L)).contains("L".repeat(SegmentPool.SEGMENT_SIZE + 1000));
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, false, 1 << 14, ArrowTable.FreezeMode.GATHER)) {
            assertThat(db.recovery().damage()).isNull();
            assertThat(db.recovery().transactionsReplayed()).isEqualTo(1);
            assertThat(db.recovery().recordsReplayed()).isEqualTo(200); // the inserts; COMMIT is not counted
            assertThat(contents(db)).isEqualTo(expected);
        }
    }

    @Test
    void theCallbackFiresOnlyOnceTheCommitRecordIsOnDisk() throws Exception {
        List<Boolean> seenOnDisk = new CopyOnWriteArrayList<>();
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true)) {
            TransactionManager tm = db.transactions();
            CountDownLatch done = new CountDownLatch(20);
            for (int i = 0; i < 20; i++) {
                Transaction t = tm.begin();
                db.table("t").insert(t, row(i, i, i, i, "r" + i));
                tm.commit(t, () -> {
                    seenOnDisk.add(commitsOnDisk(dir).contains(t.commitTs()));
                    done.countDown();
                });
                // A read-only transaction that could read it is released only after that force too.
                Transaction ro = tm.begin();
                tm.commit(ro, () -> seenOnDisk.add(commitsOnDisk(dir).contains(t.commitTs())));
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(db.log().forces()).isBetween(1L, 20L + 1);
            // Every commit is durable now: a read-only transaction has nothing it could lose, and is
            // released at once, on its own thread, without a commit record on the queue.
            Thread[] releasedOn = new Thread[1];
            tm.commit(tm.begin(), () -> releasedOn[0] = Thread.currentThread());
            assertThat(releasedOn[0]).isSameAs(Thread.currentThread());
        }
        assertThat(seenOnDisk).hasSizeGreaterThanOrEqualTo(20).containsOnly(true);
    }

    static List<Long> commitsOnDisk(Path dir) {
        List<Long> out = new ArrayList<>();
        try (LogReader r = new LogReader(dir.resolve(ArrowDatabase.LOG_FILE), LogFormat.LOG_MAGIC)) {
            while (r.next())
                if (r.type() == LogFormat.COMMIT) out.add(r.payload().getLong(0));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    @Test
    void aTransactionLargerThanItsHeldSegmentsIsLoggedEarlyAndDroppedOnAbort() throws Exception {
        int rows = RedoBuffer.MAX_HELD_SEGMENTS * SegmentPool.SEGMENT_SIZE / 40 + 1000;
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true, 1 << 16, ArrowTable.FreezeMode.GATHER)) {
            TransactionManager tm = db.transactions();
            Transaction big = tm.begin();
            for (int i = 0; i < rows; i++) db.table("t").insert(big, row(10_000 + i, i, i % 100, i, "abort me"));
            tm.abort(big);
            insertDurably(db, 0, rows);
        }
        long[] counts = new long[LogFormat.END + 1];
        try (LogReader r = new LogReader(dir.resolve(ArrowDatabase.LOG_FILE), LogFormat.LOG_MAGIC)) {
            while (r.next()) counts[r.type()]++;
        }
        assertThat(counts[LogFormat.ABORT]).isEqualTo(1);
        assertThat(counts[LogFormat.INSERT]).isGreaterThan(rows); // part of the aborted one reached the log
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, false, 1 << 16, ArrowTable.FreezeMode.GATHER)) {
            Map<Long, String> got = contents(db);
            assertThat(got).hasSize(rows).doesNotContainKey(10_000L + rows - 1);
            assertThat(db.recovery().transactionsDropped()).isEqualTo(1);
        }
    }

    /** Ten durable transactions of ten rows; returns the file offsets where each COMMIT record ends. */
    List<Long> tenTransactions() throws Exception {
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true)) {
            for (int i = 0; i < 10; i++) insertDurably(db, i * 10, i * 10 + 10);
        }
        List<Long> ends = new ArrayList<>();
        try (LogReader r = new LogReader(dir.resolve(ArrowDatabase.LOG_FILE), LogFormat.LOG_MAGIC)) {
            while (r.next()) if (r.type() == LogFormat.COMMIT) ends.add(r.validEnd());
        }
        assertThat(ends).hasSize(10);
        return ends;
    }

    @Test
    void aLogTruncatedMidRecordRecoversTheWholeTransactionsBeforeIt() throws Exception {
        List<Long> ends = tenTransactions();
        Path log = dir.resolve(ArrowDatabase.LOG_FILE);
        long cut = ends.get(6) + 40; // inside the first INSERT record of the eighth transaction
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, true)) {
            assertThat(db.recovery().transactionsReplayed()).isEqualTo(7);
            assertThat(db.recovery().validEnd()).isEqualTo(ends.get(6));
            assertThat(db.recovery().damage())
                    .contains("stopped at byte " + ends.get(6))
                    .contains("torn write");
            assertThat(contents(db).keySet()).hasSize(70).allMatch(k -> k < 70);
            // The log goes on from the last whole record: a write after recovery is found next time.
            insertDurably(db, 500, 501);
        }
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, false)) {
            assertThat(db.recovery().damage()).isNull();
            assertThat(contents(db).keySet()).hasSize(71).contains(500L);
        }
    }

    @Test
    void flippedBytesInTheLastPageStopRecoveryAtTheDamagedRecord() throws Exception {
        List<Long> ends = tenTransactions();
        Path log = dir.resolve(ArrowDatabase.LOG_FILE);
        long size = Files.size(log);
        long at = ends.get(8) + 30; // inside the payload of the tenth transaction's first record
        assertThat(at).isGreaterThan(size - 4096); // in the last page
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(3);
            ch.read(b, at);
            for (int i = 0; i < 3; i++) b.put(i, (byte) ~b.get(i));
            b.flip();
            ch.write(b, at);
        }
        try (ArrowDatabase db = ArrowDatabase.open(dir, DEFS, false)) {
            assertThat(db.recovery().transactionsReplayed()).isEqualTo(9);
            assertThat(db.recovery().damage()).contains("checksum mismatch");
            assertThat(db.recovery().validEnd()).isEqualTo(ends.get(8));
            assertThat(contents(db).keySet()).hasSize(90).allMatch(k -> k < 90);
        }
    }
}

package dev.wastecheck.engine.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log manager's half of serialization (Li et al., VLDB 2020, §3.4): workers hand over segments,
 * each one frame of the log, whose LENGTH and CHECKSUM are not written yet; the log manager copies
 * the segments through its write buffer into the file and frames each there. Read back with {@link
 * LogReader}, every record is whole, its frame's checksum right, and its values exact, also when a group is larger than the write buffer, when
 * one record is, and when segments are reused with an earlier transaction's bytes still in them.
 * With O_DIRECT the file ends in the zeros of its last block while the log is open: a reader takes
 * them as the clean end, a reopened log goes on from its last record, and zeros followed by anything
 * else are damage.
 */
class LogManagerTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("n", FieldType.INT32),
            Field.nullable("u", FieldType.UINT16),
            Field.of("b", FieldType.INT8),
            Field.varlen("s", true, 16));

    @TempDir
    Path dir;

    static Record row(long id, String s) {
        Record r = new Record(SCHEMA).setLong(0, id).setLong(1, (int) -id).setLong(3, (byte) id);
        if (id % 3 == 0) r.setNull(2);
        else r.setLong(2, id % 65536);
        if (s == null) r.setNull(4);
        else r.setString(4, s);
        return r;
    }

    /** What a transaction logged: its inserts by slot, and its commit timestamp. */
    record Txn(long txn, List<Record> rows, long commitTs) {}

    /** Logs {@code t}'s rows as inserts at slots 0, 1, ... of table 7 and enqueues its commit. */
    static void log(LogManager log, Txn t) {
        RedoBuffer redo = log.newBuffer(t.txn());
        for (int i = 0; i < t.rows().size(); i++) redo.insert(7, i, t.rows().get(i));
        log.enqueueCommit(redo, t.commitTs(), null);
    }

    @Test
    void groupsAndRecordsLargerThanTheWriteBufferReachTheFileWholeAndChecksummed() throws Exception {
        Path file = dir.resolve("wal.log");
        SegmentPool pool = new SegmentPool(64);
        List<Txn> txns = new ArrayList<>();
        // A first group, forced by the checkpoint record: its segments go back to the pool.
        try (LogManager log = new LogManager(file, 0, pool, 60_000_000_000L, Long.MAX_VALUE)) {
            for (long k = 1; k <= 20; k++) {
                Txn t = new Txn(k, List.of(row(k, "first" + k), row(k + 1000, null)), 100 + k);
                log(log, t);
                txns.add(t);
            }
            log.logCheckpoint(120);
            assertThat(log.forces()).isEqualTo(1);
            assertThat(pool.pooled()).isPositive();
            // A second group, on the reused segments (their old bytes and checksums still in them):
            // 300 transactions of about 2 KB, more than the write buffer, and in the middle one
            // record larger than the write buffer itself. Nothing forces until close().
            for (long k = 21; k <= 320; k++) {
                String s = k == 170 ? "B".repeat(LogManager.WRITE_BUFFER_SIZE + 5_000) : ("v" + k).repeat(500);
                Txn t = new Txn(k, List.of(row(k, s)), 100 + k);
                log(log, t);
                txns.add(t);
            }
            assertThat(log.forces()).isEqualTo(1);
        }

        try (LogReader r = new LogReader(file, LogFormat.LOG_MAGIC)) {
            for (Txn t : txns) {
                for (int i = 0; i < t.rows().size(); i++) {
                    assertThat(r.next())
                            .as("insert %s of txn %s: %s", i, t.txn(), r.damage())
                            .isTrue();
                    assertThat(r.type()).isEqualTo(LogFormat.INSERT);
                    assertThat(r.txn()).isEqualTo(t.txn());
                    ByteBuffer p = r.payload();
                    assertThat(p.getShort(LogFormat.TABLE_ID)).isEqualTo((short) 7);
                    assertThat(p.getLong(LogFormat.SLOT)).isEqualTo(i);
                    Record back = new Record(SCHEMA);
                    LogFormat.getImage(p.position(LogFormat.IMAGE), SCHEMA, null, back);
                    assertThat(back).isEqualTo(t.rows().get(i));
                    assertThat(p.remaining()).isZero();
                }
                assertThat(r.next())
                        .as("commit of txn %s: %s", t.txn(), r.damage())
                        .isTrue();
                assertThat(r.type()).isEqualTo(LogFormat.COMMIT);
                assertThat(r.payload().getLong(0)).isEqualTo(t.commitTs());
                if (t.txn() == 20) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.type()).isEqualTo(LogFormat.CHECKPOINT);
                    assertThat(r.payload().getLong(0)).isEqualTo(120);
                }
            }
            assertThat(r.next()).isFalse();
            assertThat(r.damage()).isNull();
            assertThat(r.validEnd()).isEqualTo(Files.size(file));
        }
    }

    /**
     * Reads {@code file} and checks that it holds exactly {@code txns}' records (CHECKPOINT records
     * skipped), then its clean end; returns where the last record ends.
     */
    static long assertHolds(Path file, List<Txn> txns) throws Exception {
        try (LogReader r = new LogReader(file, LogFormat.LOG_MAGIC)) {
            for (Txn t : txns) {
                for (int i = 0; i <= t.rows().size(); i++) {
                    do
                        assertThat(r.next())
                                .as("txn %s: %s", t.txn(), r.damage())
                                .isTrue();
                    while (r.type() == LogFormat.CHECKPOINT);
                    assertThat(r.txn()).isEqualTo(t.txn());
                    ByteBuffer p = r.payload();
                    if (i == t.rows().size()) {
                        assertThat(r.type()).isEqualTo(LogFormat.COMMIT);
                        assertThat(p.getLong(0)).isEqualTo(t.commitTs());
                        continue;
                    }
                    assertThat(r.type()).isEqualTo(LogFormat.INSERT);
                    assertThat(p.getLong(LogFormat.SLOT)).isEqualTo(i);
                    Record back = new Record(SCHEMA);
                    LogFormat.getImage(p.position(LogFormat.IMAGE), SCHEMA, null, back);
                    assertThat(back).isEqualTo(t.rows().get(i));
                }
            }
            while (r.next()) assertThat(r.type()).as("after the last commit").isEqualTo(LogFormat.CHECKPOINT);
            assertThat(r.damage()).isNull();
            return r.validEnd();
        }
    }

    /** {@code txns} logged into a new wal.log, closed. */
    Path logged(List<Txn> txns) throws Exception {
        Path file = dir.resolve("wal.log");
        try (LogManager log = new LogManager(file, 0, new SegmentPool(64))) {
            for (Txn t : txns) log(log, t);
        }
        return file;
    }

    static List<Txn> txns(long from, long to, int repeat) {
        List<Txn> out = new ArrayList<>();
        for (long k = from; k < to; k++)
            out.add(new Txn(k, List.of(row(k, ("w" + k).repeat(repeat)), row(k + 5000, null)), 1000 + k));
        return out;
    }

    @Test
    void anOpenLogEndsInZerosThatReadAsItsEndAndAReopenedLogGoesOnFromItsLastRecord() throws Exception {
        Path file = dir.resolve("wal.log"), crash = dir.resolve("crash.log");
        List<Txn> first = txns(1, 40, 30), second = txns(40, 43, 1), third = txns(43, 60, 7);
        try (LogManager log = new LogManager(file, 0, new SegmentPool(64), 60_000_000_000L, Long.MAX_VALUE)) {
            // A group of many blocks, then a small one: the second's last block is written over
            // the buffer that held the first group, so whatever follows its end must be zeros.
            for (Txn t : first) log(log, t);
            log.logCheckpoint(1);
            for (Txn t : second) log(log, t);
            log.logCheckpoint(2);
            Files.copy(file, crash); // the file as a crash finds it, the log still open
            if (log.direct()) assertThat(Files.size(crash) % log.alignment()).isZero();
        }
        List<Txn> both = new ArrayList<>(first);
        both.addAll(second);
        long end = assertHolds(crash, both);
        byte[] image = Files.readAllBytes(crash);
        assertThat(Arrays.copyOfRange(image, (int) end, image.length)).containsOnly((byte) 0);
        assertThat(Files.size(file)).as("close() cuts the zeros off").isEqualTo(end);

        // Reopened at its last record, the log rewrites that record's block and appends after it.
        try (LogManager log = new LogManager(crash, end, new SegmentPool(64), 60_000_000_000L, Long.MAX_VALUE)) {
            for (Txn t : third) log(log, t);
        }
        both.addAll(third);
        assertThat(assertHolds(crash, both)).isEqualTo(Files.size(crash));
    }

    /**
     * Version 2's frames: a transaction of n inserts in one segment costs one frame header (16 bytes,
     * its TXN once) and 5 bytes of record header a record, n + 1 records with its COMMIT; and a record
     * that runs past its frame is damage even under a matching checksum (a frame written so), found
     * before any record of that frame is handed out.
     */
    @Test
    void aTransactionIsOneFrameAndARecordPastItsFrameStopsTheReaderBeforeTheFrame() throws Exception {
        List<Txn> txns = txns(1, 4, 2);
        Path file = logged(txns);
        long expected = LogFormat.FILE_HEADER_SIZE;
        List<Long> frames = new ArrayList<>();
        for (Txn t : txns) {
            frames.add(expected);
            expected += LogFormat.FRAME_HEADER_SIZE + LogFormat.RECORD_HEADER_SIZE + 8; // COMMIT
            for (Record r : t.rows())
                expected += LogFormat.RECORD_HEADER_SIZE + LogFormat.IMAGE + LogFormat.imageSize(r, null);
        }
        assertThat(assertHolds(file, txns)).isEqualTo(expected).isEqualTo(Files.size(file));
        // The third frame's first record made 1 byte longer than its frame, and the checksum redone.
        int at = (int) (long) frames.get(2);
        byte[] image = Files.readAllBytes(file);
        int frame =
                ByteBuffer.wrap(image).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(at);
        LogFormat.putInt(image, at + LogFormat.FRAME_HEADER_SIZE, frame - LogFormat.FRAME_HEADER_SIZE + 1);
        byte[] copy = Arrays.copyOfRange(image, at, at + frame);
        LogFormat.putInt(image, at + LogFormat.FRAME_CHECKSUM, LogFormat.frameChecksum(copy, frame, new CRC32C()));
        Files.write(file, image);
        try (LogReader r = new LogReader(file, LogFormat.LOG_MAGIC)) {
            int records = 0;
            while (r.next()) {
                assertThat(r.txn()).isIn(1L, 2L);
                records++;
            }
            assertThat(records).isEqualTo(6);
            assertThat(r.validEnd()).isEqualTo(at);
            assertThat(r.damage()).contains("stopped at byte " + at).contains("checksum matches");
        }
    }

    /**
     * An UPDATE names its columns by a MASK of the table's column count, and its image follows the
     * columns in column order whatever order the writer named them in.
     */
    @Test
    void anUpdateIsItsColumnMaskAndTheirImageInColumnOrder() throws Exception {
        Path file = dir.resolve("wal.log");
        Record values = row(6, "after"); // id 6: column 2 NULL
        try (LogManager log = new LogManager(file, 0, new SegmentPool(64))) {
            RedoBuffer redo = log.newBuffer(9);
            redo.update(3, 77, new int[] {4, 0, 2}, values);
            redo.delete(3, 78);
            log.enqueueCommit(redo, 500, null);
        }
        try (LogReader r = new LogReader(file, LogFormat.LOG_MAGIC)) {
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(LogFormat.UPDATE);
            ByteBuffer p = r.payload();
            assertThat(p.getShort(LogFormat.TABLE_ID)).isEqualTo((short) 3);
            assertThat(p.getLong(LogFormat.SLOT)).isEqualTo(77);
            int[] columns = LogFormat.getMask(p.position(LogFormat.IMAGE), SCHEMA.fieldCount());
            assertThat(columns).containsExactly(0, 2, 4);
            Record back = new Record(SCHEMA);
            LogFormat.getImage(p, SCHEMA, columns, back);
            assertThat(p.remaining()).isZero();
            assertThat(back.getLong(0)).isEqualTo(6);
            assertThat(back.isNull(2)).isTrue();
            assertThat(back.getString(4)).isEqualTo("after");
            // 1 byte of MASK (5 columns), 1 of NULL bits, 8 of id, 4 + 5 of the string
            assertThat(p.limit()).isEqualTo(LogFormat.IMAGE + 1 + 1 + 8 + 4 + 5);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(LogFormat.DELETE);
            assertThat(r.payload().limit()).isEqualTo(LogFormat.IMAGE);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(LogFormat.COMMIT);
            assertThat(r.txn()).isEqualTo(9);
            assertThat(r.next()).isFalse();
            assertThat(r.damage()).isNull();
        }
    }

    @Test
    void zerosToTheEndAreTheLogsEndAndZerosFollowedByAnythingElseAreDamage() throws Exception {
        List<Txn> txns = txns(1, 10, 3);
        Path file = logged(txns);
        long end = Files.size(file);
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(10_000), end); // more zeros than a block
        }
        assertThat(assertHolds(file, txns)).isEqualTo(end);
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[] {1}), end + 9_000); // a byte a torn write left after them
        }
        try (LogReader r = new LogReader(file, LogFormat.LOG_MAGIC)) {
            while (r.next()) assertThat(r.recordOffset()).isLessThan(end);
            assertThat(r.validEnd()).isEqualTo(end);
            assertThat(r.damage()).contains("stopped at byte " + end).contains("length of 0 bytes");
        }
    }
    /**
     * §3.4's non-persisted commit record of a read-only transaction: its callback runs only after the
     * force of the COMMITs queued before it, from the ring as from the flush queue when the ring is
     * full, and at once (with no force) when nothing is queued before it.
     */
    @Test
    void aReadOnlyCallbackRunsOnlyAfterTheForceOfTheCommitsQueuedBeforeIt() throws Exception {
        List<String> ran = java.util.Collections.synchronizedList(new ArrayList<>());
        try (LogManager log =
                new LogManager(dir.resolve("wal.log"), 0, new SegmentPool(64), 60_000_000_000L, Long.MAX_VALUE)) {
            RedoBuffer redo = log.newBuffer(1);
            redo.insert(7, 0, row(1, "one"));
            log.enqueueCommit(redo, 101, () -> ran.add("commit"));
            int readers = LogManager.READ_ONLY_RING + 100; // past the ring: the last 100 on the flush queue
            java.util.concurrent.atomic.AtomicInteger early = new java.util.concurrent.atomic.AtomicInteger();
            for (int i = 0; i < readers; i++)
                log.enqueueReadOnly(() -> {
                    if (!ran.contains("commit")) early.incrementAndGet();
                    ran.add("read");
                });
            Thread.sleep(50); // the log manager's chance to run a callback early; it must not
            assertThat(ran).as("nothing forced yet").isEmpty();
            log.logCheckpoint(102); // forces the group
            long deadline = System.nanoTime() + 60_000_000_000L; // a guard against a hang, not a timing
            while (ran.size() < readers + 1 && System.nanoTime() < deadline) Thread.sleep(1);
            assertThat(ran).hasSize(readers + 1).startsWith("commit");
            assertThat(early.get()).isZero();
            assertThat(log.forces()).isEqualTo(1);
            assertThat(log.callbacks()).isEqualTo(readers + 2L); // the commit, the checkpoint, the reads
        }
        // Nothing queued before it: a read-only callback runs at the log manager's next wake, with no force.
        try (LogManager log =
                new LogManager(dir.resolve("idle.log"), 0, new SegmentPool(64), 10_000_000L, Long.MAX_VALUE)) {
            log.enqueueReadOnly(() -> ran.add("idle read"));
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!ran.contains("idle read") && System.nanoTime() < deadline) Thread.sleep(1);
            assertThat(ran).endsWith("idle read");
            assertThat(log.forces()).isZero();
        }
    }
}

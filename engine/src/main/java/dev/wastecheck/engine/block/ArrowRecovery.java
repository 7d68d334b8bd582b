package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.CheckpointWriter;
import dev.wastecheck.engine.log.LogFormat;
import dev.wastecheck.engine.log.LogReader;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.TupleSlot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recovery of {@link ArrowTable}s from a checkpoint and the write-ahead log (Li et al., VLDB 2020,
 * §3.4): "upon recovery, the system is guaranteed to recover to a consistent snapshot, from which it
 * can apply all changes where the commit timestamp is after the latest recorded checkpoint".
 *
 * <ol>
 * <li>Read the log to its end or its first damaged record ({@link LogReader}); the last CHECKPOINT
 * record names the checkpoint file to start from (none: start empty).</li>
 * <li>Load the checkpoint's tuples into empty tables. They land in new TupleSlots: the <em>mapping
 * table</em> remembers, per table, each old slot's new place (log records name old slots).</li>
 * <li>Read the log again and buffer each transaction's records until its COMMIT record; apply those
 * of a transaction whose commit timestamp is after the checkpoint's, in log order (which is commit
 * order), as one transaction each, through the mapping table; drop a transaction at its ABORT record
 * or, with no COMMIT by the end, at the end. Records after the damage are never read, and a record is
 * only ever applied whole.</li>
 * </ol>
 *
 * <p>Recovery itself logs nothing; the caller then restores the clock, cuts the log at {@link
 * Report#validEnd()} and takes a checkpoint at once, so that the records that follow name the new
 * slots.
 */
public final class ArrowRecovery {
    private ArrowRecovery() {}

    /** What recovery found and did. */
    public record Report(
            long checkpointTs,
            long checkpointTuples,
            long transactionsReplayed,
            long recordsReplayed,
            long transactionsDropped,
            long lastCommitTs,
            long lastTxn,
            long validEnd,
            long logBytes,
            String damage,
            List<Long> replayedCommits) {
        /** Whether there was anything to recover. */
        public boolean recoveredAnything() {
            return checkpointTs > 0 || transactionsReplayed > 0 || validEnd > LogFormat.FILE_HEADER_SIZE;
        }

        @Override
        public String toString() {
            return "recovered from checkpoint " + checkpointTs + " (" + checkpointTuples + " tuples) and "
                    + transactionsReplayed + " logged transactions (" + recordsReplayed + " records) after it; "
                    + transactionsDropped + " without a COMMIT record dropped; log read to byte " + validEnd + " of "
                    + logBytes + (damage == null ? "" : " (" + damage + ")");
        }
    }

    private record Pending(byte type, ByteBuffer payload, long offset) {}

    /** Recovers {@code tables} (empty, in their log order) from {@code dir}; a missing log recovers nothing. */
    public static Report recover(Path dir, Path logFile, List<ArrowTable> tables, GarbageCollector gc)
            throws IOException {
        TransactionManager tm = tables.isEmpty() ? null : tables.get(0).transactions();
        if (!Files.exists(logFile)) return new Report(0, 0, 0, 0, 0, 0, 0, 0, 0, null, List.of());
        long checkpointTs = 0, lastTxn = 0, lastTs = 0;
        try (LogReader r = new LogReader(logFile, LogFormat.LOG_MAGIC)) {
            while (r.next()) {
                lastTxn = Math.max(lastTxn, r.txn());
                if (r.type() == LogFormat.CHECKPOINT) checkpointTs = r.payload().getLong(0);
            }
        }
        List<Map<Long, Long>> slots = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) slots.add(new HashMap<>());
        long tuples = checkpointTs > 0 ? loadCheckpoint(dir, checkpointTs, tables, slots, tm, gc) : 0;
        lastTs = checkpointTs;

        Map<Long, List<Pending>> pending = new HashMap<>();
        long replayed = 0, records = 0, dropped = 0, validEnd, size;
        String damage;
        List<Long> commits = new ArrayList<>();
        try (LogReader r = new LogReader(logFile, LogFormat.LOG_MAGIC)) {
            while (r.next()) {
                switch (r.type()) {
                    case LogFormat.INSERT, LogFormat.UPDATE, LogFormat.DELETE -> {
                        ByteBuffer copy =
                                ByteBuffer.allocate(r.payload().remaining()).order(ByteOrder.LITTLE_ENDIAN);
                        copy.put(r.payload()).flip();
                        pending.computeIfAbsent(r.txn(), k -> new ArrayList<>())
                                .add(new Pending(r.type(), copy, r.recordOffset()));
                    }
                    case LogFormat.COMMIT -> {
                        long ts = r.payload().getLong(0);
                        List<Pending> p = pending.remove(r.txn());
                        if (ts <= checkpointTs) continue;
                        lastTs = Math.max(lastTs, ts);
                        if (p == null) p = List.of();
                        apply(p, tables, slots, tm);
                        records += p.size();
                        replayed++;
                        commits.add(ts);
                        if (replayed % 1000 == 0) gc.run();
                    }
                    case LogFormat.ABORT -> {
                        if (pending.remove(r.txn()) != null) dropped++;
                    }
                    default -> {}
                }
            }
            dropped += pending.size();
            validEnd = r.validEnd();
            size = r.size();
            damage = r.damage();
        }
        gc.run();
        gc.run();
        return new Report(
                checkpointTs, tuples, replayed, records, dropped, lastTs, lastTxn, validEnd, size, damage, commits);
    }

    private static void apply(
            List<Pending> records, List<ArrowTable> tables, List<Map<Long, Long>> slots, TransactionManager tm) {
        Transaction t = tm.begin();
        for (Pending p : records) {
            ByteBuffer b = p.payload;
            int id = b.getShort(LogFormat.TABLE_ID);
            if (id < 0 || id >= tables.size())
                throw new IllegalStateException(
                        "log record at byte " + p.offset + " names table " + id + " of " + tables.size());
            ArrowTable table = tables.get(id);
            Map<Long, Long> map = slots.get(id);
            long old = b.getLong(LogFormat.SLOT);
            switch (p.type) {
                case LogFormat.INSERT -> {
                    Record rec = new Record(table.schema());
                    b.position(LogFormat.IMAGE);
                    LogFormat.getImage(b, table.schema(), null, rec);
                    map.put(old, table.insert(t, rec));
                }
                case LogFormat.UPDATE -> {
                    b.position(LogFormat.IMAGE);
                    int[] columns = LogFormat.getMask(b, table.schema().fieldCount());
                    Record rec = new Record(table.schema());
                    LogFormat.getImage(b, table.schema(), columns, rec);
                    if (!table.update(t, slot(map, old, p, table), columns, rec))
                        throw new IllegalStateException(where(p, table, old) + ": the update found no tuple");
                }
                case LogFormat.DELETE -> {
                    if (!table.delete(t, slot(map, old, p, table)))
                        throw new IllegalStateException(where(p, table, old) + ": the delete found no tuple");
                    map.remove(old);
                }
                default -> throw new IllegalStateException("record type " + p.type);
            }
        }
        if (!tm.commit(t)) throw new IllegalStateException("a replayed transaction could not commit");
    }

    private static long slot(Map<Long, Long> map, long old, Pending p, ArrowTable table) {
        Long s = map.get(old);
        if (s == null)
            throw new IllegalStateException(
                    where(p, table, old) + ": no checkpoint tuple or earlier insert holds the slot");
        return s;
    }

    private static String where(Pending p, ArrowTable table, long old) {
        return "log record at byte " + p.offset + " (" + table.name() + " " + TupleSlot.toString(old) + ")";
    }

    private static long loadCheckpoint(
            Path dir,
            long ts,
            List<ArrowTable> tables,
            List<Map<Long, Long>> slots,
            TransactionManager tm,
            GarbageCollector gc)
            throws IOException {
        Path file = CheckpointWriter.file(dir, ts);
        if (!Files.exists(file))
            throw new IOException("the log's last CHECKPOINT record names " + file + ", which does not exist");
        List<Record> scratch = new ArrayList<>();
        for (ArrowTable t : tables) scratch.add(new Record(t.schema()));
        long tuples = 0;
        boolean ended = false;
        Transaction t = tm.begin();
        try (LogReader r = new LogReader(file, LogFormat.CHECKPOINT_MAGIC)) {
            while (r.next()) {
                ByteBuffer b = r.payload();
                if (ended) throw new IOException(file + ": a record after END at byte " + r.recordOffset());
                switch (r.type()) {
                    case LogFormat.TABLE -> {
                        int id = b.getInt(0), columns = b.getShort(4), n = b.getShort(6);
                        byte[] name = new byte[n];
                        b.get(8, name);
                        String nm = new String(name, StandardCharsets.UTF_8);
                        if (id >= tables.size()
                                || !tables.get(id).name().equals(nm)
                                || tables.get(id).schema().fieldCount() != columns)
                            throw new IOException(file + ": table " + id + " is " + nm + " with " + columns
                                    + " columns; the database defines "
                                    + (id < tables.size() ? tables.get(id) : "no such table"));
                    }
                    case LogFormat.TUPLE -> {
                        int id = b.getShort(LogFormat.TABLE_ID);
                        long old = b.getLong(LogFormat.SLOT);
                        ArrowTable table = tables.get(id);
                        RecordSchema s = table.schema();
                        b.position(LogFormat.IMAGE);
                        LogFormat.getImage(b, s, null, scratch.get(id));
                        slots.get(id).put(old, table.insert(t, scratch.get(id)));
                        if (++tuples % 10_000 == 0) {
                            tm.commit(t);
                            gc.run();
                            t = tm.begin();
                        }
                    }
                    case LogFormat.END -> {
                        if (b.getLong(0) != ts || b.getLong(8) != tuples)
                            throw new IOException(file + ": END says checkpoint " + b.getLong(0) + " of " + b.getLong(8)
                                    + " tuples; read " + tuples);
                        ended = true;
                    }
                    default -> throw new IOException(file + ": unexpected " + r.typeName() + " record");
                }
            }
            if (!ended)
                throw new IOException(file + " has no END record"
                        + (r.damage() == null ? "" : " (" + r.damage() + ")")
                        + ": the checkpoint the log names is incomplete");
        }
        tm.commit(t);
        return tuples;
    }
}

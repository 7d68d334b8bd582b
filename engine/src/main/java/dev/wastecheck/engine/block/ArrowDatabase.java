package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.CheckpointWriter;
import dev.wastecheck.engine.log.LogManager;
import dev.wastecheck.engine.log.SegmentPool;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.BlockLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;

/**
 * Durable {@link ArrowTable}s in a directory (Li et al., VLDB 2020, §3.4): the write-ahead log {@value
 * #LOG_FILE} and checkpoint files {@code checkpoint-<ts>.ckp}. Opening recovers what the directory
 * holds ({@link ArrowRecovery}), cuts the log at its last whole record, and, with logging on, takes a
 * checkpoint before any new transaction runs, so that new log records name the slots the recovered
 * tables have now.
 *
 * <p>With logging off the tables are recovered (if the directory holds any) and then live in memory
 * only; that is the replay's default, and the baseline of the logging-cost measurement.
 */
public final class ArrowDatabase implements AutoCloseable {
    public static final String LOG_FILE = "wal.log";

    /** One table's definition: name, schema, and which VARLEN columns hold bytes (Arrow Binary). */
    public record TableDef(String name, RecordSchema schema, BitSet binary) {
        public TableDef(String name, RecordSchema schema) {
            this(name, schema, new BitSet());
        }
    }

    private final Path dir;
    private final TransactionManager tm = new TransactionManager();
    private final GarbageCollector gc = new GarbageCollector(tm);
    private final List<ArrowTable> tables = new ArrayList<>();
    private final LogManager log;
    private final ArrowRecovery.Report recovery;

    private ArrowDatabase(Path dir, List<TableDef> defs, boolean logging, int blockSize, ArrowTable.FreezeMode mode)
            throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        for (TableDef d : defs) tables.add(new ArrowTable(d.name(), d.schema(), tm, blockSize, mode, d.binary()));
        Path logFile = dir.resolve(LOG_FILE);
        recovery = ArrowRecovery.recover(dir, logFile, tables, gc);
        tm.restore(recovery.lastCommitTs(), recovery.lastTxn());
        if (logging) {
            log = new LogManager(logFile, recovery.validEnd(), new SegmentPool(4096));
            tm.startLogging(log);
            for (int i = 0; i < tables.size(); i++) tables.get(i).logAs(i);
            if (recovery.recoveredAnything()) checkpoint();
        } else {
            log = null;
        }
    }

    /** Opens (creating) the database in {@code dir} with 1 MB blocks, recovering what it holds. */
    public static ArrowDatabase open(Path dir, List<TableDef> tables, boolean logging) throws IOException {
        return new ArrowDatabase(dir, tables, logging, BlockLayout.DEFAULT_BLOCK_SIZE, ArrowTable.FreezeMode.GATHER);
    }

    public static ArrowDatabase open(
            Path dir, List<TableDef> tables, boolean logging, int blockSize, ArrowTable.FreezeMode mode)
            throws IOException {
        return new ArrowDatabase(dir, tables, logging, blockSize, mode);
    }

    public TransactionManager transactions() {
        return tm;
    }

    public GarbageCollector gc() {
        return gc;
    }

    public List<ArrowTable> tables() {
        return tables;
    }

    public ArrowTable table(String name) {
        for (ArrowTable t : tables) if (t.name().equals(name)) return t;
        throw new IllegalArgumentException("no table " + name);
    }

    /** The log manager, or null with logging off. */
    public LogManager log() {
        return log;
    }

    /** What opening recovered. */
    public ArrowRecovery.Report recovery() {
        return recovery;
    }

    /**
     * Takes a checkpoint: one transaction scans every table (a consistent snapshot, §3.4), the tuples
     * go to {@code checkpoint-<start ts>.ckp} with their slots, and once the file is whole on disk a
     * CHECKPOINT record with the scan's timestamp goes to the log; older checkpoint files are deleted
     * once that record is durable. Returns the checkpoint's timestamp.
     */
    public synchronized long checkpoint() throws IOException {
        if (log == null) throw new IllegalStateException("checkpoints need logging on");
        Transaction t = tm.begin();
        long ts = t.startTs();
        try (CheckpointWriter w = new CheckpointWriter(dir, ts)) {
            for (int i = 0; i < tables.size(); i++)
                w.table(i, tables.get(i).name(), tables.get(i).schema().fieldCount());
            for (int i = 0; i < tables.size(); i++) {
                int id = i;
                tables.get(i).scan(t, (slot, r) -> {
                    try {
                        w.tuple(id, slot, r);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    return true;
                });
            }
            w.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            tm.commit(t);
        }
        try {
            log.logCheckpoint(ts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the CHECKPOINT record was being forced", e);
        }
        Path keep = CheckpointWriter.file(dir, ts);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String n = p.getFileName().toString();
                if (n.startsWith("checkpoint-") && !p.equals(keep)) Files.deleteIfExists(p);
            }
        }
        return ts;
    }

    /** Forces what the log manager holds and closes the log. */
    @Override
    public void close() throws IOException {
        if (log != null) log.close();
    }
}

package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.LogManager;
import dev.wastecheck.engine.log.SegmentPool;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The Arrow-native storage of one replay database ({@code layout=arrow}, docs/arrow.md): one
 * transaction manager and garbage collector for all its tables, and, with {@code freeze=on}, the
 * transformation of each (cold after {@code coldAfter} GC epochs without a write). The replay runs
 * one GC epoch after every event ({@link #tick()}), so {@code cold_after} counts events, as the
 * replay's configuration key says.
 *
 * <p>With {@code log=on} ({@link #logged}) every transaction is logged as §3.4 describes, through the
 * same {@link LogManager} an {@link ArrowDatabase} uses: each table logs its writes under its number
 * (the order {@link #newStore} made them, the order {@link ArrowRecovery} expects), one log manager
 * thread writes and forces them with group commit, and every operation's result, reads included, is
 * released by a commit callback after the force ({@link #released()} counts them). The replay thread
 * does not wait for each callback before its next event: it is one client pipelining its statements,
 * which is what lets a single thread's commits share a force; {@link #close()} waits for the last
 * force. With no checkpoint taken during a run, {@link ArrowRecovery} reads the whole log back.
 */
public final class ArrowStorage implements AutoCloseable {
    private final TransactionManager tm = new TransactionManager();
    private final GarbageCollector gc = new GarbageCollector(tm);
    private final boolean freeze;
    private final long coldAfter;
    private final List<ArrowStore> stores = new ArrayList<>();
    private final List<BlockTransformer> transformers = new ArrayList<>();

    private final int blockSize;
    /** The write-ahead log with {@code log=on}, else null. */
    private final LogManager log;
    /** The log's directory, or null. */
    private final Path logDir;
    /** Whether {@link #close()} removes {@link #logDir} (a temporary directory this storage made). */
    private final boolean ownsDir;
    /** Results released by a commit callback after their force. */
    private final AtomicLong released = new AtomicLong();
    /** The commit callback of every operation with logging on; null without (callbacks would run at once). */
    private final Runnable release;

    public ArrowStorage(boolean freeze, long coldAfter) {
        this(freeze, coldAfter, BlockLayout.DEFAULT_BLOCK_SIZE);
    }

    /** @param blockSize 1 MB as in the paper; tests take smaller blocks to have many */
    public ArrowStorage(boolean freeze, long coldAfter, int blockSize) {
        this(freeze, coldAfter, blockSize, null, false);
    }

    /**
     * A storage whose transactions are logged to {@code logDir}/{@value ArrowDatabase#LOG_FILE} (a new log: whatever
     * the file held is replaced). The directory stays after {@link #close()}: recovery can read it.
     */
    public ArrowStorage(boolean freeze, long coldAfter, int blockSize, Path logDir) {
        this(freeze, coldAfter, blockSize, logDir, false);
    }

    private ArrowStorage(boolean freeze, long coldAfter, int blockSize, Path logDir, boolean ownsDir) {
        this.freeze = freeze;
        this.coldAfter = coldAfter;
        this.blockSize = blockSize;
        this.logDir = logDir;
        this.ownsDir = ownsDir;
        if (logDir == null) {
            log = null;
            release = null;
        } else {
            try {
                Files.createDirectories(logDir);
                log = new LogManager(logDir.resolve(ArrowDatabase.LOG_FILE), 0, new SegmentPool(4096));
            } catch (IOException e) {
                if (ownsDir) deleteTree(logDir);
                throw new UncheckedIOException("cannot open a write-ahead log in " + logDir, e);
            }
            tm.startLogging(log);
            release = released::incrementAndGet;
        }
    }

    /**
     * {@code log=on}: a storage logging to a new temporary directory, which {@link #close()} removes after
     * the last force.
     */
    public static ArrowStorage logged(boolean freeze, long coldAfter) {
        Path dir;
        try {
            dir = Files.createTempDirectory("wastecheck-wal-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the write-ahead log", e);
        }
        return new ArrowStorage(freeze, coldAfter, BlockLayout.DEFAULT_BLOCK_SIZE, dir, true);
    }

    /** A new table in 1 MB blocks, transformed when cold if freezing is on, logged as table number {@code stores} so far. */
    public ArrowStore newStore(String name, RecordSchema schema) {
        ArrowTable t = new ArrowTable(name, schema, tm, blockSize, ArrowTable.FreezeMode.GATHER);
        if (log != null) t.logAs(stores.size());
        if (freeze) transformers.add(new BlockTransformer(t, gc, coldAfter, 8));
        ArrowStore s = new ArrowStore(t, release);
        stores.add(s);
        return s;
    }

    /** The tables in the order they were made (their log numbers with logging on). */
    public List<ArrowTable> tables() {
        List<ArrowTable> out = new ArrayList<>();
        for (ArrowStore s : stores) out.add(s.table());
        return out;
    }

    /** Whether transactions are logged ({@code log=on}). */
    public boolean logging() {
        return log != null;
    }

    /** The write-ahead log's manager, or null with logging off. */
    public LogManager log() {
        return log;
    }

    /** The log's directory, or null with logging off. */
    public Path logDirectory() {
        return logDir;
    }

    /** Results released by commit callbacks after their force (with logging off: none are counted). */
    public long released() {
        return released.get();
    }

    /**
     * With logging on: writes and forces what the log manager holds (the last callbacks run), stops
     * it, and removes the log's directory if this storage made it. Without logging: nothing to do.
     */
    @Override
    public void close() {
        if (log == null) return;
        try {
            log.close();
        } catch (IOException e) {
            throw new UncheckedIOException("write-ahead log " + log.file() + " failed", e);
        } finally {
            if (ownsDir) deleteTree(logDir);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary directory left behind is not worth failing a finished run for
        }
    }

    /** One GC epoch, then the transformations: what a background thread would do between two events. */
    public void tick() {
        gc.run();
        // An empty transformation has nothing to do; asking it anyway allocated its working lists per
        // table per event (1.1 GB over a 3,000-page replay, the young collections' main cause).
        // (Indexed: an iterator per event was 3% of the bytes Arrow-only code allocated in a logged replay.)
        for (int i = 0; i < transformers.size(); i++) {
            BlockTransformer t = transformers.get(i);
            if (t.queued() > 0) t.runOnce();
        }
    }

    public boolean freezes() {
        return freeze;
    }

    public long coldAfter() {
        return coldAfter;
    }

    public void trackTouched() {
        for (ArrowStore s : stores) s.trackTouched();
    }

    /**
     * Tuples read or written in the blocks since {@link #trackTouched()}: what a pin of a heap page
     * is on pages (the blocks are in memory, so these are no pins and no device reads).
     */
    public long tupleAccesses() {
        return stores.stream().mapToLong(s -> s.table().tupleAccesses()).sum();
    }

    /** Memory of all tables: blocks, version pointers and variable-length values. */
    public long bytes() {
        return stores.stream().mapToLong(ArrowStore::bytes).sum();
    }

    public int blocks() {
        return stores.stream().mapToInt(s -> s.table().blockCount()).sum();
    }

    public int frozenBlocks() {
        int n = 0;
        for (ArrowStore s : stores) for (Block b : s.table().blocks()) if (b.state() == ArrowBlock.FROZEN) n++;
        return n;
    }

    /** Tuples compaction has moved so far, per table. */
    public Map<String, Long> moves() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (BlockTransformer t : transformers)
            if (t.stats().moves() > 0) out.merge(t.table().name(), t.stats().moves(), Long::sum);
        return out;
    }
}

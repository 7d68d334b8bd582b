package dev.wastecheck.engine.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * The log manager (Li et al., VLDB 2020, §3.4): one thread that takes redo buffers off the flush
 * queue, writes them to the log file and forces it, then invokes the commit callbacks of the
 * transactions whose COMMIT records that force made durable. Everything that reached the queue since
 * the previous force goes out in one write and one force (group commit).
 *
 * <p>When: the section leaves the log manager's schedule open. We take NoisePage's own TPC-C setting
 * (cmu-db/noisepage, {@code benchmark/integration/tpcc_benchmark.cpp}: {@code log_persist_interval}
 * 10 ms, {@code log_persist_threshold} 1 MB): a force at most every {@link #DEFAULT_PERSIST_INTERVAL_NANOS}
 * unless {@link #DEFAULT_PERSIST_THRESHOLD} bytes wait sooner, or a checkpoint or {@link #close()}
 * asks for one at once. A committing worker wakes the log manager only for the threshold. Forcing
 * whenever anything waited (the first version) cost, in a quiet 2-worker run of the TPC-C-like mix,
 * 3,200 forces a second of ten commits each, a preemption of a worker on every third transaction
 * (the log manager waking on a busy core) and 16-21% of throughput (docs/benchmarks.md).
 *
 * <p>Order: transactions enter the queue at the moment their commit timestamp is published (the
 * transaction manager enqueues under its commit latch), so the log holds COMMIT records in commit
 * timestamp order and needs no log sequence numbers. A read-only transaction enters with no bytes (a
 * non-persisted commit record): its callback fires after the force that follows it, so that a result
 * it read speculatively from a committed but not yet durable transaction is not released first.
 * When every COMMIT queued before it is durable already, the transaction manager releases it at once
 * instead ({@link #allCommitsDurable()}): it cannot have read anything speculative.
 *
 * <p>Serialization (§3.4: "The log manager asynchronously serializes the changes from these buffers
 * into an on-disk format before flushing to persistent storage"): a worker leaves each record's
 * CHECKSUM unwritten; the log manager copies the segments of a group into its one direct write
 * buffer of {@link #WRITE_BUFFER_SIZE} bytes and computes every CHECKSUM there ({@link
 * LogFormat#checksums}), writing the buffer each time it fills and once more before the force. The
 * segments themselves are only read on this thread, never written, so that the worker that takes one
 * back from the pool does not find its cache lines modified in another core's cache.
 *
 * <p>The file format is {@link LogFormat}'s. The manager appends from {@code validEnd}: whatever
 * recovery found damaged beyond it is cut off first, so that new records never follow a torn one.
 */
public final class LogManager implements AutoCloseable {
    /** The longest a commit waits for its force: NoisePage's TPC-C {@code log_persist_interval}. */
    public static final long DEFAULT_PERSIST_INTERVAL_NANOS = 10_000_000L;
    /** Queued bytes that force at once: NoisePage's TPC-C {@code log_persist_threshold}. */
    public static final long DEFAULT_PERSIST_THRESHOLD = 1 << 20;

    /** Bytes of the direct buffer the log manager copies segments into for the file (written when full). */
    static final int WRITE_BUFFER_SIZE = 256 * 1024;

    /** One flush-queue entry: a redo buffer's segments (maybe none) and the callback after its force (maybe none). */
    private record Entry(Segment segments, Runnable callback, boolean commit) {}

    private final Path file;
    private final FileChannel channel;
    private final SegmentPool pool;
    private final ConcurrentLinkedQueue<Entry> queue = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean waiting;
    private volatile boolean closing;
    private volatile IOException failure;
    private final AtomicLong bytes = new AtomicLong(), forces = new AtomicLong(), callbacks = new AtomicLong();
    /** COMMIT records put on the flush queue so far (in commit timestamp order, under the commit latch). */
    private final AtomicLong queuedCommits = new AtomicLong();
    /** COMMIT records a completed force made durable (written by the log manager thread only). */
    private volatile long durableCommits;
    /** Bytes on the flush queue not yet written. */
    private final AtomicLong pendingBytes = new AtomicLong();
    /** Set by a checkpoint (or close) that wants a force now rather than at the next interval. */
    private volatile boolean urgent;

    private final long persistIntervalNanos;
    private final long persistThreshold;

    private long position;

    /**
     * Opens (creating if absent) the log {@code file} and appends from {@code validEnd} (the end of its
     * last whole record, as {@link LogReader} found it; 0 for a new log).
     */
    public LogManager(Path file, long validEnd, SegmentPool pool) throws IOException {
        this(file, validEnd, pool, DEFAULT_PERSIST_INTERVAL_NANOS, DEFAULT_PERSIST_THRESHOLD);
    }

    /**
     * As {@link #LogManager(Path, long, SegmentPool)}, forcing at most every {@code persistIntervalNanos}
     * unless {@code persistThreshold} bytes are waiting (0 and 0: force whenever anything waits).
     */
    public LogManager(Path file, long validEnd, SegmentPool pool, long persistIntervalNanos, long persistThreshold)
            throws IOException {
        this.file = file;
        this.pool = pool;
        this.persistIntervalNanos = persistIntervalNanos;
        this.persistThreshold = persistThreshold;
        boolean fresh = !Files.exists(file) || validEnd < LogFormat.FILE_HEADER_SIZE;
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
        if (fresh) {
            channel.truncate(0);
            channel.write(LogFormat.fileHeader(LogFormat.LOG_MAGIC), 0);
            position = LogFormat.FILE_HEADER_SIZE;
        } else {
            if (channel.size() > validEnd) channel.truncate(validEnd);
            position = validEnd;
        }
        channel.force(true);
        thread = new Thread(this::run, "log-manager");
        thread.setDaemon(true);
        thread.start();
    }

    public SegmentPool pool() {
        return pool;
    }

    public Path file() {
        return file;
    }

    /** A redo buffer for the transaction with begin sequence {@code txn}. */
    public RedoBuffer newBuffer(long txn) {
        return new RedoBuffer(txn, pool, this);
    }

    /**
     * Appends the COMMIT record of {@code commitTs} to a committing transaction's buffer and puts the
     * buffer on the flush queue; {@code
     * callback} runs after the force that makes it durable. Called under the commit latch: cheap,
     * and the caller wakes the log manager with {@link #wake()} once it has let go of the latch.
     */
    public void enqueueCommit(RedoBuffer buffer, long commitTs, Runnable callback) {
        checkAlive();
        buffer.commit(commitTs);
        queuedCommits.incrementAndGet();
        queue.add(pending(new Entry(buffer.drain(), callback, true)));
    }

    /** Puts a read-only transaction's non-persisted commit record on the flush queue. */
    public void enqueueReadOnly(Runnable callback) {
        checkAlive();
        queue.add(new Entry(null, callback, false));
    }

    /** Ends an aborted transaction's buffer, logging ABORT if part of it went out early. */
    public void abort(RedoBuffer buffer) {
        Segment abort = buffer.abort();
        if (abort != null) {
            queue.add(pending(new Entry(abort, null, false)));
            wake();
        }
    }

    /** Full segments of a running transaction, written before its COMMIT (no callback). */
    void enqueuePartial(Segment segments) {
        checkAlive();
        queue.add(pending(new Entry(segments, null, false)));
        wake();
    }

    /** Logs a CHECKPOINT record for the checkpoint file of {@code checkpointTs} and waits until it is durable. */
    public void logCheckpoint(long checkpointTs) throws InterruptedException {
        Segment s = pool.take();
        s.used = LogFormat.putLong(s.bytes, LogFormat.putHeader(s.bytes, 0, 0, LogFormat.CHECKPOINT), checkpointTs);
        LogFormat.setLength(s.bytes, 0, s.used);
        CountDownLatch done = new CountDownLatch(1);
        checkAlive();
        queue.add(pending(new Entry(s, done::countDown, false)));
        forceNow();
        while (!done.await(100, TimeUnit.MILLISECONDS)) checkAlive();
    }

    /**
     * Whether every COMMIT record queued so far is on disk: a read-only transaction that ends now
     * cannot have read anything a crash would lose, so it needs no commit record on the queue.
     */
    public boolean allCommitsDurable() {
        return durableCommits == queuedCommits.get();
    }

    /** Counts an entry's bytes as waiting to be written; returns it. */
    private Entry pending(Entry e) {
        long n = 0;
        for (Segment s = e.segments; s != null; s = s.next) n += s.used;
        if (n > 0) pendingBytes.addAndGet(n);
        return e;
    }

    /**
     * Wakes the log manager early if the bytes waiting reached the persist threshold; otherwise the
     * next interval forces them (a worker pays no system call per commit).
     */
    public void wake() {
        if (waiting && pendingBytes.get() >= persistThreshold) LockSupport.unpark(thread);
    }

    /** Asks for a force of what is queued now, not at the next interval. */
    private void forceNow() {
        urgent = true;
        LockSupport.unpark(thread);
    }

    private void checkAlive() {
        IOException f = failure;
        if (f != null) throw new UncheckedIOException("log " + file + " failed; no commit can be made durable", f);
        if (closing && !thread.isAlive()) throw new IllegalStateException("log " + file + " is closed");
    }

    private void run() {
        List<Entry> batch = new ArrayList<>();
        ByteBuffer out = ByteBuffer.allocateDirect(WRITE_BUFFER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        long lastForce = System.nanoTime();
        while (true) {
            Entry e;
            while ((e = queue.poll()) != null) batch.add(e);
            if (batch.isEmpty()) {
                if (closing) return;
                park(Math.max(persistIntervalNanos, 1_000_000L));
                continue;
            }
            long since = System.nanoTime() - lastForce;
            if (since < persistIntervalNanos && pendingBytes.get() < persistThreshold && !urgent && !closing) {
                park(persistIntervalNanos - since); // gather more commits into this force
                continue;
            }
            urgent = false;
            lastForce = System.nanoTime();
            try {
                long start = position;
                for (int i = 0; i < batch.size(); i++) {
                    for (Segment s = batch.get(i).segments; s != null; s = s.next) {
                        if (out.remaining() < s.used) write(out.flip());
                        if (s.used > out.capacity()) {
                            ByteBuffer big = ByteBuffer.wrap(s.bytes, 0, s.used).order(ByteOrder.LITTLE_ENDIAN);
                            LogFormat.checksums(big, 0, s.used, crc);
                            write(big.flip());
                        } else {
                            int at = out.position();
                            out.put(s.bytes, 0, s.used);
                            LogFormat.checksums(out, at, at + s.used, crc);
                        }
                    }
                }
                write(out.flip());
                if (position > start) {
                    bytes.addAndGet(position - start);
                    pendingBytes.addAndGet(start - position);
                    channel.force(false);
                    forces.incrementAndGet();
                }
            } catch (IOException ex) {
                failure = ex;
                return;
            }
            long commits = 0;
            for (int i = 0; i < batch.size(); i++) if (batch.get(i).commit) commits++;
            durableCommits += commits;
            // indexed loops: an iterator per entry was the log manager's own garbage
            for (int i = 0; i < batch.size(); i++) {
                Entry x = batch.get(i);
                if (x.callback != null) {
                    x.callback.run();
                    callbacks.incrementAndGet();
                }
                for (Segment s = x.segments, next; s != null; s = next) {
                    next = s.next;
                    pool.give(s);
                }
            }
            batch.clear();
        }
    }

    /** Writes {@code b} (flipped) at the end of the log, whole; clears it. */
    private void write(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) position += channel.write(b, position);
        b.clear();
    }

    private void park(long nanos) {
        waiting = true;
        LockSupport.parkNanos(nanos);
        waiting = false;
    }

    /** Bytes written to the log since it opened. */
    public long bytesWritten() {
        return bytes.get();
    }

    /** Forces of the log file (each one a group commit). */
    public long forces() {
        return forces.get();
    }

    /** Commit callbacks invoked (read-only transactions included). */
    public long callbacks() {
        return callbacks.get();
    }

    /** Writes and forces what is queued, then stops the thread and closes the file. */
    @Override
    public void close() throws IOException {
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.close();
        if (failure != null) throw failure;
    }
}

package dev.wastecheck.engine.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
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
 * transactions whose COMMIT records that force made durable. Everything that reached the queue while
 * the previous force ran goes out in one write and one force (group commit).
 *
 * <p>Order: transactions enter the queue at the moment their commit timestamp is published (the
 * transaction manager enqueues under its commit latch), so the log holds COMMIT records in commit
 * timestamp order and needs no log sequence numbers. A read-only transaction enters with no bytes (a
 * non-persisted commit record): its callback fires after the force that follows it, so that a result
 * it read speculatively from a committed but not yet durable transaction is not released first.
 * When every COMMIT queued before it is durable already, the transaction manager releases it at once
 * instead ({@link #allCommitsDurable()}): it cannot have read anything speculative.
 *
 * <p>The file format is {@link LogFormat}'s. The manager appends from {@code validEnd}: whatever
 * recovery found damaged beyond it is cut off first, so that new records never follow a torn one.
 */
public final class LogManager implements AutoCloseable {
    /** One flush-queue entry: a redo buffer's segments (maybe none) and the callback after its force (maybe none). */
    private record Entry(List<ByteBuffer> segments, Runnable callback, boolean commit) {}

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

    private long position;

    /**
     * Opens (creating if absent) the log {@code file} and appends from {@code validEnd} (the end of its
     * last whole record, as {@link LogReader} found it; 0 for a new log).
     */
    public LogManager(Path file, long validEnd, SegmentPool pool) throws IOException {
        this.file = file;
        this.pool = pool;
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
        queue.add(new Entry(buffer.drain(), callback, true));
    }

    /** Puts a read-only transaction's non-persisted commit record on the flush queue. */
    public void enqueueReadOnly(Runnable callback) {
        checkAlive();
        queue.add(new Entry(List.of(), callback, false));
    }

    /** Ends an aborted transaction's buffer, logging ABORT if part of it went out early. */
    public void abort(RedoBuffer buffer) {
        List<ByteBuffer> abort = buffer.abort();
        if (abort != null) {
            queue.add(new Entry(abort, null, false));
            wake();
        }
    }

    /** Full segments of a running transaction, written before its COMMIT (no callback). */
    void enqueuePartial(List<ByteBuffer> segments) {
        checkAlive();
        queue.add(new Entry(segments, null, false));
        wake();
    }

    /** Logs a CHECKPOINT record for the checkpoint file of {@code checkpointTs} and waits until it is durable. */
    public void logCheckpoint(long checkpointTs) throws InterruptedException {
        ByteBuffer s = pool.take();
        s.putInt(0).putInt(0).putLong(0).put(LogFormat.CHECKPOINT).putLong(checkpointTs);
        LogFormat.seal(s, 0, new CRC32C());
        CountDownLatch done = new CountDownLatch(1);
        checkAlive();
        queue.add(new Entry(List.of(s), done::countDown, false));
        wake();
        while (!done.await(100, TimeUnit.MILLISECONDS)) checkAlive();
    }

    /**
     * Whether every COMMIT record queued so far is on disk: a read-only transaction that ends now
     * cannot have read anything a crash would lose, so it needs no commit record on the queue.
     */
    public boolean allCommitsDurable() {
        return durableCommits == queuedCommits.get();
    }

    /** Wakes the log manager if it is parked on an empty queue. */
    public void wake() {
        if (waiting) LockSupport.unpark(thread);
    }

    private void checkAlive() {
        IOException f = failure;
        if (f != null) throw new UncheckedIOException("log " + file + " failed; no commit can be made durable", f);
        if (closing && !thread.isAlive()) throw new IllegalStateException("log " + file + " is closed");
    }

    private void run() {
        List<Entry> batch = new ArrayList<>();
        List<ByteBuffer> writes = new ArrayList<>();
        while (true) {
            Entry e;
            while ((e = queue.poll()) != null) batch.add(e);
            if (batch.isEmpty()) {
                if (closing) return;
                waiting = true;
                if (queue.isEmpty()) LockSupport.parkNanos(10_000_000L);
                waiting = false;
                continue;
            }
            try {
                for (Entry x : batch) for (ByteBuffer s : x.segments) writes.add(s.flip());
                if (!writes.isEmpty()) {
                    ByteBuffer[] bufs = writes.toArray(new ByteBuffer[0]);
                    long want = 0;
                    for (ByteBuffer b : bufs) want += b.remaining();
                    long done = 0;
                    channel.position(position);
                    while (done < want) done += channel.write(bufs);
                    position += want;
                    bytes.addAndGet(want);
                    channel.force(false);
                    forces.incrementAndGet();
                }
            } catch (IOException ex) {
                failure = ex;
                return;
            }
            long commits = 0;
            for (Entry x : batch) if (x.commit) commits++;
            durableCommits += commits;
            for (Entry x : batch) {
                if (x.callback != null) {
                    x.callback.run();
                    callbacks.incrementAndGet();
                }
                for (ByteBuffer s : x.segments) pool.give(s);
            }
            batch.clear();
            writes.clear();
        }
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

package dev.wastecheck.engine.log;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * The log manager (Li et al., VLDB 2020, §3.4): one thread that takes redo buffers off the flush
 * queue, writes them to the log file and forces it, then invokes the commit callbacks of the
 * transactions whose COMMIT records that force made durable. Everything that reached the queue since
 * the previous force is made durable by one force (group commit); it is copied into the write buffer
 * in pieces meanwhile, every {@link #COPY_INTERVAL_NANOS}.
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
 * timestamp order and needs no log sequence numbers. The queue is intrusive ({@link FlushEntry}): a
 * committing transaction's {@link RedoBuffer} is its own entry, linked with one {@code getAndSet} and a
 * release store, so a commit allocates nothing to hand its buffer over. A read-only transaction enters with no bytes (a
 * non-persisted commit record, in the ring below): its callback fires after the force that follows it, so that a result
 * it read speculatively from a committed but not yet durable transaction is not released first.
 * When every COMMIT queued before it is durable already, the transaction manager releases it at once
 * instead ({@link #allCommitsDurable()}): it cannot have read anything speculative.
 *
 * <p>Read-only commit records take no queue entry: a read-only transaction's callback goes into a ring
 * of {@link #READ_ONLY_RING} slots (a compare-and-set on its tail and one store, no object), and the log
 * manager reads the ring's tail <em>before</em> it drains the flush queue. Every read-only transaction
 * below that tail ended before the drain began, so every COMMIT queued before it is in the drained
 * group or an earlier one: its callback runs after the force of that group, as an entry behind those
 * COMMITs would. When the group drained is empty, everything queued before is durable already and the
 * callbacks run at once. A full ring (a log manager more than {@value #READ_ONLY_RING} read-only
 * transactions behind) puts the callback on the flush queue as before. (The queue's entry and node, 48
 * bytes a read-only transaction, were the largest allocation of the Arrow storage in a logged replay's
 * profile; docs/benchmarks.md, issue 26.)
 *
 * <p>Serialization (§3.4: "The log manager asynchronously serializes the changes from these buffers
 * into an on-disk format before flushing to persistent storage"): a segment is one frame of the log,
 * and a worker leaves the frame's LENGTH and CHECKSUM unwritten; the log manager copies the segments
 * of a group into its one direct write buffer of {@link #WRITE_BUFFER_SIZE} bytes and writes each
 * frame's LENGTH and CHECKSUM there ({@link LogFormat#frame}), every {@link #COPY_INTERVAL_NANOS} while it gathers the group, giving the
 * segments back to the pool as soon as they are copied, and writes the buffer each time it fills and
 * once more before the force. The
 * segments themselves are only read on this thread, never written, so that the worker that takes one
 * back from the pool does not find its cache lines modified in another core's cache.
 *
 * <p>The file format is {@link LogFormat}'s. The manager appends from {@code validEnd}: whatever
 * recovery found damaged beyond it is cut off first, so that new records never follow a torn one.
 *
 * <p>Direct I/O (O_DIRECT, {@link ExtendedOpenOption#DIRECT}): the log file is opened so that a write
 * goes from the manager's write buffer to the device with no copy into the kernel's page cache and
 * no writeback of it later. A direct write must start at a multiple of the file system's block size
 * ({@link #alignment()}, 4,096 bytes on ext4) and span whole blocks from a buffer aligned the same
 * way, so the buffer begins at the block that holds the end of the log: after each write the bytes
 * of the last, partial block stay at the buffer's start, and the next group is appended after them
 * and written from that block again. The rest of the last block is written as zeros, which {@link
 * LogReader} reads as the log's clean end ({@link LogFormat}'s drawing); {@link #close()} cuts them
 * off. A direct probe of the write and force alone, 35 MB/s in forces every 10 ms as the TPC-C-like
 * mix writes (docs/benchmarks.md, issue 26), took 438-656 µs of the writing thread's CPU per MB
 * written directly against 740-1,182 µs through the page cache (medians 574 and 928). Where the
 * file system refuses O_DIRECT (tmpfs), or with {@code -Dwastecheck.log.direct=false}, the log is
 * written through the page cache as before, to the same bytes.
 */
public final class LogManager implements AutoCloseable {
    /** The longest a commit waits for its force: NoisePage's TPC-C {@code log_persist_interval}. */
    public static final long DEFAULT_PERSIST_INTERVAL_NANOS = 10_000_000L;
    /** Queued bytes that force at once: NoisePage's TPC-C {@code log_persist_threshold}. */
    public static final long DEFAULT_PERSIST_THRESHOLD = 1 << 20;

    /**
     * How often the log manager copies what the flush queue holds into its write buffer while it
     * gathers a group for the next force, and gives the segments back to the pool. Copying only at
     * the force (the first version) kept every segment of a 10 ms group in flight, about 330 KB of
     * redo at the TPC-C-like mix's rate, in the worker's cache and out of its reuse; copied every
     * millisecond, about a tenth of that is, and the worker writes its next transaction's redo into
     * a segment the log manager has just read rather than one untouched for 10 ms. Every 300 µs
     * since run 7 (docs/benchmarks.md, "Logging's cost, run 7": the quiet call at 300 µs showed the
     * 10% target by its pooled ratio, 0.942 [0.916-0.967], the one at 1 ms did not, 0.932
     * [0.899-0.967]; a gain of 300 µs over 1 ms is not shown, the calls being separate), for 0.35 µs
     * more of the log manager's CPU a transaction. The system property {@code
     * wastecheck.log.copyIntervalNanos} sets another.
     */
    static final long COPY_INTERVAL_NANOS =
            Math.max(10_000L, Long.getLong("wastecheck.log.copyIntervalNanos", 300_000L)); // 10 µs at least
    /** How long after its last copy the log manager keeps copying every {@link #COPY_INTERVAL_NANOS}. */
    static final long IDLE_AFTER_NANOS = 100_000_000L;

    /** Bytes of the direct buffer the log manager copies segments into for the file (written when full). */
    static final int WRITE_BUFFER_SIZE = 256 * 1024;

    private final Path file;
    private final FileChannel channel;
    private final SegmentPool pool;
    /**
     * The flush queue ({@link FlushEntry}): its last entry, swapped by every producer. The log manager
     * follows the links from {@link #taken}, the last entry it took (at first an empty one).
     */
    private final AtomicReference<FlushEntry> queueTail;
    /** The last entry the log manager took off the queue (the log manager's only). */
    private FlushEntry taken;

    /** Slots of the ring of read-only callbacks (a power of two). */
    static final int READ_ONLY_RING = 1 << 14;

    private final AtomicReferenceArray<Runnable> readOnly = new AtomicReferenceArray<>(READ_ONLY_RING);
    /** The next slot a read-only transaction claims (slots below it are claimed, maybe not yet filled). */
    private final AtomicLong readOnlyTail = new AtomicLong();
    /** The next slot the log manager runs; slots below it are empty again (written by the log manager only). */
    private volatile long readOnlyHead;

    private final Thread thread;
    private volatile boolean waiting;
    private volatile boolean closing;
    private volatile IOException failure;
    private final AtomicLong bytes = new AtomicLong(), forces = new AtomicLong(), callbacks = new AtomicLong();
    /**
     * COMMIT records put on the flush queue so far (in commit timestamp order). Written under the commit
     * latch only, so an ordered store, not an atomic add, counts one: a reader that could depend on a
     * commit took the latch after it.
     */
    private final AtomicLong queuedCommits = new AtomicLong();
    /** COMMIT records a completed force made durable (written by the log manager thread only). */
    private volatile long durableCommits;
    /**
     * Bytes queued: by commits ({@link #commitBytes}, under the commit latch: an ordered store) and by
     * every other entry ({@link #otherBytes}: partial buffers, ABORT, CHECKPOINT; an atomic add);
     * {@link #writtenBytes} of them are written (by the log manager). A commit thus touches no counter
     * that the log manager writes.
     */
    private final AtomicLong commitBytes = new AtomicLong(), otherBytes = new AtomicLong();

    private volatile long writtenBytes;
    /** Set by a checkpoint (or close) that wants a force now rather than at the next interval. */
    private final AtomicBoolean urgent = new AtomicBoolean();

    private final long persistIntervalNanos;
    private final long persistThreshold;

    /** Whether the file was opened with O_DIRECT (writes whole aligned blocks). */
    private final boolean direct;
    /** Bytes every write starts at a multiple of, and spans a multiple of (1 without O_DIRECT). */
    private final int align;
    /** The write buffer ({@link #WRITE_BUFFER_SIZE} bytes, aligned to {@link #align}); the log thread's. */
    private final ByteBuffer out;
    /** File offset of {@code out}'s first byte. */
    private long base;
    /** The end of the log: the offset the next record goes to ({@code base + out.position()}). */
    private long position;

    /** Whether logs open with O_DIRECT where the file system allows it ({@code -Dwastecheck.log.direct}). */
    static final boolean DIRECT = !"false".equals(System.getProperty("wastecheck.log.direct"));

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
        taken = new FlushEntry();
        queueTail = new AtomicReference<>(taken);
        boolean fresh = !Files.exists(file) || validEnd < LogFormat.FILE_HEADER_SIZE;
        if (fresh) validEnd = 0;
        // The bytes of the last partial block, which the first direct write rewrites; and the cut.
        int blockSize = DIRECT ? blockSize(file) : 1;
        long tailStart = validEnd - validEnd % blockSize;
        ByteBuffer tail = ByteBuffer.allocate((int) (validEnd - tailStart));
        try (FileChannel c =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            if (c.size() > validEnd) c.truncate(validEnd);
            while (tail.hasRemaining()) if (c.read(tail, tailStart + tail.position()) < 0) break;
        }
        FileChannel ch = null;
        if (DIRECT) {
            try {
                ch = FileChannel.open(file, options(true));
            } catch (IOException | UnsupportedOperationException refused) {
                ch = null; // tmpfs and the like: no O_DIRECT
            }
        }
        direct = ch != null;
        channel = direct ? ch : FileChannel.open(file, options(false));
        align = direct ? blockSize : 1;
        out = ByteBuffer.allocateDirect(WRITE_BUFFER_SIZE + align)
                .alignedSlice(align)
                .limit(WRITE_BUFFER_SIZE)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        if (direct) {
            base = tailStart;
            out.put(tail.flip());
        } else {
            base = validEnd;
        }
        if (fresh) out.put(LogFormat.fileHeader(LogFormat.LOG_MAGIC));
        position = base + out.position();
        write();
        channel.force(true);
        thread = new Thread(this::run, "log-manager");
        thread.setDaemon(true);
        thread.start();
    }

    private static OpenOption[] options(boolean direct) {
        return direct
                ? new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.READ, ExtendedOpenOption.DIRECT}
                : new OpenOption[] {StandardOpenOption.WRITE, StandardOpenOption.READ};
    }

    /** The file system's block size for {@code file}: what a direct write aligns to (4,096 if unknown). */
    private static int blockSize(Path file) {
        try {
            long b = Files.getFileStore(file.toAbsolutePath().getParent()).getBlockSize();
            return b >= 512 && b <= 65_536 && Long.bitCount(b) == 1 ? (int) b : 4096;
        } catch (IOException | UnsupportedOperationException e) {
            return 4096;
        }
    }

    /** Whether the log file is written with O_DIRECT. */
    public boolean direct() {
        return direct;
    }

    /** Bytes each write of the log file is aligned to: the block size with O_DIRECT, else 1. */
    public int alignment() {
        return align;
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
        buffer.segments = buffer.drain();
        buffer.callback = callback;
        buffer.endsInCommit = true;
        queuedCommits.lazySet(queuedCommits.get() + 1);
        commitBytes.lazySet(commitBytes.get() + buffer.bytes);
        enqueue(buffer);
    }

    /** Links {@code e} onto the flush queue (see {@link FlushEntry}). */
    private void enqueue(FlushEntry e) {
        queueTail.getAndSet(e).link(e);
    }

    /** Queues an entry that is not a commit (not under the commit latch): counts its bytes first. */
    private void enqueueOther(FlushEntry e) {
        if (e.bytes > 0) otherBytes.addAndGet(e.bytes);
        enqueue(e);
    }

    /** Bytes queued and not yet written. */
    private long pendingBytes() {
        return commitBytes.get() + otherBytes.get() - writtenBytes;
    }

    /**
     * Queues a read-only transaction's non-persisted commit record: {@code callback} runs after the force
     * that makes every COMMIT queued before it durable (in the ring of read-only callbacks; on the flush
     * queue if the ring is full).
     */
    public void enqueueReadOnly(Runnable callback) {
        checkAlive();
        while (true) {
            long t = readOnlyTail.get();
            if (t - readOnlyHead >= READ_ONLY_RING) {
                enqueue(new FlushEntry(null, 0, callback));
                return;
            }
            if (readOnlyTail.compareAndSet(t, t + 1)) {
                readOnly.set((int) (t & (READ_ONLY_RING - 1)), callback);
                return;
            }
        }
    }

    /**
     * Runs the read-only callbacks of the ring below {@code end} (a tail read before the last drain of
     * the flush queue), stopping at a slot claimed but not yet filled: the next round runs it.
     */
    private void runReadOnly(long end) {
        long h = readOnlyHead;
        for (; h < end; h++) {
            int i = (int) (h & (READ_ONLY_RING - 1));
            Runnable r = readOnly.get(i);
            if (r == null) break;
            readOnly.set(i, null);
            r.run();
            callbacks.incrementAndGet();
        }
        readOnlyHead = h;
    }

    /** Ends an aborted transaction's buffer, logging ABORT if part of it went out early. */
    public void abort(RedoBuffer buffer) {
        Segment abort = buffer.abort();
        if (abort != null) {
            enqueueOther(new FlushEntry(abort, buffer.bytes, null));
            wake();
        }
    }

    /** Full segments of a running transaction, written before its COMMIT (no callback). */
    void enqueuePartial(Segment segments, int bytes) {
        checkAlive();
        enqueueOther(new FlushEntry(segments, bytes, null));
        wake();
    }

    /** Logs a CHECKPOINT record for the checkpoint file of {@code checkpointTs} and waits until it is durable. */
    public void logCheckpoint(long checkpointTs) throws InterruptedException {
        Segment s = pool.take();
        int p = LogFormat.putFrameTxn(s.bytes, 0, 0);
        s.used = LogFormat.putLong(s.bytes, LogFormat.putHeader(s.bytes, p, LogFormat.CHECKPOINT), checkpointTs);
        LogFormat.setLength(s.bytes, p, s.used);
        CountDownLatch done = new CountDownLatch(1);
        checkAlive();
        enqueueOther(new FlushEntry(s, s.used, done::countDown));
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

    /**
     * Wakes the log manager early if the bytes waiting reached the persist threshold; otherwise the
     * next interval forces them (a worker pays no system call per commit).
     */
    public void wake() {
        if (waiting && pendingBytes() >= persistThreshold) LockSupport.unpark(thread);
    }

    /** Asks for a force of what is queued now, not at the next interval. */
    private void forceNow() {
        urgent.set(true);
        LockSupport.unpark(thread);
    }

    private void checkAlive() {
        IOException f = failure;
        if (f != null) throw new UncheckedIOException("log " + file + " failed; no commit can be made durable", f);
        if (closing && !thread.isAlive()) throw new IllegalStateException("log " + file + " is closed");
    }

    private void run() {
        // entries drained since the last force, their segments already copied: they wait for it
        List<FlushEntry> batch = new ArrayList<>();
        CRC32C crc = new CRC32C();
        long lastForce = System.nanoTime(), lastCopy = Long.MIN_VALUE / 2;
        long forced = position; // the end of the log at the last force
        boolean forceSoon = false; // a checkpoint or close asked for a force of what it queued
        while (true) {
            // the ring's tail before the drain: every read-only transaction below it follows only
            // COMMITs that this drain or an earlier one took
            long readOnlyEnd = readOnlyTail.get();
            // read (and cleared) before the drain: whoever asked queued its entry first, so this drain
            // takes it (read after the drain, a request could be cleared by the force of a group that
            // its entry missed, which then waited for the interval)
            if (urgent.getAndSet(false)) forceSoon = true;
            int drained = batch.size();
            for (FlushEntry e; (e = taken.linked()) != null; taken = e) batch.add(e);
            if (batch.size() > drained) {
                try {
                    copy(batch, drained, crc);
                } catch (IOException ex) {
                    failure = ex;
                    return;
                }
                lastCopy = System.nanoTime();
            }
            if (batch.isEmpty()) {
                if (readOnlyEnd != readOnlyHead) { // nothing queued: what they follow is durable
                    runReadOnly(readOnlyEnd);
                    if (readOnlyHead != readOnlyEnd) Thread.onSpinWait();
                    continue;
                }
                if (closing) return;
                // busy lately: drain again soon; idle: sleep for a whole interval
                boolean busy = System.nanoTime() - lastCopy < IDLE_AFTER_NANOS;
                park(busy ? COPY_INTERVAL_NANOS : Math.max(persistIntervalNanos, 1_000_000L));
                continue;
            }
            long since = System.nanoTime() - lastForce;
            if (since < persistIntervalNanos && pendingBytes() < persistThreshold && !forceSoon && !closing) {
                // gather more commits into this force, copying what arrives meanwhile
                park(Math.min(COPY_INTERVAL_NANOS, persistIntervalNanos - since));
                continue;
            }
            forceSoon = false;
            lastForce = System.nanoTime();
            try {
                if (position > forced) {
                    write();
                    bytes.addAndGet(position - forced);
                    writtenBytes += position - forced;
                    forced = position;
                    channel.force(false);
                    forces.incrementAndGet();
                }
            } catch (IOException ex) {
                failure = ex;
                return;
            }
            long commits = 0;
            for (int i = 0; i < batch.size(); i++) if (batch.get(i).endsInCommit) commits++;
            durableCommits += commits;
            // indexed loops: an iterator per entry was the log manager's own garbage
            for (int i = 0; i < batch.size(); i++) {
                FlushEntry x = batch.get(i);
                // an entry no longer leads to the ones after it (a committed transaction may still
                // refer to its redo buffer), but the last one taken, which the next drain follows
                if (x != taken) x.unlink();
                Runnable callback = x.callback;
                if (callback != null) {
                    x.callback = null;
                    callback.run();
                    callbacks.incrementAndGet();
                }
            }
            batch.clear();
            runReadOnly(readOnlyEnd);
        }
    }

    /**
     * Copies the segments of {@code batch}'s entries from {@code from} on into the write buffer (their
     * frames' checksums computed there) and gives them back to the pool at once, as one chain: their bytes are
     * in the buffer or the file now, and only the callbacks wait for the force.
     */
    private void copy(List<FlushEntry> batch, int from, CRC32C crc) throws IOException {
        Segment given = null, givenLast = null;
        for (int i = from; i < batch.size(); i++) {
            FlushEntry x = batch.get(i);
            Segment s = x.segments;
            if (s == null) continue;
            x.segments = null; // the last entry taken stays referenced (taken): it must not hold them
            if (givenLast == null) given = s;
            else givenLast.next = s;
            for (; ; s = s.next) {
                append(s, crc);
                if (s.next == null) break;
            }
            givenLast = s;
        }
        if (given != null) pool.giveAll(given);
    }

    /**
     * Copies segment {@code s}, one frame, into the write buffer and writes the frame's LENGTH and
     * CHECKSUM there, writing the buffer first if the segment does not fit. A segment larger than the
     * buffer (one record of its own) is checksummed where it is, read only, and copied through the
     * buffer in pieces after a header of its LENGTH and CHECKSUM.
     */
    private void append(Segment s, CRC32C crc) throws IOException {
        if (out.remaining() < s.used) write();
        if (out.remaining() >= s.used) {
            int at = out.position();
            out.put(s.bytes, 0, s.used);
            LogFormat.frame(out, at, s.used, crc);
        } else {
            byte[] head = new byte[LogFormat.FRAME_TXN];
            LogFormat.putInt(head, LogFormat.FRAME_LENGTH, s.used);
            LogFormat.putInt(head, LogFormat.FRAME_CHECKSUM, LogFormat.frameChecksum(s.bytes, s.used, crc));
            put(head, 0, head.length);
            put(s.bytes, LogFormat.FRAME_TXN, s.used);
        }
        position = base + out.position();
    }

    /** Copies {@code [from, to)} of {@code a} through the write buffer, writing it each time it fills. */
    private void put(byte[] a, int from, int to) throws IOException {
        for (int p = from; p < to; ) {
            if (!out.hasRemaining()) write();
            int n = Math.min(out.remaining(), to - p);
            out.put(a, p, n);
            p += n;
        }
    }

    /**
     * Writes the buffer's bytes at {@link #base}. With O_DIRECT the write runs to the end of the last
     * block, zeros after the log's end, and the bytes of that last partial block stay at the buffer's
     * start for the next write, which writes the block again; through the page cache the buffer is
     * written as it is and emptied.
     */
    private void write() throws IOException {
        int n = out.position();
        if (n == 0) return;
        int kept = n % align; // 0 without O_DIRECT
        int end = kept == 0 ? n : n - kept + align;
        for (int i = n; i < end; i++) out.put(i, (byte) 0);
        out.position(0).limit(end);
        while (out.hasRemaining()) channel.write(out, base + out.position());
        out.limit(out.capacity());
        base += n - kept;
        if (kept > 0) out.position(0).put(out.duplicate().position(n - kept).limit(n));
        else out.clear();
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

    /**
     * Writes and forces what is queued, then stops the thread, cuts the zeros after the last record
     * (O_DIRECT's last block) and closes the file.
     */
    @Override
    public void close() throws IOException {
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (failure == null && channel.size() > position) {
                channel.truncate(position);
                channel.force(true);
            }
        } finally {
            channel.close();
        }
        if (failure != null) throw failure;
    }
}

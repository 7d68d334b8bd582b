package dev.wastecheck.engine.log;

import dev.wastecheck.layouts.Record;

/**
 * One transaction's redo buffer (Li et al., VLDB 2020, §3.4): its changes as physical after-images,
 * in the order they occur, already in the log's on-disk form ({@link LogFormat}), in segments drawn
 * from the {@link SegmentPool}. At commit the transaction appends its COMMIT record and the buffer
 * goes to the log manager's flush queue as one entry.
 *
 * <p>A transaction that writes more than {@link #MAX_HELD_SEGMENTS} segments hands the full ones to
 * the log manager before it commits (the paper flushes "redo records incrementally before the
 * transaction commits"); recovery applies them only once it reads the COMMIT record, and an abort
 * then writes an ABORT record so that recovery can drop them early. The paper limits its buffer to
 * one segment; we keep up to eight so that most transactions reach the log in one piece.
 *
 * <p>A record is encoded straight into the segment's byte array in one pass, with no intermediate
 * object and no size computed first: the array's bounds check is the only test for room. When a
 * record does not fit, what of it was written is dropped (the write position stays where it began),
 * the record's size is computed then, and it is written again into the next segment. Sizing every
 * record before writing it (the first version) was a second pass over the tuple's columns on every
 * write.
 *
 * <p>A segment is one frame of the log ({@link LogFormat}): the worker writes the frame's TXN once,
 * when it takes the segment, and each record's LENGTH, TYPE and payload; a record carries no
 * transaction id and no checksum of its own (format version 1 repeated both, with the LENGTH, in
 * every record: 17 bytes of header a record against 5 now, which was over half of the bytes of the
 * TPC-C-like mix's small records; docs/benchmarks.md, "Logging's cost, run 7").
 *
 * <p>What the worker does not do: the frame's LENGTH and CHECKSUM. The log manager thread writes
 * both ({@link LogFormat#frame}) in its own copy of the bytes when it takes the segments off the
 * flush queue, before they reach the file: §3.4 gives serialization to the log manager ("The log
 * manager asynchronously serializes the changes from these buffers into an on-disk format before
 * flushing to persistent storage"), not to the transaction's thread. A segment's LENGTH and
 * CHECKSUM fields are never written. What the worker still writes is the after-image itself,
 * already in the on-disk layout, because a copy of it has to be made by the worker anyway (the
 * tuple may change once the worker lets go of it).
 *
 * <p>The buffer is its own flush-queue entry ({@link FlushEntry}): at commit {@link LogManager#enqueueCommit}
 * fills in its segments, bytes and callback and links it onto the queue, so that a commit allocates
 * nothing for the hand-off. The log manager only reads it from then on.
 *
 * <p>Used by the transaction's own thread only until it is queued.
 */
public final class RedoBuffer extends FlushEntry {
    /** Full segments a transaction holds before it hands them to the log manager early. */
    public static final int MAX_HELD_SEGMENTS = 8;

    private final long txn;
    private final SegmentPool pool;
    private final LogManager log;
    /** Full segments held, oldest first (chained through {@link Segment#next}); null while there are none. */
    private Segment heldFirst, heldLast;

    private int held;
    /** Bytes of the held segments ({@code used} summed). */
    private int heldBytes;
    /** The segment records go to now, its bytes, and the write position in them. */
    private Segment current;

    private byte[] array;
    private int position;
    private boolean flushedEarly;
    private int records;

    RedoBuffer(long txn, SegmentPool pool, LogManager log) {
        this.txn = txn;
        this.pool = pool;
        this.log = log;
    }

    /** Logs the insert of {@code r} at {@code slot} of table {@code table}: the whole tuple. */
    public void insert(int table, long slot, Record r) {
        writable();
        int start = position, end;
        try {
            end = putInsert(array, start, table, slot, r);
        } catch (IndexOutOfBoundsException full) {
            overflow(start, LogFormat.RECORD_HEADER_SIZE + LogFormat.IMAGE + LogFormat.imageSize(r, null));
            start = position;
            end = putInsert(array, start, table, slot, r);
        }
        end(start, end);
    }

    private int putInsert(byte[] a, int p, int table, long slot, Record r) {
        p = LogFormat.putHeader(a, p, LogFormat.INSERT);
        p = LogFormat.putLong(a, LogFormat.putShort(a, p, table), slot);
        return LogFormat.putImage(a, p, r, null);
    }

    /** Logs new values of {@code columns} of the tuple at {@code slot}. */
    public void update(int table, long slot, int[] columns, Record values) {
        columns = LogFormat.inColumnOrder(columns);
        writable();
        int start = position, end;
        try {
            end = putUpdate(array, start, table, slot, columns, values);
        } catch (IndexOutOfBoundsException full) {
            overflow(
                    start,
                    LogFormat.RECORD_HEADER_SIZE
                            + LogFormat.IMAGE
                            + LogFormat.maskSize(values.schema().fieldCount())
                            + LogFormat.imageSize(values, columns));
            start = position;
            end = putUpdate(array, start, table, slot, columns, values);
        }
        end(start, end);
    }

    private int putUpdate(byte[] a, int p, int table, long slot, int[] columns, Record values) {
        p = LogFormat.putHeader(a, p, LogFormat.UPDATE);
        p = LogFormat.putLong(a, LogFormat.putShort(a, p, table), slot);
        p = LogFormat.putMask(a, p, values.schema().fieldCount(), columns);
        return LogFormat.putImage(a, p, values, columns);
    }

    /** Logs the delete of the tuple at {@code slot}. */
    public void delete(int table, long slot) {
        int start = room(LogFormat.RECORD_HEADER_SIZE + LogFormat.IMAGE);
        int p = LogFormat.putHeader(array, start, LogFormat.DELETE);
        end(start, LogFormat.putLong(array, LogFormat.putShort(array, p, table), slot));
    }

    /** Records written so far, COMMIT included. */
    public int records() {
        return records;
    }

    /** Appends the COMMIT record with the commit timestamp. */
    void commit(long commitTs) {
        int start = room(LogFormat.RECORD_HEADER_SIZE + 8);
        end(start, LogFormat.putLong(array, LogFormat.putHeader(array, start, LogFormat.COMMIT), commitTs));
    }

    /** Ends the record written from {@code start} to {@code end}: its LENGTH, the position after it. */
    private void end(int start, int end) {
        LogFormat.setLength(array, start, end);
        position = end;
        records++;
    }

    /**
     * The segments for the flush queue, chained oldest first, or null; their bytes are in {@link
     * #bytes}; the buffer is empty afterwards.
     */
    Segment drain() {
        if (current != null) {
            current.used = position;
            hold(current);
        }
        Segment out = heldFirst;
        bytes = heldBytes;
        current = heldFirst = heldLast = null;
        array = null;
        position = held = heldBytes = 0;
        return out;
    }

    /**
     * Ends an aborted transaction's buffer: gives its segments back, and when records of it reached
     * the log early, returns the segment of an ABORT record to write; else null.
     */
    Segment abort() {
        for (Segment s = drain(), next; s != null; s = next) {
            next = s.next;
            pool.give(s);
        }
        if (!flushedEarly) return null;
        int start = room(LogFormat.RECORD_HEADER_SIZE);
        end(start, LogFormat.putHeader(array, start, LogFormat.ABORT));
        return drain();
    }

    /** Makes sure there is a segment to write to (one from the pool at the first record). */
    private void writable() {
        if (current == null) use(pool.take());
    }

    /** Where a record of {@code size} bytes (header included) begins, with room for it. */
    private int room(int size) {
        writable();
        if (array.length - position < size) overflow(position, size);
        return position;
    }

    /** Moves to segment {@code s}: its frame's TXN, the one store of the transaction's id a segment. */
    private void use(Segment s) {
        current = s;
        array = s.bytes;
        position = LogFormat.putFrameTxn(array, 0, txn);
    }

    private void hold(Segment s) {
        if (heldLast == null) heldFirst = s;
        else heldLast.next = s;
        heldLast = s;
        held++;
        heldBytes += s.used;
    }

    /**
     * A record of {@code size} bytes did not fit in the current segment from {@code start}: drops what
     * of it was written, sets the segment aside (full) or gives it back (empty but for its frame
     * header: the record alone is larger than a segment), hands the held segments to the log manager early if there are {@link
     * #MAX_HELD_SEGMENTS}, and moves to a segment with room (one of its own if the record is that large).
     */
    private void overflow(int start, int size) {
        Segment s = current;
        if (start == LogFormat.FRAME_HEADER_SIZE) {
            pool.give(s);
        } else {
            s.used = start;
            hold(s);
        }
        if (held >= MAX_HELD_SEGMENTS) {
            log.enqueuePartial(heldFirst, heldBytes);
            heldFirst = heldLast = null;
            held = heldBytes = 0;
            flushedEarly = true;
        }
        int frame = LogFormat.FRAME_HEADER_SIZE + size;
        use(frame <= SegmentPool.SEGMENT_SIZE ? pool.take() : new Segment(frame));
    }
}

package dev.wastecheck.engine.log;

import dev.wastecheck.layouts.Record;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

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
 * <p>A record is encoded straight into the segment in one pass, with no intermediate object and no
 * size computed first: the segment's bounds check is the only test for room. When a record does not
 * fit, what of it was written is dropped (the segment's position goes back to where it began), the
 * record's size is computed then, and it is written again into the next segment. Sizing every record
 * before writing it (the first version) was a second pass over the tuple's columns on every write.
 *
 * <p>Used by the transaction's own thread only.
 */
public final class RedoBuffer {
    /** Full segments a transaction holds before it hands them to the log manager early. */
    public static final int MAX_HELD_SEGMENTS = 8;

    private final long txn;
    private final SegmentPool pool;
    private final LogManager log;
    private final CRC32C crc = new CRC32C();
    /** Full segments held, oldest first; null while there are none (most transactions fill one). */
    private List<ByteBuffer> segments;

    private ByteBuffer current;
    private boolean flushedEarly;
    private int records;

    RedoBuffer(long txn, SegmentPool pool, LogManager log) {
        this.txn = txn;
        this.pool = pool;
        this.log = log;
    }

    /** Logs the insert of {@code r} at {@code slot} of table {@code table}: the whole tuple. */
    public void insert(int table, long slot, Record r) {
        ByteBuffer b = writable();
        int start = b.position();
        try {
            putInsert(b, table, slot, r);
        } catch (BufferOverflowException full) {
            b = overflow(b, start, LogFormat.RECORD_HEADER_SIZE + 12 + LogFormat.imageSize(r, null));
            start = b.position();
            putInsert(b, table, slot, r);
        }
        LogFormat.seal(b, start, crc);
        records++;
    }

    private void putInsert(ByteBuffer b, int table, long slot, Record r) {
        header(b, LogFormat.INSERT).putInt(table).putLong(slot);
        LogFormat.putImage(b, r, null);
    }

    /** Logs new values of {@code columns} of the tuple at {@code slot}. */
    public void update(int table, long slot, int[] columns, Record values) {
        ByteBuffer b = writable();
        int start = b.position();
        try {
            putUpdate(b, table, slot, columns, values);
        } catch (BufferOverflowException full) {
            b = overflow(
                    b,
                    start,
                    LogFormat.RECORD_HEADER_SIZE + 14 + 2 * columns.length + LogFormat.imageSize(values, columns));
            start = b.position();
            putUpdate(b, table, slot, columns, values);
        }
        LogFormat.seal(b, start, crc);
        records++;
    }

    private void putUpdate(ByteBuffer b, int table, long slot, int[] columns, Record values) {
        header(b, LogFormat.UPDATE).putInt(table).putLong(slot).putShort((short) columns.length);
        for (int c : columns) b.putShort((short) c);
        LogFormat.putImage(b, values, columns);
    }

    /** Logs the delete of the tuple at {@code slot}. */
    public void delete(int table, long slot) {
        ByteBuffer b = room(LogFormat.RECORD_HEADER_SIZE + 12);
        int start = b.position();
        header(b, LogFormat.DELETE).putInt(table).putLong(slot);
        LogFormat.seal(b, start, crc);
        records++;
    }

    /** Records written so far, COMMIT included. */
    public int records() {
        return records;
    }

    /** Appends the COMMIT record with the commit timestamp. */
    void commit(long commitTs) {
        ByteBuffer b = room(LogFormat.RECORD_HEADER_SIZE + 8);
        int start = b.position();
        header(b, LogFormat.COMMIT).putLong(commitTs);
        LogFormat.seal(b, start, crc);
        records++;
    }

    /** The segments for the flush queue; the buffer is empty afterwards. */
    List<ByteBuffer> drain() {
        List<ByteBuffer> out;
        if (segments == null) {
            out = current == null ? List.of() : List.of(current);
        } else {
            if (current != null) segments.add(current);
            out = segments;
        }
        current = null;
        segments = null;
        return out;
    }

    /**
     * Ends an aborted transaction's buffer: gives its segments back, and when records of it reached
     * the log early, returns the segments of an ABORT record to write; else null.
     */
    List<ByteBuffer> abort() {
        List<ByteBuffer> held = drain();
        for (ByteBuffer s : held) pool.give(s);
        if (!flushedEarly) return null;
        ByteBuffer b = room(LogFormat.RECORD_HEADER_SIZE);
        int start = b.position();
        header(b, LogFormat.ABORT);
        LogFormat.seal(b, start, crc);
        records++;
        return drain();
    }

    /** The segment records go to now (one from the pool at the first record). */
    private ByteBuffer writable() {
        ByteBuffer b = current;
        if (b == null) current = b = pool.take();
        return b;
    }

    /** The segment, with room for a record of {@code size} bytes (header included). */
    private ByteBuffer room(int size) {
        ByteBuffer b = writable();
        return b.remaining() >= size ? b : overflow(b, b.position(), size);
    }

    /**
     * A record of {@code size} bytes did not fit in {@code b} from {@code start}: drops what of it was
     * written, sets {@code b} aside (full) or gives it back (empty: the record alone is larger than a
     * segment), hands the held segments to the log manager early if there are {@link
     * #MAX_HELD_SEGMENTS}, and returns a segment with room (a buffer of its own if it is that large).
     */
    private ByteBuffer overflow(ByteBuffer b, int start, int size) {
        b.position(start);
        if (start == 0) {
            pool.give(b);
        } else {
            if (segments == null) segments = new ArrayList<>(2);
            segments.add(b);
        }
        if (segments != null && segments.size() >= MAX_HELD_SEGMENTS) {
            log.enqueuePartial(segments);
            segments = null;
            flushedEarly = true;
        }
        b = size <= SegmentPool.SEGMENT_SIZE
                ? pool.take()
                : ByteBuffer.allocateDirect(size).order(ByteOrder.LITTLE_ENDIAN);
        current = b;
        return b;
    }

    /** Writes a record header with LENGTH and CHECKSUM left for {@link LogFormat#seal}. */
    private ByteBuffer header(ByteBuffer b, byte type) {
        return b.putInt(0).putInt(0).putLong(txn).put(type);
    }
}

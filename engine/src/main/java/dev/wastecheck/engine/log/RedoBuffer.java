package dev.wastecheck.engine.log;

import dev.wastecheck.layouts.Record;
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
        ByteBuffer b = begin(LogFormat.INSERT, 12 + LogFormat.imageSize(r, null));
        int start = b.position() - LogFormat.RECORD_HEADER_SIZE;
        b.putInt(table).putLong(slot);
        LogFormat.putImage(b, r, null);
        LogFormat.seal(b, start, crc);
    }

    /** Logs new values of {@code columns} of the tuple at {@code slot}. */
    public void update(int table, long slot, int[] columns, Record values) {
        ByteBuffer b = begin(LogFormat.UPDATE, 14 + 2 * columns.length + LogFormat.imageSize(values, columns));
        int start = b.position() - LogFormat.RECORD_HEADER_SIZE;
        b.putInt(table).putLong(slot).putShort((short) columns.length);
        for (int c : columns) b.putShort((short) c);
        LogFormat.putImage(b, values, columns);
        LogFormat.seal(b, start, crc);
    }

    /** Logs the delete of the tuple at {@code slot}. */
    public void delete(int table, long slot) {
        ByteBuffer b = begin(LogFormat.DELETE, 12);
        int start = b.position() - LogFormat.RECORD_HEADER_SIZE;
        b.putInt(table).putLong(slot);
        LogFormat.seal(b, start, crc);
    }

    /** Records written so far, COMMIT included. */
    public int records() {
        return records;
    }

    /** Appends the COMMIT record with the commit timestamp. */
    void commit(long commitTs) {
        ByteBuffer b = begin(LogFormat.COMMIT, 8);
        int start = b.position() - LogFormat.RECORD_HEADER_SIZE;
        b.putLong(commitTs);
        LogFormat.seal(b, start, crc);
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
        ByteBuffer b = begin(LogFormat.ABORT, 0);
        LogFormat.seal(b, b.position() - LogFormat.RECORD_HEADER_SIZE, crc);
        return drain();
    }

    /** Room for a record of {@code payload} bytes; returns the buffer positioned after its header. */
    private ByteBuffer begin(byte type, int payload) {
        int size = LogFormat.RECORD_HEADER_SIZE + payload;
        ByteBuffer b = current;
        if (b == null || b.remaining() < size) {
            if (b != null) {
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
        }
        records++;
        b.putInt(0).putInt(0).putLong(txn).put(type);
        return b;
    }
}

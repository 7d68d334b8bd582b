package dev.wastecheck.engine.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads the records of a log or checkpoint file ({@link LogFormat}) in order, frame by frame, and
 * stops at the first frame that is not whole: a length that runs past the end of the file or below
 * a header (a torn write), a checksum that does not match (a torn or damaged page), or a record in it
 * that runs past the frame or is of an unknown type. It never hands out part of a frame, so never
 * part of a record; {@link #validEnd()} is where the last whole frame ends and {@link #damage()}
 * says what was found there, if anything. Zeros from where a frame would start to the
 * end of the file are the log's clean end, not damage: the rest of the last block that the log
 * manager writes whole with O_DIRECT ({@link LogFormat}'s drawing).
 *
 * <p>The file is read into memory page by page as needed through one buffer; records are handed out
 * as a view of that buffer, valid until the next call to {@link #next()}.
 */
public final class LogReader implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final long size;
    private final CRC32C crc = new CRC32C();
    private ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    /** File offset of buf[0]. */
    private long bufStart;

    private long offset;
    private long validEnd;
    private String damage;
    private byte type;
    private long txn;
    private ByteBuffer payload;
    private long recordOffset;
    /** The frame whose records are handed out: in {@link #buf} from {@code frameStart}, at file offset {@code frameOffset}. */
    private ByteBuffer frame;

    private int frameStart, inFrame, frameEnd;
    private long frameOffset, frameTxn;

    /** Opens {@code file}, checking the file header against {@code magic}. */
    public LogReader(Path file, long magic) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.size = channel.size();
        buf.limit(0);
        if (size < LogFormat.FILE_HEADER_SIZE) {
            damage = "file of " + size + " bytes has no whole header";
            offset = validEnd = 0;
            return;
        }
        ByteBuffer h = read(0, LogFormat.FILE_HEADER_SIZE);
        long m = h.getLong(0);
        int version = h.getInt(8);
        if (m != magic)
            throw new IOException(file + ": not a " + (magic == LogFormat.LOG_MAGIC ? "log" : "checkpoint")
                    + " file (magic " + Long.toHexString(m) + ")");
        if (version != LogFormat.VERSION)
            throw new IOException(file + ": format version " + version + ", expected " + LogFormat.VERSION);
        offset = validEnd = LogFormat.FILE_HEADER_SIZE;
    }

    /** Moves to the next whole record; false at the end of the file or at damage. */
    public boolean next() throws IOException {
        while (true) {
            if (damage != null) return false;
            if (inFrame < frameEnd) {
                ByteBuffer r = frame;
                int p = inFrame;
                int length = r.getInt(p + LogFormat.LENGTH);
                type = r.get(p + LogFormat.TYPE);
                txn = frameTxn;
                payload = r.duplicate().order(ByteOrder.LITTLE_ENDIAN);
                payload.position(p + LogFormat.RECORD_HEADER_SIZE).limit(p + length);
                payload = payload.slice().order(ByteOrder.LITTLE_ENDIAN);
                recordOffset = frameOffset + (p - frameStart);
                inFrame = p + length;
                return true;
            }
            if (!nextFrame()) return false;
        }
    }

    /**
     * Reads the frame at {@link #offset} whole into {@link #buf}, checks it (LENGTH, CHECKSUM, and that
     * its records are whole and of known types) and moves to its first record; false at the end of
     * the file or at damage, where nothing of the frame is handed out.
     */
    private boolean nextFrame() throws IOException {
        if (offset >= size) return false;
        if (zerosToEnd(offset)) return false; // the rest of O_DIRECT's last block: the clean end
        long left = size - offset;
        if (left < LogFormat.FRAME_HEADER_SIZE)
            return damaged("a frame header cut after " + left + " of " + LogFormat.FRAME_HEADER_SIZE + " bytes");
        ByteBuffer h = read(offset, LogFormat.FRAME_HEADER_SIZE);
        int length = h.getInt(h.position() + LogFormat.FRAME_LENGTH);
        if (length < LogFormat.FRAME_HEADER_SIZE)
            return damaged("a frame length of " + length + " bytes, less than its header");
        if (length > left)
            return damaged(
                    "a frame of " + length + " bytes with only " + left + " left (a torn write, or a damaged length)");
        ByteBuffer r = read(offset, length);
        int p = r.position(), end = p + length;
        crc.reset();
        ByteBuffer body = r.duplicate();
        body.position(p + LogFormat.FRAME_TXN).limit(end);
        crc.update(body);
        if ((int) crc.getValue() != r.getInt(p + LogFormat.FRAME_CHECKSUM))
            return damaged("a checksum mismatch in a frame of " + length + " bytes");
        for (int q = p + LogFormat.FRAME_HEADER_SIZE; q < end; ) {
            int n = end - q < LogFormat.RECORD_HEADER_SIZE ? -1 : r.getInt(q + LogFormat.LENGTH);
            if (n < LogFormat.RECORD_HEADER_SIZE || n > end - q)
                return damaged("a record of " + n + " bytes at byte " + (q - p) + " of a frame of " + length
                        + " bytes (the checksum matches: written so)");
            byte t = r.get(q + LogFormat.TYPE);
            if (!LogFormat.knownType(t)) return damaged("unknown record type " + t);
            q += n;
        }
        frame = r;
        frameStart = p;
        frameOffset = offset;
        frameTxn = r.getLong(p + LogFormat.FRAME_TXN);
        inFrame = p + LogFormat.FRAME_HEADER_SIZE;
        frameEnd = end;
        offset += length;
        validEnd = offset;
        return true;
    }

    /**
     * Whether the bytes from {@code at} (where a record would start) to the end of the file are all
     * zero: the log manager's padding of its last block ({@link LogManager}), the clean end of the log.
     * A frame's LENGTH is at least 16, so for a frame this reads 4 bytes and finds one nonzero; zeros
     * followed by anything else are not the end, and the caller reports them as damage.
     */
    private boolean zerosToEnd(long at) throws IOException {
        for (long p = at; p < size; ) {
            int n = (int) Math.min(size - p, p == at ? 4 : 4096); // a frame: its LENGTH alone
            ByteBuffer b = read(p, n);
            for (int i = b.position(), e = i + n; i < e; i++) if (b.get(i) != 0) return false;
            p += n;
        }
        return true;
    }

    private boolean damaged(String what) {
        damage = file.getFileName() + ": stopped at byte " + offset + " of " + size + ": " + what;
        return false;
    }

    /** {@code n} bytes at file offset {@code at}, from the buffer's position. */
    private ByteBuffer read(long at, int n) throws IOException {
        if (at < bufStart || at + n > bufStart + buf.limit()) {
            if (n > buf.capacity()) buf = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            buf.clear();
            bufStart = at;
            while (buf.hasRemaining()) {
                int k = channel.read(buf, bufStart + buf.position());
                if (k < 0) break;
            }
            buf.flip();
        }
        buf.position((int) (at - bufStart));
        return buf;
    }

    public byte type() {
        return type;
    }

    public String typeName() {
        return LogFormat.typeName(type);
    }

    /** The writing transaction's begin sequence (its frame's TXN). */
    public long txn() {
        return txn;
    }

    /** The record's payload, little-endian, positioned at its start; valid until the next {@link #next()}. */
    public ByteBuffer payload() {
        return payload;
    }

    /** File offset of the current record. */
    public long recordOffset() {
        return recordOffset;
    }

    /**
     * Where the last whole frame ends (the file header's end if there is none): after a transaction's
     * COMMIT record, where that record ends, since COMMIT is the last record of its frame.
     */
    public long validEnd() {
        return validEnd;
    }

    /** What stopped the reader before the end of the file, or null if it read to the end. */
    public String damage() {
        return damage;
    }

    public long size() {
        return size;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

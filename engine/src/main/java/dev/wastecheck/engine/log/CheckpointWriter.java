package dev.wastecheck.engine.log;

import dev.wastecheck.layouts.Record;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes a checkpoint file (Li et al., VLDB 2020, §3.4: "a consistent snapshot ... it suffices to
 * scan blocks transactionally"): the tuples one scanning transaction sees, each with the TupleSlot
 * it had, in the frames and records of the log ({@link LogFormat}: TABLE, TUPLE ..., END; a frame of TXN 0
 * for each buffer of up to a megabyte). The file is
 * written under a temporary name, forced, and renamed to {@code checkpoint-<ts>.ckp} with the
 * directory forced, so that a checkpoint file either is whole or does not exist; only then does the
 * caller log its CHECKPOINT record.
 */
public final class CheckpointWriter implements AutoCloseable {
    private final Path dir;
    private final long ts;
    private final Path tmp;
    private final FileChannel channel;
    private static final int BUFFER_SIZE = 1 << 20;
    /**
     * One frame not yet written, {@code [0, used)}: its header (TXN 0; LENGTH and CHECKSUM set on
     * drain) and whole records, each LENGTH set.
     */
    private byte[] buf = new byte[BUFFER_SIZE];

    private int used = LogFormat.FRAME_HEADER_SIZE;
    private final CRC32C crc = new CRC32C();
    private long tuples;
    private boolean finished;

    public CheckpointWriter(Path dir, long checkpointTs) throws IOException {
        this.dir = dir;
        this.ts = checkpointTs;
        this.tmp = dir.resolve("checkpoint-" + checkpointTs + ".tmp");
        channel = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        channel.write(LogFormat.fileHeader(LogFormat.CHECKPOINT_MAGIC));
    }

    /** The file name of the checkpoint of {@code ts}. */
    public static Path file(Path dir, long ts) {
        return dir.resolve("checkpoint-" + ts + ".ckp");
    }

    /** Declares table {@code id}: its name and column count, checked on recovery. */
    public void table(int id, String name, int columns) throws IOException {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        int start = room(LogFormat.RECORD_HEADER_SIZE + 8 + n.length);
        int p = LogFormat.putHeader(buf, start, LogFormat.TABLE);
        p = LogFormat.putShort(buf, LogFormat.putInt(buf, p, id), columns);
        p = LogFormat.putShort(buf, p, n.length);
        System.arraycopy(n, 0, buf, p, n.length);
        end(start, p + n.length);
    }

    /** One tuple of table {@code id} at {@code slot}. */
    public void tuple(int id, long slot, Record r) throws IOException {
        int start = room(LogFormat.RECORD_HEADER_SIZE + LogFormat.IMAGE + LogFormat.imageSize(r, null));
        int p = LogFormat.putHeader(buf, start, LogFormat.TUPLE);
        end(start, LogFormat.putImage(buf, LogFormat.putLong(buf, LogFormat.putShort(buf, p, id), slot), r, null));
        tuples++;
    }

    public long tuples() {
        return tuples;
    }

    /** Writes END, forces the file and renames it into place; returns its path. */
    public Path finish() throws IOException {
        int start = room(LogFormat.RECORD_HEADER_SIZE + 16);
        int p = LogFormat.putHeader(buf, start, LogFormat.END);
        end(start, LogFormat.putLong(buf, LogFormat.putLong(buf, p, ts), tuples));
        drain();
        channel.force(true);
        channel.close();
        Path target = file(dir, ts);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(dir);
        finished = true;
        return target;
    }

    /** Forces a directory's entries (a rename or a new file) to disk. */
    public static void forceDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /**
     * Where a record of {@code n} bytes begins in {@link #buf}, in order after every record before
     * it; a record larger than the buffer gets a buffer of its own for the time it is written.
     */
    private int room(int n) throws IOException {
        if (buf.length - used < n) drain();
        if (buf.length - used < n) buf = new byte[used + n];
        return used;
    }

    private void end(int start, int end) {
        LogFormat.setLength(buf, start, end);
        used = end;
    }

    /**
     * Writes the buffer's frame (its LENGTH and CHECKSUM set) if it holds a record, and empties it
     * (back to its usual size).
     */
    private void drain() throws IOException {
        if (used > LogFormat.FRAME_HEADER_SIZE) {
            LogFormat.putFrameTxn(buf, 0, 0);
            ByteBuffer b = ByteBuffer.wrap(buf, 0, used).order(ByteOrder.LITTLE_ENDIAN);
            LogFormat.frame(b, 0, used, crc);
            b.flip();
            while (b.hasRemaining()) channel.write(b);
        }
        used = LogFormat.FRAME_HEADER_SIZE;
        if (buf.length != BUFFER_SIZE) buf = new byte[BUFFER_SIZE];
    }

    @Override
    public void close() throws IOException {
        if (finished) return;
        channel.close();
        Files.deleteIfExists(tmp);
    }
}

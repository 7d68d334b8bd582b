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
 * it had, in the record framing of the log ({@link LogFormat}: TABLE, TUPLE ..., END). The file is
 * written under a temporary name, forced, and renamed to {@code checkpoint-<ts>.ckp} with the
 * directory forced, so that a checkpoint file either is whole or does not exist; only then does the
 * caller log its CHECKPOINT record.
 */
public final class CheckpointWriter implements AutoCloseable {
    private final Path dir;
    private final long ts;
    private final Path tmp;
    private final FileChannel channel;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
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
        ByteBuffer b = room(LogFormat.RECORD_HEADER_SIZE + 8 + n.length);
        int start = b.position();
        b.putInt(0).putInt(0).putLong(0).put(LogFormat.TABLE);
        b.putInt(id).putShort((short) columns).putShort((short) n.length).put(n);
        LogFormat.seal(b, start, crc);
    }

    /** One tuple of table {@code id} at {@code slot}. */
    public void tuple(int id, long slot, Record r) throws IOException {
        ByteBuffer b = room(LogFormat.RECORD_HEADER_SIZE + 12 + LogFormat.imageSize(r, null));
        int start = b.position();
        b.putInt(0).putInt(0).putLong(0).put(LogFormat.TUPLE);
        b.putInt(id).putLong(slot);
        LogFormat.putImage(b, r, null);
        LogFormat.seal(b, start, crc);
        tuples++;
    }

    public long tuples() {
        return tuples;
    }

    /** Writes END, forces the file and renames it into place; returns its path. */
    public Path finish() throws IOException {
        ByteBuffer b = room(LogFormat.RECORD_HEADER_SIZE + 16);
        int start = b.position();
        b.putInt(0).putInt(0).putLong(0).put(LogFormat.END).putLong(ts).putLong(tuples);
        LogFormat.seal(b, start, crc);
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

    /** Room for a record of {@code n} bytes, in order after every record before it. */
    private ByteBuffer room(int n) throws IOException {
        if (bigPending != null || buf.remaining() < n) drain();
        if (buf.remaining() < n) {
            ByteBuffer big = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            bigPending = big;
            return big;
        }
        return buf;
    }

    private ByteBuffer bigPending;

    private void drain() throws IOException {
        buf.flip();
        while (buf.hasRemaining()) channel.write(buf);
        buf.clear();
        if (bigPending != null) {
            bigPending.flip();
            while (bigPending.hasRemaining()) channel.write(bigPending);
            bigPending = null;
        }
    }

    @Override
    public void close() throws IOException {
        if (finished) return;
        channel.close();
        Files.deleteIfExists(tmp);
    }
}

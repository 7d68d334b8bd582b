package dev.wastecheck.engine.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file of fixed-size pages, read and written with positional I/O, plus the device model
 * that says what those reads and writes would cost on real hardware. Page {@code n} lives at
 * byte offset {@code n * pageSize}. All tables and indexes of an engine share one device
 * (one tablespace, like a SQLite database file); pages are allocated by appending.
 *
 * <p>Thread-safe: positional reads and writes on a FileChannel do not share a file position.
 */
public final class StorageDevice implements AutoCloseable {
    public static final int MIN_PAGE_SIZE = 512;
    /** Leaf and heap formats keep offsets in 16 bits. */
    public static final int MAX_PAGE_SIZE = 32768;

    private final Path path;
    private final boolean deleteOnClose;
    private final FileChannel channel;
    private final int pageSize;
    private final DeviceModel model;
    private final AtomicLong pageCount = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();

    public StorageDevice(Path path, int pageSize, DeviceModel model) {
        this(path, pageSize, model, false);
    }

    private StorageDevice(Path path, int pageSize, DeviceModel model, boolean deleteOnClose) {
        if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || Integer.bitCount(pageSize) != 1)
            throw new IllegalArgumentException(
                    "page size must be a power of two in [" + MIN_PAGE_SIZE + ", " + MAX_PAGE_SIZE + "]: " + pageSize);
        this.path = path;
        this.pageSize = pageSize;
        this.model = model;
        this.deleteOnClose = deleteOnClose;
        try {
            this.channel = FileChannel.open(
                    path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            pageCount.set(channel.size() / pageSize);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + path, e);
        }
    }

    /** A device over a fresh temporary file that is deleted on close. */
    public static StorageDevice temporary(int pageSize, DeviceModel model) {
        try {
            Path p = Files.createTempFile("wastecheck-pages-", ".db");
            return new StorageDevice(p, pageSize, model, true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int pageSize() {
        return pageSize;
    }

    public DeviceModel model() {
        return model;
    }

    public Path path() {
        return path;
    }

    public long pageCount() {
        return pageCount.get();
    }

    /** Reserves a new page number at the end of the file; its contents are zero until written. */
    public long allocatePage() {
        return pageCount.getAndIncrement();
    }

    /** Reads page {@code page} into {@code dst} (position 0, pageSize bytes). Pages never written read as zeros. */
    public void read(long page, ByteBuffer dst) {
        checkPage(page);
        ByteBuffer b = dst.duplicate().clear().limit(pageSize);
        long pos = page * pageSize;
        try {
            while (b.hasRemaining()) {
                int n = channel.read(b, pos + b.position());
                if (n < 0) { // beyond the end of the file: an allocated page never written
                    while (b.hasRemaining()) b.put((byte) 0);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("read of page " + page + " from " + path, e);
        }
        reads.incrementAndGet();
    }

    /** Writes {@code src} (position 0, pageSize bytes) to page {@code page}. */
    public void write(long page, ByteBuffer src) {
        checkPage(page);
        ByteBuffer b = src.duplicate().clear().limit(pageSize);
        long pos = page * pageSize;
        try {
            while (b.hasRemaining()) channel.write(b, pos + b.position());
        } catch (IOException e) {
            throw new UncheckedIOException("write of page " + page + " to " + path, e);
        }
        writes.incrementAndGet();
    }

    private void checkPage(long page) {
        if (page < 0 || page >= pageCount.get()) throw new IllegalArgumentException("page " + page + " not allocated");
    }

    public long reads() {
        return reads.get();
    }

    public long writes() {
        return writes.get();
    }

    /** The time the reads and writes so far would have taken on {@link #model()}, in nanoseconds. */
    public long modeledDeviceNanos() {
        return reads.get() * model.readNanos() + writes.get() * model.writeNanos();
    }

    public void resetCounters() {
        reads.set(0);
        writes.set(0);
    }

    @Override
    public void close() {
        try {
            channel.close();
            if (deleteOnClose) Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.wastecheck.engine.bench;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.KeyEncoder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

/**
 * What a page a query touches costs the engine, for {@code Autotune.PIN_US} (issue 27): the modeled cost charges
 * that constant per buffer-pool pin, and a page size changes the pins a query makes (a hot index in one 16 KiB page
 * against a root and a leaf of 4 KiB).
 *
 * <ul>
 *   <li>{@code pinUnpin}: {@link BufferPool#pin} and {@link BufferPool#unpin} of a resident page (the lock-free
 *       path every hit takes), cycling over the tree's pages so that the page table's probe is not always the same
 *       slot;
 *   <li>{@code descent}: {@link BTree#lookup} of a random key in a hot index as {@code Table} builds it: packed
 *       leaves ({@code PackedLeafPage}, 4-byte integer keys), {@code keys} entries inserted in key order with
 *       consecutive tuple ids, every page resident. Its pins per lookup are the tree's height (printed by the
 *       setup); what the model should charge per page a query touches is the descent's time over its pins (a pin,
 *       the unpin and the search in the page).
 * </ul>
 *
 * <p>What would make the number lie: the lookups' keys come from a precomputed random sequence of 2^16 (the
 * sequence's array walk is a few ns of the result); the result is returned to JMH (sunk). Every page is resident
 * and in cache after the warmup (a hot index of a few pages): the replay's pins of hot pages are such hits, its
 * misses are charged device time apart. The pool's read/write lock of the tree is uncontended (one thread), as in
 * the replay. Run: {@code ./bench engine PinBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Xmx1g")
@State(Scope.Thread)
public class PinBenchmark {
    @Param({"4096", "16384"})
    public int pageSize;

    /** Entries of the hot index: 2,455 is a hot primary index of wiki 3571's partitioned tables (issue 27). */
    @Param({"2455"})
    public int keys;

    private StorageDevice device;
    private BufferPool pool;
    private BTree tree;
    private long[] pages;
    private byte[][] sequence;
    private int next, nextPage;

    @Setup(Level.Trial)
    public void build() {
        device = StorageDevice.temporary(pageSize, DeviceModel.MEMORY);
        pool = new BufferPool(device, 8L << 20);
        tree = new BTree(pool, true, 4);
        for (int i = 0; i < keys; i++) tree.insert(KeyEncoder.ofInt(1000 + i), 40_000L + i);
        pages = tree.pageNumbers();
        SplittableRandom r = new SplittableRandom(27);
        sequence = new byte[1 << 16][];
        for (int i = 0; i < sequence.length; i++) sequence[i] = KeyEncoder.ofInt(1000 + r.nextInt(keys));
        long before = pool.pins();
        for (byte[] k : sequence) if (tree.lookup(k) < 0) throw new IllegalStateException("key not found");
        System.out.printf(
                "%n[setup] page %d B: %d entries, height %d, %d pages, %.3f pins a lookup%n",
                pageSize, keys, tree.height(), pages.length, (double) (pool.pins() - before) / sequence.length);
    }

    @TearDown(Level.Trial)
    public void close() {
        pool.close();
        device.close();
    }

    @Benchmark
    public int pinUnpin() {
        long p = pages[nextPage];
        nextPage = nextPage + 1 == pages.length ? 0 : nextPage + 1;
        Frame f = pool.pin(p);
        int b = f.buffer().get(0);
        pool.unpin(f, false);
        return b;
    }

    @Benchmark
    public long descent() {
        byte[] k = sequence[next];
        next = (next + 1) & (sequence.length - 1);
        return tree.lookup(k);
    }
}

package dev.wastecheck.engine.block;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.heap.TupleStore;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Li et al., VLDB 2020, §6.1, Fig. 9 (row against column): raw storage speed of inserts of tuples of
 * N 8-byte integer attributes, and of updates of k attributes of a tuple, on a row store and on the
 * Arrow-native column store. The paper's claim: "For the insert workload, the gap never exceeds
 * 40%. For the update workload, a column-store outperforms row stores when the number of attributes
 * copied is small due to its smaller memory footprint. As the number of attributes grows, the
 * row-store becomes slightly faster".
 *
 * <p>What maps to what. The paper simulates its row store inside NoisePage by "declaring a single,
 * large column that stores all of a tuple's attributes contiguously", so both sides share its MVCC.
 * Our Arrow blocks hold fixed columns of at most 8 bytes (no 8N-byte column type), so the row store
 * here is the engine's NSM {@link HeapFile}: slotted 32 KB pages in a buffer pool that holds them all
 * in memory, reached through the same {@link TupleStore} interface the replay uses. The column store
 * is {@link ArrowStore}: 1 MB Arrow blocks, one transaction per operation (an undo record per insert
 * and per update), the collector run every 1,000 operations inside the timing (it is the column
 * store's work: pruning those records). The row store has no versions, no undo records and no
 * collector: the comparison charges MVCC to the column store alone, which the paper's does not.
 * Indexes are left out on both sides, as in the paper ("We ignore index maintenance").
 *
 * <p>Workloads, one thread: inserts of {@code ops} tuples of N attributes into an empty table; and
 * {@code ops} updates, each of the first k attributes of a uniformly random tuple of a table of
 * {@code maxAttributes} attributes and {@code rows} tuples, loaded before the timing. Each cell
 * runs {@code repeats} times, row and column alternating (row first, then column first); the
 * figure is operations per second (median) and the ratio column/row of each pair (median, range).
 *
 * <p>What would make it lie: the JIT compiling one side during its timing (a warm-up round of every
 * cell first, discarded); garbage from one run collected in the next (a full GC before each run,
 * outside the timing); dead code (every insert's tuple id and every update's result feed a checksum
 * that is printed, and the stores' row counts are checked); the machine's other load (run under
 * {@code /work/bin/quiet}).
 *
 * <p>Run: {@code ./bench arrow fig9 [OPS] [REPEATS] [ATTRIBUTES,...] [ROWS]}, e.g. {@code ./bench arrow
 * fig9 2000000 5 1,2,4,8,16 1000000}.
 */
public final class Figure9Benchmark {
    static final int PAGE = 32 * 1024;

    public static void main(String[] args) throws Exception {
        int ops = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int[] attributes = Arrays.stream((args.length > 2 ? args[2] : "1,2,4,8,16").split(","))
                .mapToInt(s -> Integer.parseInt(s.strip()))
                .toArray();
        int rows = args.length > 3 ? Integer.parseInt(args[3]) : 1_000_000;
        int max = Arrays.stream(attributes).max().orElse(1);
        long sink = 0;
        // warm-up: every cell once, small
        for (int n : attributes) {
            for (boolean column : new boolean[] {false, true}) {
                sink += insert(column, n, ops / 10)[1];
                sink += update(column, max, n, ops / 10, rows / 10)[1];
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%d operations per run, %d repeats, one thread; updates on %d tuples of %d attributes%n",
                ops,
                repeats,
                rows,
                max);
        System.out.printf(
                Locale.ROOT,
                "%-7s %5s %14s %14s %22s%n",
                "op",
                "attrs",
                "row ops/s",
                "column ops/s",
                "column/row [range]");
        for (String op : new String[] {"insert", "update"}) {
            for (int n : attributes) {
                List<Double> row = new ArrayList<>(), col = new ArrayList<>(), ratio = new ArrayList<>();
                for (int rep = 0; rep < repeats; rep++) {
                    double[] pair = new double[2];
                    for (boolean column : rep % 2 == 0 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                        System.gc();
                        Thread.sleep(100);
                        long[] run = op.equals("insert") ? insert(column, n, ops) : update(column, max, n, ops, rows);
                        sink += run[1];
                        double perSecond = ops / (run[0] / 1e9);
                        pair[column ? 1 : 0] = perSecond;
                        (column ? col : row).add(perSecond);
                    }
                    ratio.add(pair[1] / pair[0]);
                }
                double[] r = ratio.stream().mapToDouble(d -> d).sorted().toArray();
                System.out.printf(
                        Locale.ROOT,
                        "%-7s %5d %14.0f %14.0f %10.2f [%.2f-%.2f]%n",
                        op,
                        n,
                        median(row),
                        median(col),
                        median(ratio),
                        r[0],
                        r[r.length - 1]);
            }
        }
        System.out.println("checksum " + sink);
    }

    static RecordSchema schema(int attributes) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < attributes; i++) fields.add(Field.of("a" + i, FieldType.INT64));
        return new RecordSchema(fields);
    }

    /** A store of each kind, and what closes it. */
    private record Store(TupleStore store, AutoCloseable close, ArrowStorage arrow) {}

    private static Store open(boolean column, RecordSchema schema) {
        if (column) {
            ArrowStorage storage = new ArrowStorage(false, 0);
            return new Store(storage.newStore("t", schema), storage, storage);
        }
        StorageDevice dev = StorageDevice.temporary(PAGE, DeviceModel.MEMORY);
        BufferPool pool = new BufferPool(dev, 4L << 30);
        return new Store(new HeapFile(pool, Layout.NSM, schema), dev, null);
    }

    /** Inserts {@code ops} tuples of {@code n} attributes; returns {nanoseconds, a checksum of their ids}. */
    static long[] insert(boolean column, int n, int ops) throws Exception {
        Store s = open(column, schema(n));
        try {
            Record r = new Record(schema(n));
            long sum = 0, t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                for (int c = 0; c < n; c++) r.setLong(c, i + c);
                sum += s.store.insert(r);
                if (s.arrow != null && i % 1000 == 999) s.arrow.tick();
            }
            long nanos = System.nanoTime() - t0;
            if (s.store.rows() != ops) throw new IllegalStateException("rows " + s.store.rows() + " != " + ops);
            return new long[] {nanos, sum};
        } finally {
            s.close.close();
        }
    }

    /**
     * Loads {@code rows} tuples of {@code width} attributes, then (timed) updates the first {@code k} of
     * random ones; returns {nanoseconds, the first tuple's first attribute}.
     */
    static long[] update(boolean column, int width, int k, int ops, int rows) throws Exception {
        RecordSchema schema = schema(width);
        Store s = open(column, schema);
        try {
            Record r = new Record(schema);
            long[] tids = new long[rows];
            for (int i = 0; i < rows; i++) {
                for (int c = 0; c < width; c++) r.setLong(c, i);
                tids[i] = s.store.insert(r);
                if (s.arrow != null && i % 1000 == 999) s.arrow.tick();
            }
            if (s.arrow != null) for (int i = 0; i < 3; i++) s.arrow.tick();
            int[] fields = new int[k];
            for (int c = 0; c < k; c++) fields[c] = c;
            long[] values = new long[k];
            SplittableRandom rnd = new SplittableRandom(k);
            long t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                for (int c = 0; c < k; c++) values[c] = i;
                s.store.setLongs(tids[rnd.nextInt(rows)], fields, values);
                if (s.arrow != null && i % 1000 == 999) s.arrow.tick();
            }
            long nanos = System.nanoTime() - t0;
            s.store.read(tids[0], r);
            return new long[] {nanos, r.getLong(0)};
        } finally {
            s.close.close();
        }
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(d -> d).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}

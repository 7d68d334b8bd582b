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
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.layouts.arrow.TupleSlot;
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
 * is measured twice, to bracket the paper's setup:
 *
 * <ul>
 * <li>{@code column}: {@link ArrowStore}, 1 MB Arrow blocks, one transaction per operation (an undo
 * record per insert and per update), the collector run every 1,000 operations inside the timing (it
 * is the column store's work: pruning those records). The row store has no versions, no undo
 * records and no collector, so this charges MVCC to the column store alone;</li>
 * <li>{@code raw column}: the same Arrow blocks written directly ({@link ArrowBlock}: claim a slot,
 * write each column's value and validity bit, set the allocation bit), no transaction: the layouts
 * alone, neither side versioned. The paper's comparison, both versioned, lies between the two.</li>
 * </ul>
 *
 * Indexes are left out on every side, as in the paper ("We ignore index maintenance").
 *
 * <p>Workloads, one thread: inserts of {@code ops} tuples of N attributes into an empty table; and
 * {@code ops} updates, each of the first k attributes of a uniformly random tuple of a table of
 * {@code maxAttributes} attributes and {@code rows} tuples, loaded before the timing. Each cell
 * runs {@code repeats} times, the three stores in an order that rotates from repeat to repeat; the
 * figure is operations per second (median) and the ratio to the row store's run of the same repeat
 * (median, range).
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

    /** The three stores measured. */
    enum Kind {
        ROW,
        COLUMN,
        RAW_COLUMN
    }

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
            for (Kind k : Kind.values()) {
                sink += insert(k, n, ops / 10)[1];
                sink += update(k, max, n, ops / 10, rows / 10)[1];
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
                "%-7s %5s %12s %12s %12s %22s %22s%n",
                "op",
                "attrs",
                "row ops/s",
                "column ops/s",
                "raw ops/s",
                "column/row [range]",
                "raw/row [range]");
        Kind[] kinds = Kind.values();
        for (String op : new String[] {"insert", "update"}) {
            for (int n : attributes) {
                List<List<Double>> perSecond = new ArrayList<>(), ratio = new ArrayList<>();
                for (Kind k : kinds) {
                    perSecond.add(new ArrayList<>());
                    ratio.add(new ArrayList<>());
                }
                for (int rep = 0; rep < repeats; rep++) {
                    double[] run = new double[kinds.length];
                    for (int i = 0; i < kinds.length; i++) {
                        Kind k = kinds[(i + rep) % kinds.length];
                        System.gc();
                        Thread.sleep(100);
                        long[] r = op.equals("insert") ? insert(k, n, ops) : update(k, max, n, ops, rows);
                        sink += r[1];
                        run[k.ordinal()] = ops / (r[0] / 1e9);
                        perSecond.get(k.ordinal()).add(run[k.ordinal()]);
                    }
                    for (Kind k : kinds) ratio.get(k.ordinal()).add(run[k.ordinal()] / run[Kind.ROW.ordinal()]);
                }
                List<Double> c = ratio.get(Kind.COLUMN.ordinal()), raw = ratio.get(Kind.RAW_COLUMN.ordinal());
                System.out.printf(
                        Locale.ROOT,
                        "%-7s %5d %12.0f %12.0f %12.0f %10.2f [%.2f-%.2f] %10.2f [%.2f-%.2f]%n",
                        op,
                        n,
                        Spread.median(perSecond.get(Kind.ROW.ordinal())),
                        Spread.median(perSecond.get(Kind.COLUMN.ordinal())),
                        Spread.median(perSecond.get(Kind.RAW_COLUMN.ordinal())),
                        Spread.median(c),
                        Spread.min(c),
                        Spread.max(c),
                        Spread.median(raw),
                        Spread.min(raw),
                        Spread.max(raw));
            }
        }
        System.out.println("checksum " + sink);
    }

    static RecordSchema schema(int attributes) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < attributes; i++) fields.add(Field.of("a" + i, FieldType.INT64));
        return new RecordSchema(fields);
    }

    /** What a workload does to a store. */
    interface Store extends AutoCloseable {
        long insert(Record r);

        void setLongs(long tid, int[] fields, long[] values);

        long rows();

        long first(long tid);

        /** The collector's epoch, every 1,000 operations (only the transactional store has one). */
        default void tick() {}

        @Override
        default void close() throws Exception {}
    }

    private static Store open(Kind kind, RecordSchema schema) {
        return switch (kind) {
            case ROW -> {
                StorageDevice dev = StorageDevice.temporary(PAGE, DeviceModel.MEMORY);
                HeapFile heap = new HeapFile(new BufferPool(dev, 4L << 30), Layout.NSM, schema);
                yield new TupleStoreOps(heap, schema, null, dev);
            }
            case COLUMN -> {
                ArrowStorage storage = new ArrowStorage(false, 0);
                yield new TupleStoreOps(storage.newStore("t", schema), schema, storage, storage);
            }
            case RAW_COLUMN -> new RawBlocks(new BlockLayout(schema, BlockLayout.DEFAULT_BLOCK_SIZE));
        };
    }

    /** The row store and the transactional column store, through the replay's {@link TupleStore}. */
    private record TupleStoreOps(TupleStore store, RecordSchema schema, ArrowStorage arrow, AutoCloseable closer)
            implements Store {
        public long insert(Record r) {
            return store.insert(r);
        }

        public void setLongs(long tid, int[] fields, long[] values) {
            store.setLongs(tid, fields, values);
        }

        public long rows() {
            return store.rows();
        }

        public long first(long tid) {
            Record r = new Record(schema);
            store.read(tid, r);
            return r.getLong(0);
        }

        public void tick() {
            if (arrow != null) arrow.tick();
        }

        public void close() throws Exception {
            closer.close();
        }
    }

    /** Arrow blocks written directly: no transaction, no version, the layout's writes alone. */
    private static final class RawBlocks implements Store {
        private final BlockLayout layout;
        private final List<ArrowBlock> blocks = new ArrayList<>();
        private ArrowBlock current;
        private long rows;

        RawBlocks(BlockLayout layout) {
            this.layout = layout;
        }

        public long insert(Record r) {
            int off = current == null ? -1 : current.claimSlot();
            if (off < 0) {
                current = ArrowBlock.allocate(layout);
                blocks.add(current);
                off = current.claimSlot();
            }
            for (int c = 0; c < layout.columns(); c++) {
                current.putFixed(c, off, r.getLong(c));
                current.setValid(c, off, true);
            }
            current.setAllocated(off, true);
            rows++;
            return TupleSlot.of(blocks.size() - 1, off);
        }

        public void setLongs(long tid, int[] fields, long[] values) {
            ArrowBlock b = blocks.get(TupleSlot.block(tid));
            int off = TupleSlot.offset(tid);
            for (int i = 0; i < fields.length; i++) b.putFixed(fields[i], off, values[i]);
        }

        public long rows() {
            return rows;
        }

        public long first(long tid) {
            return blocks.get(TupleSlot.block(tid)).getFixed(0, TupleSlot.offset(tid));
        }
    }

    /** Inserts {@code ops} tuples of {@code n} attributes; returns {nanoseconds, a checksum of their ids}. */
    static long[] insert(Kind kind, int n, int ops) throws Exception {
        try (Store s = open(kind, schema(n))) {
            Record r = new Record(schema(n));
            long sum = 0, t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                for (int c = 0; c < n; c++) r.setLong(c, i + c);
                sum += s.insert(r);
                if (i % 1000 == 999) s.tick();
            }
            long nanos = System.nanoTime() - t0;
            if (s.rows() != ops) throw new IllegalStateException(kind + ": rows " + s.rows() + " != " + ops);
            return new long[] {nanos, sum};
        }
    }

    /**
     * Loads {@code rows} tuples of {@code width} attributes, then (timed) updates the first {@code k} of
     * random ones; returns {nanoseconds, the first tuple's first attribute}.
     */
    static long[] update(Kind kind, int width, int k, int ops, int rows) throws Exception {
        RecordSchema schema = schema(width);
        try (Store s = open(kind, schema)) {
            Record r = new Record(schema);
            long[] tids = new long[rows];
            for (int i = 0; i < rows; i++) {
                for (int c = 0; c < width; c++) r.setLong(c, i);
                tids[i] = s.insert(r);
                if (i % 1000 == 999) s.tick();
            }
            for (int i = 0; i < 3; i++) s.tick();
            int[] fields = new int[k];
            for (int c = 0; c < k; c++) fields[c] = c;
            long[] values = new long[k];
            SplittableRandom rnd = new SplittableRandom(k);
            long t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                for (int c = 0; c < k; c++) values[c] = i;
                s.setLongs(tids[rnd.nextInt(rows)], fields, values);
                if (i % 1000 == 999) s.tick();
            }
            long nanos = System.nanoTime() - t0;
            return new long[] {nanos, s.first(tids[0])};
        }
    }
}

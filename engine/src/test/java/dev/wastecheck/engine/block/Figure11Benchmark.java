package dev.wastecheck.engine.block;

import dev.wastecheck.engine.export.TableArrowReader;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Li et al., VLDB 2020, §6.2, Fig. 11 a-c (transformation throughput by % empty slots, four
 * algorithms) and Fig. 13 (the throughput of each phase), on our engine.
 *
 * <p>Setup, as §6.2 describes it: one table of {@code blocks} 1 MB blocks (500 by default), filled by
 * transactions, then {@code % empty} of every block's slots deleted at seeded random places
 * (committed, pruned and freed before timing, "to simulate deletion"). Shapes: {@code mixed} (an
 * 8-byte key and a variable-length value of 12-24 bytes: Fig. 11a, the paper's "50% variable-length
 * columns"), {@code fixed} (two 8-byte columns: Fig. 11b) and {@code varlen} (two variable-length
 * columns: Fig. 11c). No concurrent transaction ("we assume there is no concurrent transactions and
 * run the two phases consecutively without waiting"). The four algorithms, each timed from start
 * to the last block in Arrow form:
 *
 * <ul>
 * <li>{@code Snapshot}: one transaction reads every block and copies its visible tuples into Arrow
 * vectors through the Arrow API ({@link TableArrowReader} on hot blocks: its transactional
 * materialization). The copy is the result; the table is not rewritten (NoisePage would then swap
 * the copies in and update every index entry: Fig. 12 counts those movements).</li>
 * <li>{@code In-Place}: {@link InPlaceTransformer}: moves and gathering in one transaction per group,
 * every gathered value swung by a transactional update, then frozen once the collector pruned.</li>
 * <li>{@code Hybrid-Gather} and {@code Hybrid-Compress}: {@link BlockTransformer} (§4.3): compaction
 * transactions, the collector's wait, then gathering or dictionary compression under the FREEZING
 * flag ({@link BlockTransformer#freezeNow}).</li>
 * </ul>
 *
 * Compaction groups hold {@code group} blocks (50 by default; the paper does not say its group size
 * for Fig. 11, and calls 10-50 ideal in Fig. 14). Each algorithm gets a table of its own, loaded the
 * same way (Snapshot runs first on In-Place's table: it changes nothing). The printed rate is blocks
 * processed per second (the paper's y-axis); phases (Fig. 13) are the transformer's own clocks:
 * compaction (planning and the transactions), freezing (gathering or dictionary under the flag), and
 * the rest (collector epochs and waits) as total minus both.
 *
 * <p>What would make it lie: work skipped (after every run the table is checked: its live tuples
 * and a checksum over every key and value length read back through a snapshot, and every block
 * either frozen or emptied; Snapshot's copy is summed from the Arrow vectors); garbage of the
 * previous run collected during the next (a full GC and a pause between runs, outside the timing);
 * JIT warm-up landing in the first cell (one untimed warm-up run of every algorithm first, on a
 * 20-block table); the machine's other load (run under {@code /work/bin/quiet}; {@code repeats}
 * repeats each cell on a fresh table and prints the median and range).
 *
 * <p>Run: {@code ./bench arrow fig11 [BLOCKS] [REPEATS] [EMPTY%,...] [SHAPES] [GROUP]}, e.g.
 * {@code ./bench arrow fig11 500 1 0,1,5,10,20,40,60,80 mixed,fixed,varlen 50}.
 */
public final class Figure11Benchmark {
    enum Shape {
        MIXED(RecordSchema.of(Field.of("key", FieldType.INT64), Field.varlen("value", false, 24))),
        FIXED(RecordSchema.of(Field.of("key", FieldType.INT64), Field.of("value", FieldType.INT64))),
        VARLEN(RecordSchema.of(Field.varlen("key", false, 24), Field.varlen("value", false, 24)));

        final RecordSchema schema;

        Shape(RecordSchema schema) {
            this.schema = schema;
        }
    }

    enum Algorithm {
        SNAPSHOT("Snapshot"),
        IN_PLACE("In-Place"),
        HYBRID_GATHER("Hybrid-Gather"),
        HYBRID_COMPRESS("Hybrid-Compress");

        final String label;

        Algorithm(String label) {
            this.label = label;
        }
    }

    /** One timed run: total, compaction, freezing (nanoseconds), blocks frozen and emptied. */
    record Run(long total, long compaction, long freeze, long frozen, long emptied, long moves) {}

    static final int VALUES = 1 << 20;

    public static void main(String[] args) throws Exception {
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        double[] empties = Arrays.stream((args.length > 2 ? args[2] : "0,1,5,10,20,40,60,80").split(","))
                .mapToDouble(s -> Double.parseDouble(s.strip()) / 100)
                .toArray();
        List<Shape> shapes = Arrays.stream((args.length > 3 ? args[3] : "mixed,fixed,varlen").split(","))
                .map(s -> Shape.valueOf(s.strip().toUpperCase(Locale.ROOT)))
                .toList();
        int group = args.length > 4 ? Integer.parseInt(args[4]) : 50;
        byte[][] values = values(new SplittableRandom(7));
        try (BufferAllocator allocator = new RootAllocator()) {
            for (Algorithm a : Algorithm.values()) run(a, Shape.MIXED, 20, 0.05, group, 1, values, allocator);
            System.out.printf(
                    Locale.ROOT,
                    "%d blocks of 1 MB per run, groups of %d, %d repeat(s); ms and blocks/s are medians [min-max]%n",
                    blocks,
                    group,
                    repeats);
            System.out.printf(
                    Locale.ROOT,
                    "%-7s %7s %-16s %8s %9s %22s %12s %12s %12s %8s %8s%n",
                    "shape",
                    "% empty",
                    "algorithm",
                    "slots",
                    "moves",
                    "ms [range]",
                    "blocks/s",
                    "compact ms",
                    "freeze ms",
                    "frozen",
                    "emptied");
            for (Shape shape : shapes) {
                for (double empty : empties) {
                    List<List<Run>> runs = new ArrayList<>();
                    for (Algorithm a : Algorithm.values()) runs.add(new ArrayList<>());
                    for (int rep = 0; rep < repeats; rep++) {
                        // Snapshot and In-Place share a table (Snapshot first: it changes nothing).
                        Run[] r = run(null, shape, blocks, empty, group, 100 + rep, values, allocator);
                        runs.get(0).add(r[0]);
                        runs.get(1).add(r[1]);
                        for (Algorithm a : List.of(Algorithm.HYBRID_GATHER, Algorithm.HYBRID_COMPRESS))
                            runs.get(a.ordinal())
                                    .add(run(a, shape, blocks, empty, group, 100 + rep, values, allocator)[0]);
                    }
                    for (Algorithm a : Algorithm.values()) print(shape, empty, a, blocks, runs.get(a.ordinal()));
                }
            }
        }
    }

    private static int slots(Shape shape) {
        return new BlockLayout(shape.schema, BlockLayout.DEFAULT_BLOCK_SIZE).slots();
    }

    private static void print(Shape shape, double empty, Algorithm a, int blocks, List<Run> runs) {
        long[] totals = runs.stream().mapToLong(Run::total).sorted().toArray();
        double ms = median(totals) / 1e6;
        Run m = runs.get(runs.size() / 2);
        System.out.printf(
                Locale.ROOT,
                "%-7s %6.1f%% %-16s %8d %9d %10.1f [%.1f-%.1f] %12.0f %12.1f %12.1f %8d %8d%n",
                shape.name().toLowerCase(Locale.ROOT),
                100 * empty,
                a.label,
                slots(shape),
                m.moves,
                ms,
                totals[0] / 1e6,
                totals[totals.length - 1] / 1e6,
                blocks / (ms / 1e3),
                m.compaction / 1e6,
                m.freeze / 1e6,
                m.frozen,
                m.emptied);
    }

    static double median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /**
     * Loads a table and runs {@code a} on it; {@code a} null runs Snapshot and then In-Place on the same
     * table. Returns the runs in that order.
     */
    static Run[] run(
            Algorithm a,
            Shape shape,
            int blocks,
            double empty,
            int group,
            long seed,
            byte[][] values,
            BufferAllocator allocator)
            throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        TransactionManager tm = new TransactionManager();
        GarbageCollector gc = new GarbageCollector(tm);
        ArrowTable.FreezeMode mode =
                a == Algorithm.HYBRID_COMPRESS ? ArrowTable.FreezeMode.DICTIONARY : ArrowTable.FreezeMode.GATHER;
        ArrowTable table = new ArrowTable("t", shape.schema, tm, BlockLayout.DEFAULT_BLOCK_SIZE, mode);
        long l0 = System.nanoTime();
        long[] expected = load(table, gc, blocks, empty, new SplittableRandom(seed), values);
        System.err.printf(Locale.ROOT, "  (loaded %d blocks in %.1f s)%n", blocks, (System.nanoTime() - l0) / 1e9);
        List<Run> out = new ArrayList<>();
        if (a == null || a == Algorithm.SNAPSHOT) out.add(snapshot(table, allocator, expected));
        if (a == null || a == Algorithm.IN_PLACE) {
            InPlaceTransformer t = new InPlaceTransformer(table, group);
            long t0 = System.nanoTime();
            t.transform(table.blocks(), gc, 1000);
            long total = System.nanoTime() - t0;
            InPlaceTransformer.Stats s = t.stats();
            out.add(new Run(total, s.transactionNanos(), s.freezeNanos(), s.frozen(), s.emptied(), s.moves()));
            check(table, expected, "In-Place");
        }
        if (a == Algorithm.HYBRID_GATHER || a == Algorithm.HYBRID_COMPRESS) {
            BlockTransformer t = new BlockTransformer(table, gc, 1L << 40, group);
            long t0 = System.nanoTime();
            t.freezeNow(gc, 1000);
            long total = System.nanoTime() - t0;
            BlockTransformer.Stats s = t.stats();
            out.add(new Run(total, s.compactNanos(), s.freezeNanos(), s.frozen(), s.emptied(), s.moves()));
            check(table, expected, a.label);
        }
        return out.toArray(new Run[0]);
    }

    /** Snapshot: every block's visible tuples copied into Arrow vectors in one transaction; summed from the vectors. */
    private static Run snapshot(ArrowTable table, BufferAllocator allocator, long[] expected) {
        long t0 = System.nanoTime();
        long rows = 0, sum = 0;
        try (TableArrowReader reader = new TableArrowReader(allocator, table)) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                rows += root.getRowCount();
                sum += vectorSum(root.getVector(0)) + vectorSum(root.getVector(1));
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        long total = System.nanoTime() - t0;
        if (rows != expected[0] || sum != expected[1])
            throw new IllegalStateException("Snapshot copied " + rows + " rows, checksum " + sum + ", expected "
                    + expected[0] + ", " + expected[1]);
        return new Run(total, 0, 0, 0, 0, rows);
    }

    /** A fixed column's sum, or a variable-length column's total bytes (from its offsets). */
    private static long vectorSum(FieldVector v) {
        int n = v.getValueCount();
        if (v instanceof BigIntVector b) {
            long s = 0;
            for (int i = 0; i < n; i++) s += b.get(i);
            return s;
        }
        BaseVariableWidthVector w = (BaseVariableWidthVector) v;
        return n == 0
                ? 0
                : w.getOffsetBuffer().getInt(4L * n) - w.getOffsetBuffer().getInt(0);
    }

    /** Fills {@code blocks} full blocks, deletes {@code empty} of each one's slots at random; returns {rows, checksum}. */
    static long[] load(
            ArrowTable table, GarbageCollector gc, int blocks, double empty, SplittableRandom rnd, byte[][] values) {
        TransactionManager tm = table.transactions();
        RecordSchema schema = table.schema();
        int slots = table.layout().slots();
        Record r = new Record(schema);
        long key = 0;
        for (int b = 0; b < blocks; b++) {
            Transaction t = tm.begin();
            for (int i = 0; i < slots; i++, key++) {
                for (int c = 0; c < schema.fieldCount(); c++) {
                    if (schema.type(c).isVariable()) {
                        byte[] v = values[rnd.nextInt(VALUES)];
                        r.setBytes(c, v, 0, v.length);
                    } else {
                        r.setLong(c, c == 0 ? key : rnd.nextLong(1_000_000_000L));
                    }
                }
                table.insert(t, r);
            }
            tm.commit(t);
            if (b % 8 == 7) gc.run();
        }
        table.seal();
        gc.run();
        int gaps = (int) Math.round(slots * empty);
        int[] order = new int[slots];
        for (Block b : table.blocks()) {
            // a partial Fisher-Yates shuffle picks the slots to empty
            Transaction t = tm.begin();
            for (int i = 0; i < slots; i++) order[i] = i;
            for (int i = 0; i < gaps; i++) {
                int j = i + rnd.nextInt(slots - i);
                int x = order[i];
                order[i] = order[j];
                order[j] = x;
                if (!table.delete(t, TupleSlot.of(b.id(), order[i])))
                    throw new IllegalStateException("could not delete from " + b);
            }
            tm.commit(t);
        }
        for (int i = 0; i < 3; i++) gc.run();
        return checksum(table);
    }

    /** {live tuples, the sum of fixed values and of variable-length sizes}, through a snapshot scan. */
    static long[] checksum(ArrowTable table) {
        TransactionManager tm = table.transactions();
        long[] out = new long[2];
        Transaction t = tm.begin();
        RecordSchema s = table.schema();
        table.scan(t, (slot, r) -> {
            out[0]++;
            for (int c = 0; c < s.fieldCount(); c++) out[1] += s.type(c).isVariable() ? r.length(c) : r.getLong(c);
            return true;
        });
        tm.commit(t);
        return out;
    }

    /** After a transformation: the same tuples, and every block frozen or gone. */
    static void check(ArrowTable table, long[] expected, String what) {
        long[] got = checksum(table);
        if (got[0] != expected[0] || got[1] != expected[1])
            throw new IllegalStateException(what + ": " + Arrays.toString(got) + " != " + Arrays.toString(expected));
        for (Block b : table.blocks())
            if (b.state() != ArrowBlock.FROZEN) throw new IllegalStateException(what + ": " + b + " not frozen");
    }

    /** {@link #VALUES} random strings of 12 to 24 bytes. */
    static byte[][] values(SplittableRandom rnd) {
        byte[][] out = new byte[VALUES][];
        for (int i = 0; i < VALUES; i++) {
            byte[] v = new byte[12 + rnd.nextInt(13)];
            for (int k = 0; k < v.length; k++) v[k] = (byte) ('a' + rnd.nextInt(26));
            out[i] = v;
        }
        return out;
    }
}

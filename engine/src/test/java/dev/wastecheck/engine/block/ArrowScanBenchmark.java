package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A one-column range scan over frozen Arrow blocks read in place, against the same records in NSM
 * and PAX pages (the layouts module's {@link Page} formats, 64 KB pages) and against Arrow blocks
 * still hot (materialized tuple by tuple at a snapshot, §4.3). The query is the layouts
 * ScanBenchmark's Q6-like predicate: a date in one year, about 14% of 262,144 ~100-byte records,
 * into a selection bitmap, counting the matches.
 *
 * <p>Ratios to read: ARROW_FROZEN/PAX is what the Arrow block costs a scan against the columnar
 * page built for it (both read one contiguous column per block or page; ~1 is the paper's point:
 * frozen blocks are as scannable as a read-optimized format); NSM/ARROW_FROZEN what a row store
 * costs the same scan; ARROW_HOT/ARROW_FROZEN what freezing buys a reader (no version checks, no
 * materialization).
 *
 * <p>What would make it lie: a count that is never used (it goes to the Blackhole); bounds folded
 * as constants (fields); the frozen blocks thawing (nothing writes them).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx3g"})
public class ArrowScanBenchmark {
    static final RecordSchema RECORD100 = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("date", FieldType.INT32),
            Field.of("qty", FieldType.INT32),
            Field.of("price", FieldType.FLOAT64),
            Field.of("discount", FieldType.FLOAT64),
            Field.of("tax", FieldType.FLOAT64),
            Field.of("a", FieldType.INT64),
            Field.of("b", FieldType.INT64),
            Field.of("c", FieldType.INT32),
            Field.of("d", FieldType.INT32),
            Field.of("e", FieldType.INT16),
            Field.of("f", FieldType.INT16),
            Field.of("kind", FieldType.INT8),
            Field.of("status", FieldType.INT8),
            Field.varlen("note", false, 24));
    static final int DATE = 1;
    static final int FIRST_DATE = 8035, DATE_SPAN = 2526;

    @Param({"NSM", "PAX", "ARROW_FROZEN", "ARROW_HOT"})
    public String layout;

    @Param({"262144"})
    public int records;

    public long lo = 8766, hi = 9130;
    private final int pageSize = 64 << 10;
    private Page page;
    private final List<ByteBuffer> pages = new ArrayList<>();
    private ArrowTable table;
    private TransactionManager tm;
    private long[] selection;

    static void fill(Record r, long i, Random random) {
        r.setLong(0, i)
                .setLong(1, (int) (FIRST_DATE + (i * 2654435761L) % DATE_SPAN))
                .setLong(2, 1 + random.nextInt(50))
                .setDouble(3, random.nextInt(100_000) / 100.0)
                .setDouble(4, random.nextInt(11) / 100.0)
                .setDouble(5, random.nextInt(9) / 100.0)
                .setLong(6, random.nextLong())
                .setLong(7, random.nextLong())
                .setLong(8, random.nextInt())
                .setLong(9, random.nextInt())
                .setLong(10, (short) random.nextInt())
                .setLong(11, (short) random.nextInt())
                .setLong(12, random.nextInt(8))
                .setLong(13, random.nextInt(3));
        byte[] b = new byte[16 + random.nextInt(17)];
        for (int k = 0; k < b.length; k++) b[k] = (byte) ('a' + random.nextInt(26));
        r.setBytes(14, b, 0, b.length);
    }

    @Setup(Level.Trial)
    public void setUp() {
        Random rnd = new Random(42);
        Record r = new Record(RECORD100);
        if (layout.startsWith("ARROW")) {
            tm = new TransactionManager();
            GarbageCollector gc = new GarbageCollector(tm);
            table = new ArrowTable("t", RECORD100, tm);
            Transaction t = tm.begin();
            for (int i = 0; i < records; i++) {
                fill(r, i, rnd);
                table.insert(t, r);
            }
            tm.commit(t);
            gc.run();
            if (layout.equals("ARROW_FROZEN")) new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 50);
            selection = new long[table.layout().slots() / 64 + 1];
            System.out.printf(
                    "%n[%s] %d blocks of %d slots%n",
                    layout, table.blockCount(), table.layout().slots());
            return;
        }
        page = Layout.valueOf(layout).newPage(RECORD100);
        ByteBuffer buf = ByteBuffer.allocate(pageSize);
        page.format(buf, 0, pageSize);
        int maxPerPage = 0;
        for (int i = 0; i < records; i++) {
            fill(r, i, rnd);
            if (page.insert(r) < 0) {
                maxPerPage = Math.max(maxPerPage, page.slotCount());
                pages.add(buf);
                buf = ByteBuffer.allocate(pageSize);
                page.format(buf, 0, pageSize);
                page.insert(r);
            }
        }
        pages.add(buf);
        selection = new long[Math.max(maxPerPage, page.slotCount()) / 64 + 1];
        System.out.printf("%n[%s] %d pages%n", layout, pages.size());
    }

    @Benchmark
    public void scan(Blackhole bh) {
        long matches = 0;
        switch (layout) {
            case "ARROW_FROZEN" -> {
                for (Block b : table.blocks()) {
                    if (!BlockAccess.tryEnterInPlace(b)) throw new IllegalStateException(b + " is not frozen");
                    try {
                        matches += FrozenScan.scanBetween(b, DATE, lo, hi, selection);
                    } finally {
                        BlockAccess.exitInPlace(b);
                    }
                }
            }
            case "ARROW_HOT" -> {
                Transaction t = tm.begin();
                matches = FrozenScan.countBetween(table, t, DATE, lo, hi).matches();
                tm.commit(t);
            }
            default -> {
                for (ByteBuffer p : pages) matches += page.wrap(p, 0, pageSize).scanBetween(DATE, lo, hi, selection);
            }
        }
        bh.consume(matches);
    }
}

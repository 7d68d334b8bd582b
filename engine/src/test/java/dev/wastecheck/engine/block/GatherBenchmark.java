package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.BlockLayout;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;

/**
 * The gathering phase of the transformation on one 1 MB block (Li et al., VLDB 2020, §4.3 and
 * §6.2): Arrow metadata (length, null counts) and the variable-length column copied into one
 * contiguous values buffer with offsets, entries swung to point into it ({@code GATHER}); or a
 * sorted dictionary of the column's distinct values and an int32 index per record built instead
 * ({@code DICTIONARY}, §4.4). The paper gathers a block in well under a millisecond and finds
 * dictionary compression about an order of magnitude slower (hashing and sorting every value).
 *
 * <p>The block is the paper's microbenchmark shape: an 8-byte key, a 4-byte integer and a
 * variable-length value of 12 to 24 bytes (so most live behind a pointer), {@code 1 - empty} of its
 * slots filled as compaction leaves them (a prefix; {@code empty} = 3%, under the 5% of the
 * target). {@code distinct} is the number of distinct strings (the dictionary's size).
 *
 * <p>What would make it lie: the previous invocation's old values not being freed, so that the
 * heap grows and the copies slow down (a collector run between invocations frees them, outside the
 * timing); the result not escaping (the frozen buffers are returned to JMH).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g"})
public class GatherBenchmark {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("qty", FieldType.INT32),
            Field.nullable("name", FieldType.VARLEN));

    @Param({"GATHER", "DICTIONARY"})
    public String mode;

    @Param({"0.03"})
    public double empty;

    @Param({"1000", "1000000"})
    public int distinct;

    private TransactionManager tm;
    private GarbageCollector gc;
    private Block block;
    private Freezer freezer;
    private int records;

    @Setup(Level.Trial)
    public void setUp() {
        tm = new TransactionManager();
        gc = new GarbageCollector(tm);
        ArrowTable table =
                new ArrowTable("t", SCHEMA, tm, BlockLayout.DEFAULT_BLOCK_SIZE, ArrowTable.FreezeMode.valueOf(mode));
        records = (int) (table.layout().slots() * (1 - empty));
        Random rnd = new Random(42);
        String[] pool = new String[Math.min(distinct, records)];
        for (int i = 0; i < pool.length; i++) pool[i] = randomText(rnd, 12 + rnd.nextInt(13));
        Record r = new Record(SCHEMA);
        Transaction t = tm.begin();
        long first = -1;
        for (int i = 0; i < records; i++) {
            r.setLong(0, i).setLong(1, rnd.nextInt(1000));
            if (i % 50 == 0) r.setNull(2);
            else r.setString(2, pool[rnd.nextInt(pool.length)]);
            long slot = table.insert(t, r);
            if (first < 0) first = slot;
        }
        tm.commit(t);
        table.seal();
        gc.run();
        block = table.block(first);
        freezer = new Freezer(table);
        System.out.printf(
                "%n[%s] %d of %d slots, %d distinct values%n",
                mode, records, table.layout().slots(), pool.length);
    }

    static String randomText(Random rnd, int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) sb.append((char) ('a' + rnd.nextInt(26)));
        return sb.toString();
    }

    /** Frees the values the previous gather replaced (as the collector would), outside the timing. */
    @Setup(Level.Invocation)
    public void collect() {
        gc.run();
    }

    @Benchmark
    public Object gather() {
        freezer.transform(block, records);
        return block.frozen;
    }
}

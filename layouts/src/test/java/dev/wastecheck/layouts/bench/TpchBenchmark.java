package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.bench.tpc.TpchWorkload;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * TPC-H Q1, Q6, Q12 and Q14 (HPL-2012-240's Table 1) on lineitem, orders and part generated at
 * scale factor {@link #sf} by the specification's distributions ({@code tpc.TpchGenerator}), in
 * pages of one format per fork, executed as a vectorized engine does ({@code tpc.Tpch}: a
 * one-column predicate into a selection bitmap per page, refinements, a gather of the needed
 * columns, arithmetic on arrays). {@code ARRAY} runs Q1 and Q6 the same way on plain Java arrays
 * of the same values: the ceiling.
 *
 * <p>Ratios to read: HPL/PAX (the paper: HPL "scans almost as fast as the scan-optimized PAX
 * layout"; Table 1 has HPL 5.1% and 10.9% slower than PAX on Q6 and Q1 on machine A, i.e.
 * 0.95x and 0.89x), PAX/NSM (what a
 * columnar page buys a scan), PAX/ARRAY (the page format's cost against contiguous arrays).
 * Every layout uses its best loop (PAX and HPL a column at a time, NSM a record at a time, all
 * with the same branch-free range test), so a ratio is the layout's, not the loop's.
 *
 * <p>What would make it lie: an answer never used (each is reduced to a number for the
 * Blackhole); caches that favour a layout: with {@link #cold} (the default) a 64 MB buffer is
 * read before each operation, outside the timing, so each query starts from memory as the
 * paper's tables larger than the cache do; with {@code cold=false} the columns a query touches
 * stay in cache for PAX and HPL (a few MB at SF 0.1) while NSM's records (60 MB) do not. The
 * one-run, interleaved figures for docs/benchmarks.md come from {@link PaperRun}; this class is
 * for a closer look at one query (e.g. {@code -prof perfasm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TpchBenchmark {
    @Param({"NSM", "PAX", "HPL", "ARRAY"})
    public String layout;

    @Param({"q6"})
    public String query;

    @Param({"0.1"})
    public double sf;

    @Param({"65536"})
    public int pageSize;

    @Param({"true"})
    public boolean cold;

    private LongSupplier op;
    private final long[] flush = new long[8 << 20];
    private long flushSink;

    @Setup(Level.Trial)
    public void setUp() {
        TpchWorkload w = new TpchWorkload(layout, sf, pageSize);
        op = w.get(query);
        if (op == null) throw new IllegalArgumentException(layout + " has no " + query + " (ARRAY runs q1 and q6)");
        System.out.println("\n[" + w + "]");
    }

    @Setup(Level.Invocation)
    public void evict() {
        if (!cold) return;
        long sum = 0;
        for (int i = 0; i < flush.length; i += 8) sum += flush[i];
        flushSink += sum;
    }

    @Benchmark
    public long run() {
        return op.getAsLong();
    }
}

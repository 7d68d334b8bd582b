package dev.wastecheck.layouts.bench;

import java.util.Map;
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
 * TPC-B (HPL-2012-240's Table 2), TPC-C (Table 3) and the in-cache record operations
 * (update, construct, insert, delete: the statements of Figures 7-12), one format per fork:
 * {@code workload} is {@code tpcb}, {@code tpcc} or {@code record}, {@code op} one of its
 * operations ({@code tpc.TpcbWorkload}, {@code tpc.TpccWorkload}, {@code tpc.RecordWorkload}:
 * e.g. {@code txn}, {@code stmt:update}; {@code new_order}, {@code mix}; {@code update},
 * {@code delete}). The workload's untimed {@code _before} (history emptied, database or table
 * restored) runs before every invocation, so each invocation does the same work.
 *
 * <p>Ratios to read: HPL/NSM for updates and deletes (the paper: HPL "updates almost as fast as
 * the update-optimized NSM layout"; §6.2 and §6.3: single-field updates about 5% and deletes
 * about 15% faster on HPL than on Shore-MT's NSM, which replaces whole records on update:
 * layout NSM-SHORE) and for record construction (§6.3: about 10% slower). What would make it lie: an
 * invocation that finds the work done (a second delete of a ghost is free, a full history table
 * grows): {@code _before} restores; a table that fits the cache in one format and not in another
 * ({@code record}'s 0.9 MB fits every format; TPC-B's 10 MB account table fits L3; TPC-C's
 * ~90 MB does not, in any format); the one-run interleaved figures come from {@link PaperRun}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OltpBenchmark {
    @Param({"NSM", "PAX", "HPL"})
    public String layout;

    @Param({"tpcb"})
    public String workload;

    @Param({"txn"})
    public String op;

    @Param({"65536"})
    public int pageSize;

    private LongSupplier run;
    private LongSupplier before;

    @Setup(Level.Trial)
    public void setUp() throws ReflectiveOperationException {
        String name = switch (workload) {
            case "tpcb" -> "Tpcb";
            case "tpcc" -> "Tpcc";
            case "record" -> "Record";
            default -> throw new IllegalArgumentException("no workload " + workload);
        };
        @SuppressWarnings("unchecked")
        Map<String, LongSupplier> ops =
                (Map<String, LongSupplier>) Class.forName("dev.wastecheck.layouts.bench.tpc." + name + "Workload")
                        .getConstructor(String.class, double.class, int.class)
                        .newInstance(layout, 0.0, pageSize);
        run = ops.get(op);
        if (run == null) throw new IllegalArgumentException(workload + " has no operation " + op + ": " + ops.keySet());
        before = ops.get("_before");
        System.out.println("\n[" + ops + "]");
    }

    @Setup(Level.Invocation)
    public void before() {
        if (before != null) before.getAsLong();
    }

    @Benchmark
    public long run() {
        return run.getAsLong();
    }
}

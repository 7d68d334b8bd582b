package dev.wastecheck.layouts.bench.tpc;

/**
 * A profiling target, not a benchmark: one TPC-C transaction type with one kind of statement
 * ({@link Statements}), on one format, in a loop for the given seconds, so that a sampling
 * profiler (JFR) sees nothing but those statements and the transaction's logic. Reads leave the
 * database as it is, so the loop needs no reset.
 *
 * <pre>
 * BENCH_MAIN=dev.wastecheck.layouts.bench.tpc.StatementProfile \
 * BENCH_JVM_ARGS="-XX:StartFlightRecording=filename=hpl.jfr,settings=profile" \
 *     ./bench layouts HPL NEW_ORDER construct 30
 * </pre>
 */
public final class StatementProfile {
    private StatementProfile() {}

    public static void main(String[] args) {
        String format = args[0];
        Tpcc.Transaction type = Tpcc.Transaction.valueOf(args[1]);
        int mode = switch (args[2]) {
            case "construct" -> Statements.CONSTRUCT;
            case "update" -> Statements.UPDATE;
            case "none" -> Statements.NONE;
            default -> throw new IllegalArgumentException("construct, update or none, not " + args[2]);
        };
        double seconds = Double.parseDouble(args[3]);
        Tpcc c = new Tpcc(Formats.of(format), 65536, 42);
        c.mode = mode;
        long sum = 0, batches = 0, end = System.nanoTime() + (long) (seconds * 1e9);
        long t0 = System.nanoTime();
        while (System.nanoTime() < end) {
            sum += c.run(type, 400);
            batches++;
        }
        System.out.printf(
                "%s %s %s: %d batches of 400, %.1f us a transaction (checksum %d)%n",
                format, type, args[2], batches, (System.nanoTime() - t0) / 1e3 / (batches * 400.0), sum);
    }
}

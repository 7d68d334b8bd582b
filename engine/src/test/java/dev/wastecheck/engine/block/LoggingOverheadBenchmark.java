package dev.wastecheck.engine.block;

import java.util.List;

/**
 * What write-ahead logging costs OLTP throughput (Li et al., VLDB 2020, §3.4, §6.1: the paper's
 * TPC-C runs log, with one logging thread per eight workers and group commit). The workload is
 * {@link TpccLikeMix} on {@code threads} workers, one warehouse each, the collector every 5 ms in
 * the background: in memory with no log ({@code arrow}), and in an {@link ArrowDatabase} on a real
 * ext4 file with logging on ({@code arrow-log}: redo buffers, the log manager thread, {@code
 * FileChannel.force} per group). Workers do not wait for their commit callbacks (each registers one,
 * which the log manager runs after the force; read-only transactions are released after the force
 * that follows any commit still in flight), so group commit gathers what the workers commit while a
 * force runs. The two alternate in one JVM ({@link MixRuns}); each run prints the workers' CPU per
 * transaction and their share of the wall time, the group size, the log bytes and the log manager
 * thread's CPU per transaction.
 *
 * <p>Run: {@code ./bench arrow logging [SECONDS] [ROUNDS] [THREADS]} (default 10 s, 5, 2).
 */
public final class LoggingOverheadBenchmark {
    private LoggingOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        MixRuns.interleaved(List.of("arrow", "arrow-log"), seconds, rounds, threads);
    }
}

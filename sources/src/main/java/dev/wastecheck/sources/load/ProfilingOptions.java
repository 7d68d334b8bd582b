package dev.wastecheck.sources.load;

import java.nio.file.Path;

/**
 * Where and how the profiling database runs.
 *
 * @param tempDir          parent of the private spill folder (null: the system temp folder)
 * @param memoryLimit      DuckDB memory_limit such as {@code 2GB} (null: DuckDB's default, 80% of RAM)
 * @param threads          DuckDB threads (0: all cores)
 * @param arrowMemoryLimit bytes the Arrow batches in flight may hold
 * @param keepOrder        keep rows in insertion order (slower loads; needed for page hot-density)
 * @param leaveOutCounted  leave out of DuckDB's tables the dump columns whose every profiled figure
 *                         the loader counts ({@link LoadedTable#absent}): for an analysis that loads
 *                         again whole when a later step asks for such a column ({@link ColumnNotLoaded})
 * @param wholeUpTo        with {@code leaveOutCounted}, the rows up to which a table keeps the columns
 *                         that only its first batch forecasts as counted whole ({@link
 *                         ColumnFacts#countedWhole}): a later step reads every column of a table that
 *                         small (the dependency search, up to its rows); past them the rest of the
 *                         table's rows leave those columns out. {@code Long.MAX_VALUE}: never
 */
public record ProfilingOptions(
        Path tempDir,
        String memoryLimit,
        int threads,
        long arrowMemoryLimit,
        boolean keepOrder,
        boolean leaveOutCounted,
        long wholeUpTo) {
    public ProfilingOptions(Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit) {
        this(tempDir, memoryLimit, threads, arrowMemoryLimit, false, false, Long.MAX_VALUE);
    }

    public ProfilingOptions(Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit, boolean keepOrder) {
        this(tempDir, memoryLimit, threads, arrowMemoryLimit, keepOrder, false, Long.MAX_VALUE);
    }

    public static ProfilingOptions defaults() {
        return new ProfilingOptions(null, null, 0, 512L << 20);
    }

    /** The same, keeping each table's rows in the dump's order (for page-level workload figures). */
    public ProfilingOptions keepingOrder() {
        return new ProfilingOptions(tempDir, memoryLimit, threads, arrowMemoryLimit, true, false, Long.MAX_VALUE);
    }

    /** The same, with the loader's fully counted columns left out of DuckDB's tables ({@link #leaveOutCounted}). */
    public ProfilingOptions leavingOutCounted(boolean leave) {
        return leavingOutCounted(leave, Long.MAX_VALUE);
    }

    /** The same, leaving out also what a run's first batch forecasts past {@code wholeUpTo} rows ({@link #wholeUpTo}). */
    public ProfilingOptions leavingOutCounted(boolean leave, long wholeUpTo) {
        return new ProfilingOptions(
                tempDir, memoryLimit, threads, arrowMemoryLimit, keepOrder, leave && !keepOrder, wholeUpTo);
    }
}

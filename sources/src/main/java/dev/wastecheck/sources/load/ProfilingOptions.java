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
 */
public record ProfilingOptions(
        Path tempDir,
        String memoryLimit,
        int threads,
        long arrowMemoryLimit,
        boolean keepOrder,
        boolean leaveOutCounted) {
    public ProfilingOptions(Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit) {
        this(tempDir, memoryLimit, threads, arrowMemoryLimit, false, false);
    }

    public ProfilingOptions(Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit, boolean keepOrder) {
        this(tempDir, memoryLimit, threads, arrowMemoryLimit, keepOrder, false);
    }

    public static ProfilingOptions defaults() {
        return new ProfilingOptions(null, null, 0, 512L << 20);
    }

    /** The same, keeping each table's rows in the dump's order (for page-level workload figures). */
    public ProfilingOptions keepingOrder() {
        return new ProfilingOptions(tempDir, memoryLimit, threads, arrowMemoryLimit, true, false);
    }

    /** The same, with the loader's fully counted columns left out of DuckDB's tables ({@link #leaveOutCounted}). */
    public ProfilingOptions leavingOutCounted(boolean leave) {
        return new ProfilingOptions(tempDir, memoryLimit, threads, arrowMemoryLimit, keepOrder, leave && !keepOrder);
    }
}

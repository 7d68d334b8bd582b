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
 */
public record ProfilingOptions(
        Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit, boolean keepOrder) {
    public ProfilingOptions(Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit) {
        this(tempDir, memoryLimit, threads, arrowMemoryLimit, false);
    }

    public static ProfilingOptions defaults() {
        return new ProfilingOptions(null, null, 0, 512L << 20);
    }

    /** The same, keeping each table's rows in the dump's order (for page-level workload figures). */
    public ProfilingOptions keepingOrder() {
        return new ProfilingOptions(tempDir, memoryLimit, threads, arrowMemoryLimit, true);
    }
}

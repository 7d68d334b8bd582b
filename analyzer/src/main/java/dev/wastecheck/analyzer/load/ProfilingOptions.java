package dev.wastecheck.analyzer.load;

import java.nio.file.Path;

/**
 * Where and how the profiling database runs.
 *
 * @param tempDir          parent of the private spill folder (null: the system temp folder)
 * @param memoryLimit      DuckDB memory_limit such as {@code 2GB} (null: DuckDB's default, 80% of RAM)
 * @param threads          DuckDB threads (0: all cores)
 * @param arrowMemoryLimit bytes the Arrow batches in flight may hold
 */
public record ProfilingOptions(Path tempDir, String memoryLimit, int threads, long arrowMemoryLimit) {
    public static ProfilingOptions defaults() {
        return new ProfilingOptions(null, null, 0, 512L << 20);
    }
}

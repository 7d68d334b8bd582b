package dev.wastecheck.cli;

import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.model.BadInputException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every command that profiles a source shares (analyze, tune): type inference and the profiling database. */
final class AnalysisOptions {
    @Option(names = "--headroom", defaultValue = "" + InferenceOptions.DEFAULT_HEADROOM,
            description = "Growth factor an integer's observed range must still fit (default: ${DEFAULT-VALUE}).")
    double headroom;

    @Option(names = "--id-headroom", defaultValue = "" + InferenceOptions.DEFAULT_ID_HEADROOM,
            description = "The same for identifiers: auto-increment, single-column keys, *_id (default: ${DEFAULT-VALUE}).")
    double idHeadroom;

    @Option(names = "--enum-max", defaultValue = "" + InferenceOptions.DEFAULT_ENUM_MAX,
            description = "Most distinct values a string column may have to become an ENUM (default: ${DEFAULT-VALUE}).")
    int enumMax;

    @Option(names = "--memory-limit", paramLabel = "SIZE", description = "DuckDB's memory limit, e.g. 2GB (default: DuckDB's, 80%% of RAM).")
    String memoryLimit;

    @Option(names = "--threads", defaultValue = "0", description = "DuckDB threads (default: all cores).")
    int threads;

    @Option(names = "--temp-dir", paramLabel = "DIR", description = "Where the profiling database spills (default: the system temp folder).")
    Path tempDir;

    InferenceOptions inference() {
        if (headroom < 1 || idHeadroom < 1) {
            throw new BadInputException("--headroom and --id-headroom must be at least 1");
        }
        if (enumMax < 0) {
            throw new BadInputException("--enum-max must not be negative");
        }
        return new InferenceOptions(headroom, idHeadroom, enumMax);
    }

    ProfilingOptions profiling() {
        if (memoryLimit != null && !MEMORY_LIMIT.matcher(memoryLimit.trim()).matches()) {
            throw new BadInputException("--memory-limit: expected a size such as 2GB, 512MiB or 80%, found '" + memoryLimit + "'");
        }
        if (threads < 0) {
            throw new BadInputException("--threads: expected 0 (all cores) or more, found " + threads);
        }
        return new ProfilingOptions(tempDir, memoryLimit == null ? null : memoryLimit.trim(), threads,
                ProfilingOptions.defaults().arrowMemoryLimit());
    }

    /** What DuckDB's memory_limit takes: a number with a unit (B, KB, MB, GB, TB, KiB ... TiB), or a share of RAM. */
    private static final java.util.regex.Pattern MEMORY_LIMIT = java.util.regex.Pattern.compile(
            "(?i)(\\d+(\\.\\d+)?\\s*(b|bytes|kb|mb|gb|tb|kib|mib|gib|tib|k|m|g|t)?|\\d+(\\.\\d+)?%)");
}

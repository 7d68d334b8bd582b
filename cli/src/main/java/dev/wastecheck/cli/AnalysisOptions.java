package dev.wastecheck.cli;

import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Path;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/** The options every command that profiles a source shares (analyze, tune): type inference and the profiling database. */
final class AnalysisOptions {
    @Option(
            names = "--headroom",
            defaultValue = "" + InferenceOptions.DEFAULT_HEADROOM,
            description = "Growth factor an integer's observed range must still fit (default: ${DEFAULT-VALUE}).")
    double headroom;

    @Option(
            names = "--id-headroom",
            defaultValue = "" + InferenceOptions.DEFAULT_ID_HEADROOM,
            description =
                    "The same for keys, their references and *_id columns, over the largest id or the counter (default: ${DEFAULT-VALUE}).")
    double idHeadroom;

    @Option(
            names = "--enum-max",
            defaultValue = "" + InferenceOptions.DEFAULT_ENUM_MAX,
            description =
                    "Most distinct values a string column may have to become an ENUM (default: ${DEFAULT-VALUE}).")
    int enumMax;

    @Option(
            names = "--min-rows",
            paramLabel = "N",
            defaultValue = "" + InferenceOptions.DEFAULT_MIN_ROWS,
            description =
                    "Fewest values behind a column before its range or patterns change its type; below it the declared "
                            + "type stays: too little evidence (default: ${DEFAULT-VALUE}).")
    long minRows;

    @Option(
            names = "--key-floor",
            paramLabel = "BYTES",
            defaultValue = "" + InferenceOptions.DEFAULT_KEY_FLOOR_BYTES,
            description =
                    "Narrowest integer, in bytes (2 to 8), for keys and the columns referring to them (default: ${DEFAULT-VALUE}: INT).")
    int keyFloor;

    @Option(
            names = "--horizon-years",
            paramLabel = "YEARS",
            defaultValue = "" + InferenceOptions.DEFAULT_HORIZON_YEARS,
            description =
                    "A key narrowed from BIGINT must last this long at the rate its rows' timestamps show (default: ${DEFAULT-VALUE}).")
    double horizonYears;

    @Option(
            names = "--decimal-headroom",
            defaultValue = "" + InferenceOptions.DEFAULT_DECIMAL_HEADROOM,
            description =
                    "Growth factor a DECIMAL's largest magnitude must still fit (default: ${DEFAULT-VALUE}: three more digits).")
    double decimalHeadroom;

    @Option(
            names = "--memory-limit",
            paramLabel = "SIZE",
            description = "DuckDB's memory limit, e.g. 2GB (default: DuckDB's, 80%% of RAM).")
    String memoryLimit;

    @Option(names = "--threads", defaultValue = "0", description = "DuckDB threads (default: all cores).")
    int threads;

    @Option(
            names = "--temp-dir",
            paramLabel = "DIR",
            description = "Where the profiling database spills (default: the system temp folder).")
    Path tempDir;

    InferenceOptions inference() {
        if (headroom < 1 || idHeadroom < 1) {
            throw new BadInputException("--headroom and --id-headroom must be at least 1");
        }
        if (enumMax < 0) {
            throw new BadInputException("--enum-max must not be negative");
        }
        if (minRows < 0 || horizonYears < 0) {
            throw new BadInputException("--min-rows and --horizon-years must not be negative");
        }
        if (keyFloor < 2 || keyFloor > 8) {
            throw new BadInputException("--key-floor must be 2 to 8 bytes (a TINYINT key is never suggested)");
        }
        if (decimalHeadroom < 1) {
            throw new BadInputException("--decimal-headroom must be at least 1");
        }
        return new InferenceOptions(headroom, idHeadroom, enumMax, minRows, keyFloor, horizonYears, decimalHeadroom);
    }

    ProfilingOptions profiling() {
        if (memoryLimit != null && !MEMORY_LIMIT.matcher(memoryLimit.trim()).matches()) {
            throw new BadInputException(
                    "--memory-limit: expected a size such as 2GB, 512MiB or 80%, found '" + memoryLimit + "'");
        }
        if (threads < 0) {
            throw new BadInputException("--threads: expected 0 (all cores) or more, found " + threads);
        }
        return new ProfilingOptions(
                tempDir,
                memoryLimit == null ? null : memoryLimit.trim(),
                threads,
                ProfilingOptions.defaults().arrowMemoryLimit());
    }

    /** What DuckDB's memory_limit takes: a number with a unit (B, KB, MB, GB, TB, KiB ... TiB), or a share of RAM. */
    private static final Pattern MEMORY_LIMIT =
            Pattern.compile("(?i)(\\d+(\\.\\d+)?\\s*(b|bytes|kb|mb|gb|tb|kib|mib|gib|tib|k|m|g|t)?|\\d+(\\.\\d+)?%)");
}

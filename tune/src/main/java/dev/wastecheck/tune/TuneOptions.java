package dev.wastecheck.tune;

import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Path;
import java.util.List;

/**
 * What to tune and how: {@code wastecheck tune}'s options, as values.
 *
 * @param sources       dump files, database files or folders, or one JDBC URL, as analyze reads them
 * @param traces        traces whose INSERT, UPDATE and DELETE statements are replayed against the tuned
 *                      types (a change a traced write would break is left out); empty for none
 * @param inference     the type policy analyze uses (headroom, ENUM size, evidence)
 * @param profiling     where and how the profiling database runs
 * @param dialect       the dialect asked for, or null for the source's own (any other is refused: a
 *                      migration runs on the database the data came from)
 * @param migrationFile the file the migration's SQL goes to, or null (standard output, or JSON): a MySQL
 *                      migration's rollback is written beside it ({@code migration.rollback.sql})
 * @param apply         a JDBC URL to run the migration on, statement by statement, or null
 */
public record TuneOptions(
        List<String> sources,
        List<Path> traces,
        InferenceOptions inference,
        ProfilingOptions profiling,
        Dialect dialect,
        Path migrationFile,
        String apply) {
    public TuneOptions {
        sources = List.copyOf(sources);
        traces = List.copyOf(traces);
    }

    /** The command's defaults for these sources: no trace, the default policy, the source's dialect. */
    public static TuneOptions of(List<String> sources) {
        return new TuneOptions(
                sources, List.of(), InferenceOptions.defaults(), ProfilingOptions.defaults(), null, null, null);
    }
}

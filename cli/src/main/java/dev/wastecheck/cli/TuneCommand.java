package dev.wastecheck.cli;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.tune.Tuner;
import dev.wastecheck.cli.render.MigrationRenderer;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.Dialect;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wastecheck tune SOURCE...}: the migration that applies analyze's suggestions, each checked on every row. */
@Command(name = "tune", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes the migration that gives every column its tightest lossless type, in the source's dialect.",
                "Each change is first applied to a tuned copy of the data and checked on every row: only changes under "
                        + "which every value reads back unchanged go into the migration; the others are listed with the "
                        + "first value they would change. The bytes saved are counted on the tuned copy.", ""},
        footer = {"", "Examples:",
                "  wastecheck tune wiki/dump.sql -o migration.sql",
                "  wastecheck tune pagila-schema.sql pagila-data.sql --dialect postgresql",
                "  wastecheck tune app.duckdb --format json"})
public final class TuneCommand implements Callable<Integer> {
    enum Format { sql, json }

    @Parameters(arity = "1..*", paramLabel = "SOURCE", description = "Dump files, database files or folders, as for analyze.")
    List<Path> sources;

    @Option(names = "--dialect", paramLabel = "DIALECT", description = "mysql, postgresql or duckdb: the database the "
            + "migration runs on. It must be the source's own (default: the source's).")
    String dialect;

    @Option(names = "--verify", description = "Accepted for scripts written to the command-line contract: every change is "
            + "always checked on every row, and this cannot be turned off.")
    boolean verify;

    @Option(names = "--format", defaultValue = "sql", description = "sql (the migration) or json (what was checked and measured) (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write here instead of stdout.")
    Path output;

    @picocli.CommandLine.Mixin
    AnalysisOptions analysis = new AnalysisOptions();

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Dialect wanted = parseDialect(dialect);
        InferenceOptions inference = analysis.inference();
        ProfilingOptions profiling = analysis.profiling();
        Progress progress = TerminalProgress.forStderr(quiet);
        Tuner.Result result;
        try (Analyzer.Session session = new Analyzer(inference, profiling).open(sources, false, progress)) {
            Dialect source = session.dialect();
            if (source == Dialect.SQLITE) {
                throw new UserError("SQLite has no ALTER COLUMN ... TYPE (a column's type changes only by rebuilding its table), "
                        + "and it sizes integers by value anyway: tune writes migrations for MySQL, PostgreSQL and DuckDB; "
                        + "`wastecheck analyze` still shows what SQLite stores");
            }
            if (wanted != null && wanted != source) {
                throw new UserError("the source reads as " + source.label() + ", so its migration is in " + source.label()
                        + "'s dialect: a migration runs on the database the data came from (--dialect " + source.key()
                        + "); translating a schema to another engine is not what tune does");
            }
            AnalysisReport report = session.report(List.of(), progress);
            result = Tuner.tune(session, report, inference.idHeadroom(), progress);
        }
        Tuner.Result r = result;
        Output.write(output, spec, w -> {
            if (format == Format.json) {
                dev.wastecheck.cli.render.TuneJsonRenderer.write(r, w);
            } else {
                MigrationRenderer.write(r, w);
            }
        });
        PrintWriter err = spec.commandLine().getErr();
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        int left = MigrationRenderer.leftOut(r).size();
        err.printf(Locale.ROOT, "wastecheck tune: %d %s, checked on every row (%d rows); bytes %d -> %d (%s); %d %s left out%s%n",
                applied, applied == 1 ? "change" : "changes", r.rowsChecked(), r.bytesBefore(), r.bytesAfter(),
                MigrationRenderer.ratio(r.bytesBefore(), r.bytesAfter()), left, left == 1 ? "suggestion" : "suggestions",
                left > 0 ? " (the migration ends with why)" : "");
        long[] heap = r.heapTotal();
        if (heap != null) {
            err.printf(Locale.ROOT, "wastecheck tune: PostgreSQL heap, alignment and pages included: %d -> %d bytes (%s)%n", heap[0], heap[1],
                    MigrationRenderer.ratio(heap[0], heap[1]));
        }
        return Main.EXIT_OK;
    }

    static Dialect parseDialect(String s) {
        if (s == null) {
            return null;
        }
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "mysql", "mariadb" -> Dialect.MYSQL;
            case "postgresql", "postgres", "pg" -> Dialect.POSTGRESQL;
            case "duckdb" -> Dialect.DUCKDB;
            default -> throw new UserError("--dialect: expected mysql, postgresql or duckdb, got '" + s + "'");
        };
    }
}

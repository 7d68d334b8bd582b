package dev.wastecheck.cli;

import dev.wastecheck.analyzer.tune.Migration;
import dev.wastecheck.analyzer.tune.Tuner;
import dev.wastecheck.cli.render.SqlComments;
import dev.wastecheck.cli.render.TuneJsonRenderer;
import dev.wastecheck.cli.render.Wrap;
import dev.wastecheck.model.BadInputException;
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

    @Option(names = "--trace", paramLabel = "FILE", description = "A trace whose INSERT, UPDATE and DELETE statements are "
            + "replayed in DuckDB against the tuned types: a change under which a traced write would fail, round or cut is "
            + "left out, with the statement. Without one the advice rests on the snapshot only.")
    List<Path> traces = new java.util.ArrayList<>();

    @picocli.CommandLine.Mixin
    AnalysisOptions analysis = new AnalysisOptions();

    @picocli.CommandLine.Mixin
    OutputOptions out = new OutputOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Dialect wanted = parseDialect(dialect);
        Tuner.Result r = Tuner.tune(sources, traces, analysis.inference(), analysis.profiling(), wanted, out.progress());
        out.write(spec, w -> {
            if (format == Format.json) {
                TuneJsonRenderer.write(r, w);
            } else {
                java.io.StringWriter sql = new java.io.StringWriter();
                Migration.write(r, new PrintWriter(sql));
                SqlComments.print(sql.toString(), w, out.width());
            }
        });
        PrintWriter err = spec.commandLine().getErr();
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        int left = Migration.leftOut(r).size();
        int width = Main.terminal(spec).width();
        Wrap.print(err, String.format(Locale.ROOT, "wastecheck tune: %d %s, checked on every row (%d rows); bytes %d -> %d (%s); %d %s left out%s",
                applied, applied == 1 ? "change" : "changes", r.rowsChecked(), r.bytesBefore(), r.bytesAfter(),
                Migration.ratio(r.bytesBefore(), r.bytesAfter()), left, left == 1 ? "suggestion" : "suggestions",
                left > 0 ? " (the migration ends with why)" : ""), width, "", "  ");
        if (r.workload() != null) {
            Wrap.print(err, "wastecheck tune: " + r.workload().describe(), width, "", "  ");
            r.workload().unreplayedExamples().forEach(x -> Wrap.print(err, "  not replayed: " + x, width, "", "    "));
        }
        long[] heap = r.heapTotal();
        if (heap != null) {
            Wrap.print(err, String.format(Locale.ROOT, "wastecheck tune: PostgreSQL heap, alignment and pages included: %d -> %d bytes (%s)",
                    heap[0], heap[1], Migration.ratio(heap[0], heap[1])), width, "", "  ");
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
            default -> throw new BadInputException("--dialect: expected mysql, postgresql or duckdb, got '" + s + "'");
        };
    }
}

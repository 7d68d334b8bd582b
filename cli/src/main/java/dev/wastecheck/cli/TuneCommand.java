package dev.wastecheck.cli;

import dev.wastecheck.cli.render.SqlComments;
import dev.wastecheck.cli.render.TuneJsonRenderer;
import dev.wastecheck.cli.render.Wrap;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.tune.Tune;
import dev.wastecheck.tune.TuneOptions;
import dev.wastecheck.tune.TuneReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wastecheck tune SOURCE...}: the migration that applies analyze's suggestions, each checked on every row. */
@Command(
        name = "tune",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Writes the migration that gives every column its tightest lossless type, in the source's dialect.",
            "Each change is first applied to a tuned copy of the data and checked on every row: only changes under "
                    + "which every value reads back unchanged go into the migration; the others are listed with the "
                    + "first value they would change. The bytes saved are counted on the tuned copy.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  wastecheck tune wiki/dump.sql -o migration.sql",
            "  wastecheck tune pagila-schema.sql pagila-data.sql --dialect postgresql",
            "  wastecheck tune app.duckdb --format json",
            "  wastecheck tune 'jdbc:postgresql://db.internal/shop?user=dba' -o migration.sql",
            "  wastecheck tune sakila.sql -o migration.sql --apply 'jdbc:mariadb://db/sakila?user=dba&password=...'"
        })
public final class TuneCommand implements Callable<Integer> {
    enum Format {
        sql,
        json
    }

    @Parameters(
            arity = "1..*",
            paramLabel = "SOURCE",
            description = "Dump files, database files or folders, or one JDBC URL, as for analyze.")
    List<String> sources;

    @Option(
            names = "--dialect",
            paramLabel = "DIALECT",
            description = "mysql, postgresql or duckdb: the database the "
                    + "migration runs on. It must be the source's own (default: the source's).")
    String dialect;

    @Option(
            names = "--verify",
            description = "Accepted for scripts written to the command-line contract: every change is "
                    + "always checked on every row, and this cannot be turned off.")
    boolean verify;

    @Option(
            names = "--apply",
            paramLabel = "JDBC_URL",
            description = "Also run the migration on this database "
                    + "(jdbc:mariadb:, jdbc:mysql: or jdbc:postgresql:, user and password as URL parameters), statement by statement, "
                    + "guards first: exit 3 when it stops.")
    String apply;

    @Option(
            names = "--format",
            defaultValue = "sql",
            description = "sql (the migration) or json (what was checked and measured) (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(
            names = "--trace",
            paramLabel = "FILE",
            description = "A trace whose INSERT, UPDATE and DELETE statements are "
                    + "replayed in DuckDB against the tuned types: a change under which a traced write would fail, round or cut is "
                    + "left out, with the statement. Without one the advice rests on the snapshot only.")
    List<Path> traces = new ArrayList<>();

    @Option(
            names = "--representation",
            paramLabel = "COLUMNS",
            split = ",",
            description = "Also apply these changes of what the application reads (TABLE.COLUMN,... or all): "
                    + "text to a number or time, 0/1 to boolean. Left out by default.")
    List<String> representation = new ArrayList<>();

    @Mixin
    AnalysisOptions analysis = new AnalysisOptions();

    @Mixin
    OutputOptions out = new OutputOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        TuneOptions options = new TuneOptions(
                sources,
                traces,
                analysis.inference()
                        .withRepresentation(representation.stream()
                                .map(c -> c.strip().toLowerCase(Locale.ROOT))
                                .collect(Collectors.toSet())),
                analysis.profiling(),
                parseDialect(dialect),
                format == Format.sql ? out.output : null,
                apply);
        TuneReport report = Tune.run(options, out.progress(), note -> err.println("wastecheck: " + note));
        out.write(spec, w -> {
            if (format == Format.json) {
                TuneJsonRenderer.write(report, w);
            } else {
                // the statements as applied; only the comments are re-flowed to the terminal's width
                StringWriter sql = new StringWriter();
                PrintWriter sw = new PrintWriter(sql);
                report.script().print(sw);
                sw.flush();
                SqlComments.print(sql.toString(), w, out.width());
            }
        });
        if (report.rollbackFile() != null) {
            err.println("wastecheck: wrote " + report.rollbackFile() + " (puts the declared types back)");
        }
        int width = Main.terminal(spec).width();
        for (String line : report.summary()) {
            // a line indented by spaces continues the one before: its own wrapped lines go two further in
            String indent = " ".repeat(line.length() - line.stripLeading().length() + 2);
            Wrap.print(err, line, width, "", indent);
        }
        if (report.applied() != null) {
            report.applied().messages().forEach(err::println);
            return report.applied().succeeded() ? Main.EXIT_OK : Main.EXIT_CHECK_FAILED;
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

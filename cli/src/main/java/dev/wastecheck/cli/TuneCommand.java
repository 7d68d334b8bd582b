package dev.wastecheck.cli;

import dev.wastecheck.analyzer.source.Sources;
import dev.wastecheck.cli.render.SqlComments;
import dev.wastecheck.cli.render.TuneJsonRenderer;
import dev.wastecheck.cli.render.Wrap;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.tune.Migration;
import dev.wastecheck.tune.MigrationRunner;
import dev.wastecheck.tune.SqlScript;
import dev.wastecheck.tune.Tuner;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
        if (apply != null) {
            MigrationRunner.dialectOf(apply); // a URL tune cannot apply to fails before the work
        }
        Sources from = Sources.of(sources);
        if (from.live() != null && from.live().dialect() == Dialect.TRINO) {
            throw new BadInputException(from.live().display()
                    + ": tune writes migrations for PostgreSQL, MySQL/MariaDB and SQLite; Trino keeps no tables of its"
                    + " own to migrate (analyze it to see what its connectors' tables waste)");
        }
        Tuner.Result r = Tuner.tune(from, traces, analysis.inference(), analysis.profiling(), wanted, out.progress());
        SqlScript script = Migration.script(r);
        out.write(spec, w -> {
            if (format == Format.json) {
                TuneJsonRenderer.write(r, w);
            } else {
                // the statements as applied; only the comments are re-flowed to the terminal's width
                java.io.StringWriter sql = new java.io.StringWriter();
                PrintWriter sw = new PrintWriter(sql);
                script.print(sw);
                sw.flush();
                SqlComments.print(sql.toString(), w, out.width());
            }
        });
        PrintWriter err = spec.commandLine().getErr();
        SqlScript rollback = Migration.rollback(r);
        Path rollbackFile = null;
        if (rollback != null && out.output != null && format == Format.sql) {
            rollbackFile = rollbackPath(out.output);
            Files.writeString(rollbackFile, rollback.toString(), StandardCharsets.UTF_8);
            err.println("wastecheck: wrote " + rollbackFile + " (puts the declared types back)");
        }
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        int left = Migration.leftOut(r).size();
        int width = Main.terminal(spec).width();
        Wrap.print(
                err,
                String.format(
                        Locale.ROOT,
                        "wastecheck tune: %d %s, checked on every row (%d rows); bytes %d -> %d (%s); %d %s left out%s",
                        applied,
                        applied == 1 ? "change" : "changes",
                        r.rowsChecked(),
                        r.bytesBefore(),
                        r.bytesAfter(),
                        Migration.ratio(r.bytesBefore(), r.bytesAfter()),
                        left,
                        left == 1 ? "suggestion" : "suggestions",
                        left > 0 ? " (the migration ends with why)" : ""),
                width,
                "",
                "  ");
        if (r.workload() != null) {
            Wrap.print(err, "wastecheck tune: " + r.workload().describe(), width, "", "  ");
            r.workload().unreplayedExamples().forEach(x -> Wrap.print(err, "  not replayed: " + x, width, "", "    "));
        }
        long[] heap = r.heapTotal();
        if (heap != null) {
            Wrap.print(
                    err,
                    String.format(
                            Locale.ROOT,
                            "wastecheck tune: PostgreSQL heap, alignment and pages included: %d -> %d bytes (%s)",
                            heap[0],
                            heap[1],
                            Migration.ratio(heap[0], heap[1])),
                    width,
                    "",
                    "  ");
        }
        long[] innodb = r.innodbTotal();
        if (innodb != null) {
            Wrap.print(
                    err,
                    String.format(
                            Locale.ROOT,
                            "wastecheck tune: InnoDB data and indexes, as OPTIMIZE TABLE leaves them: %d -> %d bytes (%s)",
                            innodb[0],
                            innodb[1],
                            Migration.ratio(innodb[0], innodb[1])),
                    width,
                    "",
                    "  ");
        }
        if (apply != null) {
            return apply(r, script, rollbackFile, err);
        }
        return Main.EXIT_OK;
    }

    /** {@code --apply}: the printed statements on the live database; exit 3 when one fails. */
    private int apply(Tuner.Result r, SqlScript script, Path rollbackFile, PrintWriter err) {
        if (!script.hasChanges()) {
            err.println("wastecheck tune: --apply: the migration changes nothing; nothing to apply");
            return Main.EXIT_OK;
        }
        MigrationRunner.Outcome o = MigrationRunner.apply(script, r.dialect(), apply);
        int total = script.statements().size();
        if (o.succeeded()) {
            err.printf(
                    Locale.ROOT,
                    "wastecheck tune: applied: %d statements, %d changes, on %s%n",
                    o.executed(),
                    o.changesApplied(),
                    r.dialect().label());
            return Main.EXIT_OK;
        }
        String first = o.failed().sql().lines().findFirst().orElse("");
        err.println("wastecheck: --apply stopped at statement " + (o.executed() + 1) + " of " + total + " (" + first
                + (o.failed().sql().contains("\n") ? " ..." : "") + "): " + o.error());
        if (o.changesApplied() == 0) {
            err.println("wastecheck: nothing was changed"
                    + (o.stoppedByGuard() ? ": the live database no longer fits the migration" : ""));
        } else {
            err.println(
                    "wastecheck: " + o.changesApplied()
                            + " changes were applied before it (MySQL commits each ALTER TABLE); "
                            + (rollbackFile != null
                                    ? rollbackFile + " puts the declared types back"
                                    : "`wastecheck tune ... -o migration.sql` writes migration.rollback.sql, which puts the declared types back"));
        }
        return Main.EXIT_CHECK_FAILED;
    }

    /** {@code migration.sql} -> {@code migration.rollback.sql}. */
    static Path rollbackPath(Path output) {
        String name = output.getFileName().toString();
        String base = name.toLowerCase(Locale.ROOT).endsWith(".sql") ? name.substring(0, name.length() - 4) : name;
        return output.resolveSibling(base + ".rollback.sql");
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

package dev.wastecheck.cli;

import dev.wastecheck.analyzer.AnalyzeOptions;
import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import dev.wastecheck.cli.render.HtmlRenderer;
import dev.wastecheck.cli.render.JsonRenderer;
import dev.wastecheck.cli.render.MarkdownRenderer;
import dev.wastecheck.cli.render.TextRenderer;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.sources.load.LoadOptions;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code wastecheck analyze SOURCE...}: per column, the tightest lossless type and the bytes it saves. */
@Command(
        name = "analyze",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Profiles every column of every table exactly and reports the bytes its declared types waste.",
            "SOURCE is a mysqldump or pg_dump (.sql, .gz), a SQL script, a SQLite or DuckDB database file, "
                    + "CSV, Parquet or JSON, or a folder of them. Formats are told from content, not names.",
            "SOURCE can also be a live database, jdbc:postgresql://HOST/DB or jdbc:mariadb://HOST/DB (jdbc:mysql: too): "
                    + "its schema comes from the server's catalog and its rows are read over one read-only session; "
                    + "a password the URL lacks comes from PGPASSWORD or ~/.pgpass, or MYSQL_PWD.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  wastecheck analyze sakila-schema.sql sakila-data.sql",
            "  wastecheck analyze dumps/ --format json -o waste.json",
            "  wastecheck analyze app.sqlite --format markdown",
            "  PGPASSWORD=... wastecheck analyze \\",
            "      'jdbc:postgresql://db.internal/shop?user=dba'",
            "  wastecheck analyze wiki/dump.sql --trace wiki/trace.log"
        })
public final class AnalyzeCommand implements Callable<Integer> {
    enum Format {
        text,
        json,
        markdown,
        html
    }

    @Parameters(
            arity = "1..*",
            paramLabel = "SOURCE",
            description =
                    "Dumps (mysqldump, pg_dump, SQL, .gz), SQLite or DuckDB files, CSV, Parquet, JSON, folders of "
                            + "them, - for standard input, or one JDBC URL (jdbc:postgresql://HOST/DB, jdbc:mariadb://HOST/DB).")
    List<String> sources;

    @Option(
            names = "--trace",
            paramLabel = "FILE",
            description = {
                "A query trace: adds access skew, page hot-density, partitioning, index-cache fields, unused columns "
                        + "and granularity. SQL statements, MySQL general log, PostgreSQL log, WikiBench URLs, pageview "
                        + "counts, or the generator's. Repeatable."
            })
    List<Path> traces = new ArrayList<>();

    @Option(
            names = "--format",
            defaultValue = "text",
            description =
                    "text, json, markdown or html (one self-contained file with charts) (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(
            names = "--top",
            defaultValue = "15",
            description = "Columns listed in the text report (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(
            names = "--max-bad",
            defaultValue = "0.01",
            paramLabel = "FRACTION",
            description =
                    "Share of rows that may be bad before reading fails (default: ${DEFAULT-VALUE}; 1 never fails). "
                            + "Bad rows (the wrong number of values, a rejected CSV row, text between statements) up to it are "
                            + "counted and reported.")
    double maxBad;

    @Option(
            names = "--server-workload",
            description =
                    "Live databases only: also read the workload the server recorded, as a trace. PostgreSQL's "
                            + "pg_stat_statements or MySQL's and MariaDB's performance_schema statement digests: "
                            + "which columns it reads, filters on and writes, in what shares (no rows: the constants are gone).")
    boolean serverWorkload;

    @Option(
            names = "--fetch-rows",
            description = "Live databases only: read every row into the local profiling database and profile it there. "
                    + "By default the profile runs inside the server as queries in its own SQL, and only aggregates "
                    + "come back (a trace, --sample or --server-workload read the rows in any case).")
    boolean fetchRows;

    @Option(
            names = "--exact-space",
            description = "Measure the space outside the column values exactly: on a live PostgreSQL the free and dead "
                    + "space of every table and B-tree index with pgstattuple and pgstatindex, which read every page (a "
                    + "full scan's I/O; by default pgstattuple_approx where installed, else the statistics); rows read "
                    + "here (a dump, --fetch-rows) walked row by row through the InnoDB and PostgreSQL heap models "
                    + "(by default estimated from the column bytes).")
    boolean exactSpace;

    @Option(
            names = "--sample",
            paramLabel = "PERCENT",
            description = "Live databases only: read a random PERCENT of each table's rows (default: every row). "
                    + "Row by row, the same rows for the same --sample-seed; every suggested type is then checked against "
                    + "all rows on the server and withdrawn if any row does not fit; sizes are estimates scaled to the row "
                    + "counts.")
    Double sample;

    @Option(names = "--sample-seed", defaultValue = "1", description = "The sample's seed (default: ${DEFAULT-VALUE}).")
    int seed;

    @Option(
            names = "--dependencies",
            paramLabel = "auto|on|off",
            defaultValue = "auto",
            description = "Functional dependencies X -> Y (X of one or two columns) and what normalizing Y out saves:"
                    + " auto searches tables of up to 250,000 rows, on also larger ones on a sample of that many rows"
                    + " (each dependency checked on every row; about 2 s a large table), off none (default:"
                    + " ${DEFAULT-VALUE}).")
    String dependencies;

    @Option(
            names = "--fail-on",
            paramLabel = "SPEC",
            description = "A gate for CI: after writing the report, exit 3 when over waste=PERCENT of the declared"
                    + " bytes is wasted (waste=20%%), over bytes=SIZE (10MB; 10MiB is 10 x 1024^2), or on any finding"
                    + " of a kind (padding, functional_dependency, ...); stderr lists what crossed it. Repeatable.")
    List<String> failOn = new ArrayList<>();

    @picocli.CommandLine.Mixin
    AnalysisOptions analysis = new AnalysisOptions();

    @picocli.CommandLine.Mixin
    OutputOptions out = new OutputOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (top < 0) {
            throw new BadInputException("--top must not be negative");
        }
        InferenceOptions inference = analysis.inference();
        ProfilingOptions profiling = analysis.profiling();
        PrintWriter err = spec.commandLine().getErr();
        if (!(maxBad >= 0 && maxBad <= 1)) {
            throw new BadInputException("--max-bad: expected a fraction from 0 to 1, found " + maxBad);
        }
        List<FailOn> gates = failOn.stream().map(FailOn::parse).toList();
        LoadOptions load =
                new LoadOptions(profiling, maxBad, sample != null ? sample : 100, seed, serverWorkload, fetchRows);
        AnalysisReport report = Analyzer.run(
                new AnalyzeOptions(
                        sources,
                        traces,
                        inference,
                        load,
                        FunctionalDependencies.Options.defaults().withMode(dependencyMode()),
                        new SpaceAnalysis.Options(
                                exactSpace, SpaceAnalysis.Options.defaults().rebuildShare())),
                out.progress(),
                note -> err.println("wastecheck: " + note));
        write(report);
        long bad = report.tables().stream()
                .mapToLong(t -> t.badRows() + t.badValues())
                .sum();
        if (bad > 0 && format != Format.text) {
            err.println("wastecheck: " + bad + " bad rows or values were counted; the report lists where");
        }
        return gate(gates, report, err);
    }

    /** Exit 3 when any {@code --fail-on} threshold is crossed, saying which and what crossed it. */
    static int gate(List<FailOn> gates, AnalysisReport report, PrintWriter err) {
        int code = Main.EXIT_OK;
        for (FailOn g : gates) {
            if (!g.crossed(report)) {
                continue;
            }
            List<FailOn.Crossing> crossed = g.crossings(report);
            code = Main.EXIT_CHECK_FAILED;
            err.println("wastecheck: " + g.why(report, crossed.size()));
            crossed.stream().limit(FailOn.LISTED).forEach(c -> err.println("  " + c));
            if (crossed.size() > FailOn.LISTED) {
                err.println("  ... and " + (crossed.size() - FailOn.LISTED) + " more (the report lists every one)");
            }
        }
        err.flush();
        return code;
    }

    private FunctionalDependencies.Mode dependencyMode() {
        return switch (dependencies.toLowerCase(Locale.ROOT)) {
            case "auto" -> FunctionalDependencies.Mode.AUTO;
            case "on" -> FunctionalDependencies.Mode.ON;
            case "off" -> FunctionalDependencies.Mode.OFF;
            default ->
                throw new BadInputException("--dependencies: expected auto, on or off, found '" + dependencies + "'");
        };
    }

    private void write(AnalysisReport report) throws IOException {
        out.write(spec, w -> render(report, w));
    }

    private void render(AnalysisReport report, PrintWriter w) throws IOException {
        switch (format) {
            case json -> JsonRenderer.write(report, w);
            case markdown -> MarkdownRenderer.write(report, w);
            case html -> HtmlRenderer.write(report, w, top);
            default -> TextRenderer.write(report, w, top, out.width());
        }
        w.flush();
    }
}

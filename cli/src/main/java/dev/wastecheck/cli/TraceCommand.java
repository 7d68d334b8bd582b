package dev.wastecheck.cli;

import dev.wastecheck.cli.render.TraceGenerateRenderer;
import dev.wastecheck.cli.render.TraceStatsRenderer;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.TraceStats;
import dev.wastecheck.traces.generate.WikiGenerator;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code wastecheck trace generate|stats}: the workload side (traces module). Data goes to stdout,
 * diagnostics to stderr; bad input exits 2 with file:line and what was expected.
 */
@Command(
        name = "trace",
        mixinStandardHelpOptions = true,
        description = {"Generate a Wikipedia-style database and trace, or profile a trace.", ""},
        subcommands = {TraceCommand.Generate.class, TraceCommand.Stats.class},
        footer = {
            "",
            "Examples:",
            "  wastecheck trace generate --scale 1000 -o wiki/",
            "  wastecheck trace stats wiki/trace.log --format json"
        })
public final class TraceCommand implements Callable<Integer> {
    enum Format {
        text,
        json
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "a subcommand is required (generate, stats)");
    }

    @Command(
            name = "generate",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "Write a Wikipedia-style mysqldump and a trace of the queries the wiki runs on it.",
                "Write DIR/dump.sql (a mysqldump of MediaWiki's page, revision, text, slots, content, actor, user, "
                        + "comment and watchlist tables) and DIR/trace.log (the SQL the wiki issues), deterministic per seed.",
                "Prints the rows written per table.",
                ""
            },
            footer = {
                "",
                "Examples:",
                "  wastecheck trace generate --scale 1000 --seed 42 -o wiki/     (about 60 MB)",
                "  wastecheck trace generate --scale 5000 --popularity readcount.txt -o elwiki/"
            })
    static final class Generate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(
                names = "--scale",
                required = true,
                paramLabel = "PAGES",
                description =
                        "Number of pages; about 60 KB of dump each at the defaults (12 revisions of ~4.6 KB text).")
        long scale;

        @Option(
                names = "--seed",
                defaultValue = "1",
                description = "Same seed, same bytes (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(
                names = "--skew",
                defaultValue = "1.0",
                paramLabel = "S",
                description = "Zipf exponent of page popularity, weight 1/rank^S (default: ${DEFAULT-VALUE}).")
        double skew;

        @Option(
                names = "--popularity",
                paramLabel = "FILE",
                description =
                        "Counts file, one count per line (e.g. elwiki readcount.txt): use its popularity curve instead of Zipf.")
        Path popularity;

        @Option(names = "--requests", paramLabel = "N", description = "Requests in the trace (default: 20 x pages).")
        Long requests;

        @Option(
                names = "--edit-share",
                defaultValue = "0.02",
                description = "Share of requests that are edits (default: ${DEFAULT-VALUE}).")
        double editShare;

        @Option(
                names = "--watchlist-share",
                defaultValue = "0.01",
                description = "Share of requests reading a watchlist (default: ${DEFAULT-VALUE}).")
        double watchlistShare;

        @Option(
                names = "--scan-share",
                defaultValue = "0",
                description = "Share of requests that rebuild Special:ShortPages by "
                        + "scanning the page table (default: ${DEFAULT-VALUE}).")
        double scanShare;

        @Option(
                names = "--text-median",
                defaultValue = "2000",
                paramLabel = "BYTES",
                description = "Median text size of a revision, lognormal (default: ${DEFAULT-VALUE}).")
        int textMedian;

        @Option(
                names = {"-o", "--output"},
                required = true,
                paramLabel = "DIR",
                description = "Directory for dump.sql and trace.log.")
        Path dir;

        @Option(
                names = "--format",
                defaultValue = "text",
                description = "text or json: the rows written per table, and "
                        + "the files' sizes (default: ${DEFAULT-VALUE}).")
        Format format;

        @Option(
                names = {"-q", "--quiet"},
                description = "Nothing on stderr but errors.")
        boolean quiet;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            if (scale <= 0) {
                throw new BadInputException("--scale: expected a number of pages above 0, found " + scale);
            }
            if (!(skew >= 0) || Double.isInfinite(skew)) {
                throw new BadInputException("--skew: expected a Zipf exponent of 0 or more, found " + skew);
            }
            if (!(editShare >= 0 && editShare <= 1)
                    || !(watchlistShare >= 0 && watchlistShare <= 1)
                    || editShare + watchlistShare > 1) {
                throw new BadInputException(
                        "--edit-share and --watchlist-share: expected fractions from 0 to 1 that sum to at most 1, found "
                                + editShare + " and " + watchlistShare);
            }
            if (textMedian <= 0) {
                throw new BadInputException("--text-median: expected a size in bytes above 0, found " + textMedian);
            }
            if (requests != null && requests < 0) {
                throw new BadInputException("--requests: expected 0 or more, found " + requests);
            }
            try {
                WikiGenerator.Config c = WikiGenerator.Config.defaults(scale, seed)
                        .withZipfExponent(skew)
                        .withEditShare(editShare)
                        .withWatchlistShare(watchlistShare)
                        .withTextMedianBytes(textMedian)
                        .withScanShare(scanShare);
                if (requests != null) {
                    c = c.withRequests(requests);
                }
                if (popularity != null) {
                    if (!Files.isReadable(popularity)) {
                        throw new BadInputException(popularity + ": cannot read the popularity counts file");
                    }
                    c = c.withPopularityFile(popularity);
                }
                WikiGenerator.Result r = new WikiGenerator(c).generate(dir);
                PrintWriter out = spec.commandLine().getOut();
                if (format == Format.json) {
                    TraceGenerateRenderer.json(r, dir, scale, seed, out);
                } else {
                    TraceGenerateRenderer.text(r, out);
                }
                out.flush();
                if (!quiet) {
                    TraceGenerateRenderer.summary(r, dir, err);
                }
                return 0;
            } catch (IOException | UncheckedIOException e) {
                throw new BadInputException(dir + ": cannot write the dump and trace: " + e.getMessage());
            }
        }
    }

    @Command(
            name = "stats",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "Profile a trace: operation mix, hottest tables and columns, skew.",
                "Read a trace (format detected: wastecheck, WikiBench URLs, pageview counts, MySQL general log, "
                        + "PostgreSQL log, plain statements), resolve its statements with Calcite and print the operation mix, "
                        + "hottest tables and columns, and skew.",
                ""
            },
            footer = {
                "",
                "Examples:",
                "  wastecheck trace stats wiki/trace.log",
                "  wastecheck trace stats --schema dump.sql postgresql.log",
                "  wastecheck trace stats wiki/trace.log --format json -o stats.json"
            })
    static final class Stats implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The trace.")
        Path file;

        @Option(
                names = "--schema",
                paramLabel = "FILE",
                description =
                        "DDL or dump whose CREATE TABLEs the statements are resolved against (default: MediaWiki's, as generated).")
        Path schema;

        @Option(
                names = "--max-bad",
                defaultValue = "0.01",
                paramLabel = "FRACTION",
                description = "Share of malformed lines tolerated before failing (default: ${DEFAULT-VALUE}).")
        double maxBad;

        @Option(
                names = "--top",
                defaultValue = "10",
                description = "Rows in the hottest lists (default: ${DEFAULT-VALUE}).")
        int top;

        @Option(
                names = "--format",
                defaultValue = "text",
                description = "text or json (every table and column; " + "docs/json.md) (default: ${DEFAULT-VALUE}).")
        Format format;

        @picocli.CommandLine.Mixin
        OutputOptions out = new OutputOptions();

        @Override
        public Integer call() throws IOException {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new BadInputException(
                        file + ": " + (Files.exists(file) ? "not a readable file" : "no such trace file"));
            }
            if (!(maxBad >= 0 && maxBad <= 1)) {
                throw new BadInputException("--max-bad: expected a fraction from 0 to 1, found " + maxBad);
            }
            if (top < 0) {
                throw new BadInputException("--top: expected 0 or more, found " + top);
            }
            DatabaseSchema s = WikiGenerator.schema();
            if (schema != null) {
                if (!Files.isReadable(schema)) {
                    throw new BadInputException(schema + ": cannot read the schema");
                }
                s = DdlCatalog.read(schema).schema();
                if (s.tables().isEmpty()) {
                    throw new BadInputException(schema + ":1: expected CREATE TABLE statements, found none");
                }
            }
            TraceStats stats =
                    TraceStats.compute(file, s, TraceReadOptions.defaults().withMaxBadFraction(maxBad), out.progress());
            if (stats.report().missing() != null) {
                throw new BadInputException(file + ": " + stats.report().missing());
            }
            try {
                out.write(spec, w -> {
                    if (format == Format.json) {
                        TraceStatsRenderer.json(stats, w);
                    } else {
                        TraceStatsRenderer.text(stats, w, top, out.width());
                    }
                });
            } catch (IOException e) {
                throw new BadInputException(out.output + ": cannot write: " + e.getMessage());
            }
            return 0;
        }
    }
}

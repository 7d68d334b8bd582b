package dev.wastecheck.cli;

import dev.wastecheck.cli.render.TraceGenerateRenderer;
import dev.wastecheck.cli.render.TraceStatsRenderer;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.TraceStats;
import dev.wastecheck.traces.generate.GeneratorInputException;
import dev.wastecheck.traces.generate.WikiGenerator;
import dev.wastecheck.traces.read.TraceFormatException;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.io.IOException;
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
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {"Generate a Wikipedia-style database and trace, or profile a trace.", ""},
        subcommands = {TraceCommand.Generate.class, TraceCommand.Stats.class},
        footer = {"", "Examples:", "  wastecheck trace generate --scale 1000 -o wiki/",
                "  wastecheck trace stats wiki/trace.log --format json"})
public final class TraceCommand implements Callable<Integer> {
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        return 2;
    }

    @Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Write a Wikipedia-style mysqldump and a trace of the queries the wiki runs on it.",
                    "Write DIR/dump.sql (a mysqldump of MediaWiki's page, revision, text, slots, content, actor, user, "
                    + "comment and watchlist tables) and DIR/trace.log (the SQL the wiki issues), deterministic per seed.",
                    "Prints the rows written per table.", ""},
            footer = {"", "Examples:", "  wastecheck trace generate --scale 1000 --seed 42 -o wiki/     (about 60 MB)",
                    "  wastecheck trace generate --scale 5000 --popularity readcount.txt -o elwiki/"})
    static final class Generate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--scale", required = true, paramLabel = "PAGES",
                description = "Number of pages; about 60 KB of dump each at the defaults (12 revisions of ~4.6 KB text).")
        long scale;

        @Option(names = "--seed", defaultValue = "1", description = "Same seed, same bytes (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--skew", defaultValue = "1.0", paramLabel = "S",
                description = "Zipf exponent of page popularity, weight 1/rank^S (default: ${DEFAULT-VALUE}).")
        double skew;

        @Option(names = "--popularity", paramLabel = "FILE",
                description = "Counts file, one count per line (e.g. elwiki readcount.txt): use its popularity curve instead of Zipf.")
        Path popularity;

        @Option(names = "--requests", paramLabel = "N", description = "Requests in the trace (default: 20 x pages).")
        Long requests;

        @Option(names = "--edit-share", defaultValue = "0.02", description = "Share of requests that are edits (default: ${DEFAULT-VALUE}).")
        double editShare;

        @Option(names = "--watchlist-share", defaultValue = "0.01", description = "Share of requests reading a watchlist (default: ${DEFAULT-VALUE}).")
        double watchlistShare;

        @Option(names = "--text-median", defaultValue = "2000", paramLabel = "BYTES",
                description = "Median text size of a revision, lognormal (default: ${DEFAULT-VALUE}).")
        int textMedian;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Directory for dump.sql and trace.log.")
        Path dir;

        @Option(names = "--format", defaultValue = "text", description = "text or json: the rows written per table, and "
                + "the files' sizes (default: ${DEFAULT-VALUE}).")
        Format format;

        @Option(names = {"-q", "--quiet"}, description = "Nothing on stderr but errors.")
        boolean quiet;

        @Override
        public Integer call() {
            java.io.PrintWriter err = spec.commandLine().getErr();
            try {
                WikiGenerator.Config c = WikiGenerator.Config.defaults(scale, seed).withZipfExponent(skew).withEditShare(editShare)
                        .withWatchlistShare(watchlistShare).withTextMedianBytes(textMedian);
                if (requests != null) {
                    c = c.withRequests(requests);
                }
                if (popularity != null) {
                    if (!Files.isReadable(popularity)) {
                        err.println(popularity + ": cannot read the popularity counts file");
                        return 2;
                    }
                    c = c.withPopularityFile(popularity);
                }
                WikiGenerator.Result r = new WikiGenerator(c).generate(dir);
                java.io.PrintWriter out = spec.commandLine().getOut();
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
            } catch (GeneratorInputException e) {
                err.println(e.getMessage());
                return 2;
            } catch (IOException | UncheckedIOException e) {
                err.println(dir + ": " + e.getMessage());
                return 2;
            }
        }
    }

    @Command(name = "stats", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Profile a trace: operation mix, hottest tables and columns, skew.",
                    "Read a trace (format detected: wastecheck, WikiBench URLs, pageview counts, MySQL general log, "
                    + "PostgreSQL log, plain statements), resolve its statements with Calcite and print the operation mix, "
                    + "hottest tables and columns, and skew.", ""},
            footer = {"", "Examples:", "  wastecheck trace stats wiki/trace.log", "  wastecheck trace stats --schema dump.sql postgresql.log",
                    "  wastecheck trace stats wiki/trace.log --format json -o stats.json"})
    static final class Stats implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The trace.")
        Path file;

        @Option(names = "--schema", paramLabel = "FILE",
                description = "DDL or dump whose CREATE TABLEs the statements are resolved against (default: MediaWiki's, as generated).")
        Path schema;

        @Option(names = "--max-bad", defaultValue = "0.01", paramLabel = "FRACTION",
                description = "Share of malformed lines tolerated before failing (default: ${DEFAULT-VALUE}).")
        double maxBad;

        @Option(names = "--top", defaultValue = "10", description = "Rows in the hottest lists (default: ${DEFAULT-VALUE}).")
        int top;

        @Option(names = "--format", defaultValue = "text", description = "text or json (every table and column; "
                + "docs/json.md) (default: ${DEFAULT-VALUE}).")
        Format format;

        @picocli.CommandLine.Mixin
        OutputOptions out = new OutputOptions();

        @Override
        public Integer call() {
            java.io.PrintWriter err = spec.commandLine().getErr();
            if (!Files.isReadable(file)) {
                err.println(file + ": cannot read the trace");
                return 2;
            }
            try {
                DatabaseSchema s = WikiGenerator.schema();
                if (schema != null) {
                    if (!Files.isReadable(schema)) {
                        err.println(schema + ": cannot read the schema");
                        return 2;
                    }
                    s = DdlCatalog.read(schema).schema();
                    if (s.tables().isEmpty()) {
                        err.println(schema + ":1: expected CREATE TABLE statements, found none");
                        return 2;
                    }
                }
                TraceStats stats = TraceStats.compute(file, s, TraceReadOptions.defaults().withMaxBadFraction(maxBad), out.progress());
                try {
                    out.write(spec, w -> {
                        if (format == Format.json) {
                            TraceStatsRenderer.json(stats, w);
                        } else {
                            TraceStatsRenderer.text(stats, w, top, out.width());
                        }
                    });
                } catch (IOException e) {
                    err.println(out.output + ": cannot write: " + e.getMessage());
                    return 2;
                }
                return 0;
            } catch (TraceFormatException e) {
                err.println(e.getMessage());
                return 2;
            } catch (IOException | UncheckedIOException e) {
                err.println(file + ": " + e.getMessage());
                return 2;
            }
        }
    }
}

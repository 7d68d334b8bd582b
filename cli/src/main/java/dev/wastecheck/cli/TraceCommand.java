package dev.wastecheck.cli;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.TraceStats;
import dev.wastecheck.traces.generate.WikiGenerator;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
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
        description = "Generate a Wikipedia-style database and trace, or profile a trace.",
        subcommands = {TraceCommand.Generate.class, TraceCommand.Stats.class})
public final class TraceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a subcommand is required (generate, stats)");
    }

    @Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Write DIR/dump.sql (a mysqldump of MediaWiki's page, revision, text, slots, content, actor, user, "
                    + "comment and watchlist tables) and DIR/trace.log (the SQL the wiki issues), deterministic per seed.",
                    "Prints the rows written per table."},
            footer = {"", "Example:", "  wastecheck trace generate --scale 1000 --seed 42 -o wiki/     (about 60 MB)",
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

        @Override
        public Integer call() throws IOException {
            java.io.PrintWriter err = spec.commandLine().getErr();
            if (scale <= 0) {
                throw new BadInputException("--scale: expected a number of pages above 0, found " + scale);
            }
            if (!(skew >= 0) || Double.isInfinite(skew)) {
                throw new BadInputException("--skew: expected a Zipf exponent of 0 or more, found " + skew);
            }
            if (!(editShare >= 0 && editShare <= 1) || !(watchlistShare >= 0 && watchlistShare <= 1) || editShare + watchlistShare > 1) {
                throw new BadInputException("--edit-share and --watchlist-share: expected fractions from 0 to 1 that sum to at most 1, found "
                        + editShare + " and " + watchlistShare);
            }
            if (textMedian <= 0) {
                throw new BadInputException("--text-median: expected a size in bytes above 0, found " + textMedian);
            }
            if (requests != null && requests < 0) {
                throw new BadInputException("--requests: expected 0 or more, found " + requests);
            }
            try {
                WikiGenerator.Config c = WikiGenerator.Config.defaults(scale, seed).withZipfExponent(skew).withEditShare(editShare)
                        .withWatchlistShare(watchlistShare).withTextMedianBytes(textMedian);
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
                java.io.PrintWriter out = spec.commandLine().getOut();
                for (Map.Entry<String, Long> e : r.rows().entrySet()) {
                    out.printf(Locale.ROOT, "%-10s %d%n", e.getKey(), e.getValue());
                }
                out.flush();
                double seconds = r.dumpNanos() / 1e9;
                err.printf(Locale.ROOT, "wastecheck: wrote %s (%.1f MB in %.2f s, %.0f MB/s) and %s (%,d requests, %,d statements, %.1f MB)%n",
                        dir.resolve("dump.sql"), r.dumpBytes() / 1e6, seconds, r.dumpBytes() / 1e6 / seconds,
                        dir.resolve("trace.log"), r.traceRequests(), r.traceStatements(), r.traceBytes() / 1e6);
                err.flush();
                return 0;
            } catch (IOException | UncheckedIOException e) {
                throw new BadInputException(dir + ": cannot write the dump and trace: " + e.getMessage());
            }
        }
    }

    @Command(name = "stats", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Read a trace (format detected: wastecheck, WikiBench URLs, pageview counts, MySQL general log, "
                    + "PostgreSQL log, plain statements), resolve its statements with Calcite and print the operation mix, "
                    + "hottest tables and columns, and skew."},
            footer = {"", "Example:", "  wastecheck trace stats wiki/trace.log", "  wastecheck trace stats --schema dump.sql postgresql.log"})
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

        @Override
        public Integer call() throws IOException {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new BadInputException(file + ": " + (Files.exists(file) ? "not a readable file" : "no such trace file"));
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
            TraceStats stats = TraceStats.compute(file, s, TraceReadOptions.defaults().withMaxBadFraction(maxBad));
            if (stats.report().missing() != null) {
                throw new BadInputException(file + ": " + stats.report().missing());
            }
            java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
            stats.render(new PrintStream(buf, true, StandardCharsets.UTF_8), top);
            spec.commandLine().getOut().print(buf.toString(StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}

package dev.wastecheck.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.schema.Dialect;
import dev.wastecheck.analyzer.tune.Tuner;
import dev.wastecheck.cli.render.MigrationRenderer;
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

    @Option(names = "--headroom", defaultValue = "" + InferenceOptions.DEFAULT_HEADROOM,
            description = "Growth factor an integer's observed range must still fit (default: ${DEFAULT-VALUE}).")
    double headroom;

    @Option(names = "--id-headroom", defaultValue = "" + InferenceOptions.DEFAULT_ID_HEADROOM,
            description = "The same for identifiers: auto-increment, single-column keys, *_id (default: ${DEFAULT-VALUE}).")
    double idHeadroom;

    @Option(names = "--enum-max", defaultValue = "" + InferenceOptions.DEFAULT_ENUM_MAX,
            description = "Most distinct values a string column may have to become an ENUM (default: ${DEFAULT-VALUE}).")
    int enumMax;

    @Option(names = "--memory-limit", paramLabel = "SIZE", description = "DuckDB's memory limit, e.g. 2GB (default: DuckDB's, 80%% of RAM).")
    String memoryLimit;

    @Option(names = "--temp-dir", paramLabel = "DIR", description = "Where the profiling database spills (default: the system temp folder).")
    Path tempDir;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (headroom < 1 || idHeadroom < 1) {
            throw new UserError("--headroom and --id-headroom must be at least 1");
        }
        if (enumMax < 0) {
            throw new UserError("--enum-max must not be negative");
        }
        Dialect wanted = parseDialect(dialect);
        InferenceOptions inference = new InferenceOptions(headroom, idHeadroom, enumMax);
        ProfilingOptions profiling = new ProfilingOptions(tempDir, memoryLimit, 0, ProfilingOptions.defaults().arrowMemoryLimit());
        Analyzer.Progress progress = Progress.forStderr(quiet);
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
            result = Tuner.tune(session, report, idHeadroom, progress);
        }
        Tuner.Result r = result;
        Output.write(output, spec, w -> {
            if (format == Format.json) {
                json(r, w);
            } else {
                MigrationRenderer.write(r, w);
            }
        });
        PrintWriter err = spec.commandLine().getErr();
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        int left = MigrationRenderer.leftOut(r).size();
        err.printf(Locale.ROOT, "wastecheck tune: %d %s, checked on every row (%d rows); bytes %d -> %d (%s); %d suggestions left out%s%n",
                applied, applied == 1 ? "change" : "changes", r.rowsChecked(), r.bytesBefore(), r.bytesAfter(),
                MigrationRenderer.ratio(r.bytesBefore(), r.bytesAfter()), left, left > 0 ? " (the migration ends with why)" : "");
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

    /** What was checked and measured, for scripts: keys documented in docs/json.md. */
    static void json(Tuner.Result r, PrintWriter w) throws java.io.IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("dialect", r.dialect().key());
        ArrayNode sources = root.putArray("sources");
        r.sources().forEach(sources::add);
        ArrayNode tables = root.putArray("tables");
        for (Tuner.TableResult t : r.tables()) {
            ObjectNode tn = tables.addObject();
            tn.put("name", t.name());
            tn.put("rows", t.rows());
            tn.put("bytes_before", t.bytesBefore());
            tn.put("bytes_after", t.bytesAfter());
            ArrayNode changes = tn.putArray("changes");
            for (Tuner.Checked c : t.changes()) {
                ObjectNode cn = changes.addObject();
                cn.put("column", c.conversion().column().name());
                cn.put("declared_type", c.declaredType());
                cn.put("new_type", c.conversion().target());
                cn.put("kind", c.conversion().kind());
                cn.put("rows_checked", t.rows());
                cn.put("mismatches", c.mismatches());
                if (c.example() != null) {
                    cn.put("first_mismatch", c.example());
                }
                cn.put("applied", c.lossless());
            }
        }
        ArrayNode skipped = root.putArray("left_out");
        for (Tuner.Skipped s : r.skipped()) {
            ObjectNode sn = skipped.addObject();
            sn.put("table", s.table());
            sn.put("column", s.column());
            sn.put("declared_type", s.declaredType());
            sn.put("suggested_type", s.suggestedType());
            sn.put("why", s.why());
        }
        ObjectNode totals = root.putObject("totals");
        totals.put("rows_checked", r.rowsChecked());
        totals.put("bytes_before", r.bytesBefore());
        totals.put("bytes_after", r.bytesAfter());
        mapper.writeValue(w, root);
        w.println();
    }
}

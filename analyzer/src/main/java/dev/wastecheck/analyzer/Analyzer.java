package dev.wastecheck.analyzer;

import dev.wastecheck.analyzer.check.SampleCheck;
import dev.wastecheck.analyzer.check.TuneDecision;
import dev.wastecheck.analyzer.index.IndexAnalysis;
import dev.wastecheck.analyzer.index.ServerIndexUsage;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.infer.IntegerPolicy;
import dev.wastecheck.analyzer.infer.OutOfTypeFloor;
import dev.wastecheck.analyzer.infer.References;
import dev.wastecheck.analyzer.infer.TypeInference;
import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.profile.Profiler;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TraceSummary;
import dev.wastecheck.analyzer.report.WorkloadReport;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import dev.wastecheck.analyzer.workload.WorkloadAnalysis;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.Names;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.DumpFormatException;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.ColumnNotLoaded;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadOptions;
import dev.wastecheck.sources.load.LoadStats;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingOptions;
import dev.wastecheck.sources.load.RowStore;
import dev.wastecheck.sources.load.SourceLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code wastecheck analyze}: reads the sources into the profiling database, profiles every
 * column of every table exactly, infers the tightest lossless types and accounts the bytes.
 */
public final class Analyzer {

    private final InferenceOptions inference;
    private final LoadOptions load;
    private final Consumer<String> notes;
    private final FunctionalDependencies.Options dependencies;

    /**
     * @param dependencies how the functional-dependency search runs ("No Bits Left Behind" §4.2):
     *                     its time per table, its rows, its strategy
     * @param notes        told what was guessed about the inputs (a format read from content, a
     *                     file skipped), one sentence each
     */
    public Analyzer(
            InferenceOptions inference,
            LoadOptions load,
            FunctionalDependencies.Options dependencies,
            Consumer<String> notes) {
        this.inference = inference;
        this.load = load;
        this.dependencies = dependencies;
        this.notes = notes;
    }

    /** The default dependency search. */
    public Analyzer(InferenceOptions inference, LoadOptions load, Consumer<String> notes) {
        this(inference, load, FunctionalDependencies.Options.defaults(), notes);
    }

    /** Every row of the sources, read with these profiling settings; nothing said about the inputs. */
    public Analyzer(InferenceOptions inference, ProfilingOptions profiling) {
        this(inference, LoadOptions.of(profiling), note -> {});
    }

    /**
     * {@code wastecheck analyze}: reads the sources, profiles every column, infers the tightest
     * lossless types and, with traces, analyzes the workload.
     *
     * @param warnings told what was guessed about the inputs, one sentence each
     */
    public static AnalysisReport run(AnalyzeOptions options, Progress progress, Consumer<String> warnings)
            throws IOException, SQLException {
        return new Analyzer(options.inference(), options.load(), options.dependencies(), warnings)
                .analyze(Sources.of(options.sources()), options.traces(), progress, options.space());
    }

    public AnalysisReport analyze(List<Path> sources, Progress progress) throws IOException, SQLException {
        return analyze(Sources.ofFiles(sources), List.of(), progress);
    }

    /**
     * The report of files or a live database. A live database's profile runs inside the server, as
     * queries in its dialect, and no row leaves it; its rows are read into the local profiling
     * database instead when asked ({@link LoadOptions#fetchRows}), for a sample (checked on the
     * server afterwards), and when traces are given: finding hot rows and their scatter needs the
     * rows in the order the server keeps them.
     *
     * @param traces query traces to read the workload from (any format traces/ detects); empty for none
     */
    public AnalysisReport analyze(Sources sources, List<Path> traces, Progress progress)
            throws IOException, SQLException {
        return analyze(sources, traces, progress, SpaceAnalysis.Options.defaults());
    }

    /**
     * {@link #analyze(Sources, List, Progress)}, with the space outside the column values
     * (indexes, free and dead space, the per-table account) measured as {@code space} says.
     */
    public AnalysisReport analyze(Sources sources, List<Path> traces, Progress progress, SpaceAnalysis.Options space)
            throws IOException, SQLException {
        checkTraces(traces);
        boolean live = sources.live() != null;
        if (!live) {
            liveOnly(
                    load.sampling(),
                    "--sample draws rows from a live database's tables (a jdbc: URL); files are read whole: drop --sample");
            liveOnly(
                    load.serverWorkload(),
                    "--server-workload reads what a live server recorded (a jdbc: URL); for files, give the workload's"
                            + " statement log with --trace");
            liveOnly(
                    load.fetchRows(),
                    "--fetch-rows reads a live database's rows (a jdbc: URL) instead of profiling them on the server;"
                            + " files are always read here: drop --fetch-rows");
        }
        boolean remote = live && !load.fetchRows() && traces.isEmpty() && !load.serverWorkload() && !load.sampling();
        if (live && !load.fetchRows() && !remote) {
            notes.accept("the rows are read into the local profiling database: "
                    + (load.sampling() ? "--sample profiles a sample there" : "a trace's hot rows are found there"));
        }
        // The workload's page hot-density needs the tables in the dump's physical order.
        boolean keepOrder = !traces.isEmpty() || (live && load.serverWorkload());
        // the server's index counts before our own queries add to them
        ServerIndexUsage indexUsage = IndexAnalysis.usageBefore(sources.live(), System.getenv());
        // Files without traces: a dump's columns whose every profiled figure the loader counts stay
        // out of DuckDB's tables; a later step that asks for one (ColumnNotLoaded) has the sources
        // loaded again whole, once. With traces the rows are read in order and every column is kept;
        // -Dwastecheck.leaveOut=false keeps every column always. Standard input and pipes are read
        // once, so a second load could not happen: they keep every column too.
        boolean leaveOut = !live
                && sources.rereadable()
                && traces.isEmpty()
                && !keepOrder
                && Boolean.parseBoolean(System.getProperty("wastecheck.leaveOut", "true"));
        if (leaveOut) {
            Set<String> said = new HashSet<>();
            try {
                return loadAndReport(sources, traces, progress, space, remote, keepOrder, indexUsage, true, n -> {
                    said.add(n);
                    notes.accept(n);
                });
            } catch (ColumnNotLoaded e) {
                if (Boolean.getBoolean("wastecheck.logSql")) {
                    System.err.println("-- " + e.getMessage());
                    // the step that asked: what a forecast in DumpLoader.counted missed
                    Arrays.stream(e.getStackTrace())
                            .filter(f -> !f.getClassName().endsWith("LoadedTable"))
                            .findFirst()
                            .ifPresent(f -> System.err.println("--   asked by " + f));
                }
                progress.end();
                // what the first load said about the inputs is said once
                return loadAndReport(sources, traces, progress, space, remote, keepOrder, indexUsage, false, n -> {
                    if (said.add(n)) {
                        notes.accept(n);
                    }
                });
            }
        }
        return loadAndReport(sources, traces, progress, space, remote, keepOrder, indexUsage, false, notes);
    }

    private AnalysisReport loadAndReport(
            Sources sources,
            List<Path> traces,
            Progress progress,
            SpaceAnalysis.Options space,
            boolean remote,
            boolean keepOrder,
            ServerIndexUsage indexUsage,
            boolean leaveOut,
            Consumer<String> notes)
            throws IOException, SQLException {
        LoadOptions options = leaveOut
                ? new LoadOptions(
                        load.profiling().leavingOutCounted(true, wholeUpTo()),
                        load.maxBad(),
                        load.samplePercent(),
                        load.sampleSeed(),
                        load.serverWorkload(),
                        load.fetchRows())
                : load;
        try (LoadedSource source = SourceLoader.of(sources, options, remote, System.getenv(), notes)
                .load(keepOrder, progress)) {
            AnalysisReport withSpace =
                    SpaceAnalysis.add(report(source, traces, progress), source, sources, space, System.getenv(), notes);
            return IndexAnalysis.addTo(withSpace, source, sources.live(), traces, indexUsage, System.getenv(), notes);
        }
    }

    /**
     * The rows up to which a table keeps every column its dependency search may read: all of
     * them where the search reads whole tables of up to {@code maxRows} rows (AUTO), none where it
     * is off, every table where it samples larger ones too (ON).
     */
    private long wholeUpTo() {
        String set = System.getProperty("wastecheck.wholeUpTo"); // for measuring: the rows, or "never"
        if (set != null) {
            return "never".equals(set) ? Long.MAX_VALUE : Long.parseLong(set);
        }
        return switch (dependencies.mode()) {
            case AUTO -> dependencies.maxRows();
            case OFF -> 0;
            case ON -> Long.MAX_VALUE;
        };
    }

    private static void liveOnly(boolean asked, String message) {
        if (asked) {
            throw new DumpFormatException(message);
        }
    }

    /**
     * Reads and loads the sources (files, or a live database's rows) into a profiling database that
     * stays open, for callers that need the rows themselves (tune, replay) besides, or instead of,
     * the report.
     *
     * @param keepOrder keep each table's rows in the source's order (page hot-density, replay)
     */
    public LoadedSource open(Sources sources, boolean keepOrder, Progress progress) throws IOException, SQLException {
        return SourceLoader.of(sources, load, false, System.getenv(), notes).load(keepOrder, progress);
    }

    /** {@link #open(Sources, boolean, Progress)} of files. */
    public LoadedSource open(List<Path> sources, boolean keepOrder, Progress progress)
            throws IOException, SQLException {
        return open(Sources.ofFiles(sources), keepOrder, progress);
    }

    private static void checkTraces(List<Path> traces) {
        for (Path t : traces) {
            if (!Files.isRegularFile(t)) {
                throw new DumpFormatException(t + ": no such trace file");
            }
        }
    }

    /** Profiles the loaded tables, infers types and, with traces, analyzes the workload. */
    public AnalysisReport report(LoadedSource source, List<Path> traces, Progress progress)
            throws IOException, SQLException {
        Dialect dialect = source.dialect();
        RowStore rows = source.rows();
        Map<String, LoadedTable> loaded = source.tables();
        DdlCatalog catalog = source.catalog();
        List<String> names = source.names();
        LoadStats stats = source.stats();
        Path serverTrace = source.serverTrace();
        long started = source.startedAt();
        long loadedAt = source.loadedAt();
        TypeInference types = new TypeInference(dialect, inference);
        Profiler profiler = new Profiler(
                        rows.connection(), rows.sql(), dialect == Dialect.POSTGRESQL, dialect == Dialect.SQLITE)
                .exactDistinctBelow(4L * inference.enumMax());
        List<TableReport> tables = new ArrayList<>();
        progress.begin("profiling", loaded.size());
        long profileStart = System.nanoTime();
        Map<String, List<ColumnProfile>> profiles = new LinkedHashMap<>();
        int done = 0;
        for (LoadedTable t : loaded.values()) {
            try {
                profiles.put(t.def().key(), profiler.profile(t));
            } catch (SQLException e) {
                if (!rows.remote()) {
                    throw e;
                }
                // the server's own failure (a time limit, its memory), said as the server said it
                throw new DumpFormatException(names.get(0)
                        + ": the server could not run the profile of table "
                        + t.def().name() + ": "
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
            progress.advance(++done);
        }
        progress.end();
        long profiledAt = System.nanoTime();
        // References and domains first: a key, its references and a domain's columns take one type.
        References refs = References.find(loaded.values(), profiles, catalog, rows, types::wouldNarrowAlone);
        Map<String, IntegerPolicy.Verdict> verdicts =
                new IntegerPolicy(dialect, inference).decide(refs, loaded.values(), profiles, catalog.counters());
        Set<String> keyParts = keyParts(loaded, catalog);
        for (LoadedTable t : loaded.values()) {
            tables.add(tableReport(
                    rows,
                    types,
                    t,
                    profiles.get(t.def().key()),
                    refs,
                    verdicts,
                    keyParts,
                    stats.table(t.def().name()),
                    catalog,
                    dialect));
        }
        long dependenciesStart = System.nanoTime();
        List<String> warnings = new ArrayList<>(source.warnings());
        if (!rows.remote()) { // §4.2 on the loaded rows; a pushed-down profile leaves them on the server
            tables = FunctionalDependencies.on(source.database(), dialect, dependencies)
                    .addFindings(loaded, tables, warnings);
        } else if (dependencies.mode() != FunctionalDependencies.Mode.OFF) {
            warnings.add("functional dependencies were not searched: the profile ran inside the server and"
                    + " its rows stayed there; --fetch-rows reads them here and searches them");
        }
        long dependenciesMs = (System.nanoTime() - dependenciesStart) / 1_000_000;
        long declared = tables.stream().mapToLong(TableReport::declaredBytes).sum();
        long tight = tables.stream().mapToLong(TableReport::tightBytes).sum();
        long inferredAt = System.nanoTime();
        WorkloadReport workload = null;
        List<Path> allTraces = new ArrayList<>(traces);
        if (serverTrace != null) {
            allTraces.add(serverTrace);
        }
        if (!allTraces.isEmpty()) {
            progress.begin("trace", allTraces.size());
            workload = WorkloadAnalysis.analyze(allTraces, source.database(), loaded, tables, dialect);
            tables = workload.tables();
            if (serverTrace != null) {
                workload = renamed(workload, serverTrace.toString(), source.serverTraceName());
            }
            progress.end();
        }
        long now = System.nanoTime();
        Map<String, Long> timings = new LinkedHashMap<>();
        timings.put("read_and_load", (loadedAt - started) / 1_000_000);
        timings.put("profile", (profiledAt - profileStart) / 1_000_000);
        timings.put("infer", (inferredAt - profiledAt) / 1_000_000 - dependenciesMs);
        timings.put("dependencies", dependenciesMs);
        if (workload != null) {
            timings.put("trace", (now - inferredAt) / 1_000_000);
        }
        List<List<String>> groups = refs.groups().stream()
                .map(g -> g.members().stream().map(References.Col::toString).toList())
                .toList();
        AnalysisReport report = new AnalysisReport(
                        names,
                        dialect.key(),
                        tables,
                        declared,
                        tight,
                        warnings,
                        (loadedAt - started + now - profileStart) / 1_000_000,
                        timings,
                        workload,
                        refs.links(),
                        groups)
                .withServer(source.serverBytes(), serverSpace(source));
        // What tune will do with each suggestion, decided here once, so both reports say the same.
        Map<String, TableDef> defs = new HashMap<>();
        for (LoadedTable t : loaded.values()) {
            defs.put(t.def().name().toLowerCase(Locale.ROOT), t.def());
        }
        return TuneDecision.annotate(checkSample(source, report, progress), defs, dialect, inference.representation());
    }

    /** The workload report with the trace read from {@code file} shown as {@code name}. */
    private WorkloadReport renamed(WorkloadReport w, String file, String name) {
        List<TraceSummary> summaries = new ArrayList<>();
        for (TraceSummary t : w.traces()) {
            summaries.add(
                    t.file().equals(file)
                            ? new TraceSummary(
                                    name,
                                    "server",
                                    t.statements(),
                                    t.resolved(),
                                    t.unresolvedCount(),
                                    t.events(),
                                    t.badLines(),
                                    t.unresolved())
                            : t);
        }
        return new WorkloadReport(summaries, w.access(), w.indexes(), w.tables());
    }

    /** The server's dead and free bytes per table (pgstattuple), as the live loader read them. */
    private static Map<String, AnalysisReport.ServerSpace> serverSpace(LoadedSource source) {
        Map<String, AnalysisReport.ServerSpace> space = new HashMap<>();
        source.serverSpace().forEach((t, v) -> space.put(t, new AnalysisReport.ServerSpace(v[0], v[1])));
        return space;
    }

    /** {@link #report} for a sampled live database: the sample's advice, checked against every row on the server. */
    private AnalysisReport checkSample(LoadedSource source, AnalysisReport r, Progress progress) throws SQLException {
        if (source.server() == null || source.rows().remote()) {
            return r;
        }
        Map<String, TableDef> defs = new HashMap<>();
        for (LoadedTable t : source.tables().values()) {
            defs.put(t.def().name().toLowerCase(Locale.ROOT), t.def());
        }
        progress.begin("checking the sample's advice on the server", 1);
        try {
            return SampleCheck.apply(
                    r,
                    defs,
                    source.relations(),
                    source.server(),
                    source.dialect(),
                    load.samplePercent(),
                    load.sampleSeed());
        } catch (SQLException e) {
            throw new DumpFormatException(source.names().get(0)
                    + ": cannot check the sample's advice on the server: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        } finally {
            progress.end();
        }
    }

    /**
     * /** Columns in a primary, unique or foreign key (either side), as lower-case {@code table.column}. */
    private static Set<String> keyParts(Map<String, LoadedTable> loaded, DdlCatalog catalog) {
        Set<String> out = new HashSet<>();
        for (LoadedTable t : loaded.values()) {
            for (IndexDef ix : t.def().uniqueKeys()) {
                ix.columns().forEach(c -> out.add((t.def().name() + "." + c).toLowerCase(Locale.ROOT)));
            }
        }
        for (DdlCatalog.ForeignKey fk : catalog.foreignKeys()) {
            String from = Names.simpleName(fk.table());
            String to = Names.simpleName(fk.refTable());
            fk.columns().forEach(c -> out.add((from + "." + c).toLowerCase(Locale.ROOT)));
            fk.refColumns().forEach(c -> out.add((to + "." + c).toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    private TableReport tableReport(
            RowStore db,
            TypeInference types,
            LoadedTable t,
            List<ColumnProfile> profiles,
            References refs,
            Map<String, IntegerPolicy.Verdict> verdicts,
            Set<String> keyParts,
            LoadStats.TableStats tstats,
            DdlCatalog catalog,
            Dialect dialect)
            throws SQLException {
        TableDef def = t.def();
        List<ColumnReport> columns = new ArrayList<>();
        for (int i = 0; i < def.columns().size(); i++) {
            ColumnDef col = def.columns().get(i);
            List<String> enumValues = enumCandidate(db, t, i, profiles.get(i));
            String id = (def.name() + "." + col.name()).toLowerCase(Locale.ROOT);
            TypeInference.Context ctx = new TypeInference.Context(
                    verdicts.get(id), refs.referenceOf(def.name(), col.name()), keyParts.contains(id));
            ColumnReport c = types.infer(def, col, profiles.get(i), enumValues, ctx);
            // values outside the declared type (counted while loading) floor the suggestion: never narrower than they
            // need
            columns.add(OutOfTypeFloor.apply(
                    c,
                    col,
                    profiles.get(i),
                    badValues(tstats, col.name()),
                    tstats.outOfTypeValues().get(col.name()),
                    dialect));
        }
        columns = duplicates(db, t, profiles, columns);
        long declared = columns.stream().mapToLong(ColumnReport::declaredBytes).sum();
        long tight = columns.stream().mapToLong(ColumnReport::tightBytes).sum();
        List<String> problems = new ArrayList<>(tstats.examples());
        if (!def.ddlKnown()) {
            problems.add(0, "no CREATE TABLE was read for this table: declared types unknown");
        }
        Map<String, TableReport.BadValues> byColumn = new LinkedHashMap<>();
        for (ColumnDef col : def.columns()) {
            TableReport.BadValues b = badValues(tstats, col.name());
            if (b != null) {
                byColumn.put(col.name(), b);
            }
        }
        return new TableReport(
                def.name(),
                t.rows(),
                declared,
                tight,
                columns,
                tstats.badRows(),
                tstats.badValues(),
                problems,
                catalog.partitionParents().get(def.key()),
                byColumn);
    }

    private static TableReport.BadValues badValues(LoadStats.TableStats tstats, String column) {
        Long n = tstats.badValuesByColumn().get(column);
        return n == null
                ? null
                : new TableReport.BadValues(n, tstats.firstBadValues().get(column));
    }

    /** The distinct values of a short-list string column, when they are safe as ENUM members. */
    private List<String> enumCandidate(RowStore db, LoadedTable t, int i, ColumnProfile p) throws SQLException {
        TypeFamily f = t.def().columns().get(i).type().family();
        if (!(f.isString() || f == TypeFamily.OTHER)
                || p.distinct < 2
                || p.distinct > inference.enumMax()
                || p.nonNull < 10 * p.distinct
                || p.trailingSpace > 0
                || p.markers > 0) {
            return null;
        }
        // a short list the loader kept (text, in DuckDB's byte order), else the table's
        List<String> values = t.facts(i) != null && t.storage()[i] == ColumnStorage.TEXT
                ? t.facts(i).fewValues()
                : null;
        if (values == null) {
            String c = t.physicalColumn(i);
            String s = t.storage()[i] == ColumnStorage.BYTES ? db.sql().bytesAsText(c) : c;
            values = new ArrayList<>();
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery("SELECT DISTINCT " + s + " AS v FROM " + t.relation() + " WHERE " + c
                            + " IS NOT NULL ORDER BY v")) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
        }
        long caseless =
                values.stream().map(v -> v.toLowerCase(Locale.ROOT)).distinct().count();
        boolean printable = values.stream().allMatch(v -> v.chars().noneMatch(ch -> ch == '\\' || ch < 32));
        // MySQL strips trailing spaces from ENUM members: such a value would change.
        boolean noTrailingSpace = values.stream().noneMatch(v -> v.endsWith(" "));
        return caseless == values.size() && printable && noTrailingSpace ? values : null;
    }

    /**
     * Columns that map one-to-one onto an earlier column of the same table (the same values, or
     * the same partition of rows under other names, like Pagila's {@code activebool} and {@code active}).
     */
    private static List<ColumnReport> duplicates(
            RowStore db, LoadedTable t, List<ColumnProfile> profiles, List<ColumnReport> columns) throws SQLException {
        if (t.relation() == null || t.rows() < 2) {
            return columns;
        }
        List<ColumnReport> out = new ArrayList<>(columns);
        int checked = 0;
        boolean[] already = new boolean[columns.size()];
        for (int j = 1; j < columns.size() && checked < 64; j++) {
            ColumnProfile pj = profiles.get(j);
            // Unique columns map one-to-one onto every other unique column: that says nothing.
            if (pj.distinct < 2 || pj.distinct >= pj.nonNull || already[j]) {
                continue;
            }
            for (int i = 0; i < j && checked < 64; i++) {
                ColumnProfile pi = profiles.get(i);
                if (pi.distinct != pj.distinct || pi.nonNull != pj.nonNull || already[i]) {
                    continue;
                }
                checked++;
                if (t.facts(i) != null && t.facts(i).partsDifferently(t.facts(j))) {
                    continue; // their first batch's rows part differently: not one to one
                }
                String a = t.physicalColumn(i);
                String b = t.physicalColumn(j);
                long pairs;
                try (Statement st = db.connection().createStatement();
                        ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT DISTINCT " + a + ", " + b
                                + " FROM " + t.relation() + ")" + db.sql().alias("p"))) {
                    rs.next();
                    pairs = rs.getLong(1);
                    RowStore.drain(rs);
                }
                long groups = pi.distinct + (pi.nulls() > 0 ? 1 : 0);
                if (pairs == groups) {
                    ColumnReport cj = out.get(j);
                    List<Finding> f = new ArrayList<>(cj.findings());
                    f.add(new Finding(
                            FindingKind.DUPLICATE_COLUMN,
                            "maps one-to-one onto " + columns.get(i).name() + " ("
                                    + pi.distinct + " pairs over " + t.rows()
                                    + " rows) in this snapshot: either column determines the"
                                    + " other today (a copy kept on purpose, such as an invoice's billing address, is an observation,"
                                    + " not advice to drop it)",
                            0));
                    out.set(j, cj.withFindings(f));
                    already[j] = true;
                    break;
                }
            }
        }
        return out;
    }
}

package dev.wastecheck.analyzer;

import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.infer.IntegerPolicy;
import dev.wastecheck.analyzer.infer.OutOfTypeFloor;
import dev.wastecheck.analyzer.infer.References;
import dev.wastecheck.analyzer.infer.TypeInference;
import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.DatabaseFileLoader;
import dev.wastecheck.analyzer.load.DumpLoader;
import dev.wastecheck.analyzer.load.LiveLoader;
import dev.wastecheck.analyzer.load.LiveWorkload;
import dev.wastecheck.analyzer.load.LoadStats;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.profile.Profiler;
import dev.wastecheck.analyzer.profile.RowStore;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.WorkloadReport;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.analyzer.source.LiveSource;
import dev.wastecheck.analyzer.source.SourceDetector;
import dev.wastecheck.analyzer.source.SourceDetector.DetectedFile;
import dev.wastecheck.analyzer.source.SourceKind;
import dev.wastecheck.analyzer.source.Sources;
import dev.wastecheck.analyzer.source.SqlScriptReader;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code wastecheck analyze}: reads the sources into the profiling database, profiles every
 * column of every table exactly, infers the tightest lossless types and accounts the bytes.
 */
public final class Analyzer {

    private final InferenceOptions inference;
    private final ProfilingOptions profiling;

    private java.util.function.Consumer<String> notes = note -> {};
    private double maxBad = 1.0;
    private double samplePercent = 100;
    private boolean serverWorkload;
    private boolean fetchRows;
    private int sampleSeed = 1;
    private FunctionalDependencies.Options dependencies = FunctionalDependencies.Options.defaults();

    public Analyzer(InferenceOptions inference, ProfilingOptions profiling) {
        this.inference = inference;
        this.profiling = profiling;
    }

    /** Where to say what was guessed about the inputs (a format read from content, a file skipped), one sentence each. */
    public Analyzer notes(java.util.function.Consumer<String> notes) {
        this.notes = notes;
        return this;
    }

    /**
     * Share of bad rows (rows of the wrong shape, text between statements that is no statement,
     * CSV rows DuckDB's strict reader rejects) past which reading fails with exit 2 naming the
     * first; at or below it they are counted and reported. 1 (the default) never fails.
     */
    public Analyzer maxBad(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new dev.wastecheck.model.BadInputException(
                    "--max-bad must be a fraction from 0 to 1, found " + fraction);
        }
        this.maxBad = fraction;
        return this;
    }

    /**
     * Reads a random {@code percent} of each table's rows from a live database instead of all of
     * them (reproducible with the same {@code seed}); every suggested type is then checked against
     * all rows on the server ({@link dev.wastecheck.analyzer.tune.SampleCheck}). Files are always
     * read whole.
     */
    public Analyzer sample(double percent, int seed) {
        if (!(percent > 0 && percent <= 100)) {
            throw new dev.wastecheck.model.BadInputException(
                    "--sample: expected a percentage above 0 and at most 100, found " + percent);
        }
        this.samplePercent = percent;
        this.sampleSeed = seed;
        return this;
    }

    /**
     * Also reads the workload a live server recorded (pg_stat_statements, performance_schema's
     * statement digests) as a trace ({@link LiveWorkload}); files have none to read.
     */
    public Analyzer fetchRows(boolean fetch) {
        this.fetchRows = fetch;
        return this;
    }

    /** How the functional-dependency search runs (§4.2): its time per table, its memory, its strategy. */
    public Analyzer dependencies(FunctionalDependencies.Options options) {
        this.dependencies = options;
        return this;
    }

    public Analyzer serverWorkload(boolean read) {
        this.serverWorkload = read;
        return this;
    }

    private boolean sampling() {
        return samplePercent < 100;
    }

    public AnalysisReport analyze(List<Path> sources, Progress progress) throws IOException, SQLException {
        return analyze(sources, List.of(), progress);
    }

    /**
     * @param traces query traces to read the workload from (any format traces/ detects); empty for none
     */
    public AnalysisReport analyze(List<Path> sources, List<Path> traces, Progress progress)
            throws IOException, SQLException {
        checkTraces(traces);
        if (sampling()) {
            throw new dev.wastecheck.analyzer.source.DumpFormatException(
                    "--sample draws rows from a live database's tables (a jdbc: URL); files are read whole: drop --sample");
        }
        if (serverWorkload) {
            throw new dev.wastecheck.analyzer.source.DumpFormatException(
                    "--server-workload reads what a live server recorded (a jdbc: URL); for files, give the workload's"
                            + " statement log with --trace");
        }
        if (fetchRows) {
            throw new dev.wastecheck.analyzer.source.DumpFormatException(
                    "--fetch-rows reads a live database's rows (a jdbc: URL) instead of profiling them on the server;"
                            + " files are always read here: drop --fetch-rows");
        }
        // The workload's page hot-density needs the tables in the dump's physical order.
        try (Session session = open(sources, !traces.isEmpty(), progress)) {
            return session.report(traces, progress);
        }
    }

    /** {@link #analyze(List, List, Progress)} or {@link #analyzeLive}, whichever the sources are. */
    public AnalysisReport analyze(Sources sources, List<Path> traces, Progress progress)
            throws IOException, SQLException {
        return sources.live() != null
                ? analyzeLive(sources.live(), System.getenv(), traces, progress)
                : analyze(sources.files(), traces, progress);
    }

    /** {@link #open(List, boolean, Progress)} or {@link #openLive}, whichever the sources are. */
    public Session open(Sources sources, boolean keepOrder, Progress progress) throws IOException, SQLException {
        return sources.live() != null
                ? openLive(sources.live(), System.getenv(), keepOrder, progress)
                : open(sources.files(), keepOrder, progress);
    }

    private static void checkTraces(List<Path> traces) {
        for (Path t : traces) {
            if (!Files.isRegularFile(t)) {
                throw new dev.wastecheck.analyzer.source.DumpFormatException(t + ": no such trace file");
            }
        }
    }

    /**
     * Reads and loads the sources into a profiling database that stays open, for callers that
     * need the rows themselves (replay) besides, or instead of, the report.
     *
     * @param keepOrder keep each table's rows in the source's order (page hot-density, replay)
     */
    public Session open(List<Path> sources, boolean keepOrder, Progress progress) throws IOException, SQLException {
        long started = System.nanoTime();
        List<DetectedFile> files = SourceDetector.detectAll(sources, notes);
        Dialect dialect = files.get(0).dialect();
        List<String> warnings = new ArrayList<>();
        for (DetectedFile f : files) {
            if (f.dialect() != dialect) {
                warnings.add(f.name() + " reads as " + f.dialect().label() + " while "
                        + files.get(0).name() + " reads as " + dialect.label() + "; sizes and types are given for "
                        + dialect.label());
            }
        }
        DdlCatalog catalog = new DdlCatalog(dialect);
        LoadStats stats = new LoadStats();
        stats.maxBad(maxBad);
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        ProfilingDatabase db = new ProfilingDatabase(keepOrder ? profiling.keepingOrder() : profiling);
        try {
            long total = 0;
            for (DetectedFile f : files) {
                total += f.size();
            }
            progress.begin("reading", total);
            long before = 0;
            for (DetectedFile f : files) {
                load(db, f, catalog, stats, loaded, progress, before);
                before += f.size();
            }
            progress.end();
            if (loaded.isEmpty()) {
                throw new dev.wastecheck.analyzer.source.DumpFormatException(
                        String.join(", ", files.stream().map(DetectedFile::name).toList())
                                + ": no table found (no CREATE TABLE, rows or "
                                + "table in " + (files.size() == 1 ? "it" : "them")
                                + "); expected a dump, a database file or data files");
            }
            return session(
                    db,
                    files.stream().map(DetectedFile::name).toList(),
                    dialect,
                    catalog,
                    stats,
                    loaded,
                    warnings,
                    started);
        } catch (IOException | SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /**
     * Reads a live database: its schema from the server's catalog, its rows over one read-only
     * session, into a profiling database that stays open.
     *
     * @param env where a password or user the URL lacks comes from ({@code System.getenv()})
     */
    public Session openLive(LiveSource source, Map<String, String> env, boolean keepOrder, Progress progress)
            throws IOException, SQLException {
        long started = System.nanoTime();
        DdlCatalog catalog = new DdlCatalog(source.dialect());
        LoadStats stats = new LoadStats();
        stats.maxBad(maxBad);
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        ProfilingDatabase db = new ProfilingDatabase(keepOrder ? profiling.keepingOrder() : profiling);
        java.sql.Connection c = null;
        try {
            c = LiveLoader.connect(source, env);
            // before our own statements run, so that they are not part of it
            List<LiveWorkload.Entry> recorded =
                    serverWorkload ? LiveWorkload.read(c, source.dialect(), source.display()) : List.of();
            LiveLoader live = new LiveLoader(db, stats, loaded);
            if (sampling()) {
                live.sample(samplePercent, sampleSeed).keepTransaction();
            }
            live.load(source, c, catalog, progress);
            Session s = liveSession(db, source, catalog, stats, loaded, started, live);
            if (serverWorkload) {
                Path dir = Files.createTempDirectory("wastecheck-server-workload");
                Path file = dir.resolve("workload.sql");
                long written = LiveWorkload.write(recorded, file);
                s.serverTrace = file;
                long calls =
                        recorded.stream().mapToLong(LiveWorkload.Entry::calls).sum();
                s.serverTraceName = LiveWorkload.sourceName(source.dialect()) + " of " + source.display() + " ("
                        + recorded.size() + " statements, " + calls + " calls"
                        + (written < calls ? ", read as " + written + " in proportion" : "") + ")";
            }
            if (sampling()) {
                s.server = c; // the sample's checks run in the same snapshot; the session closes it
                s.relations = live.relations();
            } else {
                c.close();
            }
            return s;
        } catch (IOException | SQLException | RuntimeException e) {
            db.close();
            if (c != null) {
                c.close();
            }
            throw e;
        }
    }

    /**
     * The report of a live database. By default the profile runs inside the server, as queries in
     * its dialect, and no row leaves it ({@link #openRemote}). The rows are read into the local
     * profiling database instead ({@link #openLive}) when asked ({@link #fetchRows}), for a
     * sample (checked on the server afterwards), and when traces are given: finding hot rows and
     * their scatter needs the rows in the order the server keeps them.
     */
    public AnalysisReport analyzeLive(LiveSource source, Map<String, String> env, List<Path> traces, Progress progress)
            throws IOException, SQLException {
        checkTraces(traces);
        boolean remote = !fetchRows && traces.isEmpty() && !serverWorkload && !sampling();
        if (!fetchRows && !remote) {
            notes.accept("the rows are read into the local profiling database: "
                    + (sampling() ? "--sample profiles a sample there" : "a trace's hot rows are found there"));
        }
        try (Session session = remote
                ? openRemote(source, env, progress)
                : openLive(source, env, !traces.isEmpty() || serverWorkload, progress)) {
            return session.report(traces, progress);
        }
    }

    /**
     * Reads a live database's catalog and leaves its rows where they are: the session's report
     * profiles them with queries in the server's dialect, in one read-only snapshot, and only
     * aggregates (and the few distinct values of ENUM candidates) come back.
     */
    public Session openRemote(LiveSource source, Map<String, String> env, Progress progress)
            throws IOException, SQLException {
        long started = System.nanoTime();
        DdlCatalog catalog = new DdlCatalog(source.dialect());
        LoadStats stats = new LoadStats();
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        ProfilingDatabase db = new ProfilingDatabase(profiling);
        java.sql.Connection c = null;
        try {
            c = LiveLoader.connect(source, env);
            LiveLoader live = new LiveLoader(db, stats, loaded);
            live.describe(source, c, catalog, source.profileDialect(), progress);
            Session s = liveSession(db, source, catalog, stats, loaded, started, live);
            s.rows = new RowStore(c, source.profileDialect(), true);
            s.server = c; // closed with the session
            return s;
        } catch (SQLException | RuntimeException e) {
            db.close();
            if (c != null) {
                c.close();
            }
            throw e;
        }
    }

    /** The session of a live source, with the server's own sizes the loader read. */
    private Session liveSession(
            ProfilingDatabase db,
            LiveSource source,
            DdlCatalog catalog,
            LoadStats stats,
            Map<String, LoadedTable> loaded,
            long started,
            LiveLoader live) {
        Session s = session(
                db, List.of(source.display()), source.dialect(), catalog, stats, loaded, new ArrayList<>(), started);
        s.measuredBy(live);
        return s;
    }

    private Session session(
            ProfilingDatabase db,
            List<String> names,
            Dialect dialect,
            DdlCatalog catalog,
            LoadStats stats,
            Map<String, LoadedTable> loaded,
            List<String> warnings,
            long started) {
        stats.checkMaxBad(loaded.values().stream().mapToLong(LoadedTable::rows).sum());
        refreshDefinitions(loaded, catalog);
        warnings.addAll(catalog.warnings());
        warnings.addAll(stats.warnings());
        return new Session(db, names, dialect, catalog, stats, loaded, warnings, started, System.nanoTime());
    }

    /** Loaded sources in an open profiling database. Close it to free the database and its spill files. */
    public final class Session implements AutoCloseable {
        private final ProfilingDatabase db;
        /** Where the rows are queried: the profiling database, or the live server for a pushed-down profile. */
        private RowStore rows;

        private final List<String> names;
        private Map<String, Long> serverBytes = Map.of();
        private Map<String, AnalysisReport.ServerSpace> serverSpace = Map.of();
        /** The server's recorded workload written as a trace ({@code --server-workload}), or null; and its name. */
        private Path serverTrace;

        private String serverTraceName;
        /** A sampled live session's connection, still in its read-only snapshot; else null. */
        private java.sql.Connection server;

        private Map<String, String> relations = Map.of();
        private final Dialect dialect;
        private final DdlCatalog catalog;
        private final LoadStats stats;
        private final Map<String, LoadedTable> loaded;
        private final List<String> warnings;
        private final long started;
        private final long loadedAt;

        Session(
                ProfilingDatabase db,
                List<String> names,
                Dialect dialect,
                DdlCatalog catalog,
                LoadStats stats,
                Map<String, LoadedTable> loaded,
                List<String> warnings,
                long started,
                long loadedAt) {
            this.db = db;
            this.rows = RowStore.local(db);
            this.names = names;
            this.dialect = dialect;
            this.catalog = catalog;
            this.stats = stats;
            this.loaded = loaded;
            this.warnings = warnings;
            this.started = started;
            this.loadedAt = loadedAt;
        }

        public ProfilingDatabase database() {
            return db;
        }

        public Dialect dialect() {
            return dialect;
        }

        /** The loaded tables, keyed by lower-case name, in load order. */
        public Map<String, LoadedTable> tables() {
            return java.util.Collections.unmodifiableMap(loaded);
        }

        public List<String> warnings() {
            return List.copyOf(warnings);
        }

        /** The views the sources created, in their order. */
        public List<DdlCatalog.ViewDef> views() {
            return catalog.views();
        }

        /** The DDL the sources declared: keys, partitions, counters. */
        public DdlCatalog catalog() {
            return catalog;
        }

        /**
         * A relation holding table {@code t}'s rows with its real column names in declared order
         * (BIGINT, VARCHAR or BLOB as loaded), or null when the table has no rows.
         */
        public String namedRelation(LoadedTable t) {
            if (t.relation() == null) {
                return null;
            }
            StringBuilder sb = new StringBuilder("(SELECT ");
            for (int i = 0; i < t.def().columns().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append(t.physicalColumn(i))
                        .append(" AS ")
                        .append(ProfilingDatabase.quote(t.def().columns().get(i).name()));
            }
            return sb.append(" FROM ").append(t.relation()).append(")").toString();
        }

        /** The server's own sizes and space (pgstattuple) of the tables, as the live loader read them. */
        private void measuredBy(LiveLoader live) {
            serverBytes = live.serverBytes();
            Map<String, AnalysisReport.ServerSpace> space = new java.util.HashMap<>();
            live.serverSpace().forEach((t, v) -> space.put(t, new AnalysisReport.ServerSpace(v[0], v[1])));
            serverSpace = space;
        }

        /** Profiles the loaded tables, infers types and, with traces, analyzes the workload. */
        public AnalysisReport report(List<Path> traces, Progress progress) throws IOException, SQLException {
            TypeInference types = new TypeInference(dialect, inference);
            Profiler profiler = new Profiler(
                            rows.connection(), rows.sql(), dialect == Dialect.POSTGRESQL, dialect == Dialect.SQLITE)
                    .exactDistinctBelow(4L * inference.enumMax());
            List<TableReport> tables = new ArrayList<>();
            progress.begin("profiling", loaded.size());
            long profileStart = System.nanoTime();
            Map<String, List<ColumnProfile>> profiles = new java.util.LinkedHashMap<>();
            int done = 0;
            for (LoadedTable t : loaded.values()) {
                try {
                    profiles.put(t.def().key(), profiler.profile(t));
                } catch (SQLException e) {
                    if (!rows.remote()) {
                        throw e;
                    }
                    // the server's own failure (a time limit, its memory), said as the server said it
                    throw new dev.wastecheck.analyzer.source.DumpFormatException(names.get(0)
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
            java.util.Set<String> keyParts = keyParts(loaded, catalog);
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
            List<String> warnings = new ArrayList<>(this.warnings);
            if (!rows.remote()) { // §4.2 on the loaded rows; a pushed-down profile leaves them on the server
                tables = FunctionalDependencies.on(db, dialect, dependencies).addFindings(loaded, tables, warnings);
            }
            long dependenciesMs = (System.nanoTime() - dependenciesStart) / 1_000_000;
            long declared =
                    tables.stream().mapToLong(TableReport::declaredBytes).sum();
            long tight = tables.stream().mapToLong(TableReport::tightBytes).sum();
            long inferredAt = System.nanoTime();
            WorkloadReport workload = null;
            List<Path> allTraces = new ArrayList<>(traces);
            if (serverTrace != null) {
                allTraces.add(serverTrace);
            }
            if (!allTraces.isEmpty()) {
                progress.begin("trace", allTraces.size());
                workload = dev.wastecheck.analyzer.workload.WorkloadAnalysis.analyze(
                        allTraces, db, loaded, tables, dialect);
                tables = workload.tables();
                if (serverTrace != null) {
                    workload = renamed(workload, serverTrace.toString(), serverTraceName);
                }
                progress.end();
            }
            long now = System.nanoTime();
            Map<String, Long> timings = new java.util.LinkedHashMap<>();
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
                    .withServer(serverBytes, serverSpace);
            return checkSample(report, progress);
        }

        /** The workload report with the trace read from {@code file} shown as {@code name}. */
        private WorkloadReport renamed(WorkloadReport w, String file, String name) {
            List<dev.wastecheck.analyzer.report.TraceSummary> summaries = new ArrayList<>();
            for (dev.wastecheck.analyzer.report.TraceSummary t : w.traces()) {
                summaries.add(
                        t.file().equals(file)
                                ? new dev.wastecheck.analyzer.report.TraceSummary(
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

        /** {@link #report} for a sampled live database: the sample's advice, checked against every row on the server. */
        private AnalysisReport checkSample(AnalysisReport r, Progress progress) throws SQLException {
            if (server == null || rows.remote()) {
                return r;
            }
            Map<String, TableDef> defs = new java.util.HashMap<>();
            for (LoadedTable t : loaded.values()) {
                defs.put(t.def().name().toLowerCase(java.util.Locale.ROOT), t.def());
            }
            progress.begin("checking the sample's advice on the server", 1);
            try {
                return dev.wastecheck.analyzer.tune.SampleCheck.apply(
                        r, defs, relations, server, dialect, samplePercent, sampleSeed);
            } catch (SQLException e) {
                throw new dev.wastecheck.analyzer.source.DumpFormatException(names.get(0)
                        + ": cannot check the sample's advice on the server: "
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            } finally {
                progress.end();
            }
        }

        @Override
        public void close() throws SQLException, IOException {
            try {
                db.close();
                if (serverTrace != null) {
                    Files.deleteIfExists(serverTrace);
                    Files.deleteIfExists(serverTrace.getParent());
                }
            } finally {
                if (server != null) {
                    try {
                        server.rollback(); // read-only: nothing to keep
                    } finally {
                        server.close();
                    }
                }
            }
        }
    }

    /**
     * DDL after the rows (pg_dump adds keys and sequence defaults at the end) changes what a table
     * is: the loaded tables take their final declarations when the columns are the same.
     */
    private static void refreshDefinitions(Map<String, LoadedTable> loaded, DdlCatalog catalog) {
        for (Map.Entry<String, LoadedTable> e : loaded.entrySet()) {
            LoadedTable t = e.getValue();
            TableDef latest = catalog.table(t.def().name());
            if (latest != null
                    && latest != t.def()
                    && latest.columns().size() == t.def().columns().size()) {
                e.setValue(new LoadedTable(latest, t.relation(), t.rows(), t.storage()));
            }
        }
    }

    private void load(
            ProfilingDatabase db,
            DetectedFile f,
            DdlCatalog catalog,
            LoadStats stats,
            Map<String, LoadedTable> loaded,
            Progress progress,
            long before)
            throws IOException, SQLException {
        DatabaseFileLoader files = new DatabaseFileLoader(db, stats, loaded);
        String name = f.name().equals(SourceDetector.STDIN) ? "stdin" : DatabaseFileLoader.tableNameOf(f.path());
        switch (f.kind()) {
            case MYSQL_SCRIPT, POSTGRESQL_SCRIPT, SQLITE_SCRIPT -> {
                java.util.concurrent.atomic.AtomicLong raw = new java.util.concurrent.atomic.AtomicLong();
                try (SqlScriptReader reader =
                        new SqlScriptReader(f.open(raw), f.name(), f.kind() == SourceKind.MYSQL_SCRIPT)) {
                    new DumpLoader(db, catalog, stats, loaded, pos -> progress.advance(before + raw.get()))
                            .load(reader);
                }
            }
            case SQLITE_FILE -> files.loadSqlite(plain(db, f), f.name());
            case DUCKDB_FILE -> files.loadDuckDbFile(plain(db, f), f.name());
            case PARQUET -> files.loadFile(plain(db, f), f.name(), "read_parquet", name, false);
            case CSV -> files.loadCsv(f.path(), f.name(), name, f.gzip());
            case JSON -> files.loadJson(f, name);
        }
        progress.advance(before + f.size());
    }

    /** A database file or Parquet that came gzip-compressed: their readers seek, so it is decompressed beside the spill files first. */
    private static Path plain(ProfilingDatabase db, DetectedFile f) throws IOException {
        if (!f.gzip()) {
            return f.path();
        }
        Path out = Files.createTempFile(db.directory(), "gunzipped-", "");
        try (InputStream in = f.open(new java.util.concurrent.atomic.AtomicLong());
                java.io.OutputStream o = Files.newOutputStream(out)) {
            in.transferTo(o);
        }
        return out;
    }

    /** Columns in a primary, unique or foreign key (either side), as lower-case {@code table.column}. */
    private static java.util.Set<String> keyParts(Map<String, LoadedTable> loaded, DdlCatalog catalog) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (LoadedTable t : loaded.values()) {
            for (dev.wastecheck.model.schema.IndexDef ix : t.def().uniqueKeys()) {
                ix.columns().forEach(c -> out.add((t.def().name() + "." + c).toLowerCase(java.util.Locale.ROOT)));
            }
        }
        for (DdlCatalog.ForeignKey fk : catalog.foreignKeys()) {
            String from = dev.wastecheck.model.schema.Names.simpleName(fk.table());
            String to = dev.wastecheck.model.schema.Names.simpleName(fk.refTable());
            fk.columns().forEach(c -> out.add((from + "." + c).toLowerCase(java.util.Locale.ROOT)));
            fk.refColumns().forEach(c -> out.add((to + "." + c).toLowerCase(java.util.Locale.ROOT)));
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
            java.util.Set<String> keyParts,
            LoadStats.TableStats tstats,
            DdlCatalog catalog,
            Dialect dialect)
            throws SQLException {
        TableDef def = t.def();
        List<ColumnReport> columns = new ArrayList<>();
        for (int i = 0; i < def.columns().size(); i++) {
            ColumnDef col = def.columns().get(i);
            List<String> enumValues = enumCandidate(db, t, i, profiles.get(i));
            String id = (def.name() + "." + col.name()).toLowerCase(java.util.Locale.ROOT);
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
        Map<String, TableReport.BadValues> byColumn = new java.util.LinkedHashMap<>();
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
        String c = t.physicalColumn(i);
        String s = t.storage()[i] == ColumnStorage.BYTES ? db.sql().bytesAsText(c) : c;
        // a short list the loader kept (text, in DuckDB's byte order), else the table's
        List<String> values = t.facts(i) != null && t.storage()[i] == ColumnStorage.TEXT
                ? t.facts(i).fewValues()
                : null;
        if (values == null) {
            values = new ArrayList<>();
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery("SELECT DISTINCT " + s + " AS v FROM " + t.relation() + " WHERE " + c
                            + " IS NOT NULL ORDER BY v")) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
        }
        long caseless = values.stream()
                .map(v -> v.toLowerCase(java.util.Locale.ROOT))
                .distinct()
                .count();
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
                    out.set(
                            j,
                            new ColumnReport(
                                    cj.name(),
                                    cj.declaredType(),
                                    cj.suggestedType(),
                                    cj.declaredBytes(),
                                    cj.tightBytes(),
                                    cj.nulls(),
                                    cj.distinct(),
                                    cj.min(),
                                    cj.max(),
                                    f,
                                    cj.distinctEstimated()));
                    already[j] = true;
                    break;
                }
            }
        }
        return out;
    }
}

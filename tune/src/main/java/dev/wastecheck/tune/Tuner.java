package dev.wastecheck.tune;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.analyzer.check.TuneDecision;
import dev.wastecheck.analyzer.index.IndexAnalysis;
import dev.wastecheck.analyzer.index.ServerIndexUsage;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.profile.Profiler;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import dev.wastecheck.analyzer.storage.PgHeap;
import dev.wastecheck.analyzer.storage.StorageModel;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.Names;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadOptions;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code wastecheck tune}: turns an analysis into verified changes of type ("No Bits Left
 * Behind" §4, encoding waste). For every table with suggestions it builds a tuned copy in the
 * profiling database, with each changed column in its new type, and reads every row of the copy
 * back against the original: a change enters the migration only when no value of any row
 * differs in the declared type's terms. The copy is then profiled like the original, so the bytes
 * the migration saves are counted on the tuned values themselves, in the source engine's storage
 * model, not taken from the suggestion.
 */
public final class Tuner {

    /**
     * A change that was checked on every row; {@code mismatches == 0} means it is lossless.
     *
     * @param declaredBytes the column's bytes as declared
     * @param tunedBytes    its bytes in the new type, counted on the tuned copy (= declared when not lossless)
     */
    public record Checked(
            Conversion conversion,
            String declaredType,
            String defaultValue,
            long mismatches,
            String example,
            long declaredBytes,
            long tunedBytes) {
        public boolean lossless() {
            return mismatches == 0;
        }

        Checked withBytes(long declared, long tuned) {
            return new Checked(conversion, declaredType, defaultValue, mismatches, example, declared, tuned);
        }
    }

    /**
     * A suggested change left out, or altered, and why.
     *
     * @param representation the suggestion changes what the application reads ({@link TuneDecision}):
     *                       left out by default, applied with {@code --representation}
     */
    public record Skipped(
            String table,
            String column,
            String declaredType,
            String suggestedType,
            String why,
            boolean representation) {
        public Skipped(String table, String column, String declaredType, String suggestedType, String why) {
            this(table, column, declaredType, suggestedType, why, false);
        }
    }

    /**
     * One table's outcome. A partitioned table's is the sum of its partitions': its changes are
     * those every partition passed, applied once to the parent (PostgreSQL refuses to change a
     * partition's column alone).
     *
     * @param bytesBefore the table's bytes as declared (the analysis' count)
     */
    public record TableResult(String name, long rows, List<Checked> changes, long bytesBefore) {
        public List<Checked> applied() {
            return changes.stream().filter(Checked::lossless).toList();
        }

        /** The table's bytes with the lossless changes applied, each column counted on the tuned copy. */
        public long bytesAfter() {
            return bytesBefore
                    - applied().stream()
                            .mapToLong(c -> c.declaredBytes() - c.tunedBytes())
                            .sum();
        }
    }

    /**
     * What the trace's writes showed ({@link WorkloadVeto}).
     *
     * @param writes     INSERT, UPDATE and DELETE statements on the changed tables
     * @param replayed   those replayed in DuckDB
     * @param unreplayed those DuckDB could not run (counted, never guessed), and the first few with why
     * @param vetoed     changes a traced write vetoed
     */
    public record Workload(
            List<String> traces,
            long writes,
            long replayed,
            long unreplayed,
            List<String> unreplayedExamples,
            int vetoed) {
        /** The header line that says what the advice rests on. */
        public String describe() {
            return "the trace's writes were replayed in DuckDB against the tuned types (" + String.join(", ", traces)
                    + "): "
                    + replayed + " of " + writes + " INSERT/UPDATE/DELETE statements on changed tables ran, " + vetoed
                    + (vetoed == 1 ? " change was" : " changes were") + " vetoed"
                    + (unreplayed > 0 ? "; " + unreplayed + " could not be replayed and vouch for nothing" : "");
        }
    }

    /**
     * @param altered     changes in the migration that differ from analyze's suggestion (a 0/1 column's
     *                    smallint where analyze names boolean) or change what the application reads
     *                    (asked for with {@code --representation}), each with why, as analyze says it
     * @param views       the views over changed tables, in the dump's order: a PostgreSQL migration
     *                    drops them first and re-creates them from the dump's definitions last
     *                    (PostgreSQL refuses to change the type of a column a view reads)
     * @param heap        PostgreSQL only: each changed table's heap bytes before, after, and after with
     *                    its columns in alignment order, row headers and pages included ({@link PgHeap});
     *                    empty for other dialects
     * @param foreignKeys the dump's declared foreign keys: a MySQL migration drops those over changed
     *                    columns and re-creates them after (MariaDB refuses to change a column in one)
     * @param innodb      MySQL only: each table's InnoDB size before and after, data and indexes as
     *                    {@code data_length + index_length} counts them after OPTIMIZE ({@link InnoDbSize})
     * @param workload    what the trace's writes showed, or null without a trace
     */
    public record Result(
            Dialect dialect,
            List<String> sources,
            List<TableResult> tables,
            List<Skipped> skipped,
            List<Skipped> altered,
            List<DdlCatalog.ViewDef> views,
            Map<String, long[]> heap,
            Map<String, String> schemas,
            List<DdlCatalog.ForeignKey> foreignKeys,
            Map<String, long[]> innodb,
            Workload workload) {
        /** What the advice rests on: the snapshot only, or the snapshot and the trace's replayed writes. */
        public String basis() {
            return workload == null ? AnalysisReport.SNAPSHOT_ONLY : workload.describe();
        }

        /** The schema the dump named a table in, or null. */
        public String schemaOf(String table) {
            return schemas.get(table.toLowerCase(Locale.ROOT));
        }

        /** PostgreSQL: the changed tables' heap bytes before and after, or null for other dialects. */
        public long[] heapTotal() {
            if (heap.isEmpty()) {
                return null;
            }
            long[] sum = new long[3];
            for (TableResult t : tables) {
                long[] h = heap.get(t.name());
                if (h != null && !t.applied().isEmpty()) {
                    for (int i = 0; i < 3; i++) {
                        sum[i] += h[i];
                    }
                }
            }
            return sum;
        }

        /** MySQL: the changed tables' InnoDB size before and after, or null for other dialects. */
        public long[] innodbTotal() {
            if (innodb.isEmpty()) {
                return null;
            }
            long[] sum = new long[2];
            for (TableResult t : tables) {
                long[] i = innodb.get(t.name());
                if (i != null && !t.applied().isEmpty()) {
                    sum[0] += i[0];
                    sum[1] += i[1];
                }
            }
            return sum;
        }

        /** Bytes of the tables the migration changes, as declared. */
        public long bytesBefore() {
            return tables.stream()
                    .filter(t -> !t.applied().isEmpty())
                    .mapToLong(TableResult::bytesBefore)
                    .sum();
        }

        /** The same tables' bytes after the migration, counted on the tuned copy. */
        public long bytesAfter() {
            return tables.stream()
                    .filter(t -> !t.applied().isEmpty())
                    .mapToLong(TableResult::bytesAfter)
                    .sum();
        }

        public long rowsChecked() {
            return tables.stream()
                    .filter(t -> !t.changes().isEmpty())
                    .mapToLong(TableResult::rows)
                    .sum();
        }
    }

    private Tuner() {}

    /**
     * {@code wastecheck tune}: reads and analyzes the sources, then checks every suggested change
     * on a tuned copy of the data.
     *
     * @param dialect the dialect the caller wants the migration in, or null for the source's own;
     *                a migration runs on the database the data came from, so any other is refused
     * @throws BadInputException for SQLite sources (no ALTER COLUMN ... TYPE) and for a dialect
     *                           other than the source's
     */
    public static Result tune(
            List<Path> sources,
            InferenceOptions inference,
            ProfilingOptions profiling,
            Dialect dialect,
            Progress progress)
            throws IOException, SQLException {
        return tune(sources, List.of(), inference, profiling, dialect, progress);
    }

    /**
     * @param traces traces whose INSERT, UPDATE and DELETE statements are replayed against the
     *               tuned types: a change under which a traced write would fail or change is left out
     */
    public static Result tune(
            List<Path> sources,
            List<Path> traces,
            InferenceOptions inference,
            ProfilingOptions profiling,
            Dialect dialect,
            Progress progress)
            throws IOException, SQLException {
        return tune(Sources.ofFiles(sources), traces, inference, profiling, dialect, progress);
    }

    /** {@link #tune(List, List, InferenceOptions, ProfilingOptions, Dialect, Progress)} of files or a live database. */
    public static Result tune(
            Sources sources,
            List<Path> traces,
            InferenceOptions inference,
            ProfilingOptions profiling,
            Dialect dialect,
            Progress progress)
            throws IOException, SQLException {
        return tune(sources, traces, inference, profiling, dialect, progress, note -> {});
    }

    /**
     * @param notes told what was guessed about the inputs (a format read from content, a file skipped)
     */
    public static Result tune(
            Sources sources,
            List<Path> traces,
            InferenceOptions inference,
            ProfilingOptions profiling,
            Dialect dialect,
            Progress progress,
            Consumer<String> notes)
            throws IOException, SQLException {
        return tune(sources, traces, inference, profiling, dialect, progress, notes, false)
                .result();
    }

    /**
     * A tuning, and the indexes a dump declares that are redundant, or unused by the traces: what
     * analyze reports of them, found on the same load.
     *
     * @param indexDrops the droppable index findings (redundant or unused), with the storage model's
     *                   bytes; empty for a live source (its catalog and counts are read before
     *                   anything else, by {@link IndexDrops#plan}) and for engines without them
     */
    public record Tuned(Result result, List<IndexFinding> indexDrops) {}

    /**
     * {@link #tune(Sources, List, InferenceOptions, ProfilingOptions, Dialect, Progress, Consumer)},
     * with the index drops of a dump when {@code declaredIndexes} asks for them.
     */
    public static Tuned tune(
            Sources sources,
            List<Path> traces,
            InferenceOptions inference,
            ProfilingOptions profiling,
            Dialect dialect,
            Progress progress,
            Consumer<String> notes,
            boolean declaredIndexes)
            throws IOException, SQLException {
        for (Path t : traces) {
            if (!Files.isRegularFile(t)) {
                throw new BadInputException(t + ": no such trace file");
            }
        }
        Analyzer analyzer = new Analyzer(inference, LoadOptions.of(profiling), notes);
        try (LoadedSource session = analyzer.open(sources, false, progress)) {
            Dialect source = session.dialect();
            if (source == Dialect.SQLITE) {
                throw new BadInputException(
                        "SQLite has no ALTER COLUMN ... TYPE (a column's type changes only by rebuilding its "
                                + "table), and it sizes integers by value anyway: tune writes migrations for MySQL, PostgreSQL and DuckDB; "
                                + "`wastecheck analyze` still shows what SQLite stores");
            }
            if (dialect != null && dialect != source) {
                throw new BadInputException("the source reads as " + source.label() + ", so its migration is in "
                        + source.label()
                        + "'s dialect: a migration runs on the database the data came from (--dialect " + source.key()
                        + "); translating a schema to another engine is not what tune does");
            }
            AnalysisReport report = analyzer.report(session, List.of(), progress);
            Result r = tune(session, report, inference.idHeadroom(), inference.representation(), traces, progress);
            List<IndexFinding> drops = List.of();
            if (declaredIndexes
                    && sources.live() == null
                    && (source == Dialect.POSTGRESQL || source == Dialect.MYSQL)) {
                Map<String, String> env = System.getenv();
                AnalysisReport withSpace =
                        SpaceAnalysis.add(report, session, sources, SpaceAnalysis.Options.defaults(), env, notes);
                drops =
                        IndexAnalysis.addTo(withSpace, session, null, traces, ServerIndexUsage.NONE, env, notes)
                                .indexFindings()
                                .stream()
                                .filter(IndexFinding::droppable)
                                .toList();
            }
            return new Tuned(r, drops);
        }
    }

    public static Result tune(LoadedSource session, AnalysisReport report, Progress progress) throws SQLException {
        try {
            return tune(session, report, InferenceOptions.DEFAULT_ID_HEADROOM, List.of(), progress);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // no trace is read
        }
    }

    /**
     * @param idHeadroom the room analyze left identifiers to grow: an auto-increment counter
     *                   must keep as much below the new type's maximum
     */
    public static Result tune(
            LoadedSource session, AnalysisReport report, double idHeadroom, List<Path> traces, Progress progress)
            throws SQLException, IOException {
        return tune(session, report, idHeadroom, Set.of(), traces, progress);
    }

    /**
     * @param representation lower-case {@code table.column} names, or {@code all}, whose change of what the
     *                       application reads the user asked for ({@link TuneDecision})
     */
    public static Result tune(
            LoadedSource session,
            AnalysisReport report,
            double idHeadroom,
            Set<String> representation,
            List<Path> traces,
            Progress progress)
            throws SQLException, IOException {
        Dialect dialect = session.dialect();
        ProfilingDatabase db = session.database();
        List<TableResult> tables = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        StorageModel model = new StorageModel(dialect);
        Profiler profiler = new Profiler(db, dialect == Dialect.POSTGRESQL, dialect == Dialect.SQLITE);
        Map<String, String> copies = new HashMap<>();
        try {
            return tune(
                    session,
                    report,
                    idHeadroom,
                    representation,
                    traces,
                    progress,
                    db,
                    tables,
                    skipped,
                    model,
                    profiler,
                    copies);
        } finally {
            for (String copy : copies.values()) {
                db.execute("DROP TABLE IF EXISTS " + copy);
            }
        }
    }

    private static Result tune(
            LoadedSource session,
            AnalysisReport report,
            double idHeadroom,
            Set<String> representation,
            List<Path> traces,
            Progress progress,
            ProfilingDatabase db,
            List<TableResult> tables,
            List<Skipped> skipped,
            StorageModel model,
            Profiler profiler,
            Map<String, String> copies)
            throws SQLException, IOException {
        Dialect dialect = session.dialect();
        List<Skipped> altered = new ArrayList<>();
        progress.begin("verifying", session.tables().size());
        int done = 0;
        for (LoadedTable t : session.tables().values()) {
            TableReport tr = report.table(t.def().name());
            List<Conversion> conversions = new ArrayList<>();
            List<ColumnDef> cols = t.def().columns();
            for (int i = 0; i < cols.size(); i++) {
                ColumnReport cr = tr.columns().get(i);
                if (cr.suggestedType().equals(cr.declaredType())) {
                    continue;
                }
                TuneDecision d = TuneDecision.of(t.def(), i, cols.get(i), cr, dialect, representation);
                if (d.conversion() == null) {
                    skipped.add(new Skipped(
                            t.def().name(),
                            cr.name(),
                            cr.declaredType(),
                            cr.suggestedType(),
                            d.reason(),
                            d.representation()));
                } else {
                    conversions.add(d.conversion());
                    if (d.note() != null) {
                        altered.add(new Skipped(
                                t.def().name(),
                                cr.name(),
                                cr.declaredType(),
                                cr.suggestedType(),
                                d.note(),
                                d.representation()));
                    }
                }
            }
            if (!conversions.isEmpty() && t.def().columnIndex("rowid") >= 0) {
                for (Conversion c : conversions) {
                    skipped.add(new Skipped(
                            t.def().name(),
                            c.column().name(),
                            c.column().type().declared(),
                            c.target(),
                            "a column named rowid hides the row id the check on the tuned copy joins by"));
                }
            } else if (!conversions.isEmpty() && t.relation() != null && t.rows() > 0) {
                tables.add(verify(db, profiler, model, t, tr, conversions, skipped, copies));
            } else if (!conversions.isEmpty()) {
                // No rows: nothing can be lost, and a type chosen from no values is no suggestion,
                // unless the type is its group's (a reference takes its key's type, a domain one type).
                List<Checked> together = new ArrayList<>();
                // A partitioned table's own (empty) relation: its partitions decide, through mergePartitions.
                boolean parent =
                        report.tables().stream().anyMatch(x -> t.def().name().equalsIgnoreCase(x.partitionOf()));
                for (Conversion c : parent ? List.<Conversion>of() : conversions) {
                    String d = c.column().defaultValue();
                    String converted = d == null || c.column().autoIncrement() ? null : convertLiteral(db, c, d);
                    if (!inGroup(report, t.def().name(), c.column().name())) {
                        skipped.add(new Skipped(
                                t.def().name(),
                                c.column().name(),
                                c.column().type().declared(),
                                c.target(),
                                "the table has no rows to choose a type from"));
                    } else if (d != null && !c.column().autoIncrement() && converted == null) {
                        skipped.add(new Skipped(
                                t.def().name(),
                                c.column().name(),
                                c.column().type().declared(),
                                c.target(),
                                "its DEFAULT " + ProfilingDatabase.literal(d) + " has no " + c.target()
                                        + " value that gives it back"));
                    } else {
                        together.add(new Checked(c, c.column().type().declared(), converted, 0, null, 0, 0));
                    }
                }
                if (!together.isEmpty()) {
                    tables.add(new TableResult(t.def().name(), 0, together, tr.declaredBytes()));
                }
            }
            progress.advance(++done);
        }
        progress.end();
        DdlCatalog catalog = session.catalog();
        List<TableResult> merged = mergePartitions(report, catalog, tables, skipped);
        merged = keepCounterRoom(merged, catalog.counters(), idHeadroom, dialect, skipped);
        Workload workload = null;
        if (!traces.isEmpty()) {
            WorkloadVeto.Outcome o =
                    WorkloadVeto.replay(traces, session, merged, name -> rootOf(report, name), progress);
            merged = drop(
                    merged,
                    (t, c) -> o.vetoes()
                            .get((t.name() + "." + c.conversion().column().name()).toLowerCase(Locale.ROOT)),
                    skipped);
            workload = new Workload(
                    traces.stream().map(Path::toString).toList(),
                    o.writes(),
                    o.replayed(),
                    o.unreplayedCount(),
                    o.unreplayed(),
                    o.vetoes().size());
        }
        merged = keepKeysTogether(merged, session, report, skipped);
        List<DdlCatalog.ViewDef> views = List.of();
        Map<String, long[]> heap = new LinkedHashMap<>();
        if (dialect == Dialect.POSTGRESQL) {
            views = viewsOver(session.views(), merged);
            merged = noEnumUnderAView(merged, views, skipped);
            views = viewsOver(session.views(), merged);
            progress.begin("heap", merged.size());
            int h = 0;
            for (TableResult t : merged) {
                if (!t.applied().isEmpty()) {
                    heap.put(t.name(), heap(db, session, report, t, copies));
                }
                progress.advance(++h);
            }
            progress.end();
        }
        Map<String, String> schemas = new HashMap<>();
        for (TableResult t : merged) {
            String schema = session.catalog().schemaOf(t.name());
            if (schema != null) {
                schemas.put(t.name().toLowerCase(Locale.ROOT), schema);
            }
        }
        Map<String, long[]> innodb =
                dialect == Dialect.MYSQL ? InnoDbSize.estimate(db, session, merged, copies, progress) : Map.of();
        return new Result(
                dialect,
                report.sources(),
                merged,
                skipped,
                stillApplied(merged, altered),
                views,
                heap,
                schemas,
                catalog.foreignKeys(),
                innodb,
                workload);
    }

    /**
     * A changed PostgreSQL table's heap before and after ({@link PgHeap}): the original rows, and
     * the same rows with each applied change's column read from the tuned copy. A partitioned
     * table's is its partitions' sum.
     */
    private static long[] heap(
            ProfilingDatabase db,
            LoadedSource session,
            AnalysisReport report,
            TableResult t,
            Map<String, String> copies)
            throws SQLException {
        long[] out = new long[3];
        for (LoadedTable part : session.tables().values()) {
            boolean mine = part.def().name().equalsIgnoreCase(t.name())
                    || t.name().equalsIgnoreCase(rootOf(report, part.def().name()));
            String copy = copies.get(part.def().name());
            if (!mine || part.relation() == null || part.rows() == 0 || copy == null) {
                continue;
            }
            List<PgHeap.Layout> before = new ArrayList<>();
            List<PgHeap.Layout> after = new ArrayList<>();
            List<String> original = new ArrayList<>();
            List<String> tuned = new ArrayList<>();
            for (int i = 0; i < part.def().columns().size(); i++) {
                ColumnDef col = part.def().columns().get(i);
                before.add(PgHeap.layout(col.type()));
                original.add("o." + part.physicalColumn(i));
                Checked applied = t.applied().stream()
                        .filter(c -> c.conversion().column().name().equalsIgnoreCase(col.name()))
                        .findFirst()
                        .orElse(null);
                if (applied == null) {
                    after.add(PgHeap.layout(col.type()));
                    tuned.add("o." + part.physicalColumn(i));
                } else {
                    after.add(PgHeap.layout(tunedType(applied.conversion(), Dialect.POSTGRESQL)));
                    tuned.add("n.v" + i);
                }
            }
            String from = part.relation() + " AS o JOIN " + copy + " AS n ON o.rowid = n.wc_row";
            // The same tuned columns in alignment order (widest fixed first, varlena last): what
            // a rewrite of the table could add, which no ALTER can do.
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < after.size(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingInt((Integer i) -> after.get(i).length() < 0 ? 1 : 0)
                    .thenComparingInt(i -> -after.get(i).align())
                    .thenComparingInt(i -> -after.get(i).length()));
            long[] heap = PgHeap.heapBytes(
                    db.connection(),
                    db.allocator(),
                    List.of(
                            new PgHeap.Variant(before, original),
                            new PgHeap.Variant(after, tuned),
                            new PgHeap.Variant(
                                    order.stream().map(after::get).toList(),
                                    order.stream().map(tuned::get).toList())),
                    from);
            for (int k = 0; k < 3; k++) {
                out[k] += heap[k];
            }
        }
        return out;
    }

    /** The alterations whose change is still in the migration (a later rule may have left it out). */
    private static List<Skipped> stillApplied(List<TableResult> tables, List<Skipped> altered) {
        Set<String> applied = new HashSet<>();
        for (TableResult t : tables) {
            for (Checked c : t.applied()) {
                applied.add((t.name() + "." + c.conversion().column().name()).toLowerCase(Locale.ROOT));
            }
        }
        return altered.stream()
                .filter(a -> applied.contains((a.table() + "." + a.column()).toLowerCase(Locale.ROOT)))
                .toList();
    }

    /** Whether {@code table.column} belongs to one of the report's groups (a key with its references, a domain). */
    private static boolean inGroup(AnalysisReport report, String table, String column) {
        String id = table + "." + column;
        return report.domains().stream().anyMatch(g -> g.stream().anyMatch(m -> m.equalsIgnoreCase(id)));
    }

    /** Drops the applied changes {@code reason} names (non-null), listing each as left out with it. */
    private static List<TableResult> drop(
            List<TableResult> tables, BiFunction<TableResult, Checked, String> reason, List<Skipped> skipped) {
        List<TableResult> out = new ArrayList<>();
        for (TableResult t : tables) {
            List<Checked> keep = new ArrayList<>();
            for (Checked c : t.changes()) {
                String why = c.lossless() ? reason.apply(t, c) : null;
                if (why == null) {
                    keep.add(c);
                } else {
                    skipped.add(new Skipped(
                            t.name(),
                            c.conversion().column().name(),
                            c.declaredType(),
                            c.conversion().target(),
                            why));
                }
            }
            out.add(keep.size() == t.changes().size() ? t : new TableResult(t.name(), t.rows(), keep, t.bytesBefore()));
        }
        return out;
    }

    /**
     * An auto-increment column hands out its counter's next value, which can lie far beyond the
     * column's largest (rows deleted): the new type must hold it with the room analyze gave ids.
     */
    static List<TableResult> keepCounterRoom(
            List<TableResult> tables,
            Map<String, BigInteger> counters,
            double idHeadroom,
            Dialect dialect,
            List<Skipped> skipped) {
        return drop(
                tables,
                (t, c) -> {
                    BigInteger next = counters.get(
                            (t.name() + "." + c.conversion().column().name()).toLowerCase(Locale.ROOT));
                    SqlType type = TypeParser.parse(c.conversion().target(), dialect);
                    if (next == null || !type.isInteger()) {
                        return null;
                    }
                    BigInteger needed = new BigDecimal(next)
                            .multiply(BigDecimal.valueOf(idHeadroom))
                            .setScale(0, RoundingMode.UP)
                            .toBigInteger();
                    return needed.compareTo(type.intMax()) <= 0
                            ? null
                            : "its counter hands out " + next + " next: "
                                    + c.conversion().target() + " (up to " + type.intMax() + ") leaves it less than x"
                                    + trim(idHeadroom) + " room";
                },
                skipped);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    /**
     * The two sides of a key change together or not at all, and so do the columns of one group
     * (a key with every column analyze found to refer to it, declared, by name or by values; a
     * domain such as MediaWiki's namespaces): when one member's change is left out, the others'
     * are too. A declared FOREIGN KEY's two sides must also end in the same type: MySQL refuses, or
     * later fails to restore, a key whose sides differ.
     */
    static List<TableResult> keepKeysTogether(
            List<TableResult> tables, LoadedSource session, AnalysisReport report, List<Skipped> skipped) {
        Dialect dialect = session.dialect();
        List<String[]> links = new ArrayList<>();
        for (DdlCatalog.ForeignKey fk : session.catalog().foreignKeys()) {
            List<String> refs = fk.refColumns();
            if (refs.isEmpty()) { // REFERENCES t: t's primary key
                TableDef ref = session.catalog().table(fk.refTable());
                refs = ref == null ? List.of() : ref.primaryKey();
            }
            for (int i = 0; i < Math.min(fk.columns().size(), refs.size()); i++) {
                links.add(new String[] {fk.table() + "." + fk.columns().get(i), fk.refTable() + "." + refs.get(i)});
            }
        }
        Map<String, String> declared = new HashMap<>();
        for (TableReport t : report.tables()) {
            for (ColumnReport c : t.columns()) {
                declared.put(rooted(report, t.name() + "." + c.name()).toLowerCase(Locale.ROOT), c.declaredType());
            }
        }
        // Every member of a group with a suggestion must be applied, or none is.
        List<Set<String>> groups = new ArrayList<>();
        Map<String, String> suggested = new HashMap<>();
        for (TableReport t : report.tables()) {
            for (ColumnReport c : t.columns()) {
                if (!c.suggestedType().equals(c.declaredType())) {
                    suggested.put(
                            rooted(report, t.name() + "." + c.name()).toLowerCase(Locale.ROOT), c.suggestedType());
                }
            }
        }
        for (List<String> g : report.domains()) {
            Set<String> members = new LinkedHashSet<>();
            g.forEach(m -> members.add(rooted(report, m).toLowerCase(Locale.ROOT)));
            groups.add(members);
        }
        while (true) {
            Map<String, String> target = new HashMap<>();
            for (TableResult t : tables) {
                for (Checked c : t.applied()) {
                    target.put(
                            (t.name() + "." + c.conversion().column().name()).toLowerCase(Locale.ROOT),
                            c.conversion().target());
                }
            }
            Map<String, String> conflicts = new HashMap<>();
            for (String[] l : links) {
                // A partition's columns change with its partitioned table's.
                String a = rooted(report, simple(l[0])).toLowerCase(Locale.ROOT);
                String b = rooted(report, simple(l[1])).toLowerCase(Locale.ROOT);
                if (!target.containsKey(a) && !target.containsKey(b)) {
                    continue;
                }
                String ta = target.getOrDefault(a, declared.get(a));
                String tb = target.getOrDefault(b, declared.get(b));
                if (ta == null || tb == null || !sameType(ta, tb, dialect)) {
                    conflicts.putIfAbsent(
                            a,
                            "a declared foreign key joins it to " + l[1] + ", which "
                                    + (target.containsKey(b) ? "becomes " : "stays ") + tb
                                    + ": both sides of a key change together or not at all");
                    conflicts.putIfAbsent(
                            b,
                            "a declared foreign key joins it to " + l[0] + ", which "
                                    + (target.containsKey(a) ? "becomes " : "stays ") + ta
                                    + ": both sides of a key change together or not at all");
                }
            }
            for (Set<String> g : groups) {
                String missing = g.stream()
                        .filter(m -> suggested.containsKey(m) && !target.containsKey(m))
                        .findFirst()
                        .orElse(null);
                if (missing == null) {
                    continue;
                }
                for (String m : g) {
                    if (target.containsKey(m)) {
                        conflicts.putIfAbsent(
                                m,
                                "it changes with " + missing + " (one key with its references, or one domain:"
                                        + " they take one type), which is left out: together or not at all");
                    }
                }
            }
            if (conflicts.isEmpty()) {
                return tables;
            }
            tables = drop(
                    tables,
                    (t, c) -> conflicts.get(
                            (t.name() + "." + c.conversion().column().name()).toLowerCase(Locale.ROOT)),
                    skipped);
        }
    }

    private static String simple(String tableDotColumn) {
        int dot = tableDotColumn.lastIndexOf('.');
        return Names.simpleName(tableDotColumn.substring(0, dot)) + tableDotColumn.substring(dot);
    }

    /** Two type spellings name the same type: the same integer width and sign, or the same text. */
    static boolean sameType(String a, String b, Dialect dialect) {
        SqlType x = TypeParser.parse(a, dialect);
        SqlType y = TypeParser.parse(b, dialect);
        if (x.isInteger() && y.isInteger()) {
            return x.intBits() == y.intBits() && x.unsigned() == y.unsigned();
        }
        return norm(a).equals(norm(b));
    }

    private static String norm(String type) {
        return type.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim();
    }

    /**
     * A view's definition compares a text column with text literals as pg_dump wrote them
     * ({@code code = '1005'::text}), or computes with it: with the column in another kind of type
     * (a number, date, enum or boolean where it was text; a boolean where it was a number)
     * re-creating the view would fail, or order and compare otherwise. A view that only selects
     * the column re-creates fine and vetoes nothing.
     */
    static List<TableResult> noEnumUnderAView(
            List<TableResult> tables, List<DdlCatalog.ViewDef> views, List<Skipped> skipped) {
        return drop(
                tables,
                (t, c) -> {
                    TypeFamily f = c.conversion().column().type().family();
                    boolean text = f.isString() || f == TypeFamily.OTHER;
                    boolean toBoolean = c.conversion().target().equalsIgnoreCase("boolean");
                    if (!text && !toBoolean) {
                        return null; // numbers and times compare across widths
                    }
                    String column = c.conversion().column().name();
                    for (DdlCatalog.ViewDef v : views) {
                        if (!mentionsAny(v.text(), Set.of(t.name().toLowerCase(Locale.ROOT)))) {
                            continue;
                        }
                        String use = usedInExpression(v.text(), column);
                        if (use != null) {
                            return "view " + v.name() + " uses it in an expression (" + use + "), written for "
                                    + c.declaredType() + ", which "
                                    + c.conversion().target()
                                    + " would not compare or compute the same way";
                        }
                    }
                    return null;
                },
                skipped);
    }

    /**
     * The first place a view's text uses {@code column} other than as a plain item of its select
     * list ({@code SELECT t.col, ...}, {@code t.col AS x}), shown with its neighbours, or null.
     */
    static String usedInExpression(String viewText, String column) {
        Matcher m = Pattern.compile(
                        "(?<![\\p{L}\\p{N}_$])(?:[\\p{L}_][\\p{L}\\p{N}_$]*\\.)?\"?" + Pattern.quote(column)
                                + "\"?(?![\\p{L}\\p{N}_$])",
                        Pattern.CASE_INSENSITIVE)
                .matcher(viewText);
        while (m.find()) {
            String before = viewText.substring(0, m.start()).stripTrailing().toLowerCase(Locale.ROOT);
            String after = viewText.substring(m.end()).stripLeading().toLowerCase(Locale.ROOT);
            boolean listed = before.endsWith(",") || before.endsWith("select") || before.endsWith("distinct");
            boolean ends = after.isEmpty()
                    || after.startsWith(",")
                    || after.startsWith(";")
                    || after.matches("(?s)(as|from)\\b.*");
            if (!(listed && ends)) {
                int from = Math.max(0, m.start() - 20);
                int to = Math.min(viewText.length(), m.end() + 20);
                return viewText.substring(from, to).replaceAll("\\s+", " ").strip();
            }
        }
        return null;
    }

    /** {@code table.column} with a partition's table replaced by its partitioned table. */
    private static String rooted(AnalysisReport report, String tableDotColumn) {
        int dot = tableDotColumn.indexOf('.');
        String root = rootOf(report, tableDotColumn.substring(0, dot));
        return root == null ? tableDotColumn : root + tableDotColumn.substring(dot);
    }

    /** The top partitioned table above a partition, or null for a table that is no partition. */
    private static String rootOf(AnalysisReport report, String table) {
        String parent = null;
        String at = table;
        for (int depth = 0; depth < 16; depth++) {
            String here = at;
            String up = report.tables().stream()
                    .filter(t -> t.name().equalsIgnoreCase(here))
                    .findFirst()
                    .map(TableReport::partitionOf)
                    .orElse(null);
            if (up == null) {
                return parent;
            }
            parent = up;
            at = up;
        }
        return parent;
    }

    /** The views that read a changed table, or a view that does, in the dump's order. */
    static List<DdlCatalog.ViewDef> viewsOver(List<DdlCatalog.ViewDef> all, List<TableResult> tables) {
        Set<String> names = new HashSet<>();
        for (TableResult t : tables) {
            if (!t.applied().isEmpty()) {
                names.add(t.name().toLowerCase(Locale.ROOT));
            }
        }
        Set<DdlCatalog.ViewDef> chosen = new LinkedHashSet<>();
        boolean grew = !names.isEmpty();
        while (grew) {
            grew = false;
            for (DdlCatalog.ViewDef v : all) {
                if (!chosen.contains(v) && mentionsAny(v.text(), names)) {
                    chosen.add(v);
                    names.add(Names.simpleName(v.name()).toLowerCase(Locale.ROOT));
                    grew = true;
                }
            }
        }
        return all.stream().filter(chosen::contains).toList();
    }

    /** Whether a view's text names one of the tables (a word match: naming one too many only re-creates a view). */
    private static boolean mentionsAny(String text, Set<String> names) {
        String lower = text.toLowerCase(Locale.ROOT);
        Matcher m = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*").matcher(lower);
        while (m.find()) {
            if (names.contains(m.group())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Folds each partitioned table's partitions into one result for the parent: a column changes
     * when every partition with rows passed the same change, and is left out otherwise.
     */
    static List<TableResult> mergePartitions(
            AnalysisReport report, DdlCatalog catalog, List<TableResult> tables, List<Skipped> skipped) {
        Map<String, List<TableResult>> byParent = new LinkedHashMap<>();
        List<TableResult> out = new ArrayList<>();
        Set<String> parents = new HashSet<>();
        for (TableReport t : report.tables()) {
            String root = rootOf(report, t.name());
            if (root != null) {
                parents.add(root.toLowerCase(Locale.ROOT));
            }
        }
        for (TableResult t : tables) {
            String parent = rootOf(report, t.name());
            if (parent == null && parents.contains(t.name().toLowerCase(Locale.ROOT))) {
                parent = t.name(); // an inheritance parent's own rows: its ALTER reaches its children too
            }
            if (parent == null) {
                out.add(t);
            } else {
                byParent.computeIfAbsent(parent.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(t);
            }
        }
        for (Map.Entry<String, List<TableResult>> e : byParent.entrySet()) {
            String parent = report.tables().stream()
                    .map(TableReport::name)
                    .filter(n -> n.equalsIgnoreCase(e.getKey()))
                    .findFirst()
                    .orElse(e.getKey());
            List<String> partitions = report.tables().stream()
                    .filter(t -> t.rows() > 0
                            && (e.getKey().equalsIgnoreCase(rootOf(report, t.name()))
                                    || e.getKey().equalsIgnoreCase(t.name())))
                    .map(TableReport::name)
                    .toList();
            Set<String> keyColumns = new HashSet<>();
            for (TableReport t : report.tables()) {
                if (t.name().equalsIgnoreCase(e.getKey()) || e.getKey().equalsIgnoreCase(rootOf(report, t.name()))) {
                    catalog.partitionKeys()
                            .getOrDefault(t.name().toLowerCase(Locale.ROOT), List.of())
                            .forEach(k -> keyColumns.add(k.toLowerCase(Locale.ROOT)));
                }
            }
            List<TableResult> parts = e.getValue();
            long rows = parts.stream().mapToLong(TableResult::rows).sum();
            long before = report.tables().stream()
                    .filter(t -> partitions.contains(t.name()))
                    .mapToLong(TableReport::declaredBytes)
                    .sum();
            Map<String, List<Checked>> byColumn = new LinkedHashMap<>();
            for (TableResult p : parts) {
                for (Checked c : p.changes()) {
                    byColumn.computeIfAbsent(c.conversion().column().name(), k -> new ArrayList<>())
                            .add(c);
                }
            }
            List<Checked> merged = new ArrayList<>();
            for (Map.Entry<String, List<Checked>> col : byColumn.entrySet()) {
                List<Checked> cs = col.getValue();
                Checked first = cs.get(0);
                boolean everyPartition = cs.size() == partitions.size();
                // An enum's type is named after its table: partitions agree when their members do.
                boolean same = cs.stream()
                        .allMatch(c -> c.conversion()
                                        .duckType()
                                        .equals(first.conversion().duckType())
                                && (c.conversion().kind() == FindingKind.LOW_CARDINALITY
                                        || c.conversion()
                                                .target()
                                                .equals(first.conversion().target())));
                boolean lossless = cs.stream().allMatch(Checked::lossless);
                boolean key = keyColumns.contains(col.getKey().toLowerCase(Locale.ROOT));
                if (everyPartition && same && lossless && !key) {
                    Conversion c = first.conversion();
                    if (c.kind() == FindingKind.LOW_CARDINALITY
                            && !c.target().toLowerCase(Locale.ROOT).startsWith("enum")) {
                        String name = Conversion.enumTypeName(parent, c.column().name());
                        c = new Conversion(
                                c.index(),
                                c.column(),
                                c.kind(),
                                name,
                                c.duckType(),
                                c.toTuned(),
                                c.originalKey(),
                                c.tunedKey(),
                                c.using() == null ? null : c.using().replace(c.target(), name));
                    }
                    merged.add(new Checked(
                            c,
                            first.declaredType(),
                            first.defaultValue(),
                            0,
                            null,
                            cs.stream().mapToLong(Checked::declaredBytes).sum(),
                            cs.stream().mapToLong(Checked::tunedBytes).sum()));
                } else {
                    String why = key
                            ? "it is in the partition key of " + parent + ", which PostgreSQL will not change"
                            : !lossless
                                    ? "a partition's values would change under "
                                            + first.conversion().target()
                                    : !same
                                            ? "its partitions call for different types ("
                                                    + cs.stream()
                                                            .map(c -> c.conversion()
                                                                    .target())
                                                            .distinct()
                                                            .collect(Collectors.joining(", "))
                                                    + "): a partitioned table's column takes one"
                                            : "not every partition can take "
                                                    + first.conversion().target();
                    skipped.add(new Skipped(
                            parent,
                            col.getKey(),
                            first.declaredType(),
                            first.conversion().target(),
                            why));
                }
            }
            out.add(new TableResult(parent, rows, merged, before));
        }
        return out;
    }

    private static TableResult verify(
            ProfilingDatabase db,
            Profiler profiler,
            StorageModel model,
            LoadedTable t,
            TableReport tr,
            List<Conversion> conversions,
            List<Skipped> skipped,
            Map<String, String> copies)
            throws SQLException {
        // A column's DEFAULT is a value too: a change that cannot carry it would break inserts
        // that omit the column.
        List<Conversion> candidates = new ArrayList<>();
        List<String> defaults = new ArrayList<>();
        for (Conversion c : conversions) {
            String d = c.column().defaultValue();
            if (d == null || c.column().autoIncrement()) {
                candidates.add(c);
                defaults.add(null);
                continue;
            }
            String converted = convertLiteral(db, c, d);
            if (converted == null) {
                skipped.add(new Skipped(
                        t.def().name(),
                        c.column().name(),
                        c.column().type().declared(),
                        c.target(),
                        "its DEFAULT " + ProfilingDatabase.literal(d) + " has no " + c.target()
                                + " value that gives it back; " + "change the default first"));
            } else {
                candidates.add(c);
                defaults.add(converted);
            }
        }
        List<Checked> checked = new ArrayList<>();
        if (candidates.isEmpty()) {
            return new TableResult(t.def().name(), t.rows(), checked, tr.declaredBytes());
        }
        String copy = db.nextRelationName();
        StringBuilder sql = new StringBuilder("CREATE TABLE " + copy + " AS SELECT rowid AS wc_row");
        for (Conversion c : candidates) {
            // Named by position: user names may differ only in case, or be wc_row.
            sql.append(",\n  CAST(")
                    .append(Conversion.apply(c.toTuned(), t.physicalColumn(c.index())))
                    .append(" AS ")
                    .append(c.duckType())
                    .append(") AS v")
                    .append(c.index());
        }
        sql.append("\nFROM ").append(t.relation());
        db.execute(sql.toString());
        copies.put(t.def().name(), copy); // dropped when tune ends: the heap estimate reads it again
        {
            // Every row of the copy against its original, by row id: a value lost, changed, or
            // turned into NULL is a mismatch.
            StringBuilder check = new StringBuilder("SELECT count(*)");
            StringBuilder example = new StringBuilder();
            for (Conversion c : candidates) {
                String o = "o." + t.physicalColumn(c.index());
                String n = "n.v" + c.index();
                String bad = c.mismatch(o, n);
                check.append(",\n  count(*) FILTER (WHERE ").append(bad).append(")");
                check.append(",\n  arg_min(CAST(")
                        .append(o)
                        .append(" AS VARCHAR), o.rowid) FILTER (WHERE ")
                        .append(bad)
                        .append(")");
            }
            check.append("\nFROM ")
                    .append(t.relation())
                    .append(" AS o JOIN ")
                    .append(copy)
                    .append(" AS n ON o.rowid = n.wc_row");
            long[] mismatches = new long[candidates.size()];
            String[] examples = new String[candidates.size()];
            long joined;
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery(check.toString())) {
                rs.next();
                joined = rs.getLong(1);
                for (int k = 0; k < candidates.size(); k++) {
                    mismatches[k] = rs.getLong(2 + 2 * k);
                    examples[k] = rs.getString(3 + 2 * k);
                }
            }
            if (joined != t.rows()) {
                throw new IllegalStateException(
                        "the tuned copy of " + t.def().name() + " has " + joined + " rows, the table " + t.rows());
            }
            for (int k = 0; k < candidates.size(); k++) {
                Conversion c = candidates.get(k);
                long declared = tr.columns().get(c.index()).declaredBytes();
                checked.add(new Checked(
                        c,
                        c.column().type().declared(),
                        defaults.get(k),
                        mismatches[k],
                        examples[k],
                        declared,
                        declared));
            }
            return new TableResult(
                    t.def().name(), t.rows(), measure(profiler, model, t, checked, copy), tr.declaredBytes());
        }
    }

    /**
     * Each lossless change's bytes in its new type: the tuned copy's column profiled like the
     * original's and counted in the source engine's storage model.
     */
    private static List<Checked> measure(
            Profiler profiler, StorageModel model, LoadedTable t, List<Checked> checked, String copy)
            throws SQLException {
        List<ColumnDef> tunedCols = new ArrayList<>();
        List<Integer> which = new ArrayList<>();
        for (int k = 0; k < checked.size(); k++) {
            Checked c = checked.get(k);
            if (c.lossless()) {
                ColumnDef old = c.conversion().column();
                tunedCols.add(new ColumnDef(
                        "v" + c.conversion().index(),
                        tunedType(c.conversion(), model.dialect()),
                        old.nullable(),
                        old.autoIncrement(),
                        old.defaultValue(),
                        old.clauses()));
                which.add(k);
            }
        }
        if (tunedCols.isEmpty()) {
            return checked;
        }
        ColumnStorage[] storage = new ColumnStorage[tunedCols.size()];
        Arrays.fill(storage, ColumnStorage.NATIVE);
        TableDef def = new TableDef(
                t.def().name(),
                tunedCols,
                t.def().primaryKey(),
                t.def().indexes(),
                t.def().charset(),
                t.def().origin(),
                t.def().ddlKnown());
        List<ColumnProfile> profiles = profiler.profile(new LoadedTable(def, copy, t.rows(), storage));
        List<Checked> out = new ArrayList<>(checked);
        for (int j = 0; j < tunedCols.size(); j++) {
            Checked c = out.get(which.get(j));
            out.set(
                    which.get(j),
                    c.withBytes(c.declaredBytes(), model.declaredBytes(def, tunedCols.get(j), profiles.get(j))));
        }
        return out;
    }

    /** The tuned column's type as the storage model reads it. */
    static SqlType tunedType(Conversion c, Dialect dialect) {
        if (c.kind() == FindingKind.LOW_CARDINALITY) {
            String d = c.duckType();
            List<String> members = TypeParser.quoted(d.substring(d.indexOf('(') + 1, d.lastIndexOf(')')));
            return new SqlType(c.target(), TypeFamily.ENUM, 0, false, -1, -1, -1, members);
        }
        return TypeParser.parse(c.target(), dialect);
    }

    /** A DEFAULT literal in the tuned type, as text, or null when it does not come back unchanged. */
    private static String convertLiteral(ProfilingDatabase db, Conversion c, String literal) throws SQLException {
        String lit = ProfilingDatabase.literal(literal);
        String tunedValue = "CAST(" + Conversion.apply(c.toTuned(), lit) + " AS " + c.duckType() + ")";
        String sql = "SELECT CAST(" + tunedValue + " AS VARCHAR), " + Conversion.apply(c.tunedKey(), tunedValue)
                + " IS NOT DISTINCT FROM " + Conversion.apply(c.originalKey(), lit) + " AND " + tunedValue
                + " IS NOT NULL";
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getBoolean(2) ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null;
        }
    }
}

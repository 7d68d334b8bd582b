package dev.wastecheck.analyzer.workload;

import dev.wastecheck.analyzer.report.AccessSummary;
import dev.wastecheck.analyzer.report.CachedField;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexCacheAdvice;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TraceSummary;
import dev.wastecheck.analyzer.report.WorkloadReport;
import dev.wastecheck.analyzer.semantic.CompressionCandidates;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.traces.TraceStats;
import dev.wastecheck.traces.heat.ColumnUse;
import dev.wastecheck.traces.heat.IndexUse;
import dev.wastecheck.traces.heat.PageHotDensity;
import dev.wastecheck.traces.heat.SkewShares;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The workload side of {@code analyze --trace} ("No Bits Left Behind" §2.1.4, §3.1, §4.1): the
 * trace is resolved against the schema read from the source (traces/ does the Calcite work),
 * then, per table, how skewed the accesses are, how scattered the hot tuples lie over pages in
 * the table's current physical order, what a hot partition would hold; per index, which fields
 * the leaf's free space should cache; per column, whether any statement uses it and at what
 * granularity.
 */
public final class WorkloadAnalysis {
    /** The hot set: the hottest tuples that together take this share of the keyed accesses. */
    public static final double HOT_COVERAGE = 0.9;
    /** A field updated by more than this share of a table's accesses is not worth caching (§2.1.4). */
    static final double UPDATE_SHARE_LIMIT = 0.05;
    /** B+tree leaves fill to about 68% under random inserts (§1, §2.1, citing Yao); index sizes assume it. */
    static final double LEAF_FILL = 0.68;

    private static final Set<String> COARSENING = Set.of(
            "YEAR",
            "MONTH",
            "DAY",
            "DATE",
            "EXTRACT",
            "LEFT",
            "SUBSTR",
            "SUBSTRING",
            "DATE_FORMAT",
            "TRUNC",
            "DATE_TRUNC",
            "FLOOR");

    private WorkloadAnalysis() {}

    /** The loaded tables as one schema, for resolving a trace against. */
    public static DatabaseSchema schemaOf(Iterable<LoadedTable> tables) {
        List<TableDef> defs = new ArrayList<>();
        tables.forEach(t -> defs.add(t.def()));
        return new DatabaseSchema(defs);
    }

    /**
     * @param tables the encoding reports; returned with workload findings added to their columns
     */
    public static WorkloadReport analyze(
            List<Path> traces,
            ProfilingDatabase db,
            Map<String, LoadedTable> loaded,
            List<TableReport> tables,
            Dialect dialect)
            throws IOException, SQLException {
        DatabaseSchema schema = schemaOf(loaded.values());
        List<TraceSummary> summaries = new ArrayList<>();
        Map<String, TableHeat> byTable = new LinkedHashMap<>();
        for (Path trace : traces) {
            TraceStats stats = TraceStats.compute(trace, schema, TraceReadOptions.defaults());
            List<String> unresolved = new ArrayList<>();
            if (stats.report().missing() != null) {
                unresolved.add(stats.report().missing());
            }
            stats.report()
                    .unresolvedReasons()
                    .forEach(r -> unresolved.add(r.count() + " x " + r.reason()
                            + (r.examples().isEmpty()
                                    ? ""
                                    : " (line " + r.examples().get(0).line() + ": "
                                            + r.examples().get(0).statement() + ")")));
            summaries.add(new TraceSummary(
                    trace.toString(),
                    stats.format().toString().toLowerCase(Locale.ROOT),
                    stats.report().statements(),
                    stats.report().resolved(),
                    stats.report().unresolved(),
                    stats.heat().events(),
                    stats.badLines().count(),
                    unresolved));
            for (TableHeat tp : stats.heat().tables()) {
                byTable.merge(tp.name().toLowerCase(Locale.ROOT), tp, (a, b) -> a); // one trace is the usual case
            }
        }
        Map<String, AccessSummary> access = new LinkedHashMap<>();
        List<IndexCacheAdvice> indexes = new ArrayList<>();
        List<TableReport> updated = new ArrayList<>();
        CompressionCandidates compression = new CompressionCandidates(db.connection(), dialect);
        for (TableReport report : tables) {
            LoadedTable lt = loaded.get(report.name().toLowerCase(Locale.ROOT));
            TableHeat tp = byTable.get(report.name().toLowerCase(Locale.ROOT));
            if (lt == null || tp == null || tp.events() == 0) {
                updated.add(report);
                continue;
            }
            access.put(report.name(), accessOf(db, lt, report, tp, dialect));
            indexes.addAll(cacheAdvice(report, tp));
            updated.add(compression.addFindings(lt, withColumnFindings(report, tp), tp));
        }
        return new WorkloadReport(summaries, access, indexes, updated);
    }

    private static AccessSummary accessOf(
            ProfilingDatabase db, LoadedTable lt, TableReport report, TableHeat tp, Dialect dialect)
            throws SQLException {
        String ix = tp.heatIndex();
        SkewShares skew = ix == null ? new SkewShares(0, 0, 0, 0, 0, 0) : tp.skew(ix, lt.rows());
        Set<List<String>> hot = ix == null ? Set.of() : tp.hotKeys(ix, HOT_COVERAGE);
        int rowBytes = (int) Math.max(1, Math.round((double) report.declaredBytes() / Math.max(1, report.rows())));
        List<String> keyColumns = ix == null ? List.of() : keyColumns(lt.def(), ix);
        double density = 0;
        long hotRowsFound = 0;
        if (!keyColumns.isEmpty() && lt.relation() != null && !hot.isEmpty()) {
            PageHotDensity pages = new PageHotDensity(pageBytes(dialect));
            StringBuilder sql = new StringBuilder("SELECT ");
            for (int i = 0; i < keyColumns.size(); i++) {
                int c = lt.def().columnIndex(keyColumns.get(i));
                sql.append(i > 0 ? ", " : "")
                        .append("CAST(")
                        .append(lt.physicalColumn(c))
                        .append(" AS VARCHAR)");
            }
            // The table's physical order is the dump's order: the profiling database keeps insertion order when a trace
            // is given.
            sql.append(" FROM ").append(lt.relation());
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery(sql.toString())) {
                List<String> key = new ArrayList<>(keyColumns.size());
                while (rs.next()) {
                    key.clear();
                    for (int i = 0; i < keyColumns.size(); i++) {
                        key.add(rs.getString(i + 1));
                    }
                    boolean isHot = hot.contains(key);
                    pages.row(isHot, rowBytes);
                    if (isHot) {
                        hotRowsFound++;
                    }
                }
            }
            density = pages.density();
        }
        long keyBytes = 6; // a tuple pointer
        for (String k : keyColumns) {
            keyBytes += report.column(k).declaredBytes() / Math.max(1, report.rows());
        }
        long hotRows = hot.size();
        long coldRows = Math.max(0, lt.rows() - hotRows);
        long hotIndex = Math.round(hotRows * keyBytes / LEAF_FILL);
        long coldIndex = Math.round(coldRows * keyBytes / LEAF_FILL);
        return new AccessSummary(
                tp.events(),
                ix,
                skew.top1(),
                skew.top5(),
                skew.top10(),
                density,
                hotRows,
                hotRowsFound,
                hotRows * rowBytes,
                coldRows * rowBytes,
                hotIndex,
                coldIndex,
                operations(tp));
    }

    private static Map<String, Long> operations(TableHeat tp) {
        Map<String, Long> out = new LinkedHashMap<>();
        tp.operations().forEach((op, n) -> out.put(op.name().toLowerCase(Locale.ROOT), n));
        return out;
    }

    private static List<String> keyColumns(TableDef def, String index) {
        if (index.equalsIgnoreCase(IndexDef.PRIMARY)) {
            return def.primaryKey();
        }
        return def.indexes().stream()
                .filter(i -> i.name().equalsIgnoreCase(index))
                .findFirst()
                .map(IndexDef::columns)
                .orElse(List.of());
    }

    /** Page size of the source engine: InnoDB 16 KiB, PostgreSQL 8 KiB, SQLite 4 KiB, DuckDB's row groups aside, 256 KiB blocks. */
    static int pageBytes(Dialect d) {
        return switch (d) {
            case MYSQL -> 16 * 1024;
            case POSTGRESQL -> 8 * 1024;
            case SQLITE -> 4 * 1024;
            case DUCKDB, TRINO -> 256 * 1024;
        };
    }

    /**
     * The paper's two heuristics (§2.1.4): cache the fields that, with the key, answer the most
     * queries through the index, most projected first; leave out fields that are updated often,
     * since every update would invalidate the cached copies.
     */
    public static List<IndexCacheAdvice> cacheAdvice(TableReport def, TableHeat tp) {
        List<IndexCacheAdvice> out = new ArrayList<>();
        Map<String, Long> updates = new LinkedHashMap<>();
        for (ColumnUse u : tp.columns()) {
            updates.put(u.column().toLowerCase(Locale.ROOT), u.updated());
        }
        for (IndexUse use : tp.indexes().values()) {
            if (use.queries() == 0) {
                continue;
            }
            Set<String> key = new HashSet<>();
            use.columns().forEach(c -> key.add(c.toLowerCase(Locale.ROOT)));
            List<String> candidates = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            for (String c : use.projectedColumns().keySet()) {
                if (key.contains(c.toLowerCase(Locale.ROOT))) {
                    continue;
                }
                long upd = updates.getOrDefault(c.toLowerCase(Locale.ROOT), 0L);
                if (upd > UPDATE_SHARE_LIMIT * tp.events()) {
                    skipped.add(c + " (updated by " + upd + " of " + tp.events() + " accesses)");
                } else if (averageBytes(def, c) > MAX_CACHED_FIELD_BYTES) {
                    skipped.add(c + " (" + averageBytes(def, c) + " bytes on average: too large for leaf slots)");
                } else {
                    candidates.add(c);
                }
            }
            // Fields in the order queries project them most; each with the share answered once it
            // and every field before it are cached. Fields after the last gain add nothing and are dropped.
            Set<String> cached = new HashSet<>();
            List<CachedField> ranked = new ArrayList<>();
            int lastGain = 0;
            double previous = use.answerableShare(cached);
            for (String c : candidates) {
                cached.add(c);
                double share = use.answerableShare(cached);
                ranked.add(new CachedField(c, share));
                if (share > previous) {
                    lastGain = ranked.size();
                    previous = share;
                }
            }
            ranked = new ArrayList<>(ranked.subList(0, lastGain));
            out.add(new IndexCacheAdvice(def.name(), use.name(), use.columns(), use.queries(), ranked, skipped));
        }
        return out;
    }

    /** Cache items sit in fixed slots in a leaf's free space (§2.1.1): large fields do not belong there. */
    static final long MAX_CACHED_FIELD_BYTES = 32;

    private static long averageBytes(TableReport table, String column) {
        try {
            ColumnReport c = table.column(column);
            long nonNull = Math.max(1, table.rows() - c.nulls());
            return c.declaredBytes() / nonNull;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /** Columns no statement touched, and columns read only through a coarsening function. */
    private static TableReport withColumnFindings(TableReport report, TableHeat tp) {
        Set<String> unreferenced = new HashSet<>();
        tp.unreferencedColumns().forEach(c -> unreferenced.add(c.toLowerCase(Locale.ROOT)));
        Map<String, ColumnUse> uses = new LinkedHashMap<>();
        for (ColumnUse u : tp.columns()) {
            uses.put(u.column().toLowerCase(Locale.ROOT), u);
        }
        List<ColumnReport> cols = new ArrayList<>();
        for (ColumnReport c : report.columns()) {
            List<Finding> f = new ArrayList<>(c.findings());
            String key = c.name().toLowerCase(Locale.ROOT);
            if (unreferenced.contains(key)) {
                f.add(new Finding(
                        FindingKind.UNUSED_COLUMN,
                        "no statement of the trace (" + tp.events()
                                + " accesses to the table) reads, filters on or updates it",
                        c.tightBytes()));
            }
            ColumnUse u = uses.get(key);
            if (u != null && !u.functions().isEmpty()) {
                long reads = u.projected() + u.predicate();
                long coarse = u.functions().entrySet().stream()
                        .filter(e -> COARSENING.contains(e.getKey().toUpperCase(Locale.ROOT)))
                        .mapToLong(Map.Entry::getValue)
                        .sum();
                if (reads > 0 && coarse >= reads && u.updated() == 0) {
                    f.add(new Finding(
                            FindingKind.GRANULARITY,
                            "read only through "
                                    + String.join(", ", u.functions().keySet()) + " (" + coarse + " of " + reads
                                    + " reads): the trace never needs its full precision",
                            0));
                }
            }
            cols.add(c.withFindings(f));
        }
        return report.withColumns(cols);
    }
}

package dev.wastecheck.analyzer.index;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import dev.wastecheck.analyzer.workload.WorkloadAnalysis;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.load.LiveLoader;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The index waste of one source ("No Bits Left Behind" §1: index pages are among the unused space a
 * database holds): redundant indexes ({@link RedundantIndexes}), indexes no read used over a stated
 * period ({@link TraceIndexUsage}, {@link ServerIndexUsage}), and low-cardinality ones ({@link
 * LowCardinalityIndexes}), each with the bytes it holds. One finding per index, in that order of
 * precedence. Never reported: an index that enforces a constraint, a unique index as unused (it
 * enforces uniqueness whether read or not), and the last index behind a foreign key.
 */
public final class IndexAnalysis {
    private IndexAnalysis() {}

    /**
     * The server's index counts, read before anything of ours runs on it: our own profile's scans
     * ({@code count(*)} reads InnoDB's smallest secondary index) must not count as the workload's use.
     */
    public static ServerIndexUsage usageBefore(LiveSource live, Map<String, String> env) {
        if (live == null || !(live.dialect() == Dialect.POSTGRESQL || live.dialect() == Dialect.MYSQL)) {
            return ServerIndexUsage.NONE;
        }
        try (Connection c = LiveLoader.connect(live, env)) {
            ServerIndexUsage u = ServerIndexUsage.read(c, live.dialect());
            c.rollback();
            return u;
        } catch (SQLException e) {
            return ServerIndexUsage.NONE;
        }
    }

    /**
     * The index findings of a loaded source.
     *
     * @param live     the live database the source is, or null for files (their declared indexes)
     * @param usage    the server's counts ({@link #usageBefore}), or {@link ServerIndexUsage#NONE}
     * @param warnings told what limits the evidence, one sentence each
     */
    public static List<IndexFinding> find(
            LoadedSource source,
            LiveSource live,
            List<Path> traces,
            ServerIndexUsage usage,
            Map<String, String> env,
            Consumer<String> warnings)
            throws IOException, SQLException {
        return find(source, live, traces, usage, env, warnings, Map.of());
    }

    private static List<IndexFinding> find(
            LoadedSource source,
            LiveSource live,
            List<Path> traces,
            ServerIndexUsage usage,
            Map<String, String> env,
            Consumer<String> warnings,
            Map<String, Map<String, Long>> distinct)
            throws IOException, SQLException {
        ServerIndexes.Catalog catalog;
        if (live != null && (live.dialect() == Dialect.POSTGRESQL || live.dialect() == Dialect.MYSQL)) {
            try (Connection c = LiveLoader.connect(live, env)) {
                catalog = ServerIndexes.read(c, live.dialect());
                c.rollback();
            }
        } else {
            List<TableDef> defs = new ArrayList<>();
            source.tables().values().forEach(t -> defs.add(t.def()));
            catalog = DeclaredIndexes.of(defs, source.catalog(), source.dialect());
        }
        TraceIndexUsage trace = TraceIndexUsage.of(
                traces, WorkloadAnalysis.schemaOf(source.tables().values()));
        if (trace.withheld() != null) {
            warnings.accept(trace.withheld());
        }
        return find(catalog, source, usage, trace, distinct);
    }

    /**
     * {@link #find} added to a report; a catalog this user may not read leaves the report as it
     * was, with a warning.
     */
    public static AnalysisReport addTo(
            AnalysisReport report,
            LoadedSource source,
            LiveSource live,
            List<Path> traces,
            ServerIndexUsage usage,
            Map<String, String> env,
            Consumer<String> warnings)
            throws IOException {
        try {
            return withSpace(report, find(source, live, traces, usage, env, warnings, exactDistinct(report)));
        } catch (SQLException e) {
            warnings.accept("indexes were not analyzed: the catalog could not be read: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            return report;
        }
    }

    /**
     * The findings joined with the storage model's figures for each index (analyzer/space): its
     * predicted bytes beside the measured ones (the bytes of a dump's index), and the use the
     * evidence gives it in the table's account (redundant, unused).
     */
    static AnalysisReport withSpace(AnalysisReport report, List<IndexFinding> found) {
        Map<String, TableSpace> space = new LinkedHashMap<>(report.space());
        List<IndexFinding> out = new ArrayList<>();
        for (IndexFinding f : found) {
            String key = f.table().toLowerCase(Locale.ROOT);
            TableSpace ts = space.get(key);
            if (ts == null) {
                out.add(f);
                continue;
            }
            List<IndexSpace> indexes = new ArrayList<>();
            IndexSpace model = null;
            for (IndexSpace ix : ts.indexes()) {
                if (ix.name().equalsIgnoreCase(f.index())) {
                    model = ix;
                    ix = switch (f.kind()) {
                        case REDUNDANT_INDEX -> ix.withUse(IndexSpace.Use.REDUNDANT, f.detail());
                        case UNUSED_INDEX -> ix.withUse(IndexSpace.Use.UNUSED, f.detail());
                        default -> ix;
                    };
                }
                indexes.add(ix);
            }
            space.put(key, ts.withIndexes(indexes));
            out.add(model == null ? f : f.withModel(model.predictedBytes(), model.measuredBytes()));
        }
        return report.withSpace(space).withIndexFindings(out);
    }

    static List<IndexFinding> find(
            ServerIndexes.Catalog catalog, LoadedSource source, ServerIndexUsage usage, TraceIndexUsage trace)
            throws SQLException {
        return find(catalog, source, usage, trace, Map.of());
    }

    /**
     * The exact distinct counts of a report's columns, by lower-case table name, then lower-case
     * column name; an estimated count is left out.
     */
    static Map<String, Map<String, Long>> exactDistinct(AnalysisReport report) {
        Map<String, Map<String, Long>> out = new HashMap<>();
        for (TableReport t : report.tables()) {
            Map<String, Long> cols = out.computeIfAbsent(t.name().toLowerCase(Locale.ROOT), k -> new HashMap<>());
            for (ColumnReport c : t.columns()) {
                if (!c.distinctEstimated()) {
                    cols.put(c.name().toLowerCase(Locale.ROOT), c.distinct());
                }
            }
        }
        return out;
    }

    /**
     * The findings, with the profile's exact distinct counts ({@link #exactDistinct}) where the
     * low-cardinality rule can take its answer from them.
     */
    static List<IndexFinding> find(
            ServerIndexes.Catalog catalog,
            LoadedSource source,
            ServerIndexUsage usage,
            TraceIndexUsage trace,
            Map<String, Map<String, Long>> distinct)
            throws SQLException {
        Map<IndexEntry, IndexFinding> found = new LinkedHashMap<>();
        Set<IndexEntry> dropped = new HashSet<>();
        for (RedundantIndexes.Redundant r : RedundantIndexes.find(catalog.indexes(), catalog.foreignKeys())) {
            found.put(
                    r.index(),
                    finding(
                            r.index(),
                            FindingKind.REDUNDANT_INDEX,
                            r.why(),
                            r.coveredBy().name()));
            dropped.add(r.index());
        }
        Map<String, List<IndexEntry>> byTable = new LinkedHashMap<>();
        catalog.indexes()
                .forEach(e -> byTable.computeIfAbsent(e.table().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(e));
        for (IndexEntry e : catalog.indexes()) {
            if (found.containsKey(e) || kept(e, byTable, dropped, catalog.foreignKeys())) {
                continue;
            }
            String why = unused(e, usage, trace);
            if (why != null) {
                found.put(e, finding(e, FindingKind.UNUSED_INDEX, why, null));
                dropped.add(e);
            }
        }
        for (LoadedTable t : source.tables().values()) {
            List<IndexEntry> candidates = new ArrayList<>();
            for (IndexEntry e : byTable.getOrDefault(t.def().name().toLowerCase(Locale.ROOT), List.of())) {
                if (!found.containsKey(e) && e.btree() && !kept(e, byTable, dropped, catalog.foreignKeys())) {
                    candidates.add(e);
                }
            }
            Map<String, Long> counted = distinct.getOrDefault(t.def().name().toLowerCase(Locale.ROOT), Map.of());
            for (LowCardinalityIndexes.LowCardinality lc : LowCardinalityIndexes.find(
                    source.rows(), t, candidates, c -> counted.getOrDefault(c.toLowerCase(Locale.ROOT), -1L))) {
                found.put(
                        lc.index(),
                        finding(
                                lc.index(),
                                FindingKind.LOW_CARDINALITY_INDEX,
                                String.format(
                                        Locale.ROOT,
                                        "%d distinct keys over %,d rows, the rarest in %,d rows (%.0f%%): a lookup"
                                                + " through it never narrows below a fifth of the table, where a scan costs"
                                                + " about as much (index-digest's rule: 1,000+ rows, <= 5 values, rarest >= 20%%)",
                                        lc.values(),
                                        lc.rows(),
                                        lc.rarest(),
                                        100.0 * lc.rarest() / lc.rows()),
                                null));
            }
        }
        // in the catalog's order
        List<IndexFinding> out = new ArrayList<>();
        for (IndexEntry e : catalog.indexes()) {
            if (found.containsKey(e)) {
                out.add(found.get(e));
            }
        }
        return out;
    }

    /** Never a candidate: it enforces a constraint or uniqueness, or is the last index behind a foreign key. */
    private static boolean kept(
            IndexEntry e,
            Map<String, List<IndexEntry>> byTable,
            Set<IndexEntry> dropped,
            Map<String, List<List<String>>> fks) {
        if (e.enforcesConstraint() || e.unique()) {
            return true;
        }
        List<IndexEntry> siblings = byTable.get(e.table().toLowerCase(Locale.ROOT));
        for (List<String> fk : fks.getOrDefault(e.table().toLowerCase(Locale.ROOT), List.of())) {
            if (e.serves(fk) && siblings.stream().noneMatch(o -> o != e && !dropped.contains(o) && o.serves(fk))) {
                return true;
            }
        }
        return false;
    }

    /** The evidence that no read used it, or null when there is none or some source saw it used. */
    private static String unused(IndexEntry e, ServerIndexUsage usage, TraceIndexUsage trace) {
        long reads = usage.reads(e.table(), e.name());
        int traced = trace.used(e, e.primary() ? IndexDef.PRIMARY : e.name());
        if (reads > 0 || traced > 0 || (reads < 0 && traced < 0)) {
            return null;
        }
        List<String> evidence = new ArrayList<>();
        if (reads == 0) {
            evidence.add("0 reads in " + usage.source() + " " + usage.period());
        }
        if (traced == 0) {
            evidence.add("no statement of the trace goes through it or compares its leading column "
                    + e.columns().get(0) + " (" + trace.period() + ")");
        }
        return "unused: " + String.join("; ", evidence)
                + ". A workload outside that period (a month-end report) may still need it: its drop is reversible";
    }

    private static IndexFinding finding(IndexEntry e, FindingKind kind, String why, String coveredBy) {
        return new IndexFinding(
                e.table(),
                e.name(),
                e.keys(),
                kind,
                why,
                e.bytes(),
                e.bytes() < 0 ? "unknown" : e.measured() ? "measured" : "predicted",
                -1,
                coveredBy,
                e.definition());
    }
}

package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.analyzer.report.AccessSummary;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.CachedField;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexCacheAdvice;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import dev.wastecheck.analyzer.report.TraceSummary;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import java.io.IOException;
import java.io.Writer;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The JSON report. Its keys are a contract (docs/json.md): snake_case, extended but
 * never renamed.
 */
public final class JsonRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonRenderer() {}

    /**
     * The version of this report's shape. Keys are added, never renamed or removed; the version
     * changes when a key's meaning does (docs/json.md).
     */
    public static final int SCHEMA_VERSION = 1;

    /** Finding kinds that note why a type stays or what a column refers to: they save nothing. */
    private static final Set<FindingKind> NOTES = EnumSet.of(
            FindingKind.KEPT_DECLARED,
            FindingKind.REFERENCES,
            FindingKind.TYPE_MISMATCH,
            FindingKind.OUT_OF_TYPE,
            FindingKind.NULL_MARKER);

    public static ObjectNode toJson(AnalysisReport r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema_version", SCHEMA_VERSION);
        ArrayNode sources = root.putArray("sources");
        r.sources().forEach(sources::add);
        root.put("dialect", r.dialect());
        if (r.sample() != null) {
            ObjectNode sn = root.putObject("sample");
            sn.put("percent", r.sample().percent());
            sn.put("seed", r.sample().seed());
            sn.put("checked_on_server", r.sample().checked());
            sn.put("withdrawn", r.sample().withdrawn());
        }
        ArrayNode tables = root.putArray("tables");
        for (TableReport t : r.tables()) {
            ObjectNode tn = tables.addObject();
            tn.put("name", t.name());
            tn.put("rows", t.rows());
            tn.put("declared_bytes", t.declaredBytes());
            tn.put("tight_bytes", t.tightBytes());
            Long server = r.serverBytes().get(t.name().toLowerCase(Locale.ROOT));
            if (server != null) {
                tn.put("server_bytes", server);
            }
            AnalysisReport.ServerSpace space = r.serverSpace().get(t.name().toLowerCase(Locale.ROOT));
            if (space != null) {
                tn.put("server_dead_bytes", space.deadBytes());
                tn.put("server_free_bytes", space.freeBytes());
            }
            TableSpace tableSpace = r.space().get(t.name().toLowerCase(Locale.ROOT));
            if (tableSpace != null) {
                SpaceJson.put(tn, "space", tableSpace, t);
            }
            if (r.sample() != null && r.sample().rowsProfiled().containsKey(t.name())) {
                tn.put("rows_profiled", r.sample().rowsProfiled().get(t.name()));
            }
            AccessSummary a =
                    r.workload() == null ? null : r.workload().access().get(t.name());
            if (a != null) {
                ObjectNode an = tn.putObject("access");
                an.put("events", a.events());
                an.put("share_top_1pct", a.shareTop1());
                an.put("share_top_5pct", a.shareTop5());
                an.put("share_top_10pct", a.shareTop10());
                if (a.hotRowsPlaced() > 0) {
                    an.put("page_hot_density", a.pageHotDensity());
                } else {
                    an.putNull(
                            "page_hot_density"); // the trace's keys name no rows of the table (keys only through joins)
                }
                an.put("hot_rows_found", a.hotRowsPlaced());
                an.put("hot_rows", a.hotRows());
                an.put("heat_index", a.heatIndex());
                ObjectNode part = an.putObject("partition");
                part.put("hot_rows", a.hotRows());
                part.put("hot_bytes", a.hotBytes());
                part.put("cold_bytes", a.coldBytes());
                part.put("hot_index_bytes", a.hotIndexBytes());
                part.put("cold_index_bytes", a.coldIndexBytes());
                ObjectNode ops = an.putObject("operations");
                a.operations().forEach(ops::put);
            }
            if (t.partitionOf() != null) {
                tn.put("partition_of", t.partitionOf());
            }
            tn.put("bad_rows", t.badRows());
            tn.put("bad_values", t.badValues());
            ArrayNode problems = tn.putArray("problems");
            t.problems().forEach(problems::add);
            ArrayNode cols = tn.putArray("columns");
            for (ColumnReport c : t.columns()) {
                ObjectNode cn = cols.addObject();
                cn.put("name", c.name());
                cn.put("declared_type", c.declaredType());
                cn.put("suggested_type", c.suggestedType());
                cn.put("declared_bytes", c.declaredBytes());
                cn.put("tight_bytes", c.tightBytes());
                cn.put("nulls", c.nulls());
                cn.put("distinct", c.distinct());
                if (c.distinctEstimated()) {
                    cn.put("distinct_estimated", true); // a sketch's estimate: no decision rests on it
                }
                cn.put("min", c.min());
                cn.put("max", c.max());
                TableReport.BadValues bv = t.badValues(c.name());
                if (bv != null) {
                    cn.put("bad_values", bv.count());
                    cn.put("first_bad_value", bv.first());
                }
                ArrayNode fs = cn.putArray("findings");
                // the encoding finding that explains the suggested type (the first) saves what the type
                // saves: declared_bytes - tight_bytes; it said 0 where the column saved 4,000 bytes
                Finding explains = c.findings().stream()
                        .filter(f -> !f.kind().semantic() && !NOTES.contains(f.kind()))
                        .findFirst()
                        .orElse(null);
                for (Finding f : c.findings()) {
                    ObjectNode fn = fs.addObject();
                    fn.put("kind", f.kind().key());
                    fn.put("detail", f.detail());
                    fn.put("bytes_saved", f == explains && f.bytes() == 0 ? Math.max(0, c.wastedBytes()) : f.bytes());
                }
            }
        }
        if (r.workload() != null) {
            ArrayNode idx = root.putArray("indexes");
            for (IndexCacheAdvice ia : r.workload().indexes()) {
                ObjectNode in = idx.addObject();
                in.put("table", ia.table());
                in.put("name", ia.index());
                ArrayNode cols = in.putArray("columns");
                ia.columns().forEach(cols::add);
                in.put("queries", ia.queries());
                ArrayNode cf = in.putArray("cacheable_fields");
                for (CachedField f : ia.cacheableFields()) {
                    ObjectNode fn = cf.addObject();
                    fn.put("column", f.column());
                    fn.put("answerable_share", f.answerableShare());
                }
                ArrayNode left = in.putArray("left_out");
                ia.leftOut().forEach(left::add);
            }
            ArrayNode traces = root.putArray("traces");
            for (TraceSummary ts : r.workload().traces()) {
                ObjectNode tn = traces.addObject();
                tn.put("file", ts.file());
                tn.put("format", ts.format());
                tn.put("statements", ts.statements());
                tn.put("resolved", ts.resolved());
                tn.put("unresolved", ts.unresolvedCount());
                tn.put("events", ts.events());
                tn.put("bad_lines", ts.badLines());
                ArrayNode why = tn.putArray("unresolved_reasons");
                ts.unresolved().forEach(why::add);
            }
        }
        // redundant, unused and low-cardinality indexes (docs/json.md, "Index findings")
        ArrayNode indexFindings = root.putArray("index_findings");
        for (IndexFinding f : r.indexFindings()) {
            ObjectNode fn = indexFindings.addObject();
            fn.put("table", f.table());
            fn.put("index", f.index());
            ArrayNode cols = fn.putArray("columns");
            f.columns().forEach(cols::add);
            fn.put("kind", f.kind().key());
            fn.put("detail", f.detail());
            fn.put("bytes", f.bytes());
            fn.put("bytes_basis", f.bytesBasis());
            fn.put("predicted_bytes", f.predictedBytes());
            fn.put("covered_by", f.coveredBy());
            fn.put("definition", f.definition());
        }
        root.put("advice_basis", r.basis());
        ArrayNode refs = root.putArray("references");
        for (var ref : r.references()) {
            ObjectNode rn = refs.addObject();
            rn.put("table", ref.table());
            rn.put("column", ref.column());
            rn.put("key_table", ref.keyTable());
            rn.put("key_column", ref.keyColumn());
            rn.put("evidence", ref.evidence().name().toLowerCase(Locale.ROOT));
            if (ref.distinct() >= 0) {
                rn.put("found", ref.found());
                rn.put("distinct", ref.distinct());
            }
        }
        ArrayNode groups = root.putArray("groups");
        for (List<String> g : r.domains()) {
            ArrayNode gn = groups.addArray();
            g.forEach(gn::add);
        }
        TableSpace fileSpace = r.space().get(SpaceAnalysis.FILE);
        if (fileSpace != null) {
            SpaceJson.put(root, "file_space", fileSpace, null);
        }
        ObjectNode totals = root.putObject("totals");
        totals.put("tables", r.tables().size());
        totals.put("rows", r.rows());
        totals.put("declared_bytes", r.declaredBytes());
        totals.put("tight_bytes", r.tightBytes());
        totals.put("wasted_bytes", r.wastedBytes());
        ArrayNode warnings = root.putArray("warnings");
        r.warnings().forEach(warnings::add);
        root.put("elapsed_ms", r.elapsedMillis());
        ObjectNode timings = root.putObject("timings_ms");
        r.timingsMillis().forEach(timings::put);
        return root;
    }

    public static void write(AnalysisReport r, Writer w) throws IOException {
        MAPPER.writeValue(new NonClosingWriter(w), toJson(r));
        w.write(System.lineSeparator());
    }
}

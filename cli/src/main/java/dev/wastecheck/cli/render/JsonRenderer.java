package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.TableReport;
import java.io.IOException;
import java.io.Writer;

/**
 * The JSON report. Its keys are a contract (DESIGN.md, docs/json.md): snake_case, extended but
 * never renamed.
 */
public final class JsonRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonRenderer() {
    }

    public static ObjectNode toJson(AnalysisReport r) {
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode sources = root.putArray("sources");
        r.sources().forEach(sources::add);
        root.put("dialect", r.dialect());
        ArrayNode tables = root.putArray("tables");
        for (TableReport t : r.tables()) {
            ObjectNode tn = tables.addObject();
            tn.put("name", t.name());
            tn.put("rows", t.rows());
            tn.put("declared_bytes", t.declaredBytes());
            tn.put("tight_bytes", t.tightBytes());
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
                cn.put("min", c.min());
                cn.put("max", c.max());
                ArrayNode fs = cn.putArray("findings");
                for (Finding f : c.findings()) {
                    ObjectNode fn = fs.addObject();
                    fn.put("kind", f.kind());
                    fn.put("detail", f.detail());
                    fn.put("bytes_saved", f.bytes());
                }
            }
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

    /** Jackson closes what it writes to; the caller owns the writer. */
    private static final class NonClosingWriter extends java.io.FilterWriter {
        NonClosingWriter(Writer w) {
            super(w);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}

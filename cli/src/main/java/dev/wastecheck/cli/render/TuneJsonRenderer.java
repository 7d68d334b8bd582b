package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.tune.TuneReport;
import dev.wastecheck.tune.Tuner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;

/** {@code wastecheck tune --format json}: what the check on the tuned copy found. A contract (docs/json.md). */
public final class TuneJsonRenderer {
    private TuneJsonRenderer() {}

    /** What was checked and measured, for scripts: keys documented in docs/json.md. */
    public static void write(TuneReport report, PrintWriter w) throws IOException {
        Tuner.Result r = report.result();
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
            long[] heap = r.heap().get(t.name());
            if (heap != null) { // PostgreSQL: pages, alignment and row headers included
                tn.put("heap_bytes_before", heap[0]);
                tn.put("heap_bytes_after", heap[1]);
                tn.put("heap_bytes_reordered", heap[2]); // also with the columns in alignment order
            }
            long[] innodb = r.innodb().get(t.name());
            if (innodb != null) { // MySQL: data_length + index_length after OPTIMIZE TABLE, estimated
                tn.put("innodb_bytes_before", innodb[0]);
                tn.put("innodb_bytes_after", innodb[1]);
            }
            ArrayNode changes = tn.putArray("changes");
            for (Tuner.Checked c : t.changes()) {
                ObjectNode cn = changes.addObject();
                cn.put("column", c.conversion().column().name());
                cn.put("declared_type", c.declaredType());
                cn.put("new_type", c.conversion().target());
                cn.put("kind", c.conversion().kind().key());
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
            sn.put("changes_representation", s.representation());
        }
        ArrayNode altered = root.putArray("altered");
        for (Tuner.Skipped s : r.altered()) {
            ObjectNode an = altered.addObject();
            an.put("table", s.table());
            an.put("column", s.column());
            an.put("declared_type", s.declaredType());
            an.put("suggested_type", s.suggestedType());
            an.put("why", s.why());
            an.put("changes_representation", s.representation());
        }
        root.put("advice_basis", r.basis());
        if (r.workload() != null) {
            ObjectNode wn = root.putObject("workload");
            ArrayNode traces = wn.putArray("traces");
            r.workload().traces().forEach(traces::add);
            wn.put("writes", r.workload().writes());
            wn.put("replayed", r.workload().replayed());
            wn.put("not_replayed", r.workload().unreplayed());
            ArrayNode examples = wn.putArray("not_replayed_examples");
            r.workload().unreplayedExamples().forEach(examples::add);
            wn.put("vetoed", r.workload().vetoed());
        }
        ObjectNode totals = root.putObject("totals");
        totals.put("rows_checked", r.rowsChecked());
        totals.put("bytes_before", r.bytesBefore());
        totals.put("bytes_after", r.bytesAfter());
        long[] heap = r.heapTotal();
        if (heap != null) {
            totals.put("heap_bytes_before", heap[0]);
            totals.put("heap_bytes_after", heap[1]);
            totals.put("heap_bytes_reordered", heap[2]);
        }
        long[] innodb = r.innodbTotal();
        if (innodb != null) { // the changed tables only, like the heap
            totals.put("innodb_bytes_before", innodb[0]);
            totals.put("innodb_bytes_after", innodb[1]);
        }
        if (!r.innodb()
                .isEmpty()) { // every InnoDB table, changed or not: what the server should report after OPTIMIZE TABLE
            ObjectNode all = root.putObject("innodb");
            ArrayNode list = all.putArray("tables");
            long before = 0;
            long after = 0;
            for (Map.Entry<String, long[]> e : r.innodb().entrySet()) {
                ObjectNode tn = list.addObject();
                tn.put("name", e.getKey());
                tn.put("bytes_before", e.getValue()[0]);
                tn.put("bytes_after", e.getValue()[1]);
                before += e.getValue()[0];
                after += e.getValue()[1];
            }
            all.put("bytes_before", before);
            all.put("bytes_after", after);
        }
        // live sources: the index drops and rebuilds, each with the bytes it frees (docs/tune.md)
        ArrayNode drops = root.putArray("index_drops");
        for (TuneReport.IndexDrop d : report.indexDrops()) {
            ObjectNode dn = drops.addObject();
            dn.put("table", d.table());
            dn.put("index", d.index());
            dn.put("kind", d.kind());
            dn.put("statement", d.statement());
            dn.put("first_step", d.firstStep());
            dn.put("bytes", d.bytes());
            dn.put("bytes_basis", d.bytesBasis());
            dn.put("predicted_bytes", d.predictedBytes());
            dn.put("rollback", d.rollback());
            dn.put("script", d.script());
            dn.put("file", d.file());
        }
        ArrayNode rebuilds = root.putArray("rebuilds");
        for (TuneReport.Rebuild b : report.rebuilds()) {
            ObjectNode bn = rebuilds.addObject();
            bn.put("table", b.table());
            bn.put("index", b.index());
            bn.put("statement", b.statement());
            bn.put("bytes_before", b.bytesBefore());
            bn.put("bytes", b.freedBytes());
            bn.put("bytes_basis", "predicted");
            bn.put("why", b.why());
            bn.put("script", TuneReport.Rebuild.SCRIPT);
            bn.put("file", b.file());
        }
        mapper.writeValue(new NonClosingWriter(w), root); // stdout stays open for the caller
        w.println();
    }
}

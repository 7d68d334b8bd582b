package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import java.util.Locale;

/** A table's space outside the column values in the JSON report (docs/json.md, "space"). */
final class SpaceJson {
    private SpaceJson() {}

    /** The table's {@code space} object; {@code t} is null for the database file's own entry. */
    static void put(ObjectNode parent, String key, TableSpace s, TableReport t) {
        ObjectNode sn = parent.putObject(key);
        sn.put("data_bytes", s.dataBytes());
        if (s.rowBytes() >= 0) {
            sn.put("row_bytes", s.rowBytes());
        }
        sn.put("free_bytes", s.freeBytes());
        sn.put("dead_bytes", s.deadBytes());
        sn.put("method", s.method());
        sn.put("estimated", s.estimated());
        if (s.caveat() != null) {
            sn.put("caveat", s.caveat());
        }
        if (s.engineBytes() >= 0) {
            sn.put("engine_bytes", s.engineBytes());
        }
        ArrayNode ixs = sn.putArray("indexes");
        for (IndexSpace ix : s.indexes()) {
            ObjectNode in = ixs.addObject();
            in.put("name", ix.name());
            ArrayNode cols = in.putArray("columns");
            ix.columns().forEach(cols::add);
            in.put("primary", ix.primary());
            in.put("unique", ix.unique());
            in.put("clustered", ix.clustered());
            putKnown(in, "predicted_bytes", ix.predictedBytes());
            putKnown(in, "tight_bytes", ix.tightBytes());
            putKnown(in, "measured_bytes", ix.measuredBytes());
            putKnown(in, "free_bytes", ix.freeBytes());
            in.put("use", ix.use().name().toLowerCase(Locale.ROOT));
            if (ix.why() != null) {
                in.put("why", ix.why());
            }
        }
        if (s.headroom() != null) {
            ObjectNode h = sn.putObject("headroom");
            h.put("counter", s.headroom().counter());
            h.put("next", s.headroom().next());
            h.put("max", s.headroom().max());
            h.put("percent_used", Math.round(s.headroom().percentUsed() * 10) / 10.0);
        }
        if (t != null) {
            TableSpace.Account a = s.account(t);
            ObjectNode an = sn.putObject("account");
            an.put("tight_bytes", a.tightBytes());
            an.put("encoding_waste_bytes", a.encodingWasteBytes());
            an.put("row_overhead_bytes", a.rowOverheadBytes());
            an.put("needed_index_bytes", a.neededIndexBytes());
            an.put("redundant_index_bytes", a.redundantIndexBytes());
            an.put("unused_index_bytes", a.unusedIndexBytes());
            an.put("free_bytes", a.freeBytes());
            an.put("dead_bytes", a.deadBytes());
            an.put("total_bytes", a.totalBytes());
            if (s.engineBytes() > 0) {
                an.put("engine_bytes", s.engineBytes());
                an.put("off_by", Math.round(a.offBy() * 10000) / 10000.0);
            }
        }
        ArrayNode fs = sn.putArray("findings");
        for (Finding f : s.findings()) {
            ObjectNode fn = fs.addObject();
            fn.put("kind", f.kind().key());
            fn.put("detail", f.detail());
            fn.put("bytes", f.bytes());
        }
    }

    private static void putKnown(ObjectNode n, String key, long v) {
        if (v >= 0) {
            n.put(key, v);
        } else {
            n.putNull(key);
        }
    }
}

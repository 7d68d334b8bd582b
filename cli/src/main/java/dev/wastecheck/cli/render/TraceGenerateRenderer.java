package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.model.Bytes;
import dev.wastecheck.traces.generate.WikiGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code wastecheck trace generate} prints: the rows written per table on stdout (text or
 * JSON, keys in docs/json.md), and on stderr where the files went and how large they are.
 */
public final class TraceGenerateRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TraceGenerateRenderer() {}

    /** One line per table under a header: its name, the rows written and their bytes in the dump, in dump order. */
    public static void text(WikiGenerator.Result r, PrintWriter out) {
        TextTable t = new TextTable().text("table").number("rows").number("bytes in the dump");
        for (Map.Entry<String, Long> e : r.rows().entrySet()) {
            t.row(
                    e.getKey(),
                    Bytes.count(e.getValue()),
                    Bytes.human(r.tableBytes().getOrDefault(e.getKey(), 0L)));
        }
        t.print(out, 80);
    }

    public static ObjectNode toJson(WikiGenerator.Result r, Path dir, long scale, long seed) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("dump", dir.resolve("dump.sql").toString());
        root.put("trace", dir.resolve("trace.log").toString());
        root.put("scale", scale);
        root.put("seed", seed);
        ObjectNode tables = root.putObject("tables");
        r.rows()
                .forEach((table, rows) -> tables.putObject(table)
                        .put("rows", rows)
                        .put("bytes", r.tableBytes().getOrDefault(table, 0L)));
        root.put("dump_bytes", r.dumpBytes());
        root.put("trace_bytes", r.traceBytes());
        root.put("requests", r.traceRequests());
        root.put("statements", r.traceStatements());
        root.put("dump_ms", r.dumpNanos() / 1_000_000);
        return root;
    }

    public static void json(WikiGenerator.Result r, Path dir, long scale, long seed, PrintWriter out)
            throws IOException {
        // as a string: Jackson would close the writer, which is stdout's
        out.println(MAPPER.writeValueAsString(toJson(r, dir, scale, seed)));
    }

    /** The two files written, with their sizes, one line each. */
    public static void summary(WikiGenerator.Result r, Path dir, PrintWriter err) {
        double seconds = r.dumpNanos() / 1e9;
        err.printf(
                Locale.ROOT,
                "wrote %s (%.1f MB in %.2f s, %.0f MB/s)%n",
                dir.resolve("dump.sql"),
                r.dumpBytes() / 1e6,
                seconds,
                r.dumpBytes() / 1e6 / Math.max(1e-9, seconds));
        err.printf(
                Locale.ROOT,
                "wrote %s (%,d requests, %,d statements, %.1f MB)%n",
                dir.resolve("trace.log"),
                r.traceRequests(),
                r.traceStatements(),
                r.traceBytes() / 1e6);
    }
}

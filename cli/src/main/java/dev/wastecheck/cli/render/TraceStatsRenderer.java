package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.traces.TraceStats;
import dev.wastecheck.traces.access.ResolutionReport;
import dev.wastecheck.traces.heat.ColumnUse;
import dev.wastecheck.traces.heat.SkewShares;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.read.BadLines;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code wastecheck trace stats} in text (a screen: the operation mix, the hottest tables and
 * columns, skew) and JSON (every table and column; keys in docs/json.md).
 */
public final class TraceStatsRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TraceStatsRenderer() {}

    /** The text report, no line wider than {@code width}; {@code top} rows in the hottest lists. */
    public static void text(TraceStats stats, PrintWriter w, int top, int width) {
        ResolutionReport report = stats.report();
        var heat = stats.heat();
        Wrap.print(w, "trace    " + stats.file(), width, "", "         ");
        Wrap.print(
                w,
                String.format(
                        Locale.ROOT,
                        "format   %s, %,d lines, %,d bad",
                        stats.format(),
                        stats.lines(),
                        stats.badLines().count()),
                width,
                "",
                "         ");
        for (BadLines.Example e : stats.badLines().examples()) {
            Wrap.print(
                    w,
                    String.format(
                            Locale.ROOT, "bad line %d: expected %s, found '%s'", e.line(), e.expected(), e.text()),
                    width,
                    "  ",
                    "    ");
        }
        stats.skipped()
                .forEach((k, v) ->
                        Wrap.print(w, String.format(Locale.ROOT, "skipped %,d: %s", v, k), width, "  ", "    "));
        Wrap.print(
                w,
                String.format(
                        Locale.ROOT,
                        "records  %,d; statements %,d: %,d resolved, %,d unresolved, %,d ignored; %,d shapes",
                        report.records(),
                        report.statements(),
                        report.resolved(),
                        report.unresolved(),
                        report.ignoredTotal(),
                        report.shapes()),
                width,
                "",
                "         ");
        if (!report.ignored().isEmpty()) {
            Wrap.print(
                    w,
                    "ignored (no data access): "
                            + report.ignored().entrySet().stream()
                                    .sorted(Map.Entry.comparingByKey())
                                    .map(e -> e.getKey() + Wrap.NBSP + e.getValue())
                                    .collect(Collectors.joining(", ")),
                    width,
                    "  ",
                    "    ");
        }
        Wrap.print(
                w,
                String.format(
                        Locale.ROOT,
                        "accesses %,d (%,d without a literal key)",
                        heat.events(),
                        report.eventsWithoutKey()),
                width,
                "",
                "         ");

        w.println();
        TextTable mix = new TextTable().word("operation mix").number("share").number("accesses");
        for (Operation op : Operation.values()) {
            long n = heat.operations().getOrDefault(op, 0L);
            if (n > 0) {
                mix.row(op.name(), percent(n, heat.events(), 2), count(n));
            }
        }
        mix.print(w, width);

        w.println();
        List<TableHeat> tables = heat.tables();
        TextTable hot =
                new TextTable().text("hottest tables").number("accesses").number("share");
        for (TableHeat t : tables.subList(0, Math.min(top, tables.size()))) {
            hot.row(t.name(), count(t.events()), percent(t.events(), heat.events(), 1));
        }
        hot.print(w, width);

        w.println();
        List<TraceStats.Column> columns = stats.columnsByUse();
        boolean functions = columns.stream().anyMatch(c -> !c.use().functions().isEmpty());
        TextTable cols = new TextTable()
                .text("hottest columns")
                .number("refs")
                .number("projected")
                .number("predicate")
                .number("updated")
                .number("joined");
        if (functions) {
            cols.text("functions");
        }
        for (TraceStats.Column c : columns.subList(0, Math.min(top, columns.size()))) {
            ColumnUse u = c.use();
            String[] cells = {
                c.table() + "." + u.column(),
                count(u.total()),
                count(u.projected()),
                count(u.predicate()),
                count(u.updated()),
                count(u.joined())
            };
            cols.row(functions ? append(cells, functions(u)) : cells);
        }
        cols.print(w, width);

        w.println();
        Wrap.print(
                w,
                "skew: share of keyed accesses on the hottest 1% / 5% / 10% of the keys the trace touched",
                width,
                "",
                "  ");
        TextTable skew = new TextTable()
                .indent("  ")
                .text("table")
                .number("top1%")
                .number("top5%")
                .number("top10%")
                .word("by index")
                .number("keys")
                .number("accesses");
        for (TableHeat t : tables) {
            String ix = t.heatIndex();
            if (ix != null) {
                SkewShares s = t.skew(ix, 0);
                skew.row(
                        t.name(),
                        pct(s.top1()),
                        pct(s.top5()),
                        pct(s.top10()),
                        ix,
                        count(s.keys()),
                        count(s.accesses()));
            }
        }
        skew.print(w, width);

        if (report.unresolved() > 0) {
            w.println();
            w.printf(Locale.ROOT, "unresolved statements (%,d), by reason%n", report.unresolved());
            for (ResolutionReport.Reason r : report.unresolvedReasons()) {
                Wrap.print(w, String.format(Locale.ROOT, "%,d x %s", r.count(), r.reason()), width, "  ", "    ");
                for (ResolutionReport.Example e : r.examples()) {
                    Wrap.print(
                            w,
                            "line " + e.line() + ": " + e.statement().replace('\n', ' '),
                            width,
                            "      ",
                            "        ");
                }
            }
        }
    }

    /** Everything the text shows and more (every table, every column), keys snake_case as docs/json.md lists them. */
    public static ObjectNode toJson(TraceStats stats) {
        ResolutionReport report = stats.report();
        var heat = stats.heat();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("trace", stats.file().toString());
        root.put("format", stats.format().name().toLowerCase(Locale.ROOT));
        root.put("lines", stats.lines());
        root.put("bad_lines", stats.badLines().count());
        ArrayNode bad = root.putArray("bad_line_examples");
        for (BadLines.Example e : stats.badLines().examples()) {
            bad.addObject().put("line", e.line()).put("expected", e.expected()).put("text", e.text());
        }
        ObjectNode skipped = root.putObject("skipped");
        stats.skipped().forEach(skipped::put);
        root.put("records", report.records());
        root.put("statements", report.statements());
        root.put("resolved", report.resolved());
        root.put("unresolved", report.unresolved());
        root.put("ignored", report.ignoredTotal());
        ObjectNode ignored = root.putObject("ignored_by_keyword");
        report.ignored().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> ignored.put(e.getKey(), e.getValue()));
        root.put("shapes", report.shapes());
        root.put("accesses", heat.events());
        root.put("accesses_without_key", report.eventsWithoutKey());
        ObjectNode ops = root.putObject("operations");
        for (Operation op : Operation.values()) {
            ops.put(op.name().toLowerCase(Locale.ROOT), heat.operations().getOrDefault(op, 0L));
        }
        ArrayNode tables = root.putArray("tables");
        for (TableHeat t : heat.tables()) {
            ObjectNode n = tables.addObject();
            n.put("name", t.name());
            n.put("accesses", t.events());
            n.put("share", heat.events() == 0 ? 0 : (double) t.events() / heat.events());
            String ix = t.heatIndex();
            if (ix != null) {
                SkewShares s = t.skew(ix, 0);
                ObjectNode k = n.putObject("skew");
                k.put("index", ix);
                k.put("keys", s.keys());
                k.put("accesses", s.accesses());
                k.put("share_top_1pct", s.top1());
                k.put("share_top_5pct", s.top5());
                k.put("share_top_10pct", s.top10());
            }
        }
        ArrayNode columns = root.putArray("columns");
        for (TraceStats.Column c : stats.columnsByUse()) {
            ColumnUse u = c.use();
            ObjectNode n = columns.addObject();
            n.put("table", c.table());
            n.put("column", u.column());
            n.put("references", u.total());
            n.put("projected", u.projected());
            n.put("predicate", u.predicate());
            n.put("updated", u.updated());
            n.put("joined", u.joined());
            ObjectNode f = n.putObject("functions");
            u.functions().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> f.put(e.getKey(), e.getValue()));
        }
        ArrayNode reasons = root.putArray("unresolved_reasons");
        for (ResolutionReport.Reason r : report.unresolvedReasons()) {
            ObjectNode n = reasons.addObject();
            n.put("reason", r.reason());
            n.put("count", r.count());
            ArrayNode ex = n.putArray("examples");
            r.examples().forEach(e -> ex.addObject().put("line", e.line()).put("statement", e.statement()));
        }
        return root;
    }

    public static void json(TraceStats stats, PrintWriter w) throws IOException {
        // as a string: Jackson would close the writer, which is stdout's
        w.println(MAPPER.writeValueAsString(toJson(stats)));
    }

    private static String functions(ColumnUse u) {
        return u.functions().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + Wrap.NBSP + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String[] append(String[] cells, String last) {
        String[] out = Arrays.copyOf(cells, cells.length + 1);
        out[cells.length] = last;
        return out;
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String percent(long n, long of, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f%%", 100.0 * n / Math.max(1, of));
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }
}

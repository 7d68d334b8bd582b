package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.analyzer.report.AccessSummary;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Bytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The HTML report: one self-contained file (Chart.js inlined, no network needed to open it)
 * with the tables and columns as HTML, readable without scripts, and charts drawn from the
 * same figures: bytes declared against tight per table, findings by kind, and with a trace
 * the access skew per table.
 */
public final class HtmlRenderer {
    private static final String CHART_JS = "META-INF/resources/webjars/chart.js/4.4.1/dist/chart.umd.js";
    private static final int TOP_TABLES = 20;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HtmlRenderer() {}

    public static void write(AnalysisReport r, PrintWriter w, int top) throws IOException {
        w.println("<!DOCTYPE html>");
        w.println("<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wastecheck analyze</title>");
        w.println("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        w.println("<style>");
        w.println(
                "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}");
        w.println(
                "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em}table{border-collapse:collapse;width:100%;margin:.5em 0}");
        w.println("th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}");
        w.println(
                "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.95em}.s{color:#0a6b2d;font-weight:600}");
        w.println(
                ".k{display:inline-block;background:#eef;border-radius:3px;padding:0 .35em;margin-right:.3em;font-size:.85em}");
        w.println(
                ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1.5em}.chart{position:relative;height:360px}"
                        + ".fine{font-size:.9em;color:#555}");
        w.println("</style></head><body>");
        w.println("<h1>wastecheck analyze</h1>");
        w.printf(
                "<p>%s, %s, dialect %s. Declared <b>%s</b>, tight <b>%s</b>: <b class=\"s\">%s wasted (%s)</b> in column encodings.</p>%n",
                ReportFacts.count(r.tables().size(), "table"),
                ReportFacts.count(r.rows(), "row"),
                esc(r.dialect()),
                Bytes.human(r.declaredBytes()),
                Bytes.human(r.tightBytes()),
                Bytes.human(r.wastedBytes()),
                Bytes.percent(r.wastedBytes(), r.declaredBytes()));
        w.println("<p>Sources: "
                + r.sources().stream().map(s -> "<code>" + esc(s) + "</code>").collect(Collectors.joining(", "))
                + "</p>");
        w.println("<p>Evidence: " + esc(r.basis()) + ".</p>");
        String next = TextRenderer.nextStep(r);
        if (next != null) {
            w.println("<p>Next: <code>" + esc(next.substring(0, next.indexOf(" writes "))) + "</code>"
                    + esc(next.substring(next.indexOf(" writes "))) + "</p>");
        }

        w.println("<div class=\"charts\">");
        w.println(
                "<div><h2>Bytes per table, declared and tight</h2><div class=\"chart\"><canvas id=\"bytes\"></canvas></div></div>");
        w.println("<div><h2>Findings by kind</h2><div class=\"chart\"><canvas id=\"kinds\"></canvas></div></div>");
        if (!r.space().isEmpty()) {
            w.println("<div><h2>Where each table's bytes go: values, row overhead, indexes, free and dead space</h2>"
                    + "<div class=\"chart\"><canvas id=\"account\"></canvas></div></div>");
        }
        if (r.workload() != null && !r.workload().access().isEmpty()) {
            w.println(
                    "<div><h2>Access skew: share of accesses to the hottest rows</h2><div class=\"chart\"><canvas id=\"skew\"></canvas></div></div>");
        }
        w.println("</div>");

        boolean server = !r.serverBytes().isEmpty();
        boolean space = !r.serverSpace().isEmpty();
        w.println(
                "<h2>Tables</h2><table><tr><th>table</th><th class=n>rows</th><th class=n>declared</th><th class=n>tight</th>"
                        + "<th class=n>waste</th>" + (server ? "<th class=n>on server</th>" : "")
                        + (space ? "<th class=n>dead+free</th>" : "") + "</tr>");
        for (TableReport t : ReportFacts.tablesByWaste(r)) {
            String key = t.name().toLowerCase(Locale.ROOT);
            Long measured = r.serverBytes().get(key);
            AnalysisReport.ServerSpace sp = r.serverSpace().get(key);
            w.printf(
                    "<tr><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td>%s%s</tr>%n",
                    esc(t.name()),
                    Bytes.count(t.rows()),
                    Bytes.human(t.declaredBytes()),
                    Bytes.human(t.tightBytes()),
                    Bytes.percent(t.wastedBytes(), t.declaredBytes()),
                    server ? "<td class=n>" + (measured == null ? "-" : Bytes.human(measured)) + "</td>" : "",
                    space
                            ? "<td class=n>" + (sp == null ? "-" : Bytes.human(sp.deadBytes() + sp.freeBytes()))
                                    + "</td>"
                            : "");
        }
        w.println("</table>");

        List<ReportFacts.Col> cols = ReportFacts.columnsByWaste(r);
        w.printf(
                "<h2>Columns that waste the most</h2><p>The %d largest of %d; <code>--format markdown</code> or <code>json</code> lists every column.</p>%n",
                Math.min(top, cols.size()), cols.size());
        w.println(
                "<table><tr><th>column</th><th>declared</th><th>suggested</th><th class=n>saves</th><th>why</th></tr>");
        for (ReportFacts.Col c : cols.subList(0, Math.min(top, cols.size()))) {
            ColumnReport col = c.column();
            String why =
                    col.findings().isEmpty() ? "" : esc(col.findings().get(0).detail());
            w.printf(
                    "<tr><td><code>%s</code></td><td><code>%s</code></td><td class=s><code>%s</code></td><td class=n>%s</td><td>%s</td></tr>%n",
                    esc(c.qualified()),
                    esc(col.declaredType()),
                    esc(col.suggestedType()),
                    Bytes.human(col.wastedBytes()),
                    why);
        }
        w.println("</table>");

        if (cols.size() > top) {
            w.printf(
                    "<p>... and %s (<code>--top N</code>, or <code>--format markdown|json</code> for all).</p>%n",
                    ReportFacts.count(cols.size() - top, "more column"));
        }
        String refs = TextRenderer.referencesLine(r);
        String kept = TextRenderer.keptLine(r);
        if (refs != null || kept != null) {
            w.println("<ul class=notes>");
            if (refs != null) w.println("<li>" + esc(refs) + "</li>");
            if (kept != null) w.println("<li>" + esc(kept) + "</li>");
            w.println("</ul>");
        }
        List<String> tune = TextRenderer.tuneNotes(r);
        if (!tune.isEmpty()) {
            w.println("<h2>What tune's migration does differently</h2><ul class=notes>");
            tune.forEach(l -> w.println("<li>" + esc(l) + "</li>"));
            w.println("</ul>");
        }

        List<ReportFacts.Semantic> semantic = ReportFacts.semanticFindings(r);
        if (!semantic.isEmpty()) {
            w.println(
                    "<h2>What columns are, not how they are stored</h2><table><tr><th>column</th><th>finding</th><th>detail</th></tr>");
            for (ReportFacts.Semantic s : semantic) {
                w.printf(
                        "<tr><td><code>%s</code></td><td><span class=k>%s</span></td><td>%s</td></tr>%n",
                        esc(s.col().qualified()),
                        esc(s.finding().kind().key()),
                        esc(s.finding().detail()));
            }
            w.println("</table>");
        }
        if (r.workload() != null) {
            w.println("<h2>Workload</h2><ul>");
            for (var t : r.workload().traces()) {
                w.println("<li>" + esc(TextRenderer.traceLine(t)) + "</li>");
                t.unresolved().stream().limit(3).forEach(u -> w.println("<li>unresolved: " + esc(u) + "</li>"));
            }
            w.println("</ul>");
            w.println("<table><tr><th>table</th><th class=n>accesses</th><th class=n>hottest 1%</th><th class=n>5%</th>"
                    + "<th class=n>10%</th><th class=n>hot rows</th><th class=n>page hot-density</th>"
                    + "<th class=n>hot partition</th></tr>");
            r.workload().access().entrySet().stream()
                    .sorted((a, b) ->
                            Long.compare(b.getValue().events(), a.getValue().events()))
                    .forEach(e -> {
                        AccessSummary a = e.getValue();
                        w.printf(
                                "<tr><td>%s</td><td class=n>%s</td><td class=n>%.1f%%</td><td class=n>%.1f%%</td>"
                                        + "<td class=n>%.1f%%</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td></tr>%n",
                                esc(e.getKey()),
                                Bytes.count(a.events()),
                                100 * a.shareTop1(),
                                100 * a.shareTop5(),
                                100 * a.shareTop10(),
                                Bytes.count(a.hotRows()),
                                a.hotRowsPlaced() > 0 ? String.format("%.1f%%", 100 * a.pageHotDensity()) : "-",
                                Bytes.human(a.hotBytes() + a.hotIndexBytes()));
                    });
            w.println("</table>");
            w.println(
                    "<p class=fine>hottest N%: share of keyed accesses on the hottest N% of rows; page hot-density: share"
                            + " of hot rows on pages holding any, in the dump's order; hot partition: a partition of the rows taking"
                            + " 90% of accesses, with its index.</p>");
            List<String> cache = TextRenderer.cacheLines(r);
            if (!cache.isEmpty()) {
                w.println("<h2>Fields worth caching in index leaves</h2><ul>");
                cache.forEach(x -> w.println("<li>" + esc(x) + "</li>"));
                w.println("</ul>");
            }
        }
        if (!r.indexFindings().isEmpty()) {
            indexes(r, w);
        }
        Map<String, Integer> counts = ReportFacts.findingCounts(r);
        if (!counts.isEmpty()) {
            w.println("<p>Findings: "
                    + esc(counts.entrySet().stream()
                            .map(e -> e.getKey() + " " + e.getValue())
                            .collect(Collectors.joining(", ")))
                    + "</p>");
        }
        long badRows = r.tables().stream().mapToLong(TableReport::badRows).sum();
        long badValues = r.tables().stream().mapToLong(TableReport::badValues).sum();
        if (badRows + badValues > 0) {
            w.println("<h2>Bad input</h2><p>"
                    + esc(ReportFacts.count(badRows, "bad row") + " and " + ReportFacts.count(badValues, "bad value"))
                    + " were counted, not dropped silently:</p><ul>");
            r.tables().stream()
                    .flatMap(t -> t.problems().stream().map(p -> t.name() + ": " + p))
                    .forEach(p -> w.println("<li>" + esc(p) + "</li>"));
            w.println("</ul>");
        }
        if (!r.warnings().isEmpty()) {
            w.println("<h2>Warnings</h2><ul>");
            r.warnings().forEach(x -> w.println("<li>" + esc(x) + "</li>"));
            w.println("</ul>");
        }

        // The charts' figures, as data the script reads (never as markup).
        // Every '<' in the JSON is inside a string: as \u003c it can neither close the element
        // nor open the comment-like states a '<!--' would.
        w.println("<script type=\"application/json\" id=\"figures\">"
                + MAPPER.writeValueAsString(figures(r)).replace("<", "\\u003c") + "</script>");
        w.println("<script>");
        w.println(scriptSafe(chartJs()));
        w.println("</script>");
        w.println("<script>");
        w.println("""
                const f = JSON.parse(document.getElementById('figures').textContent);
                // drawn at once, never mid-flight: a screenshot or a print shows the figures the tables give
                Chart.defaults.animation = false;
                const human = v => v < 1024 ? v + ' B' : v < 1048576 ? +(v / 1024).toFixed(1) + ' KiB'
                  : v < 1073741824 ? +(v / 1048576).toFixed(1) + ' MiB' : +(v / 1073741824).toFixed(1) + ' GiB';
                // byte sizes on a logarithmic axis: ticks at powers of two (64 KiB, 128 KiB), at most eight of them,
                // instead of Chart.js's 1-9 x 10^n, whose labels piled up and read 48.8 KiB, 97.7 KiB
                const binaryTicks = scale => {
                  const lo = Math.max(1, scale.min), hi = scale.max;
                  const a = Math.floor(Math.log2(lo)), b = Math.ceil(Math.log2(hi)), step = Math.max(1, Math.ceil((b - a) / 7));
                  const ticks = [];
                  for (let e = a; e <= b; e += step) { const v = Math.pow(2, e); if (v >= lo && v <= hi) ticks.push({value: v}); }
                  scale.ticks = ticks;
                };
                new Chart(document.getElementById('bytes'), {type: 'bar',
                  data: {labels: f.tables, datasets: [{label: 'declared', data: f.declared, backgroundColor: '#c9c9d6'},
                                                      {label: 'tight', data: f.tight, backgroundColor: '#2e8b57'}]},
                  // sizes span orders of magnitude: on a linear axis the small tables would not show at all
                  options: {indexAxis: 'y', maintainAspectRatio: false,
                            scales: {x: {type: 'logarithmic', title: {display: true, text: 'bytes (logarithmic)'},
                                         afterBuildTicks: binaryTicks, ticks: {callback: human}}},
                            plugins: {tooltip: {callbacks: {label: c => c.dataset.label + ': ' + human(c.raw)}}}}});
                new Chart(document.getElementById('kinds'), {type: 'bar',
                  data: {labels: f.kinds, datasets: [{label: 'columns', data: f.kindCounts, backgroundColor: '#4f6fb3'}]},
                  options: {indexAxis: 'y', maintainAspectRatio: false, plugins: {legend: {display: false}}}});
                if (f.accountTables.length && document.getElementById('account')) {
                  const part = (label, data, color) => ({label, data, backgroundColor: color});
                  new Chart(document.getElementById('account'), {type: 'bar',
                    data: {labels: f.accountTables, datasets: [
                      part('tight values', f.accountTight, '#2e8b57'), part('encoding waste', f.accountWaste, '#c9c9d6'),
                      part('row overhead', f.accountOverhead, '#8c8c9e'), part('indexes', f.accountIndexes, '#4f6fb3'),
                      part('free', f.accountFree, '#e8c25a'), part('dead', f.accountDead, '#b33a3a')]},
                    options: {indexAxis: 'y', maintainAspectRatio: false,
                              scales: {x: {stacked: true, ticks: {callback: human}}, y: {stacked: true}},
                              plugins: {tooltip: {callbacks: {label: c => c.dataset.label + ': ' + human(c.raw)}}}}});
                }
                if (f.skewTables.length && document.getElementById('skew')) {
                  new Chart(document.getElementById('skew'), {type: 'bar',
                    data: {labels: f.skewTables, datasets: [
                      {label: 'hottest 1% of rows', data: f.top1, backgroundColor: '#b33a3a'},
                      {label: 'hottest 5%', data: f.top5, backgroundColor: '#d98c3a'},
                      {label: 'hottest 10%', data: f.top10, backgroundColor: '#e8c25a'}]},
                    options: {maintainAspectRatio: false, scales: {y: {max: 100, ticks: {callback: v => v + '%'}}}}});
                }
                """);
        w.println("</script></body></html>");
        w.flush();
    }

    /**
     * The redundant, unused and low-cardinality indexes, as the text report's "indexes:" lists them:
     * what dropping each frees (measured, or the storage model's prediction for a dump) and why.
     */
    private static void indexes(AnalysisReport r, PrintWriter w) {
        w.println("<h2>Indexes</h2><table><tr><th>index</th><th>columns</th><th>finding</th><th class=n>bytes</th>"
                + "<th>basis</th><th class=n>predicted</th><th>covered by</th><th>why</th></tr>");
        for (IndexFinding f : r.indexFindings()) {
            w.printf(
                    "<tr><td><code>%s.%s</code></td><td><code>%s</code></td><td><span class=k>%s</span></td>"
                            + "<td class=n>%s</td><td>%s</td><td class=n>%s</td><td>%s</td><td>%s</td></tr>%n",
                    esc(f.table()),
                    esc(f.index()),
                    esc(String.join(", ", f.columns())),
                    esc(f.kind().key()),
                    f.bytes() < 0 ? "-" : Bytes.human(f.bytes()),
                    f.bytes() < 0 ? "unknown" : esc(f.bytesBasis()),
                    f.predictedBytes() < 0 ? "-" : Bytes.human(f.predictedBytes()),
                    f.coveredBy() == null ? "" : "<code>" + esc(f.coveredBy()) + "</code>",
                    esc(f.detail()));
        }
        w.println("</table>");
    }

    /** The figures the charts draw: the tables with the most waste, finding counts, access skew. */
    static ObjectNode figures(AnalysisReport r) {
        ObjectNode f = MAPPER.createObjectNode();
        ArrayNode tables = f.putArray("tables");
        ArrayNode declared = f.putArray("declared");
        ArrayNode tight = f.putArray("tight");
        List<TableReport> byWaste = ReportFacts.tablesByWaste(r);
        for (TableReport t : byWaste.subList(0, Math.min(TOP_TABLES, byWaste.size()))) {
            tables.add(t.name());
            declared.add(t.declaredBytes());
            tight.add(t.tightBytes());
        }
        ArrayNode kinds = f.putArray("kinds");
        ArrayNode counts = f.putArray("kindCounts");
        ReportFacts.findingCounts(r).entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> {
                    kinds.add(e.getKey());
                    counts.add(e.getValue());
                });
        SpaceFigures.put(f, r);
        ArrayNode skewTables = f.putArray("skewTables");
        ArrayNode top1 = f.putArray("top1");
        ArrayNode top5 = f.putArray("top5");
        ArrayNode top10 = f.putArray("top10");
        if (r.workload() != null) {
            r.workload().access().forEach((name, a) -> {
                skewTables.add(name);
                top1.add(Math.round(1000 * a.shareTop1()) / 10.0);
                top5.add(Math.round(1000 * a.shareTop5()) / 10.0);
                top10.add(Math.round(1000 * a.shareTop10()) / 10.0);
            });
        }
        return f;
    }

    static String chartJs() throws IOException {
        try (InputStream in = HtmlRenderer.class.getClassLoader().getResourceAsStream(CHART_JS)) {
            if (in == null) {
                throw new IOException("Chart.js is missing from the build (" + CHART_JS + ")");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Text inside a script element: a closing tag in it would end the element early. */
    static String scriptSafe(String s) {
        return s.replace("</", "<\\/");
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}

package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.autotune.AutotuneReport;
import dev.wastecheck.model.Bytes;
import dev.wastecheck.replay.ReplayReport;
import dev.wastecheck.replay.RunReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTML pages of {@code replay --format html} and {@code autotune --format html}: one
 * self-contained file each (Chart.js inlined, as analyze's page), the figures as tables readable
 * without scripts, and three plots where people would rather look than read: cost per query
 * against the memory budget, index-cache hit rate against cache size, and each table's
 * access-skew curve (share of accesses against share of the hottest tuples, "No Bits Left Behind"
 * §3.1).
 */
public final class TuningHtml {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TuningHtml() {}

    public static void replay(ReplayReport r, PrintWriter w) throws IOException {
        head(w, "wastecheck replay");
        RunReport first = r.runs().get(0);
        w.printf(
                "<p>Replay of <code>%s</code> on <code>%s</code>: %s events, %s measured %s.</p>%n",
                HtmlRenderer.esc(r.trace()),
                HtmlRenderer.esc(r.data()),
                Bytes.count(r.events()),
                Bytes.count(first.queries()),
                r.train() > 0
                        ? "(held out; designs learned on the first " + pct(r.train()) + ")"
                        : "after a " + pct(r.warmup()) + " warm-up (an oracle)");
        charts(w);
        w.println(
                "<h2>Runs</h2><table><tr><th>config</th><th class=n>cost/query</th><th class=n>95% interval</th><th class=n>speedup</th>"
                        + "<th class=n>working set</th><th class=n>buffer hit</th><th class=n>cache hit</th><th class=n>memory</th></tr>");
        for (int i = 0; i < r.runs().size(); i++) {
            RunReport x = r.runs().get(i);
            row(w, x.config(), x, first);
        }
        w.println("</table>");
        ObjectNode f = MAPPER.createObjectNode();
        ArrayNode memory = f.putArray("memory");
        for (RunReport x : r.runs()) {
            memory.addObject()
                    .put("config", family(x.settings()))
                    .put("memory", x.memoryBytes())
                    .put("cost", x.costPerQueryUs());
        }
        ArrayNode cache = f.putArray("cache");
        for (RunReport x : r.runs()) {
            if (x.cacheHitRate() > 0) {
                cache.addObject()
                        .put("table", "all")
                        .put("size", cacheSize(x.settings()))
                        .put("hit", x.cacheHitRate());
            }
        }
        skew(f, r.accessSkew());
        tail(w, f);
    }

    public static void autotune(AutotuneReport r, PrintWriter w) throws IOException {
        head(w, "wastecheck autotune");
        RunReport base = r.baseline().run();
        w.printf(
                "<p>Designs learned on the first %s of <code>%s</code> (%s events) and scored on the other %s, held out, with a %s buffer pool, "
                        + "on <code>%s</code>.</p>%n",
                pct(r.train()),
                HtmlRenderer.esc(r.trace()),
                Bytes.count(r.trainEvents()),
                Bytes.count(r.heldOutEvents()),
                Bytes.human(r.memoryBytes()),
                HtmlRenderer.esc(r.data()));
        w.println(
                "<h2>Finalists (all tables together, every held-out event)</h2><table><tr><th>design</th><th class=n>cost/query</th>"
                        + "<th class=n>95% interval</th><th class=n>speedup</th><th class=n>modeled µs/query</th>"
                        + "<th class=n>working set</th><th class=n>buffer hit</th><th class=n>cache hit</th><th class=n>memory</th></tr>");
        for (AutotuneReport.Finalist fin : List.of(r.baseline(), r.bestUniform(), r.recommended()))
            row(w, fin.name(), fin.run(), base, f(fin.modeledUs()));
        w.println("</table>");
        w.println(
                "<p class=fine>cost/query is measured: the engine's time per held-out query, with the modeled device time of"
                        + " buffer-pool misses; modeled µs/query is what the search compares (docs/autotune.md), the figures the"
                        + " note and the per-table rows give.</p>");
        // the note compares modeled costs: say so, or it reads as contradicting the measured column beside it
        if (r.fallback() != null)
            w.println("<p><b>Note</b> (modeled µs/query, as in the finalists' modeled column): "
                    + HtmlRenderer.esc(r.fallback()) + "</p>");
        w.println("<p>Recommended: <code>" + HtmlRenderer.esc(r.recommended().config()) + "</code></p>");
        charts(w);
        w.println(
                "<h2>Per table</h2><table class=fixed><colgroup><col style=\"width:10%\"><col style=\"width:30%\"><col style=\"width:9%\">"
                        + "<col style=\"width:9%\"><col style=\"width:12%\"><col style=\"width:12%\"><col style=\"width:18%\"></colgroup>"
                        + "<tr><th>table</th><th>design</th><th class=n>modeled µs/query</th><th class=n>its baseline</th>"
                        + "<th>kept apart</th><th>cached</th><th>note</th></tr>");
        boolean uniform = r.recommended().config().equals(r.bestUniform().config());
        for (AutotuneReport.TableChoice t : r.tables()) {
            w.printf(
                    "<tr><td>%s</td><td><code>%s</code></td><td class=n>%.2f</td><td class=n>%.2f</td><td>%s</td><td>%s</td><td>%s</td></tr>%n",
                    HtmlRenderer.esc(t.table()),
                    HtmlRenderer.esc(t.design()),
                    t.modeledUs(),
                    t.baselineModeledUs(),
                    HtmlRenderer.esc(String.join(", ", t.apart())),
                    HtmlRenderer.esc(String.join(", ", t.cacheFields())),
                    HtmlRenderer.esc(worseNote(t, uniform)));
        }
        w.println("</table>");
        long chosen = r.evaluations().stream()
                .filter(e -> e.status().equals("chosen"))
                .count();
        long kept =
                r.evaluations().stream().filter(e -> e.status().equals("kept")).count();
        // ~120 rows: folded by default, so that the page reads as the report; a click opens them
        w.printf(
                "<h2>Candidates</h2><details><summary>%d replayed: %d chosen, %d kept (survived their step, lost later), %d rejected"
                        + " (show)</summary>%n",
                r.evaluations().size(), chosen, kept, r.evaluations().size() - chosen - kept);
        w.println(
                "<table class=fixed><colgroup><col style=\"width:9%\"><col style=\"width:7%\"><col style=\"width:26%\">"
                        + "<col style=\"width:8%\"><col style=\"width:8%\"><col style=\"width:8%\"><col style=\"width:34%\"></colgroup>"
                        + "<tr><th>table</th><th>step</th><th>design</th><th class=n>held-out share</th>"
                        + "<th class=n>modeled µs/query</th><th>status</th><th>why</th></tr>");
        for (AutotuneReport.Evaluation e : r.evaluations()) {
            w.printf(
                    "<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td class=n>%s</td><td class=n>%.2f</td><td>%s</td><td>%s</td></tr>%n",
                    HtmlRenderer.esc(e.table()),
                    e.step(),
                    HtmlRenderer.esc(e.design()),
                    pct(e.prefix()),
                    e.modeledUs(),
                    e.status(),
                    HtmlRenderer.esc(e.reason()));
        }
        w.println("</table></details>");
        if (!r.pruned().isEmpty()) {
            w.println("<h2>Pruned without a replay</h2><table><tr><th>table</th><th>candidate</th><th>why</th></tr>");
            for (AutotuneReport.Pruned p : r.pruned()) {
                w.printf(
                        "<tr><td>%s</td><td><code>%s=%s</code></td><td>%s</td></tr>%n",
                        HtmlRenderer.esc(p.table()),
                        p.dimension(),
                        HtmlRenderer.esc(p.value()),
                        HtmlRenderer.esc(p.reason()));
            }
            w.println("</table>");
        }
        w.println("<h2>To apply it</h2><pre>");
        r.ddl().forEach(s -> w.println(HtmlRenderer.esc(s)));
        w.println("</pre>");
        w.printf(
                "<p>The search took %.1f s, %.1fx one replay of the trace (%.1f s).</p>%n",
                r.searchMillis() / 1000.0, r.costMultiple(), r.oneReplayMillis() / 1000.0);
        ObjectNode f = MAPPER.createObjectNode();
        ArrayNode memory = f.putArray("memory");
        for (AutotuneReport.CurvePoint p : r.curve()) {
            memory.addObject()
                    .put("config", p.config())
                    .put("memory", p.memoryBytes())
                    .put("cost", p.costUs());
        }
        ArrayNode cache = f.putArray("cache");
        for (AutotuneReport.CachePoint p : r.cacheCurve())
            cache.addObject().put("table", p.table()).put("size", p.cacheSize()).put("hit", p.hitRate());
        skew(f, r.accessSkew());
        tail(w, f);
    }

    /**
     * Why a table's recommended design models slower than that table's baseline, both replayed
     * alone: the recommendation is chosen for the tables together, not for each (empty when not slower).
     */
    static String worseNote(AutotuneReport.TableChoice t, boolean uniform) {
        if (!(t.modeledUs() > t.baselineModeledUs())) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "slower alone than its baseline (%.2f against %.2f µs/query): %s",
                t.modeledUs(),
                t.baselineModeledUs(),
                uniform
                        ? "the one design recommended for every table costs least for all of them together, not for"
                                + " this one"
                        : "the designs were chosen for all tables together under one buffer pool, not for this table alone");
    }

    private static void row(PrintWriter w, String name, RunReport x, RunReport base) {
        row(w, name, x, base, null);
    }

    /** @param modeled the finalist's modeled µs/query (a column of autotune's table only), or null */
    private static void row(PrintWriter w, String name, RunReport x, RunReport base, String modeled) {
        w.printf(
                "<tr><td>%s</td><td class=n>%s µs</td><td class=n>%s</td><td class=n>%sx</td>%s<td class=n>%s</td><td class=n>%s</td>"
                        + "<td class=n>%s</td><td class=n>%s</td></tr>%n",
                HtmlRenderer.esc(name),
                f(x.costPerQueryUs()),
                x.repeats() > 1 ? f(x.costPerQueryUsCi95()[0]) + " - " + f(x.costPerQueryUsCi95()[1]) : "one run",
                f(ReplayRenderer.speedup(base, x)),
                modeled == null ? "" : "<td class=n>" + modeled + "</td>",
                Bytes.human(x.workingSetBytes()),
                pct(x.bufferHitRate()),
                x.cacheHitRate() == 0 ? "-" : pct(x.cacheHitRate()),
                Bytes.human(x.memoryBytes()));
    }

    private static void charts(PrintWriter w) {
        w.println("<div class=\"charts\">");
        w.println(
                "<div><h2>Cost per query against memory</h2><div class=\"chart\"><canvas id=\"memory\"></canvas></div></div>");
        w.println(
                "<div><h2>Index-cache hit rate against cache size</h2><div class=\"chart\"><canvas id=\"cache\"></canvas></div></div>");
        w.println(
                "<div><h2>Access skew: share of accesses to the hottest tuples</h2><div class=\"chart\"><canvas id=\"skew\"></canvas></div></div>");
        w.println("</div>");
    }

    private static void skew(ObjectNode f, Map<String, List<double[]>> skew) {
        ObjectNode s = f.putObject("skew");
        skew.forEach((table, points) -> {
            ArrayNode a = s.putArray(table);
            for (double[] p : points) a.addObject().put("x", 100 * p[0]).put("y", 100 * p[1]);
        });
    }

    /** A run's design without its memory, so that the same design at several budgets draws one line. */
    static String family(String settings) {
        return settings.replaceAll(",memory=[^,;]*", "");
    }

    private static double cacheSize(String settings) {
        Matcher m = Pattern.compile("cache_size=([0-9.]+)").matcher(settings);
        return m.find() ? Double.parseDouble(m.group(1)) : 1.0;
    }

    private static void head(PrintWriter w, String title) {
        w.println("<!DOCTYPE html>");
        w.println("<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title + "</title>");
        w.println("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
        w.println("<style>");
        w.println(
                "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}");
        w.println(
                "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em}table{border-collapse:collapse;width:100%;margin:.5em 0}");
        w.println("th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}");
        w.println(
                "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:.95em;overflow-wrap:anywhere}"
                        + "pre{background:#f6f6f6;padding:.8em;white-space:pre-wrap;overflow-wrap:anywhere}"
                        + "table.fixed{table-layout:fixed}td{overflow-wrap:anywhere}.fine{font-size:.9em;color:#555}"
                        + "summary{cursor:pointer}");
        w.println(
                ".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1.5em}.chart{position:relative;height:340px}");
        w.println("</style></head><body>");
        w.println("<h1>" + title + "</h1>");
    }

    private static void tail(PrintWriter w, ObjectNode figures) throws IOException {
        // The figures as data the script reads, never as markup ('<' escaped, as analyze's page does).
        w.println("<script type=\"application/json\" id=\"figures\">"
                + MAPPER.writeValueAsString(figures).replace("<", "\\u003c") + "</script>");
        w.println("<script>");
        w.println(HtmlRenderer.scriptSafe(HtmlRenderer.chartJs()));
        w.println("</script>");
        w.println("<script>");
        w.println("""
                const f = JSON.parse(document.getElementById('figures').textContent);
                const colors = ['#4f6fb3', '#2e8b57', '#b33a3a', '#d98c3a', '#7b5ea7', '#3a9fb3', '#8c8c8c', '#c9a227'];
                const groups = (rows, key) => { const g = {}; rows.forEach(r => (g[r[key]] = g[r[key]] || []).push(r)); return g; };
                const lines = (g, x, y) => Object.keys(g).map((k, i) => ({label: k, borderColor: colors[i % colors.length],
                  backgroundColor: colors[i % colors.length], showLine: true,
                  data: g[k].slice().sort((a, b) => a[x] - b[x]).map(r => ({x: r[x], y: r[y]}))}));
                const mib = v => (v / 1048576).toLocaleString(undefined, {maximumFractionDigits: 1}) + ' MiB';
                // drawn at once, never mid-flight: a screenshot or a print shows the figures the tables give
                Chart.defaults.animation = false;
                // on a logarithmic axis a label at 1, 2 and 5 of each power only: the others piled on top of each other
                const round = v => { const m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9)); return [1, 2, 5].some(k => Math.abs(m - k) < 1e-6); };
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
                new Chart(document.getElementById('memory'), {type: 'scatter',
                  data: {datasets: lines(groups(f.memory, 'config'), 'memory', 'cost')},
                  options: {maintainAspectRatio: false, scales: {x: {type: 'logarithmic', afterBuildTicks: binaryTicks, ticks: {maxRotation: 0, callback: human},
                    title: {display: true, text: 'buffer pool'}},
                    y: {type: 'logarithmic', ticks: {callback: v => round(v) ? v : null}, title: {display: true, text: 'µs per query'}}}}});
                new Chart(document.getElementById('cache'), {type: 'scatter',
                  data: {datasets: lines(groups(f.cache, 'table'), 'size', 'hit')},
                  options: {maintainAspectRatio: false, scales: {x: {min: 0, max: 1, title: {display: true, text: 'cache size (share of a leaf\\'s tuples)'}},
                    y: {min: 0, max: 1, title: {display: true, text: 'hit rate'}}}}});
                new Chart(document.getElementById('skew'), {type: 'scatter',
                  data: {datasets: Object.keys(f.skew).map((t, i) => ({label: t, showLine: true, borderColor: colors[i % colors.length],
                    backgroundColor: colors[i % colors.length], data: f.skew[t]}))},
                  options: {maintainAspectRatio: false, scales: {x: {type: 'logarithmic', title: {display: true, text: '% of the table\\'s tuples, hottest first'}},
                    y: {min: 0, max: 100, title: {display: true, text: '% of accesses'}}}}});
                """);
        w.println("</script></body></html>");
        w.flush();
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }
}

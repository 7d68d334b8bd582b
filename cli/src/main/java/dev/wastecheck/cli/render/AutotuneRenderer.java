package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.autotune.AutotuneReport;
import dev.wastecheck.autotune.CandidateStatus;
import dev.wastecheck.model.Bytes;
import dev.wastecheck.replay.RunReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The autotune report in text and JSON. JSON keys are a contract (docs/json.md) ({@code
 * train_events}, {@code held_out_events}, {@code memory_bytes}, {@code baseline}, {@code
 * best_uniform}, {@code recommended} with {@code tables[]}, {@code candidates[]}, each run with the
 * replay's keys, measured on the held-out events only); keys beyond it are additions, documented in
 * docs/autotune.md.
 */
public final class AutotuneRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AutotuneRenderer() {}

    public static ObjectNode toJson(AutotuneReport r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("data", r.data());
        root.put("trace", r.trace());
        root.put("train", r.train());
        root.put("train_events", r.trainEvents());
        root.put("held_out_events", r.heldOutEvents());
        root.put("memory_bytes", r.memoryBytes());
        RunReport base = r.baseline().run();
        finalist(root.putObject("baseline"), r.baseline(), base);
        finalist(root.putObject("best_uniform"), r.bestUniform(), base);
        ObjectNode rec = finalist(root.putObject("recommended"), r.recommended(), base);
        if (r.fallback() != null) rec.put("fallback", r.fallback());
        ArrayNode tables = rec.putArray("tables");
        for (AutotuneReport.TableChoice t : r.tables()) {
            ObjectNode n = tables.addObject();
            n.put("name", t.table());
            ObjectNode c = n.putObject("config");
            c.put("layout", t.layout());
            c.put("cache", t.cache());
            ArrayNode cf = c.putArray("cache_fields");
            t.cacheFields().forEach(cf::add);
            c.put("cluster", t.cluster());
            c.put("tight", t.tight());
            ArrayNode split = c.putArray("split");
            t.apart().forEach(split::add);
            c.put("settings", t.design());
            ArrayNode tc = n.putArray("tight_changes");
            for (String[] ch : t.tightChanges()) {
                ObjectNode x = tc.addObject();
                x.put("column", ch[0]);
                x.put("declared_type", ch[1]);
                x.put("suggested_type", ch[2]);
                x.put("engine_field", ch[3]);
            }
            n.put("memory_share_bytes", t.memoryShareBytes());
            n.put("held_out_events", t.events());
            n.put("modeled_us_per_query", t.modeledUs());
            n.put("baseline_modeled_us_per_query", t.baselineModeledUs());
        }
        ArrayNode candidates = root.putArray("candidates");
        for (AutotuneReport.Evaluation e : r.evaluations()) {
            ObjectNode n = candidates.addObject();
            if (e.run() != null) ReplayRenderer.runJson(n, e.run(), e.baseline(), 0);
            n.put("config", e.design());
            n.put("table", e.table());
            n.put("step", e.step());
            n.put("held_out_prefix", e.prefix());
            n.put("modeled_us_per_query", e.modeledUs());
            n.put("status", e.status().label());
            if (!e.reason().isEmpty()) n.put("reason", e.reason());
        }
        ArrayNode pruned = root.putArray("pruned");
        for (AutotuneReport.Pruned p : r.pruned()) {
            ObjectNode n = pruned.addObject();
            n.put("table", p.table());
            n.put("dimension", p.dimension());
            n.put("value", p.value());
            n.put("reason", p.reason());
        }
        ArrayNode curve = root.putArray("memory_curve");
        for (AutotuneReport.CurvePoint p : r.curve()) {
            ObjectNode n = curve.addObject();
            n.put("config", p.config());
            n.put("memory_bytes", p.memoryBytes());
            n.put("modeled_us_per_query", p.modeledUs());
            n.put("cost_per_query_us", p.costUs());
            n.put("working_set_bytes", p.workingSetBytes());
        }
        ArrayNode cache = root.putArray("cache_curve");
        for (AutotuneReport.CachePoint p : r.cacheCurve()) {
            ObjectNode n = cache.addObject();
            n.put("table", p.table());
            n.put("cache_size", p.cacheSize());
            n.put("cache_hit_rate", p.hitRate());
        }
        ObjectNode skew = root.putObject("access_skew");
        r.accessSkew().forEach((table, points) -> {
            ArrayNode a = skew.putArray(table);
            for (double[] p : points) a.addArray().add(p[0]).add(p[1]);
        });
        ArrayNode ddl = root.putArray("ddl");
        r.ddl().forEach(ddl::add);
        ObjectNode cost = root.putObject("search");
        cost.put("search_ms", r.searchMillis());
        cost.put("one_replay_ms", r.oneReplayMillis());
        cost.put("cost_multiple", r.costMultiple());
        cost.put("screening_ms", r.screeningMillis());
        cost.put("screening_multiple", r.screeningMultiple());
        cost.put("isolated_runs", r.isolatedRuns());
        cost.put("joint_runs", r.jointRuns());
        return root;
    }

    private static ObjectNode finalist(ObjectNode n, AutotuneReport.Finalist f, RunReport base) {
        ReplayRenderer.runJson(n, f.run(), base, f.mismatches());
        n.put("config", f.config());
        n.put("modeled_us_per_query", f.modeledUs());
        return n;
    }

    public static void json(AutotuneReport r, PrintWriter w) throws IOException {
        MAPPER.writeValue(new NonClosingWriter(w), toJson(r)); // stdout stays open for the caller
        w.println();
        w.println();
    }

    static String f(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String ci(RunReport x) {
        return x.repeats() > 1
                ? " [" + f(x.costPerQueryUsCi95()[0], 2) + "-" + f(x.costPerQueryUsCi95()[1], 2) + "]"
                : "";
    }

    /** The text report at 80 columns. */
    public static void text(AutotuneReport r, PrintWriter w) {
        text(r, w, 80);
    }

    /** The text report with no line wider than {@code width}: the finalists' table folds, long lines wrap with a hanging indent. */
    public static void text(AutotuneReport r, PrintWriter w, int width) {
        RunReport base = r.baseline().run(), rec = r.recommended().run();
        Wrap.print(w, "autotune of " + r.data() + " for " + r.trace(), width, "", "  ");
        Wrap.print(
                w,
                "learned on the first " + f(100 * r.train(), 0) + "% of the trace (" + Bytes.count(r.trainEvents())
                        + " events), scored on the other " + Bytes.count(r.heldOutEvents())
                        + " (held out), buffer pool "
                        + Bytes.human(r.memoryBytes()),
                width,
                "",
                "  ");
        w.println();
        TextTable finals = new TextTable()
                .indent("  ")
                .word("")
                .fold()
                .number("cost/query" + (rec.repeats() > 1 ? " (median [95%], " + rec.repeats() + " runs)" : ""))
                .number("speedup")
                .number("modeled")
                .number("working set")
                .number("vs baseline")
                .number("buffer hit");
        for (AutotuneReport.Finalist fin : List.of(r.baseline(), r.bestUniform(), r.recommended())) {
            RunReport x = fin.run();
            finals.row(
                    Wrap.together(fin.name()),
                    f(x.costPerQueryUs(), 2) + " µs" + ci(x),
                    f(ReplayRenderer.speedup(base, x), 2) + "x",
                    f(fin.modeledUs(), 2),
                    Bytes.human(x.workingSetBytes()),
                    f(x.workingSetBytes() == 0 ? 0 : (double) base.workingSetBytes() / x.workingSetBytes(), 2) + "x",
                    f(100 * x.bufferHitRate(), 1) + "%");
        }
        finals.print(w, width);
        w.println();
        if (r.fallback() != null) Wrap.print(w, "note: " + r.fallback(), width, "", "  ");
        Wrap.print(w, "recommended: " + r.recommended().config(), width, "", "  ");
        Wrap.print(w, "best uniform: " + r.bestUniform().config(), width, "", "  ");
        if (r.recommended().mismatches() > 0 || r.bestUniform().mismatches() > 0) {
            Wrap.print(
                    w,
                    "RESULTS DIFFER FROM THE BASELINE: recommended "
                            + r.recommended().mismatches() + ", uniform "
                            + r.bestUniform().mismatches(),
                    width,
                    "",
                    "  ");
        } else {
            Wrap.print(w, "every held-out event returned the baseline's result under both designs", width, "", "  ");
        }
        w.println();
        Wrap.print(
                w,
                "per table (each alone at its share of the budget, modeled µs/query: design against its baseline):",
                width,
                "",
                "  ");
        for (AutotuneReport.TableChoice t : r.tables()) {
            Wrap.print(
                    w,
                    t.table() + ": " + t.design() + " (" + f(t.modeledUs(), 2) + " against "
                            + f(t.baselineModeledUs(), 2) + ", " + Bytes.count(t.events()) + " events, "
                            + Wrap.together(Bytes.human(t.memoryShareBytes())) + " of memory)",
                    width,
                    "  ",
                    "      ");
            if (!t.apart().isEmpty()) Wrap.print(w, "apart: " + String.join(", ", t.apart()), width, "    ", "      ");
            if (!t.cacheFields().isEmpty())
                Wrap.print(w, "cached: " + String.join(", ", t.cacheFields()), width, "    ", "      ");
            for (String[] ch : t.tightChanges()) {
                Wrap.print(w, ch[0] + ": " + ch[1] + " -> " + ch[2] + " (" + ch[3] + ")", width, "    ", "      ");
            }
        }
        w.println();
        long rejected = r.evaluations().stream()
                .filter(e -> e.status() == CandidateStatus.REJECTED)
                .count();
        Wrap.print(
                w,
                "candidates: " + r.evaluations().size() + " replayed (" + rejected + " rejected), "
                        + r.pruned().size() + " pruned without a replay; the largest rejections:",
                width,
                "",
                "  ");
        r.evaluations().stream()
                .filter(e ->
                        e.status() == CandidateStatus.REJECTED && !e.table().equals("uniform"))
                .sorted((a, b) -> Double.compare(b.modeledUs(), a.modeledUs()))
                .limit(8)
                .forEach(e -> Wrap.print(w, e.table() + " " + e.design() + ": " + e.reason(), width, "  ", "      "));
        r.evaluations().stream()
                .filter(e -> e.step().equals("layout=arrow"))
                .forEach(e -> Wrap.print(
                        w, "Arrow blocks for every table " + e.status() + ": " + e.reason(), width, "", "  "));
        if (!r.pruned().isEmpty()) {
            w.println("pruned:");
            r.pruned().stream()
                    .limit(12)
                    .forEach(p -> Wrap.print(
                            w,
                            p.table() + " " + p.dimension() + "=" + p.value() + ": " + p.reason(),
                            width,
                            "  ",
                            "      "));
        }
        w.println();
        w.println("to apply it:");
        for (String s : r.ddl()) {
            // a comment stays a comment on every line it wraps to; a statement wraps with a hanging indent
            if (s.startsWith("-- ")) Wrap.print(w, s.substring(3), width, "  -- ", "  --   ");
            else Wrap.print(w, s, width, "  ", "      ");
        }
        w.println();
        Wrap.print(
                w,
                "search: " + f(r.searchMillis() / 1000.0, 1) + " s in all, " + f(r.costMultiple(), 1)
                        + "x one replay of the trace ("
                        + f(r.oneReplayMillis() / 1000.0, 1) + " s): screening " + f(r.screeningMultiple(), 1) + "x ("
                        + r.isolatedRuns()
                        + " candidates replayed table by table), the rest " + r.jointRuns()
                        + " replays of all tables (finalists, repeats, memory curve)",
                width,
                "",
                "  ");
        Wrap.print(
                w,
                "cost/query = measured engine time + modeled device time (NVMe, 85 µs a read); modeled = device time + "
                        + "0.25 µs a buffer-pool pin, which the search compares (the same on any machine)",
                width,
                "",
                "  ");
    }

    /** For the HTML page: the runs by name. */
    static Map<String, RunReport> finalists(AutotuneReport r) {
        return Map.of(
                "baseline",
                r.baseline().run(),
                "best uniform",
                r.bestUniform().run(),
                "recommended",
                r.recommended().run());
    }
}

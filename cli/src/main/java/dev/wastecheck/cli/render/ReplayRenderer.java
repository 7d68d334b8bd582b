package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.model.Bytes;
import dev.wastecheck.replay.ReplayReport;
import dev.wastecheck.replay.RunReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/**
 * The replay report in text, JSON and Markdown. JSON keys are a contract (docs/json.md)
 * ({@code runs[]} with {@code config}, {@code queries}, ... {@code speedup_vs_first}); keys beyond
 * it are additions, documented in docs/replay.md.
 */
public final class ReplayRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReplayRenderer() {}

    /**
     * The baseline's cost per query over this run's: above 1 means faster than the baseline. With
     * repeats, the median of the ratios of the runs of the same round (paired, interleaved).
     */
    static double speedup(RunReport first, RunReport r) {
        if (r.repeats() > 0 && r.speedupVsFirst() > 0) return r.speedupVsFirst();
        return r.costPerQueryUs() == 0 ? 0 : first.costPerQueryUs() / r.costPerQueryUs();
    }

    public static ObjectNode toJson(ReplayReport r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("data", r.data());
        root.put("trace", r.trace());
        root.put("events", r.events());
        root.put("unresolved_statements", r.unresolved());
        ArrayNode tables = root.putArray("tables");
        r.tables().forEach(tables::add);
        root.put("device", r.device());
        root.put("warmup", r.warmup());
        root.put("train", r.train());
        root.put("train_events", r.trainEvents());
        root.put("measured_events", r.measuredEvents());
        root.put("repeats", r.repeats());
        ArrayNode runs = root.putArray("runs");
        RunReport first = r.runs().get(0);
        for (int i = 0; i < r.runs().size(); i++) {
            runJson(runs.addObject(), r.runs().get(i), first, r.mismatches().get(i));
        }
        ArrayNode engines = root.putArray("engines");
        for (ReplayReport.SqlRun s : r.sqlRuns()) {
            ObjectNode n = engines.addObject();
            n.put("engine", s.engine());
            n.put("queries", s.queries());
            n.put("skipped", s.skipped());
            n.put("throughput_qps", s.throughputQps());
            n.put("first_run_throughput_ratio", s.throughputQps() == 0 ? 0 : first.throughputQps() / s.throughputQps());
            ObjectNode lat = n.putObject("latency_us");
            lat.put("p50", s.p50Us());
            lat.put("p95", s.p95Us());
            lat.put("p99", s.p99Us());
            lat.put("mean", s.meanUs());
            n.put("load_ms", s.loadMillis());
            n.put("results_differing", s.mismatches());
        }
        ObjectNode t = root.putObject("timings_ms");
        r.timingsMillis().forEach(t::put);
        ObjectNode skew = root.putObject("access_skew");
        r.accessSkew().forEach((table, points) -> {
            ArrayNode a = skew.putArray(table);
            for (double[] p : points) a.addArray().add(p[0]).add(p[1]);
        });
        return root;
    }

    /** One run as the replay JSON's run object (the contract's keys, then additions), into {@code n}. */
    public static ObjectNode runJson(ObjectNode n, RunReport x, RunReport first, long mismatches) {
        n.put("config", x.config());
        n.put("settings", x.settings());
        n.put("queries", x.queries());
        n.put("memory_bytes", x.memoryBytes());
        n.put("heap_bytes", x.heapBytes());
        n.put("index_bytes", x.indexBytes());
        n.put("cache_bytes", x.cacheBytes());
        n.put("working_set_bytes", x.workingSetBytes());
        n.put("leaf_fill", x.leafFill());
        n.put("buffer_hit_rate", x.bufferHitRate());
        n.put("cache_hit_rate", x.cacheHitRate());
        n.put("pages_per_query", x.pagesPerQuery());
        ObjectNode lat = n.putObject("latency_us");
        lat.put("p50", x.latencyUs().p50());
        lat.put("p95", x.latencyUs().p95());
        lat.put("p99", x.latencyUs().p99());
        lat.put("mean", x.latencyUs().mean());
        n.put("device_us_per_query", x.deviceUsPerQuery());
        n.put("cost_per_query_us", x.costPerQueryUs());
        n.put("throughput_qps", x.throughputQps());
        n.put("speedup_vs_first", speedup(first, x));
        n.put("memory_vs_first", x.workingSetBytes() == 0 ? 0 : (double) first.workingSetBytes() / x.workingSetBytes());
        n.put("executed", x.executed());
        n.put("skipped", x.skipped());
        n.put("rows_returned", x.rowsReturned());
        n.put("results_differing", mismatches);
        n.put("load_ms", x.loadMillis());
        n.put("replay_ms", x.replayMillis());
        ObjectNode moved = n.putObject("tuples_moved");
        x.moved().forEach(moved::put);
        ObjectNode ws = n.putObject("working_set_by_structure");
        x.workingSetByStructure().forEach(ws::put);
        n.put("repeats", x.repeats());
        ArrayNode ci = n.putArray("cost_per_query_us_ci95");
        ci.add(x.costPerQueryUsCi95()[0]);
        ci.add(x.costPerQueryUsCi95()[1]);
        ArrayNode sci = n.putArray("speedup_vs_first_ci95");
        sci.add(x == first ? 1.0 : x.speedupCi95()[0]);
        sci.add(x == first ? 1.0 : x.speedupCi95()[1]);
        ArrayNode byRound = n.putArray("cost_per_query_us_by_round");
        for (double c : x.costPerQueryUsByRound()) byRound.add(c);
        ArrayNode jitByRound = n.putArray("jit_compile_ms_by_round");
        for (long c : x.jitCompileMsByRound()) jitByRound.add(c);
        ArrayNode gcByRound = n.putArray("gc_ms_by_round");
        for (long c : x.gcMsByRound()) gcByRound.add(c);
        n.put("device_reads", x.deviceReads());
        ObjectNode dr = n.putObject("device_reads_by_structure");
        x.deviceReadsByStructure().forEach(dr::put);
        ObjectNode ib = n.putObject("index_bytes_by_structure");
        x.indexBytesByStructure().forEach(ib::put);
        ObjectNode ibi = n.putObject("index_bytes_by_index");
        x.indexBytesByIndex().forEach(ibi::put);
        n.put("page_size", x.pageSize());
        ObjectNode pk = n.putObject("pins_by_kind_per_query");
        x.pinsByKindPerQuery().forEach(pk::put);
        n.put("decompressed_bytes_per_query", x.decompressedBytesPerQuery());
        n.put("dictionary_frame_bytes_per_query", x.dictionaryFrameBytesPerQuery());
        n.put("plain_decompressed_bytes_per_query", x.plainDecompressedBytesPerQuery());
        n.put("decompressed_copied_bytes_per_query", x.decompressedCopiedBytesPerQuery());
        n.put("value_cache_hits_per_query", x.valueCacheHitsPerQuery());
        n.put("value_cache_misses_per_query", x.valueCacheMissesPerQuery());
        ObjectNode skipped = n.putObject("skipped_by_reason");
        x.skippedByReason().forEach(skipped::put);
        ObjectNode upkeep = n.putObject("hot_partition_upkeep");
        x.upkeep().forEach(upkeep::put);
        ArrayNode rules = n.putArray("hot_rules");
        x.hotRules().forEach(rules::add);
        return n;
    }

    public static void json(ReplayReport r, PrintWriter w) throws IOException {
        MAPPER.writeValue(new NonClosingWriter(w), toJson(r)); // stdout stays open for the caller
        w.println();
        w.println();
    }

    private static String f(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String pct(double share) {
        return f(100 * share, 1) + "%";
    }

    private static final String[] HEAD = {
        "config",
        "cost/query",
        "speedup",
        "latency p50/p99",
        "device/query",
        "buffer hit",
        "cache hit",
        "pages/query",
        "working set",
        "heap",
        "index",
        "leaf fill"
    };

    private static String[] row(ReplayReport r, int i) {
        RunReport first = r.runs().get(0), x = r.runs().get(i);
        String ci = x.repeats() > 1
                ? " [" + f(x.costPerQueryUsCi95()[0], 2) + "-" + f(x.costPerQueryUsCi95()[1], 2) + "]"
                : "";
        String sci = x.repeats() > 1 && x != first
                ? " [" + f(x.speedupCi95()[0], 2) + "-" + f(x.speedupCi95()[1], 2) + "]"
                : "";
        return new String[] {
            x.config(),
            f(x.costPerQueryUs(), 2) + " µs" + ci,
            f(speedup(first, x), 2) + "x" + sci,
            f(x.latencyUs().p50(), 1) + "/" + f(x.latencyUs().p99(), 1) + " µs",
            f(x.deviceUsPerQuery(), 2) + " µs",
            pct(x.bufferHitRate()),
            x.cacheHitRate() == 0 ? "-" : pct(x.cacheHitRate()),
            f(x.pagesPerQuery(), 2),
            Bytes.human(x.workingSetBytes()),
            Bytes.human(x.heapBytes()),
            Bytes.human(x.indexBytes()),
            pct(x.leafFill())
        };
    }

    /** The text report at 80 columns. */
    public static void text(ReplayReport r, PrintWriter w) {
        text(r, w, 80);
    }

    /** The text report with no line wider than {@code width}: the runs' table folds into parts that fit, one under the other. */
    public static void text(ReplayReport r, PrintWriter w, int width) {
        RunReport first = r.runs().get(0);
        Wrap.print(w, "replay of " + r.trace() + " on " + r.data(), width, "", "  ");
        Wrap.print(
                w,
                Bytes.count(r.events()) + " access events"
                        + (r.tables().isEmpty() ? "" : " on " + String.join(", ", r.tables()))
                        + "; " + Bytes.count(first.executed()) + " executed, " + Bytes.count(first.skipped())
                        + " skipped; "
                        + Bytes.count(first.queries()) + " measured "
                        + (r.train() > 0
                                ? "(held out: clustering, hot partitions, cached fields and splits learned on the first "
                                        + pct(r.train()) + ", " + Bytes.count(r.trainEvents()) + " events)"
                                : "after a " + pct(r.warmup()) + " warm-up (learned from every event: an oracle)"),
                width,
                "",
                "  ");
        if (!first.skippedByReason().isEmpty())
            Wrap.print(w, "skipped while measured: " + first.skippedByReason(), width, "", "  ");
        if (r.repeats() > 1)
            Wrap.print(
                    w,
                    r.repeats() + " interleaved repeats per configuration: medians, [95% intervals]",
                    width,
                    "",
                    "  ");
        Wrap.print(w, "device model: " + r.device(), width, "", "  ");
        w.println();
        TextTable table = new TextTable().text(HEAD[0]).fold();
        for (int c = 1; c < HEAD.length; c++) {
            table.number(HEAD[c]);
        }
        for (int i = 0; i < r.runs().size(); i++) {
            table.row(row(r, i));
        }
        table.print(w, width);
        w.println();
        for (int i = 0; i < r.runs().size(); i++) {
            RunReport x = r.runs().get(i);
            StringBuilder sb = new StringBuilder(x.config() + ": " + x.settings());
            if (!x.moved().isEmpty()) {
                sb.append("; moved ");
                boolean firstEntry = true;
                for (Map.Entry<String, Long> e : x.moved().entrySet()) {
                    sb.append(firstEntry ? "" : ", ")
                            .append(Bytes.count(e.getValue()))
                            .append(Wrap.NBSP)
                            .append(e.getKey());
                    firstEntry = false;
                }
            }
            if (r.mismatches().get(i) > 0)
                sb.append("; ").append(r.mismatches().get(i)).append(" RESULTS DIFFER FROM THE BASELINE");
            Wrap.print(w, sb.toString(), width, "  ", "    ");
            for (String rule : x.hotRules()) Wrap.print(w, "hot=refs " + rule, width, "    ", "      ");
            String ws = largest(x, 4);
            if (!ws.isEmpty()) Wrap.print(w, "working set: " + ws, width, "    ", "      ");
        }
        if (!r.sqlRuns().isEmpty()) {
            w.println();
            w.println("same events on other engines (engine time only, in memory):");
            Wrap.print(w, first.config() + ": " + f(first.throughputQps(), 0) + " queries/s", width, "  ", "    ");
            for (ReplayReport.SqlRun s : r.sqlRuns()) {
                Wrap.print(
                        w,
                        s.engine() + ": " + f(s.throughputQps(), 0) + " queries/s, p50 " + f(s.p50Us(), 1) + " µs, p99 "
                                + f(s.p99Us(), 1) + " µs; " + first.config() + " is "
                                + f(first.throughputQps() / Math.max(1e-9, s.throughputQps()), 2)
                                + "x its throughput"
                                + (s.mismatches() > 0 ? "; " + s.mismatches() + " RESULTS DIFFER" : ""),
                        width,
                        "  ",
                        "    ");
            }
        }
        w.println();
        Wrap.print(
                w,
                "cost/query = mean measured latency + modeled device time of the buffer-pool misses per query;",
                width,
                "",
                "  ");
        Wrap.print(
                w,
                "speedup = the first run's cost/query over this run's; working set = distinct pages the measured queries touched.",
                width,
                "",
                "  ");
    }

    /** The {@code k} largest parts of a run's working set, e.g. "revision.index 30.2 MiB, ...". */
    private static String largest(RunReport x, int k) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (Map.Entry<String, Long> e : x.workingSetByStructure().entrySet()) {
            if (shown++ == k) {
                sb.append(", ...");
                break;
            }
            sb.append(shown > 1 ? ", " : "")
                    .append(e.getKey())
                    .append(Wrap.NBSP)
                    .append(Wrap.together(Bytes.human(e.getValue())));
        }
        return sb.toString();
    }

    public static void markdown(ReplayReport r, PrintWriter w) {
        RunReport first = r.runs().get(0);
        w.println("# wastecheck replay");
        w.println();
        w.println("`" + r.trace() + "` on `" + r.data() + "`: " + r.events() + " access events"
                + (r.tables().isEmpty() ? "" : " on " + String.join(", ", r.tables())) + ", " + first.executed()
                + " executed, "
                + first.queries() + " measured after a " + pct(r.warmup()) + " warm-up. Device model: " + r.device()
                + ".");
        w.println();
        w.println("| " + String.join(" | ", HEAD) + " |");
        w.println("|" + "---|".repeat(HEAD.length));
        for (int i = 0; i < r.runs().size(); i++) w.println("| " + String.join(" | ", row(r, i)) + " |");
        w.println();
        for (int i = 0; i < r.runs().size(); i++) {
            RunReport x = r.runs().get(i);
            w.println("- `" + x.config() + "`: " + x.settings() + (x.moved().isEmpty() ? "" : ", moved " + x.moved())
                    + (r.mismatches().get(i) > 0
                            ? ", **" + r.mismatches().get(i) + " results differ from the baseline**"
                            : "")
                    + (x.hotRules().isEmpty() ? "" : "; hot by rule: " + String.join("; ", x.hotRules()))
                    + (x.workingSetByStructure().isEmpty()
                            ? ""
                            : "; working set: " + largest(x, 6).replace(Wrap.NBSP, ' ')));
        }
        if (!r.sqlRuns().isEmpty()) {
            w.println();
            w.println("| engine | queries/s | p50 µs | p99 µs | " + first.config() + " throughput ratio |");
            w.println("|---|---|---|---|---|");
            w.println("| " + first.config() + " | " + f(first.throughputQps(), 0) + " | "
                    + f(first.latencyUs().p50(), 1) + " | "
                    + f(first.latencyUs().p99(), 1) + " | 1.00 |");
            for (ReplayReport.SqlRun s : r.sqlRuns()) {
                w.println("| " + s.engine() + " | " + f(s.throughputQps(), 0) + " | " + f(s.p50Us(), 1) + " | "
                        + f(s.p99Us(), 1) + " | " + f(first.throughputQps() / Math.max(1e-9, s.throughputQps()), 2)
                        + " |");
            }
        }
    }
}

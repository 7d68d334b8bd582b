package dev.wastecheck.cli;

import dev.wastecheck.cli.render.ReplayRenderer;
import dev.wastecheck.cli.render.TuningHtml;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.replay.Replay;
import dev.wastecheck.replay.ReplayOptions;
import dev.wastecheck.replay.ReplayReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wastecheck replay --data SOURCE --trace FILE --config ...}: the trace on our engine, per configuration, side by side. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs a trace on wastecheck's own storage engine under each configuration, side by side.",
            "Loads SOURCE into wastecheck's storage engine once per configuration, replays the trace's access events "
                    + "against it, and reports memory, hit rates, pages touched and latency per configuration, the first being "
                    + "the baseline. Device time for buffer-pool misses is modeled apart from the engine's measured time.",
            ""
        },
        footer = {
            "",
            "Configuration keys (--config KEY=VAL,...; unset keys keep the baseline's):",
            "  layout=nsm|pax|hpl|arrow  cache=off|swap|shrink  cache_size=FRACTION",
            "  cluster=none|FRACTION|partition  tight=on|off|int+dict+time+bool+bits",
            "  split=none|cold|updates|cached|COL+COL  compress=none|large|COL+COL",
            "  demote_after=N  promote=N  hot=read|refs  memory=SIZE  id=stored|implicit",
            "  page_size=4K|8K|16K|32K  freeze=on|off  cold_after=N (layout=arrow)",
            "  TABLE.KEY=VAL sets one table: revision.cluster=partition",
            "",
            "Examples:",
            "  wastecheck replay --data wiki/dump.sql --trace wiki/trace.log \\",
            "      --train 0.5 --repeat 5 --config tight=off \\",
            "      --config tight=on,cluster=partition,demote_after=20000",
            "  wastecheck replay --data wiki/dump.sql --trace wiki/trace.log \\",
            "      --compare sqlite,duckdb --check"
        })
public final class ReplayCommand implements Callable<Integer> {
    enum Format {
        text,
        json,
        markdown,
        html
    }

    @Option(
            names = "--data",
            required = true,
            paramLabel = "SOURCE",
            description = "The database: a dump, database file or folder, or a JDBC URL (as analyze reads).")
    String data;

    @Option(
            names = "--trace",
            required = true,
            paramLabel = "FILE",
            description = "The workload: any trace format analyze --trace reads.")
    Path trace;

    @Option(
            names = "--config",
            paramLabel = "KEY=VAL,...",
            description = "A configuration to run; repeatable, the first is the baseline "
                    + "(default: one run with layout=nsm,cache=off,cluster=none,tight=off).")
    List<String> configs = new ArrayList<>();

    @Option(
            names = "--memory",
            defaultValue = "256M",
            paramLabel = "SIZE",
            description = "Buffer-pool budget of every configuration that sets no memory= (default: ${DEFAULT-VALUE}).")
    String memory;

    @Option(
            names = "--tables",
            split = ",",
            paramLabel = "TABLE",
            description = "Replay only these tables' events (e.g. revision).")
    List<String> tables = new ArrayList<>();

    @Option(
            names = "--warmup",
            defaultValue = "0.1",
            description = "Share of the events run before measuring (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(
            names = "--jit-warmup",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "Replay up to 50,000 events once first, unmeasured (default: on). So that the first (baseline) "
                            + "run does not pay for the JIT compiling the engine.")
    boolean jitWarmup;

    @Option(
            names = "--train",
            defaultValue = "0",
            paramLabel = "FRACTION",
            description =
                    "Learn designs from the first FRACTION of the trace, measure the rest (default: 0: an oracle). "
                            + "Clustering, hot partitions, cached fields and vertical splits are learned from the events before "
                            + "the split (in time); with 0 they are learned from every event.")
    double train;

    @Option(
            names = "--repeat",
            defaultValue = "1",
            paramLabel = "N",
            description = "Run every configuration N times, interleaved (default: ${DEFAULT-VALUE}). "
                    + "The report gives medians with 95%% intervals and paired speedups.")
    int repeat;

    @Option(
            names = "--warmup-rounds",
            defaultValue = "0",
            paramLabel = "N",
            description = "Unmeasured whole rounds first (default: ${DEFAULT-VALUE}). Each runs every configuration "
                    + "over the whole trace as a measured round does, and only the rounds after them are reported: "
                    + "the JIT still compiles in the first rounds; 3 settled the generated wikis "
                    + "(docs/benchmarks.md).")
    int warmupRounds;

    @Option(
            names = "--max-events",
            defaultValue = "0",
            paramLabel = "N",
            description = "Replay at most this many events (default: all).")
    long maxEvents;

    @Option(
            names = "--device-read-us",
            paramLabel = "MICROS",
            description = "Modeled random page read latency " + "(default: NVMe, 85 µs read, 20 µs write).")
    Double deviceReadMicros;

    @Option(
            names = "--compare",
            split = ",",
            paramLabel = "ENGINE",
            description = "Also replay the events on sqlite and/or duckdb. In memory, with prepared statements and the "
                    + "same indexes; the report gives throughput ratios.")
    List<String> compare = new ArrayList<>();

    @Option(
            names = "--cache-fields",
            paramLabel = "TABLE.INDEX=COL+COL",
            description =
                    "Fields the index cache keeps for this index; repeatable. Instead of the analyzer's ranking, e.g. "
                            + "page.name_title=page_id+page_latest.")
    Map<String, String> cacheFields = new LinkedHashMap<>();

    @Option(
            names = "--check",
            description = "Fail (exit 3) unless every configuration returns the baseline's result for every event. "
                    + "Every --compare engine too.")
    boolean check;

    @Option(
            names = "--format",
            defaultValue = "text",
            description = "text, json, markdown or html (default: ${DEFAULT-VALUE}).")
    Format format;

    @picocli.CommandLine.Mixin
    OutputOptions out = new OutputOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (maxEvents < 0) {
            throw new BadInputException("--max-events: expected 0 (all) or more, found " + maxEvents);
        }
        if (deviceReadMicros != null && !(deviceReadMicros > 0)) {
            throw new BadInputException("--device-read-us: expected a latency above 0, found " + deviceReadMicros);
        }
        ReplayOptions options = new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                warmupRounds);
        ReplayReport report = Replay.run(options, out.progress(), warning -> err.println("wastecheck: " + warning));
        out.write(spec, w -> render(report, w));
        long bad = report.resultsDiffering();
        if (bad > 0) {
            err.println(
                    "wastecheck: " + bad + " results differ from the baseline's" + (check ? "" : " (see the report)"));
            if (check) return Main.EXIT_CHECK_FAILED;
        } else if (check) {
            err.println("wastecheck: check passed: every configuration returned the baseline's results for "
                    + report.runs().get(0).executed() + " events");
        }
        return Main.EXIT_OK;
    }

    private void render(ReplayReport report, PrintWriter w) throws IOException {
        switch (format) {
            case json -> ReplayRenderer.json(report, w);
            case markdown -> ReplayRenderer.markdown(report, w);
            case html -> TuningHtml.replay(report, w);
            default -> ReplayRenderer.text(report, w, out.width());
        }
        w.flush();
    }
}

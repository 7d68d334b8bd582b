package dev.wastecheck.cli;

import dev.wastecheck.autotune.Autotune;
import dev.wastecheck.autotune.AutotuneOptions;
import dev.wastecheck.autotune.AutotuneReport;
import dev.wastecheck.cli.render.AutotuneRenderer;
import dev.wastecheck.cli.render.TuningHtml;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code wastecheck autotune --data SOURCE --trace FILE --memory SIZE}: a physical design per table, learned on part of the trace, scored on the rest. */
@Command(
        name = "autotune",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Searches a physical design per table (clustering and hot partitions, tight types, vertical splits, the "
                    + "index cache, the page layout) by replaying the trace on wastecheck's engine: designs learn from the first part "
                    + "of the trace and are scored on the rest, under the memory budget. Reports the recommendation against the "
                    + "declared baseline and the best single design for all tables, the candidates it rejected and why, and the "
                    + "statements and engine settings that apply it.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  wastecheck autotune --data wiki/dump.sql --trace wiki/trace.log --memory 16M",
            "  wastecheck autotune --data wiki/dump.sql --trace wiki/trace.log --memory 16M --train 0.3 --format html -o tune.html"
        })
public final class AutotuneCommand implements Callable<Integer> {
    enum Format {
        text,
        json,
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
            names = "--memory",
            required = true,
            paramLabel = "SIZE",
            description = "The buffer-pool budget the design must serve the workload in (e.g. 16M).")
    String memory;

    @Option(
            names = "--train",
            defaultValue = "0.5",
            paramLabel = "FRACTION",
            description = "Learn from the first FRACTION of the trace "
                    + "(in time), score on the rest (default: ${DEFAULT-VALUE}).")
    double train;

    @Option(
            names = "--repeat",
            defaultValue = "3",
            paramLabel = "N",
            description = "Runs of each finalist, interleaved, for medians "
                    + "with 95%% intervals (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = "--curve",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "Also replay the finalists at half and twice the budget, for the cost-against-memory plot (default: on).")
    boolean curve;

    @Option(
            names = "--max-events",
            defaultValue = "0",
            description = "Use at most this many events of the trace (default: all).")
    long maxEvents;

    @Option(names = "--format", defaultValue = "text", description = "text, json or html (default: ${DEFAULT-VALUE}).")
    Format format;

    @picocli.CommandLine.Mixin
    OutputOptions out = new OutputOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        AutotuneOptions options = new AutotuneOptions(data, trace, memory, train, maxEvents, repeat, curve);
        AutotuneReport report = Autotune.run(options, out.progress(), warning -> err.println("wastecheck: " + warning));
        out.write(spec, w -> render(report, w));
        return Main.EXIT_OK;
    }

    private void render(AutotuneReport report, PrintWriter w) throws IOException {
        switch (format) {
            case json -> AutotuneRenderer.json(report, w);
            case html -> TuningHtml.autotune(report, w);
            default -> AutotuneRenderer.text(report, w, out.width());
        }
        w.flush();
    }
}

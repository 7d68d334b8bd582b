package dev.wastecheck.e2e;

import dev.wastecheck.autotune.Autotune;
import dev.wastecheck.autotune.AutotuneOptions;
import dev.wastecheck.autotune.AutotuneReport;
import dev.wastecheck.cli.render.AutotuneRenderer;
import dev.wastecheck.cli.render.TuningHtml;
import dev.wastecheck.model.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the screenshots of docs/screenshots beside the text reports of the same runs, so that the
 * figures on each picture can be checked against the text: analyze of the shipped wiki with its
 * trace, and one autotune run of it rendered both as text and as its page (autotune's measured
 * costs differ from run to run; its modeled ones and its designs do not). Not a test: run it with
 * {@code BENCH_MAIN=dev.wastecheck.e2e.ReportScreenshots ./bench src/test docs/screenshots}, or on the
 * e2e test classpath, from the repository's root; it needs Debian's {@code chromium}.
 */
public final class ReportScreenshots {
    private ReportScreenshots() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/screenshots");
        Files.createDirectories(out);
        String dump = "examples/wiki/dump.sql";
        String trace = "examples/wiki/trace.log";

        Cli.Result text = Cli.run("analyze", "-q", dump, "--trace", trace);
        Files.writeString(out.resolve("analyze.txt"), text.out());
        Path analyze = out.resolve("analyze.html");
        Cli.Result html =
                Cli.run("analyze", "-q", dump, "--trace", trace, "--format", "html", "-o", analyze.toString());
        if (html.exitCode() != 0 || text.exitCode() != 0) {
            throw new IllegalStateException(text.err() + html.err());
        }
        Chromium.screenshot(analyze, out.resolve("analyze.png"), 3200);
        Files.delete(analyze);

        AutotuneReport report =
                Autotune.run(new AutotuneOptions(dump, Path.of(trace), "16M", 0.5, 0, 3, true), Progress.NONE, w -> {});
        StringWriter t = new StringWriter();
        AutotuneRenderer.text(report, new PrintWriter(t), 100);
        Files.writeString(out.resolve("autotune.txt"), t.toString());
        Path page = out.resolve("autotune.html");
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(page))) {
            TuningHtml.autotune(report, w);
        }
        Chromium.screenshot(page, out.resolve("autotune.png"), 2400);
        Files.delete(page);
        Files.deleteIfExists(out.resolve("chromium.log"));
    }
}

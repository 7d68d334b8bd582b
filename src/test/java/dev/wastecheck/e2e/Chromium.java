package dev.wastecheck.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A real headless Chromium (Debian's {@code chromium}) that loads a report page as a reader's
 * browser would and says what its charts drew. A probe script, appended to a copy of the page, reads
 * each chart's drawn elements back through the chart's own scales (the value at the pixel where a
 * bar ends, where a point stands), the tick labels each axis shows and where, and the page's
 * width; Chromium's {@code --dump-dom} returns it. A chart still animating would be caught mid-flight.
 *
 * <p>Where no Chromium is installed the tests that need it are skipped with the command that installs
 * it; CI ({@code .ci/run}) installs it first, so they run there.
 */
final class Chromium {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PROBE = Pattern.compile("(?s)<pre id=\"probe\">(.*?)</pre>");

    /** Reads every chart of the page back from what it drew. */
    private static final String PROBE_SCRIPT = """
            <script>
            (() => {
              const out = {scroll_width: document.documentElement.scrollWidth, charts: {}};
              const ctx = document.createElement('canvas').getContext('2d');
              ctx.font = '12px sans-serif';
              document.querySelectorAll('canvas').forEach(c => {
                const ch = Chart.getChart(c);
                if (!ch) return;
                const horizontal = ch.options.indexAxis === 'y';
                const x = ch.scales.x, y = ch.scales.y;
                const datasets = ch.data.datasets.map((d, i) => ({label: d.label,
                  points: ch.getDatasetMeta(i).data.map(el => ch.config.type === 'bar'
                    ? {value: (horizontal ? x : y).getValueForPixel(horizontal ? el.x : el.y)}
                    : {x: x.getValueForPixel(el.x), y: y.getValueForPixel(el.y)})}));
                const axes = {};
                for (const id of Object.keys(ch.scales)) {
                  const s = ch.scales[id];
                  axes[id] = {type: s.type, ticks: s.ticks.map((t, k) => ({label: t.label, pixel: s.getPixelForTick(k)}))
                    .filter(t => t.label !== null && t.label !== undefined && t.label !== '')
                    .map(t => ({label: String(t.label), pixel: t.pixel, width: ctx.measureText(String(t.label)).width}))};
                }
                out.charts[c.id] = {labels: ch.data.labels || [], datasets, axes};
              });
              const pre = document.createElement('pre');
              pre.id = 'probe';
              pre.textContent = JSON.stringify(out);
              document.body.appendChild(pre);
            })();
            </script>
            """;

    private Chromium() {}

    /** The browser, or the test is skipped saying how to install it. */
    static String binary() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        Assumptions.abort("no headless Chromium on PATH: apt-get install -y chromium (.ci/run installs it)");
        return null;
    }

    private static List<String> command(String... extra) {
        List<String> cmd = new ArrayList<>(List.of(
                binary(),
                "--headless",
                "--no-sandbox", // run as root in containers; the page is our own file
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--window-size=1280,1000"));
        cmd.addAll(List.of(extra));
        return cmd;
    }

    /** What the charts of {@code page} drew, at a 1,280 px wide window. */
    static JsonNode probe(Path page) throws IOException, InterruptedException {
        String html = Files.readString(page);
        int end = html.lastIndexOf("</body>");
        Path probed = page.resolveSibling(page.getFileName() + ".probe.html");
        Files.writeString(probed, html.substring(0, end) + PROBE_SCRIPT + html.substring(end));
        String dom = run(command("--dump-dom", probed.toUri().toString()), page.resolveSibling("chromium.log"));
        Matcher m = PROBE.matcher(dom);
        if (!m.find()) {
            throw new AssertionError("the probe wrote nothing: the page's scripts failed in Chromium");
        }
        return JSON.readTree(
                m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));
    }

    /** A screenshot of the page's first {@code height} pixels at 1,280 px wide. */
    static void screenshot(Path page, Path png, int height) throws IOException, InterruptedException {
        List<String> cmd =
                command("--screenshot=" + png.toAbsolutePath(), page.toUri().toString());
        cmd.set(cmd.indexOf("--window-size=1280,1000"), "--window-size=1280," + height);
        run(cmd, png.resolveSibling("chromium.log"));
        if (!Files.exists(png)) {
            throw new AssertionError("Chromium wrote no screenshot " + png);
        }
    }

    private static String run(List<String> cmd, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("Chromium did not finish in 120 s: " + String.join(" ", cmd));
        }
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }
}

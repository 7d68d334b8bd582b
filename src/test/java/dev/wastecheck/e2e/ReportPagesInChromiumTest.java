package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyze and autotune pages as a browser shows them, screenshot or print: every bar at its
 * value (no animation caught mid-flight), sizes on a logarithmic axis, axis labels that do not
 * pile up, nothing wider than a 1,280 px window. Values are read back from the drawn pixels in a
 * real headless Chromium ({@link Chromium}) and compared with the JSON report of the same input.
 */
class ReportPagesInChromiumTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void generate() {
        Chromium.binary(); // skipped, with how to install it, before any work when there is none
        Cli.Result gen = Cli.run(
                "trace",
                "generate",
                "--scale",
                "60",
                "--seed",
                "8",
                "--requests",
                "1200",
                "--text-median",
                "40",
                "-o",
                dir.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
    }

    @Test
    void analyzeDrawsEveryTableAtItsBytesOnALogAxisAndShowsWhatTheTextSays() throws Exception {
        String dump = dir.resolve("dump.sql").toString();
        String trace = dir.resolve("trace.log").toString();
        JsonNode report = Cli.analyzeJson(dump, "--trace", trace);
        Path page = dir.resolve("analyze.html");
        Cli.Result html = Cli.run("analyze", "-q", dump, "--trace", trace, "--format", "html", "-o", page.toString());
        assertThat(html.exitCode()).as(html.err()).isZero();

        JsonNode drawn = Chromium.probe(page);
        assertThat(drawn.get("scroll_width").asInt()).isLessThanOrEqualTo(1280);
        JsonNode bytes = drawn.get("charts").get("bytes");
        assertThat(bytes.get("axes").get("x").get("type").asText()).isEqualTo("logarithmic");
        Map<String, Integer> row = new HashMap<>();
        for (int i = 0; i < bytes.get("labels").size(); i++) {
            row.put(bytes.get("labels").get(i).asText(), i);
        }
        assertThat(row).hasSizeGreaterThan(3);
        for (String table : row.keySet()) {
            JsonNode t = Cli.table(report, table);
            int i = row.get(table);
            // a bar ends at the pixel of its value: read back within the width of one pixel on this axis
            double declared = bytes.get("datasets")
                    .get(0)
                    .get("points")
                    .get(i)
                    .get("value")
                    .asDouble();
            double tight = bytes.get("datasets")
                    .get(1)
                    .get("points")
                    .get(i)
                    .get("value")
                    .asDouble();
            assertThat(declared)
                    .as(table + " declared")
                    .isCloseTo(
                            t.get("declared_bytes").asDouble(),
                            within(0.02 * t.get("declared_bytes").asDouble()));
            assertThat(tight)
                    .as(table + " tight")
                    .isCloseTo(
                            t.get("tight_bytes").asDouble(),
                            within(0.02 * t.get("tight_bytes").asDouble() + 1));
        }
        labelsDoNotOverlap(bytes.get("axes").get("x"), "bytes", true);

        JsonNode skew = drawn.get("charts").get("skew");
        for (int i = 0; i < skew.get("labels").size(); i++) {
            JsonNode access =
                    Cli.table(report, skew.get("labels").get(i).asText()).get("access");
            double top1 = skew.get("datasets")
                    .get(0)
                    .get("points")
                    .get(i)
                    .get("value")
                    .asDouble();
            assertThat(top1).isCloseTo(100 * access.get("share_top_1pct").asDouble(), within(0.6));
        }

        String text = Cli.run("analyze", "-q", dump, "--trace", trace).out();
        String pageText = Files.readString(page);
        // what the text report says beyond the columns is on the page too: index-cache fields, the hot partition
        List<String> cacheLines =
                text.lines().filter(l -> l.startsWith("cache in ")).toList();
        assertThat(cacheLines).isNotEmpty();
        for (String l : cacheLines) {
            assertThat(pageText).contains(l.substring(0, l.indexOf(':')));
        }
        assertThat(pageText).contains("hot partition", "hot rows", "Evidence: ", "references: ");

        Path png = dir.resolve("analyze.png");
        Chromium.screenshot(page, png, 2400);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1280);
    }

    @Test
    void autotuneFitsTwelveHundredEightyPixelsWithThinAxesAndExplainsWorseTables() throws Exception {
        Path page = dir.resolve("autotune.html");
        Cli.Result r = Cli.run(
                "autotune",
                "--data",
                dir.resolve("dump.sql").toString(),
                "--trace",
                dir.resolve("trace.log").toString(),
                "--memory",
                "160K",
                "-q",
                "--format",
                "html",
                "-o",
                page.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String html = Files.readString(page);
        assertThat(html).contains("<details>").contains("modeled µs/query");
        String apply = html.substring(
                html.indexOf("<h2>To apply it</h2>"), html.indexOf("</pre>", html.indexOf("<h2>To apply it</h2>")));
        assertThat(apply).as("no empty parentheses in the statements").doesNotContain("()");

        JsonNode drawn = Chromium.probe(page);
        assertThat(drawn.get("scroll_width").asInt())
                .as("page width at a 1280 px window")
                .isLessThanOrEqualTo(1280);
        JsonNode memory = drawn.get("charts").get("memory");
        labelsDoNotOverlap(memory.get("axes").get("x"), "memory", true);
        labelsDoNotOverlap(memory.get("axes").get("y"), "memory", false);
        // the points stand where the page's figures put them: each finalist at the budget
        boolean atBudget = false;
        for (JsonNode ds : memory.get("datasets")) {
            for (JsonNode p : ds.get("points")) {
                atBudget |= Math.abs(p.get("x").asDouble() - 160 * 1024) < 0.02 * 160 * 1024;
            }
        }
        assertThat(atBudget).isTrue();
        Path png = dir.resolve("autotune.png");
        Chromium.screenshot(page, png, 2400);
        assertThat(ImageIO.read(png.toFile()).getWidth()).isEqualTo(1280);
    }

    /** Neighbouring labels of a horizontal axis stand at least half their widths apart; of a vertical one, a line apart. */
    private static void labelsDoNotOverlap(JsonNode axis, String chart, boolean horizontal) {
        JsonNode ticks = axis.get("ticks");
        assertThat(ticks.size()).as(chart + " axis labels").isGreaterThan(1);
        for (int i = 1; i < ticks.size(); i++) {
            JsonNode a = ticks.get(i - 1);
            JsonNode b = ticks.get(i);
            double gap = Math.abs(b.get("pixel").asDouble() - a.get("pixel").asDouble());
            double needed =
                    horizontal ? (a.get("width").asDouble() + b.get("width").asDouble()) / 2 : 14;
            assertThat(gap)
                    .as(chart + ": labels " + a.get("label") + " and " + b.get("label") + " overlap")
                    .isGreaterThanOrEqualTo(needed);
        }
    }
}

package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code analyze --format html}: one file that opens offline, with the report's figures and nothing unescaped. */
class HtmlReportTest {

    @Test
    void aSelfContainedPageWithTheFiguresTheChartsDraw(@TempDir Path dir) throws Exception {
        SyntheticDump.writeMysqldump(dir.resolve("orders.sql"), 2_000, 5);
        selfContainedPage(dir, "orders", "orders.country", dir.resolve("orders.sql"));
    }

    @Test
    @Tag("real-data")
    void aSelfContainedPageOfSakila(@TempDir Path dir) throws Exception {
        selfContainedPage(
                dir,
                "language",
                "language.name",
                Cli.data("sakila-mv/sakila-mv-schema.sql"),
                Cli.data("sakila-mv/sakila-mv-data.sql"));
    }

    /** The page of the sources' report: offline, its charts' figures those of the JSON report. */
    private static void selfContainedPage(Path dir, String table, String column, Path... sources) throws Exception {
        Path out = dir.resolve("report.html");
        List<String> args = new ArrayList<>(List.of("analyze", "-q", "--format", "html", "-o", out.toString()));
        for (Path source : sources) {
            args.add(source.toString());
        }
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        String html = Files.readString(out);
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .endsWith("</html>\n")
                .contains("<td>" + table + "</td>", "<code>" + column + "</code>")
                .doesNotContain("src=\"http", "href=\"http"); // nothing to fetch: Chart.js is inlined
        assertThat(html).contains("Chart.js v4.4.1");
        JsonNode figures = figures(html);
        assertThat(figures.get("tables").size())
                .isEqualTo(figures.get("declared").size())
                .isPositive();
        assertThat(figures.get("kinds").size())
                .isEqualTo(figures.get("kindCounts").size())
                .isPositive();
        JsonNode json = Cli.analyzeJson(sources);
        long declared = 0;
        for (JsonNode t : json.get("tables")) {
            if (t.get("name").asText().equals(figures.get("tables").get(0).asText())) {
                declared = t.get("declared_bytes").asLong();
            }
        }
        assertThat(figures.get("declared").get(0).asLong()).isEqualTo(declared).isPositive();
    }

    @Test
    void namesFromTheDumpAreEscapedInMarkupAndInTheData(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("odd.sql");
        Files.writeString(
                dump,
                "CREATE TABLE `x</script><b>` (`a<i>` int NOT NULL, `n` varchar(20));\n"
                        + "INSERT INTO `x</script><b>` VALUES (1,'a'),(2,'b'),(3,'c');\n");
        Path out = dir.resolve("odd.html");
        // Three rows are too little evidence for any advice unless --min-rows says otherwise: then
        // the odd column is narrowed and its name is on the page.
        Cli.Result r =
                Cli.run("analyze", "-q", "--min-rows", "0", "--format", "html", "-o", out.toString(), dump.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String html = Files.readString(out);
        assertThat(html).contains("x&lt;/script&gt;&lt;b&gt;", "a&lt;i&gt;").doesNotContain("<b>`", "x</script><b>");
        assertThat(figures(html).get("tables").get(0).asText()).isEqualTo("x</script><b>");
        // no '<' inside the data block at all: not '</script', and not '<!--' either
        String data = html.substring(
                html.indexOf("id=\"figures\">") + 13, html.indexOf("</script>", html.indexOf("id=\"figures\">")));
        assertThat(data).doesNotContain("<");
    }

    private static JsonNode figures(String html) throws Exception {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"figures\">(.*?)</script>", Pattern.DOTALL)
                .matcher(html);
        assertThat(m.find()).isTrue();
        return new ObjectMapper().readTree(m.group(1).replace("<\\/", "</"));
    }
}

package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's manners, ripgrep's and the duckdb CLI's: every text output fits the terminal
 * ($COLUMNS, 80 when it cannot tell) without cutting a type or a name short; --version prints the
 * pom's version on every command; completion scripts; suggestions for a mistyped command; help with
 * an example; JSON from trace stats and trace generate.
 */
class CliMannersTest {
    private static final Map<String, String> COLUMNS_80 = Map.of("COLUMNS", "80");
    private static final Path ROOT = root();
    private static final Path DUMP = ROOT.resolve("examples/wiki/dump.sql");
    private static final Path TRACE = ROOT.resolve("examples/wiki/trace.log");

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (!Files.exists(p.resolve("mvnw"))) {
            p = p.getParent();
        }
        return p;
    }

    /** The command in-process with COLUMNS=80 and stdout not a terminal. */
    private static Cli.Result at80(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), COLUMNS_80);
        return new Cli.Result(code, out.toString(), err.toString());
    }

    /** Lines wider than {@code width} characters (code points: "µs" is two characters of a terminal's, not three). */
    private static List<String> wider(String text, int width) {
        return text.lines().filter(l -> l.codePointCount(0, l.length()) > width).toList();
    }

    @Test
    void analyzeWithColumns80InItsOwnProcessPrintsNoLineOver80AndNoTypeCutShort() throws Exception {
        // the issue's own check, COLUMNS=80 ./wastecheck analyze examples/wiki/dump.sql, in a child JVM that reads its
        // environment
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.wastecheck.cli.Main",
                "analyze",
                DUMP.toString());
        pb.environment().put("COLUMNS", "80");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(wider(out, 80)).as(out).isEmpty();
        // 80 columns cannot hold a row with its types: they go whole on a line of their own under the column
        assertThat(out)
                .contains("comment.comment_id", "  bigint unsigned -> INT UNSIGNED\n", "  binary(14) -> DATETIME\n")
                .contains("duplicate_column comment.comment_text:");
    }

    @Test
    void analyzeWithATraceAndTuneFit80Columns() {
        Cli.Result analyze = at80("analyze", "-q", DUMP.toString(), "--trace", TRACE.toString());
        assertThat(analyze.exitCode()).as(analyze.err()).isZero();
        assertThat(wider(analyze.out(), 80)).as(analyze.out()).isEmpty();
        assertThat(analyze.out()).contains("page hot", "cache in ");

        Cli.Result tune = at80("tune", "-q", DUMP.toString());
        assertThat(tune.exitCode()).as(tune.err()).isZero();
        // every comment re-flows to the width; statements stay as the servers run them
        assertThat(wider(tune.out(), 80))
                .as(tune.out())
                .allSatisfy(l -> assertThat(l.strip()).doesNotStartWith("--"));
        assertThat(wider(tune.err(), 80)).as(tune.err()).isEmpty();
        // each trailing comment moved above its statement, which is unchanged
        assertThat(tune.out())
                .contains(
                        "  -- bigint unsigned, narrow_integer\n  MODIFY COLUMN `comment_id` INT UNSIGNED NOT NULL AUTO_INCREMENT;\n")
                // the guard's long comment, re-flowed
                .contains(
                        "-- Guard: tune checked the dump's rows, but the database has taken rows since. A\n-- live value");
    }

    @Test
    void analyzeQuietWritesItsFileWithoutAWordAndLoudSaysWhere(@TempDir Path dir) throws Exception {
        // -q: nothing on stderr but errors (issue 32 found "wrote FILE" printed under -q)
        Path quiet = dir.resolve("quiet.json");
        Cli.Result q = at80("analyze", "-q", "--format", "json", "-o", quiet.toString(), DUMP.toString());
        assertThat(q.exitCode()).as(q.err()).isZero();
        assertThat(q.err()).as("-q: nothing on stderr").isEmpty();
        assertThat(q.out()).as("-o: nothing on stdout").isEmpty();
        assertThat(Files.readString(quiet)).startsWith("{").contains("\"tables\"");
        Path loud = dir.resolve("loud.json");
        Cli.Result l = at80("analyze", "--format", "json", "-o", loud.toString(), DUMP.toString());
        assertThat(l.exitCode()).as(l.err()).isZero();
        assertThat(l.err()).contains("wastecheck: wrote " + loud);
    }

    @Test
    void replayFoldsItsTableTo80ColumnsAndTraceStatsFitsToo() {
        Cli.Result replay = at80(
                "replay",
                "-q",
                "--data",
                DUMP.toString(),
                "--trace",
                TRACE.toString(),
                "--max-events",
                "2000",
                "--no-jit-warmup",
                "--config",
                "layout=nsm",
                "--config",
                "layout=pax,cache=swap,cluster=partition");
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        assertThat(wider(replay.out(), 80)).as(replay.out()).isEmpty();
        // every column of the runs' table is there, each part led by the configurations
        assertThat(replay.out())
                .contains(
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
                        "leaf fill");
        assertThat(replay.out().lines().filter(l -> l.startsWith("layout=pax,cache=swap,cluster=partition ")))
                .hasSizeGreaterThan(1);

        Cli.Result autotune = at80(
                "autotune",
                "-q",
                "--data",
                DUMP.toString(),
                "--trace",
                TRACE.toString(),
                "--max-events",
                "2000",
                "--memory",
                "4M",
                "--repeat",
                "1");
        assertThat(autotune.exitCode()).as(autotune.err()).isZero();
        assertThat(wider(autotune.out(), 80)).as(autotune.out()).isEmpty();
        // the finalists' table folds: each part is led by the finalists' names
        assertThat(autotune.out().lines().filter(l -> l.startsWith("  best uniform ")))
                .hasSizeGreaterThan(1);
        // a wrapped SQL comment stays a comment on every line
        assertThat(autotune.out()
                        .lines()
                        .dropWhile(l -> !l.equals("to apply it:"))
                        .skip(1)
                        .takeWhile(l -> !l.isEmpty()))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l).startsWith("  --"));

        Cli.Result stats = at80("trace", "stats", TRACE.toString());
        assertThat(stats.exitCode()).as(stats.err()).isZero();
        assertThat(wider(stats.out(), 80)).as(stats.out()).isEmpty();
        assertThat(stats.out()).contains("POINT_LOOKUP", "hottest tables", "page.page_title", "name_title");
    }

    @Test
    void everyHelpFits80ColumnsAndShowsAnExample() {
        for (String[] command : List.of(
                new String[] {},
                new String[] {"analyze"},
                new String[] {"tune"},
                new String[] {"replay"},
                new String[] {"trace"},
                new String[] {"trace", "generate"},
                new String[] {"trace", "stats"},
                new String[] {"completion"},
                new String[] {"serve"})) {
            List<String> args = new ArrayList<>(List.of(command));
            args.add("--help");
            Cli.Result r = at80(args.toArray(new String[0]));
            assertThat(r.exitCode()).isZero();
            assertThat(wider(r.out(), 80)).as(String.join(" ", args)).isEmpty();
            assertThat(r.out())
                    .as(String.join(" ", args))
                    .contains("Example")
                    .contains("  wastecheck " + String.join(" ", command));
        }
    }

    @Test
    void everyCommandPrintsThePomsVersion() {
        String version = System.getProperty("wastecheck.version");
        assertThat(version).as("set by the e2e pom from ${project.version}").isNotBlank();
        for (String[] args : List.of(
                new String[] {"--version"},
                new String[] {"analyze", "--version"},
                new String[] {"tune", "-V"},
                new String[] {"trace", "stats", "--version"},
                new String[] {"replay", "--version"},
                new String[] {"completion", "-V"},
                new String[] {"serve", "-V"})) {
            Cli.Result r = Cli.run(args);
            assertThat(r.exitCode()).isZero();
            assertThat(r.out()).as(String.join(" ", args)).isEqualTo("wastecheck " + version + "\n");
        }
    }

    @Test
    void completionPrintsAScriptForBashAndZsh() {
        Cli.Result bash = Cli.run("completion", "bash");
        assertThat(bash.exitCode()).isZero();
        assertThat(bash.out())
                .startsWith("#!/usr/bin/env bash")
                .contains("complete -F _complete_wastecheck")
                .contains("analyze", "tune", "replay", "stats", "--format", "--trace");
        Cli.Result zsh = Cli.run("completion", "zsh");
        assertThat(zsh.exitCode()).isZero();
        assertThat(zsh.out()).contains("autoload -U +X bashcompinit && bashcompinit");
        assertThat(Cli.run("completion", "fish").exitCode()).isEqualTo(2);
    }

    @Test
    void aMistypedCommandOrOptionGetsASuggestion() {
        Cli.Result command = Cli.run("analyse", DUMP.toString());
        assertThat(command.exitCode()).isEqualTo(2);
        assertThat(command.err())
                .startsWith("wastecheck: ")
                .contains("Did you mean: wastecheck analyze"); // picocli may add a second candidate (serve)
        Cli.Result option = Cli.run("analyze", "--formt", "json", DUMP.toString());
        assertThat(option.exitCode()).isEqualTo(2);
        assertThat(option.err()).contains("Unknown option: '--formt'").contains("Possible solutions: --format");
        assertThat(Cli.run("trace", "stat", TRACE.toString()).err()).contains("Did you mean: trace stats");
    }

    @Test
    void traceStatsAndGenerateSpeakJsonWithSnakeCaseKeys(@TempDir Path dir) throws Exception {
        Cli.Result stats = Cli.run("trace", "stats", "-q", "--format", "json", TRACE.toString());
        assertThat(stats.exitCode()).as(stats.err()).isZero();
        JsonNode s = stats.json();
        assertThat(s.get("format").asText()).isEqualTo("wastecheck");
        assertThat(s.get("statements").asLong()).isEqualTo(8104);
        assertThat(s.get("operations").get("point_lookup").asLong()).isEqualTo(7838);
        assertThat(s.get("tables").get(0).get("name").asText()).isEqualTo("page");
        assertThat(s.get("tables").get(0).get("skew").get("index").asText()).isEqualTo("name_title");
        assertThat(s.get("columns").get(0).get("references").asLong()).isEqualTo(5817);
        assertKeysSnakeCase(s);

        Cli.Result text = Cli.run(
                "trace",
                "generate",
                "--scale",
                "20",
                "--requests",
                "200",
                "-o",
                dir.resolve("t").toString());
        Cli.Result json = Cli.run(
                "trace",
                "generate",
                "--scale",
                "20",
                "--requests",
                "200",
                "-q",
                "--format",
                "json",
                "-o",
                dir.resolve("j").toString());
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.err()).as("-q: nothing on stderr").isEmpty();
        assertThat(text.err()).contains("wrote " + dir.resolve("t").resolve("dump.sql"));
        JsonNode g = json.json();
        assertThat(g.get("dump").asText())
                .isEqualTo(dir.resolve("j").resolve("dump.sql").toString());
        assertThat(g.get("tables").get("page").get("rows").asLong()).isEqualTo(20);
        // the same seed wrote the same rows: JSON and text agree table by table
        assertThat(text.out()
                        .lines()
                        .filter(l -> l.startsWith("revision "))
                        .findFirst()
                        .orElseThrow())
                .matches("revision +"
                        + g.get("tables").get("revision").get("rows").asLong() + " +[0-9.]+ [KM]?i?B");
        assertThat(g.get("dump_bytes").asLong())
                .isEqualTo(Files.size(dir.resolve("j").resolve("dump.sql")));
        assertKeysSnakeCase(g);
    }

    /** Objects under these keys are keyed by data (table names, reasons, keywords, functions), not by field names. */
    private static final java.util.Set<String> KEYED_BY_DATA =
            java.util.Set.of("tables", "skipped", "ignored_by_keyword", "functions");

    private static void assertKeysSnakeCase(JsonNode node) {
        assertKeysSnakeCase(node, false);
    }

    private static void assertKeysSnakeCase(JsonNode node, boolean keysAreData) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!keysAreData) {
                    assertThat(e.getKey()).matches("[a-z][a-z0-9_]*");
                }
                assertKeysSnakeCase(
                        e.getValue(),
                        !keysAreData
                                && KEYED_BY_DATA.contains(e.getKey())
                                && e.getValue().isObject());
            }
        } else if (node.isArray()) {
            node.forEach(n -> assertKeysSnakeCase(n, false));
        }
    }
}

package dev.wastecheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run of {@code analyze} is parsed by {@link AnalyzeRoot} (the root with that command alone),
 * everything else by {@link Main}: whatever {@code analyze} prints for help, version and bad
 * arguments, and its exit code, must be the same from both.
 */
class MainRootsTest {
    private record Result(int code, String out, String err) {}

    private static Result run(RootCommand root, String... args) {
        root.terminal = new Terminal(Map.of("COLUMNS", "80"), false);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), root);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void analyzeIsParsedByItsOwnRootAndEverythingElseByTheWhole() {
        assertThat(Main.root(new String[] {"analyze", "x.sql"})).isInstanceOf(AnalyzeRoot.class);
        for (String[] args : List.of(
                new String[] {},
                new String[] {"tune"},
                new String[] {"help", "analyze"},
                new String[] {"analyse"},
                new String[] {"--debug", "analyze"},
                new String[] {"ANALYZE"})) {
            assertThat(Main.root(args)).as(String.join(" ", args)).isInstanceOf(Main.class);
        }
    }

    @Test
    void analyzePrintsTheSameHelpVersionAndErrorsFromEitherRoot(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.sql"), "-- nothing here\n");
        Path bad = Files.writeString(dir.resolve("bad.sql"), "INSERT INTO t VALUES (1);\n");
        List<String[]> cases = List.of(
                new String[] {"analyze", "--help"},
                new String[] {"analyze", "-h"},
                new String[] {"analyze", "--version"},
                new String[] {"analyze", "-V"},
                new String[] {"analyze"},
                new String[] {"analyze", "--fromat", "json", empty.toString()},
                new String[] {"analyze", "--format", "yaml", empty.toString()},
                new String[] {"analyze", "--trac", empty.toString()},
                new String[] {"analyze", "--no-such-option"},
                new String[] {"analyze", dir.resolve("missing.sql").toString()},
                new String[] {"analyze", empty.toString()},
                new String[] {"analyze", "--debug", bad.toString()},
                new String[] {"analyze", bad.toString(), "--format", "json"});
        for (String[] args : cases) {
            Result whole = run(new Main(), args);
            Result alone = run(new AnalyzeRoot(), args);
            String as = String.join(" ", args);
            assertThat(alone.code()).as(as).isEqualTo(whole.code());
            assertThat(alone.out()).as(as).isEqualTo(whole.out());
            assertThat(alone.err()).as(as).isEqualTo(whole.err());
        }
        // the cases say something: help is a screen, a bad value is refused with exit 2
        Result help = run(new AnalyzeRoot(), "analyze", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).startsWith("Usage: wastecheck analyze").contains("-h, -V, --debug");
        Result fromat = run(new AnalyzeRoot(), "analyze", "--fromat", "json", empty.toString());
        assertThat(fromat.code()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(fromat.err()).contains("--format").contains("Try 'wastecheck analyze --help'");
        assertThat(run(new AnalyzeRoot(), "analyze", "-V").out()).startsWith("wastecheck ");
    }
}

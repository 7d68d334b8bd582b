package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Help that copies: at 80 columns no line of any command's {@code --help} is wider (counted in
 * bytes, as {@code awk 'length > 80'} counts), each fits a screen of 50 lines, no example is broken
 * inside an argument (a long one continues after a {@code \}), and a mistyped option gets the one
 * meant.
 */
class HelpScreenTest {
    private static final List<String> COMMANDS = List.of(
            "",
            "analyze",
            "tune",
            "trace",
            "trace generate",
            "trace stats",
            "replay",
            "autotune",
            "serve",
            "completion");

    private static String help(String command, int columns) {
        List<String> args = new ArrayList<>(command.isEmpty() ? List.of() : List.of(command.split(" ")));
        args.add("--help");
        StringWriter out = new StringWriter();
        int code = Main.run(
                args.toArray(new String[0]),
                new PrintWriter(out),
                new PrintWriter(new StringWriter()),
                Map.of("COLUMNS", Integer.toString(columns)));
        assertThat(code).as(command + " --help").isZero();
        return out.toString();
    }

    @Test
    void everyHelpFitsEightyColumnsAndAScreen() {
        for (String command : COMMANDS) {
            String help = help(command, 80);
            for (String line : help.lines().toList()) {
                assertThat(line.getBytes(StandardCharsets.UTF_8).length)
                        .as("wastecheck " + command + " --help: " + line)
                        .isLessThanOrEqualTo(80);
            }
            assertThat(help.lines().count())
                    .as("wastecheck " + command + " --help lines")
                    .isLessThanOrEqualTo(50);
            if (!command.isEmpty() && !command.equals("trace")) {
                assertThat(help)
                        .as(command)
                        .contains("Every option in full: man wastecheck-" + command.replace(' ', '-'));
            }
        }
    }

    @Test
    void examplesAreNeverBrokenInsideAnArgument() {
        for (int columns : new int[] {80, 60}) {
            for (String command : COMMANDS) {
                String help = help(command, columns);
                String examples = help.contains("Examples:") ? help.substring(help.indexOf("Examples:")) : "";
                // as a shell reads them: a line ending in \ continues on the next
                String joined = examples.replaceAll(" \\\\\\n\\s+", " ");
                for (String line :
                        joined.lines().filter(l -> l.startsWith("  ")).toList()) {
                    assertThat(line.chars().filter(c -> c == '\'').count() % 2)
                            .as(columns + " columns, " + command + ": quotes balanced in " + line)
                            .isZero();
                    assertThat(line)
                            .as(columns + " columns: an example that ends mid-argument")
                            .doesNotEndWith("?");
                }
            }
            String analyze = help("analyze", columns);
            assertThat(analyze).contains("'jdbc:postgresql://db.internal/shop?user=dba'");
            // a URL in a description stays whole too (picocli broke "jdbc:mariadb:" from "//HOST/DB")
            assertThat(analyze).contains("jdbc:mariadb://HOST/DB");
            assertThat(help("tune", columns)).contains("'jdbc:mariadb://db/sakila?user=dba&password=...'");
            assertThat(help("completion", columns)).contains("~/.local/share/bash-completion/completions/wastecheck");
            assertThat(help("autotune", columns)).contains("--train 0.3");
        }
    }

    @Test
    void everyMistypedOptionGetsASuggestion() {
        Cli.Result fromat = Cli.run("analyze", "--fromat", "json", "dump.sql");
        assertThat(fromat.exitCode()).isEqualTo(2);
        assertThat(fromat.err()).contains("did you mean --format?");
        Cli.Result trac = Cli.run("analyze", "--trac", "t.log", "dump.sql");
        assertThat(trac.err()).contains("--trace");
        // a missing required option used to hide the mistyped one
        Cli.Result replay = Cli.run("replay", "--fromat", "json");
        assertThat(replay.exitCode()).isEqualTo(2);
        assertThat(replay.err()).contains("did you mean --format?");
        Cli.Result memory = Cli.run("autotune", "--memroy", "16M");
        assertThat(memory.err()).contains("did you mean --memory?");
    }
}

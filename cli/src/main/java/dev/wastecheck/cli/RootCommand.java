package dev.wastecheck.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What the {@code wastecheck} command is, whichever subcommands it is given: its name, its help's
 * description and footer, the options every subcommand inherits ({@code -h}, {@code -V},
 * {@code --debug}), and the terminal its output goes to. {@link Main} gives it every subcommand,
 * {@link AnalyzeRoot} only {@code analyze}; picocli reads this class's {@code @Command} first and
 * a subclass's after it, so both are the same command to everything but the list of subcommands.
 */
// scope = INHERIT: every subcommand gets -h, -V (this version) and the short synopsis without repeating them
@Command(
        name = "wastecheck",
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        abbreviateSynopsis = true,
        description = {"Finds the bytes a database wastes and proves what removing them buys.", ""},
        footer = {
            "",
            "Examples:",
            "  wastecheck analyze dump.sql",
            "  wastecheck analyze schema.sql data.sql --format json -o report.json",
            "  wastecheck help analyze"
        })
abstract class RootCommand implements Runnable {
    @Option(names = "--debug", description = "Print stack traces of errors.", scope = CommandLine.ScopeType.INHERIT)
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where the output goes: its width, whether it is a terminal. */
    Terminal terminal = Terminal.ofProcess();

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "a command is required ("
                        + String.join(", ", spec.commandLine().getSubcommands().keySet()) + ")");
    }
}

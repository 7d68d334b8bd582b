package dev.wastecheck.cli;

import dev.wastecheck.model.BadInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The {@code wastecheck} command. Data goes to stdout, progress and diagnostics to stderr. Exit
 * codes: 0 success, 2 bad usage, a bad option value or unreadable input (with file, line and what was
 * expected), 3 a check the user asked for failed ({@code replay --check}), 1 an internal error (a bug). No stack trace unless {@code --debug}.
 */
@Command(name = "wastecheck", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {"Finds the bytes a database wastes and proves what removing them buys.", ""},
        subcommands = {AnalyzeCommand.class, TuneCommand.class, TraceCommand.class, ReplayCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Example:", "  wastecheck analyze dump.sql", "  wastecheck analyze schema.sql data.sql --format json -o report.json"})
public final class Main implements Runnable {
    public static final int EXIT_OK = 0;
    public static final int EXIT_INTERNAL = 1;
    public static final int EXIT_BAD_INPUT = 2;
    /** A check the user asked for failed ({@code replay --check}). */
    public static final int EXIT_CHECK_FAILED = 3;

    @Option(names = "--debug", description = "Print stack traces of errors.", scope = CommandLine.ScopeType.INHERIT)
    boolean debug;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (analyze, trace)");
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line in-process: what the tests call, so they run the real command. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        Main main = new Main();
        CommandLine cl = new CommandLine(main);
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            boolean debug = parseResult.hasMatchedOption("--debug")
                    || parseResult.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--debug"));
            return report(e, commandLine.getErr(), debug);
        });
        cl.setParameterExceptionHandler((e, a) -> {
            PrintWriter w = e.getCommandLine().getErr();
            w.println("wastecheck: " + e.getMessage());
            w.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            return EXIT_BAD_INPUT;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    static int report(Exception e, PrintWriter err, boolean debug) {
        Throwable cause = e;
        while ((cause instanceof java.io.UncheckedIOException || cause instanceof java.util.concurrent.CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        int code;
        String message;
        if (cause instanceof BadInputException) {
            code = EXIT_BAD_INPUT;
            message = cause.getMessage();
        } else if (cause instanceof NoSuchFileException nsf) {
            code = EXIT_BAD_INPUT;
            message = nsf.getFile() + ": no such file";
        } else if (cause instanceof java.nio.file.AccessDeniedException ad) {
            code = EXIT_BAD_INPUT;
            message = ad.getFile() + ": permission denied";
        } else if (cause instanceof java.nio.file.FileSystemException fs) {
            code = EXIT_BAD_INPUT;
            message = fs.getFile() + ": " + (fs.getReason() == null ? fs.getClass().getSimpleName() : fs.getReason());
        } else if (cause instanceof IOException io) {
            code = EXIT_BAD_INPUT;
            message = "cannot read input: " + io.getMessage();
        } else {
            code = EXIT_INTERNAL;
            message = "internal error: " + cause + (debug ? "" : " (run with --debug for the stack trace)");
        }
        err.println("wastecheck: " + message);
        if (debug) {
            cause.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /** The version from the jar's manifest, or "dev" from a build tree. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"wastecheck " + (v == null ? "dev" : v)};
        }
    }
}

package dev.wastecheck.cli;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.sources.load.ProfilingDatabase;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code wastecheck} command. Data goes to stdout, progress and diagnostics to stderr. Exit
 * codes: 0 success, 2 bad usage, a bad option value or unreadable input (with file, line and what was
 * expected), 3 a check the user asked for failed ({@code replay --check}), 1 an internal error (a bug). No stack trace unless {@code --debug}.
 *
 * <p>The command's attributes, its {@code --debug} and its terminal are {@link RootCommand}'s;
 * this class adds every subcommand (the man pages and the completion script are generated from
 * it). A run of {@code analyze} is parsed by {@link AnalyzeRoot}, the same root with only that
 * subcommand: picocli reflects every subcommand it is given, and the six others took the main
 * thread's time before the analysis could start (docs/benchmarks.md, issue 32).
 */
@Command(
        subcommands = {
            AnalyzeCommand.class,
            TuneCommand.class,
            TraceCommand.class,
            ReplayCommand.class,
            AutotuneCommand.class,
            ServeCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main extends RootCommand {
    public static final int EXIT_OK = 0;
    public static final int EXIT_INTERNAL = 1;
    public static final int EXIT_BAD_INPUT = 2;
    /** A check the user asked for failed ({@code replay --check}; {@code tune --apply} stopped by its guard or by the database). */
    public static final int EXIT_CHECK_FAILED = 3;

    public static void main(String[] args) {
        settings(args);
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * The JVM-wide settings a process running {@code args} makes before anything loads Netty or
     * Arrow (the benchmark's child process calls it as {@link #main} does).
     */
    public static void settings(String[] args) {
        DuckDbLibrary.unpackOnce(); // before DuckDB's preload below
        // Netty 4.2 (under arrow-memory-netty) turns sun.misc.Unsafe off on Java 25+ unless the JVM was
        // started with --sun-misc-unsafe-memory-access=allow, which the launchers pass but a jar's
        // manifest cannot: `java -jar wastecheck.jar` would then fail in Arrow's first allocation.
        // Saying io.netty.noUnsafe=false ourselves keeps it on (a -D the user gave wins).
        if (System.getProperty("io.netty.noUnsafe") == null) {
            System.setProperty("io.netty.noUnsafe", "false");
        }
        // Netty 4.2 makes a JFR event of every chunk its allocators take or give back, and the first
        // one sets up the JDK's flight recorder (its metadata, a handler class generated per event
        // class): with DuckDB's memory event, 0.08 s of CPU in a 1.1-1.4 s start (docs/benchmarks.md,
        // issue 32). Only a recording reads them; -Dio.netty.jfr.enabled=true keeps them.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        // Netty's arenas take their 4 MB chunks through ByteBuffer.allocateDirect, which zeroes the
        // whole chunk at once, unless Netty may call DirectByteBuffer's (long, int) constructor by
        // reflection (Arrow's documented setting for Java 9+; the launchers open java.nio): then
        // Unsafe.allocateMemory, whose pages are touched only where Arrow writes. ORM at 100 MB: page
        // faults 75,000 -> 60,000, peak RSS 318 -> 267 MB (docs/benchmarks.md, issue 32). Without
        // java.nio opened Netty falls back to allocateDirect, as before; a -D the user gave wins.
        if (System.getProperty("io.netty.tryReflectionSetAccessible") == null) {
            System.setProperty("io.netty.tryReflectionSetAccessible", "true");
        }
        // analyze fills Arrow vectors only through setSafe, which grows a buffer before it writes,
        // and DuckDB reads them through the C data interface: ArrowBuf's second check of every
        // write's bounds is redundant there, and dropping it took 0.6 s (7%) off analyze of a
        // 1 GB dump. Only a process that analyzes, before Arrow reads the setting; the engine's
        // own Arrow blocks (replay, autotune) keep the check.
        if (args.length > 0
                && args[0].equals("analyze")
                && System.getProperty("arrow.enable_unsafe_memory_access") == null) {
            System.setProperty("arrow.enable_unsafe_memory_access", "true");
        }
        if (args.length > 0 && args[0].equals("analyze")) {
            // DuckDB's library loads (0.5 s) while the command line is parsed and the sources read
            ProfilingDatabase.preload();
            // and the DDL parser and Arrow, which the first rows wait for
            AnalyzeWarmUp.start();
        }
    }

    /** Runs the command line in-process: what the tests call, so they run the real command. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, root(args));
    }

    /**
     * Runs the command line in-process as if its environment were {@code env} and standard output
     * not a terminal: how the tests set {@code COLUMNS}.
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
        RootCommand main = root(args);
        main.terminal = new Terminal(env, false);
        return run(args, out, err, main);
    }

    /**
     * The root that parses {@code args}: with {@code analyze} first, the root with that command
     * alone ({@link AnalyzeRoot}), whose help and errors are those of the whole command line
     * ({@code MainRootsTest}); anything else (no command, another, a misspelt one, an option
     * first, {@code help}) the whole command line, whose errors name every command.
     */
    static RootCommand root(String[] args) {
        return args.length > 0 && args[0].equals("analyze") ? new AnalyzeRoot() : new Main();
    }

    /** Runs {@code args} on the given root (the tests compare the two roots' help and errors). */
    static int run(String[] args, PrintWriter out, PrintWriter err, RootCommand main) {
        CommandLine cl = new CommandLine(main);
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // --help as wide as the terminal (picocli takes 55 at least); past 100 columns lines get hard to read
        int helpWidth = Math.max(55, Math.min(100, main.terminal.width()));
        cl.setUsageHelpWidth(helpWidth);
        HelpLayout.install(cl, helpWidth);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            boolean debug = parseResult.hasMatchedOption("--debug")
                    || parseResult.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--debug"));
            return report(e, commandLine.getErr(), debug);
        });
        cl.setParameterExceptionHandler((e, a) -> {
            PrintWriter w = e.getCommandLine().getErr();
            w.println("wastecheck: " + e.getMessage());
            // "Did you mean: wastecheck analyze?" for a mistyped command, "Possible solutions: --format" for an option
            CommandLine.UnmatchedArgumentException.printSuggestions(e, w);
            // picocli suggests by shared prefixes only (--trac gets --trace, --fromat nothing), and a missing
            // required option hides a mistyped one: every unknown --name of the command gets its nearest
            suggestMistyped(e, a, w);
            w.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for usage.");
            return EXIT_BAD_INPUT;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * For every {@code --name} among the arguments that the failing command does not know: the
     * option one or two edits away ({@code --fromat}: {@code --format}), unless picocli already
     * suggested it.
     */
    private static void suggestMistyped(CommandLine.ParameterException e, String[] args, PrintWriter w) {
        CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
        Set<String> known = spec.optionsMap().keySet();
        List<String> suggested = e instanceof CommandLine.UnmatchedArgumentException u ? u.getSuggestions() : List.of();
        for (String arg : args) {
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (!name.startsWith("--") || name.length() < 4 || known.contains(name)) {
                continue;
            }
            String best = null;
            int bestDistance = Integer.MAX_VALUE;
            for (String k : known) {
                int d = distance(name, k);
                if (d < bestDistance) {
                    best = k;
                    bestDistance = d;
                }
            }
            if (best != null && bestDistance <= (name.length() > 6 ? 2 : 1) && !suggested.contains(best)) {
                w.println("Unknown option " + name + ": did you mean " + best + "?");
            }
        }
    }

    /** Edits (insert, delete, change, swap of neighbours) from {@code a} to {@code b}. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** The terminal of the command line {@code spec} belongs to. */
    static Terminal terminal(CommandLine.Model.CommandSpec spec) {
        return spec.root().userObject() instanceof RootCommand m ? m.terminal : Terminal.ofProcess();
    }

    static int report(Exception e, PrintWriter err, boolean debug) {
        Throwable cause = e;
        while ((cause instanceof UncheckedIOException || cause instanceof CompletionException)
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
        } else if (cause instanceof AccessDeniedException ad) {
            code = EXIT_BAD_INPUT;
            message = ad.getFile() + ": permission denied";
        } else if (cause instanceof FileSystemException fs) {
            code = EXIT_BAD_INPUT;
            message = fs.getFile() + ": "
                    + (fs.getReason() == null ? fs.getClass().getSimpleName() : fs.getReason());
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

    /**
     * The project's version, which the build copies from the pom into {@code version.properties}:
     * every command and subcommand prints it for {@code --version}, as {@code man} pages do.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            return new String[] {"wastecheck " + version()};
        }

        static String version() throws IOException {
            try (var in = Main.class.getResourceAsStream("version.properties")) {
                if (in == null) {
                    throw new IOException("version.properties is not in the build: run the build through Maven");
                }
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version");
            }
        }
    }
}

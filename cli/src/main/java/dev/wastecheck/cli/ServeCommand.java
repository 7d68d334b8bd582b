package dev.wastecheck.cli;

import dev.wastecheck.replay.ArrowService;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code wastecheck serve}: a source loaded into Arrow-native blocks, frozen, and served over Arrow
 * Flight (docs/arrow.md, "Export"); a table's Flight ticket is its name.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Loads SOURCE into Arrow-native blocks, freezes them and serves every table over Arrow Flight until stopped.",
            ""
        },
        footer = {
            "",
            "Example:",
            "  wastecheck serve --data wiki/dump.sql --flight 8815",
            "  (a Flight client then reads grpc://127.0.0.1:8815 with the ticket 'revision')"
        })
public final class ServeCommand implements Callable<Integer> {
    enum Freeze {
        gather,
        dictionary
    }

    @Option(
            names = "--data",
            required = true,
            paramLabel = "SOURCE",
            description = "The database: a dump, database file or folder (as analyze reads).")
    Path data;

    @Option(
            names = "--flight",
            required = true,
            paramLabel = "PORT",
            description = "Serve Arrow Flight on this port (0: any free port).")
    int port;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "Address to bind (default: ${DEFAULT-VALUE}, loopback only).")
    String host;

    @Option(
            names = "--freeze",
            defaultValue = "gather",
            description = "How variable-length columns freeze: gather or dictionary "
                    + "(default: ${DEFAULT-VALUE}; a dictionary stream carries one dictionary per block).")
    Freeze freeze;

    @Option(
            names = {"-q", "--quiet"},
            description = "No progress bar.")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        try (ArrowService service = ArrowService.start(
                data,
                host,
                port,
                freeze == Freeze.dictionary,
                TerminalProgress.forStderr(quiet, Main.terminal(spec)),
                line -> err.println("wastecheck: " + line))) {
            err.println("wastecheck: serving " + service.tables().size() + " tables on grpc://" + host + ":"
                    + service.port() + " (Ctrl-C stops)");
            err.flush();
            service.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Main.EXIT_OK;
    }
}

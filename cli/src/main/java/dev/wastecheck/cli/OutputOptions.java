package dev.wastecheck.cli;

import dev.wastecheck.model.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every command that writes a report shares: where it goes ({@code -o}, its folder
 * created; stdout by default) and whether a progress bar is drawn ({@code -q}). Each command keeps
 * its own {@code --format}, whose choices differ.
 */
final class OutputOptions {
    /** Renders a report onto a writer. */
    @FunctionalInterface
    interface Renderer {
        void render(PrintWriter w) throws IOException;
    }

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Write the report here instead of stdout.")
    Path output;

    @Option(
            names = {"-q", "--quiet"},
            description = "Nothing on stderr but errors: no progress bar, no \"wrote FILE\".")
    boolean quiet;

    /** The command these options belong to. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** A progress bar on stderr when it is a terminal and {@code -q} is not given. */
    Progress progress() {
        return TerminalProgress.forStderr(quiet, Main.terminal(command));
    }

    /** How wide a text report may be: the terminal's on stdout, 80 (or $COLUMNS) in a file {@code -o} names. */
    int width() {
        Terminal t = Main.terminal(command);
        return output != null ? t.fileWidth() : t.width();
    }

    /** Renders into the file {@code -o} names, saying so on stderr unless {@code -q}, or onto stdout. */
    void write(CommandSpec spec, Renderer renderer) throws IOException {
        if (output != null) {
            Path parent = output.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                PrintWriter pw = new PrintWriter(w);
                renderer.render(pw);
                pw.flush();
            }
            if (!quiet) {
                spec.commandLine().getErr().println("wastecheck: wrote " + output);
            }
        } else {
            PrintWriter out = spec.commandLine().getOut();
            renderer.render(out);
            out.flush();
        }
    }
}

package dev.wastecheck.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** Where a report goes: the file {@code -o} names (its folder created), or stdout. */
final class Output {
    /** Renders a report onto a writer. */
    @FunctionalInterface
    interface Renderer {
        void render(PrintWriter w) throws IOException;
    }

    private Output() {
    }

    static void write(Path output, CommandSpec spec, Renderer renderer) throws IOException {
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
            spec.commandLine().getErr().println("wastecheck: wrote " + output);
        } else {
            PrintWriter out = spec.commandLine().getOut();
            renderer.render(out);
            out.flush();
        }
    }
}

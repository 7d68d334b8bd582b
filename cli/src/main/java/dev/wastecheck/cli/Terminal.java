package dev.wastecheck.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the command knows of the terminal it writes to, found as {@code ls}, {@code git} and the
 * duckdb CLI find it: the width is {@code $COLUMNS} when set, else the terminal's own when standard
 * output is one, else 80 (a pipe, a file, CI: nothing to ask). Progress is drawn only when standard
 * error is a terminal.
 */
final class Terminal {
    static final int DEFAULT_WIDTH = 80;
    /** Narrower than this no report is laid out; a smaller $COLUMNS is taken as this. */
    static final int MIN_WIDTH = 40;

    private final Map<String, String> env;
    private final boolean stdoutIsTerminal;
    private Integer terminalWidth;

    Terminal(Map<String, String> env, boolean stdoutIsTerminal) {
        this.env = env;
        this.stdoutIsTerminal = stdoutIsTerminal;
    }

    /** The terminal of this process: its environment, and whether file descriptor 1 is a terminal. */
    static Terminal ofProcess() {
        return new Terminal(System.getenv(), isTerminal(1));
    }

    /** The width for text on standard output. */
    int width() {
        Integer columns = columns();
        if (columns != null) {
            return columns;
        }
        if (stdoutIsTerminal) {
            if (terminalWidth == null) {
                terminalWidth = askTerminal();
            }
            return terminalWidth;
        }
        return DEFAULT_WIDTH;
    }

    /** The width of the terminal standard error shows on (where progress is drawn): $COLUMNS, else the terminal's. */
    int stderrWidth() {
        Integer columns = columns();
        if (columns != null) {
            return columns;
        }
        if (terminalWidth == null) {
            terminalWidth = askTerminal();
        }
        return terminalWidth;
    }

    /** The width for text written to a file: $COLUMNS when set, else 80, whatever the terminal is. */
    int fileWidth() {
        Integer columns = columns();
        return columns != null ? columns : DEFAULT_WIDTH;
    }

    private Integer columns() {
        String c = env.get("COLUMNS");
        if (c != null && c.strip().matches("\\d{1,5}")) {
            int n = Integer.parseInt(c.strip());
            if (n > 0) {
                return Math.max(MIN_WIDTH, n);
            }
        }
        return null;
    }

    /** {@code stty size} on the controlling terminal ("rows columns"); 80 when that cannot be read. */
    private static int askTerminal() {
        File tty = new File("/dev/tty");
        if (!tty.exists()) {
            return DEFAULT_WIDTH;
        }
        try {
            Process p = new ProcessBuilder("stty", "size")
                    .redirectInput(tty)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("\\d+ \\d+")) {
                int cols = Integer.parseInt(out.substring(out.indexOf(' ') + 1));
                return cols > 0 ? Math.max(MIN_WIDTH, cols) : DEFAULT_WIDTH;
            }
        } catch (IOException e) {
            // no stty (Windows): the default below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return DEFAULT_WIDTH;
    }

    /**
     * Whether file descriptor {@code fd} (1 stdout, 2 stderr) is a terminal: on Linux from what
     * /proc/self/fd names; elsewhere {@code System.console()}, which JDK 17 gives only when standard
     * input and output are both terminals.
     */
    static boolean isTerminal(int fd) {
        try {
            Path link = Path.of("/proc/self/fd/" + fd);
            if (Files.exists(link)) {
                String target = Files.readSymbolicLink(link).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // not Linux, or no /proc: fall back below
        }
        return System.console() != null;
    }
}

package dev.wastecheck.traces.read;

import dev.wastecheck.model.BadInputException;
import java.nio.file.Path;

/** A trace file is not what its format promises, past the allowed share of bad lines; the message says file, line and what was expected. */
public final class TraceFormatException extends BadInputException {
    private final Path file;
    private final long line;
    private final String expected;

    public TraceFormatException(Path file, long line, String expected, String detail) {
        super(file + ":" + line + ": expected " + expected + (detail == null || detail.isEmpty() ? "" : "; " + detail));
        this.file = file;
        this.line = line;
        this.expected = expected;
    }

    public Path file() {
        return file;
    }

    public long line() {
        return line;
    }

    public String expected() {
        return expected;
    }
}

package dev.wastecheck.sources;

import dev.wastecheck.model.BadInputException;

/**
 * Input that cannot be read as what it claims to be: says where (file and line) and what was
 * expected there. The command line turns it into exit code 2 with no stack trace.
 */
public class DumpFormatException extends BadInputException {
    private final String file;
    private final long line;

    public DumpFormatException(String file, long line, String expected, String found) {
        super(file + ":" + line + ": expected " + expected + ", found " + found);
        this.file = file;
        this.line = line;
    }

    public DumpFormatException(String message) {
        super(message);
        this.file = null;
        this.line = -1;
    }

    public String file() {
        return file;
    }

    public long line() {
        return line;
    }
}

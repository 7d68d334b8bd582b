package dev.wastecheck.model;

/**
 * Input that is not what it claims to be, or a command called in a way it cannot run: the message
 * says where (file and line when there is one) and what was expected. Every command maps it to
 * exit code 2 with the message alone, no stack trace (unless {@code --debug}). The readers'
 * own exceptions (dumps, traces, the generator's inputs) are kinds of it.
 */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }

    /** {@code file:line: expected ..., found ...}. */
    public BadInputException(String file, long line, String expected, String found) {
        this(file + ":" + line + ": expected " + expected + ", found " + found);
    }
}

package dev.wastecheck.cli;

/** A mistake in how the command was called or what it was given: exit 2, message only. */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message);
    }
}

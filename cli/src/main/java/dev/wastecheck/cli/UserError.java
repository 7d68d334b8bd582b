package dev.wastecheck.cli;

import dev.wastecheck.model.BadInputException;

/** A mistake in how the command was called or what it was given: exit 2, message only. */
public final class UserError extends BadInputException {
    public UserError(String message) {
        super(message);
    }
}

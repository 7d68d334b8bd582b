package dev.wastecheck.traces.generate;

import dev.wastecheck.model.BadInputException;

/** An input of the generator (a counts file, a parameter) is not what was expected; the message says where. */
public final class GeneratorInputException extends BadInputException {
    public GeneratorInputException(String message) {
        super(message);
    }
}

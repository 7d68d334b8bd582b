package dev.wastecheck.traces.generate;

/** An input of the generator (a counts file, a parameter) is not what was expected; the message says where. */
public final class GeneratorInputException extends RuntimeException {
    public GeneratorInputException(String message) {
        super(message);
    }
}

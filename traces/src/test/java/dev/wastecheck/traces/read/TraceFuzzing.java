package dev.wastecheck.traces.read;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import dev.wastecheck.model.BadInputException;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;

/**
 * What every trace reader's fuzz target asserts: whatever the text after a line of the format it
 * reads, the reader hands out records or stops with a {@link TraceFormatException} (bad input
 * naming the file and line); any other exception, or a record with no line, is a finding.
 */
final class TraceFuzzing {
    static final Path FILE = Path.of("fuzz.log");

    private TraceFuzzing() {}

    interface Factory {
        TraceReader open(Path file, BufferedReader in, TraceReadOptions options);
    }

    static void readAll(FuzzedDataProvider data, String firstLine, Factory factory) throws Exception {
        double maxBad = data.consumeBoolean() ? 1.0 : 0.01;
        String text = firstLine + "\n" + data.consumeRemainingAsString();
        try (TraceReader r =
                factory.open(FILE, new BufferedReader(new StringReader(text)), new TraceReadOptions(maxBad, 50))) {
            while (r.hasNext()) {
                TraceRecord rec = r.next();
                if (rec == null) {
                    throw new AssertionError("a null record");
                }
            }
            if (r.badLines().count() < 0 || r.lines() < 1) {
                throw new AssertionError("lines or bad lines miscounted");
            }
        } catch (BadInputException expected) {
            if (!expected.getMessage().startsWith("fuzz.log:")) {
                throw new AssertionError("a bad-input message that does not name the file: " + expected.getMessage());
            }
        }
    }
}

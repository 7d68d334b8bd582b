package dev.wastecheck.traces.read;

import java.util.ArrayList;
import java.util.List;

/** Malformed lines of a trace: counted, the first few kept with their line numbers, never dropped silently. */
public final class BadLines {
    public record Example(long line, String text, String expected) {}

    private static final int EXAMPLES = 5;
    private long count;
    private final List<Example> examples = new ArrayList<>();

    void add(long line, String text, String expected) {
        count++;
        if (examples.size() < EXAMPLES) {
            examples.add(new Example(line, text.length() > 120 ? text.substring(0, 120) + "..." : text, expected));
        }
    }

    public long count() {
        return count;
    }

    public List<Example> examples() {
        return List.copyOf(examples);
    }
}

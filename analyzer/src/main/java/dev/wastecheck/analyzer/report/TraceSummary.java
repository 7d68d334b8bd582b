package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * What was read from one trace.
 *
 * @param unresolved statements Calcite could not resolve against the schema, by reason, with an example each:
 *                   reported, never guessed
 */
public record TraceSummary(
        String file,
        String format,
        long statements,
        long resolved,
        long unresolvedCount,
        long events,
        long badLines,
        List<String> unresolved) {
    public TraceSummary {
        unresolved = List.copyOf(unresolved);
    }
}

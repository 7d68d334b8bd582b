package dev.wastecheck.traces.read;

import dev.wastecheck.model.schema.Dialect;

/**
 * A statement as the server received it (parameters of prepared statements already substituted where the log gives them).
 *
 * @param dialect the server whose log it came from, whose lexical rules it follows; null for a file of plain statements
 */
public record SqlStatement(String sql, Dialect dialect, long line, long timeMillis) implements TraceRecord {}

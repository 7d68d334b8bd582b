package dev.wastecheck.traces.read;

/** A statement as the server received it (parameters of prepared statements already substituted where the log gives them). */
public record SqlStatement(String sql, SqlDialect dialect, long line, long timeMillis) implements TraceRecord {}

package dev.wastecheck.traces.access;

/** Calcite could not resolve a statement against the schema; the message says why (parse error, unknown table, ...). */
public final class UnresolvedStatementException extends Exception {
    public UnresolvedStatementException(String message) {
        super(message);
    }
}

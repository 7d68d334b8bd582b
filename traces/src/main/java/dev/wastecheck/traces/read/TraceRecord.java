package dev.wastecheck.traces.read;

/** One unit of work a trace records: an SQL statement, or a request for a wiki page. */
public sealed interface TraceRecord permits SqlStatement, PageRequest {
    /** The line of the trace file the record starts on (1-based). */
    long line();

    /** When it happened (epoch milliseconds), or -1 when the trace does not say. */
    long timeMillis();
}

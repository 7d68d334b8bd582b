package dev.wastecheck.replay.sql;

/** The general-purpose engines a trace is replayed on beside our own, as reference points. */
public enum SqlEngine {
    /** SQLite in memory (sqlite-jdbc): a row store with B-tree tables and indexes. */
    SQLITE,
    /** DuckDB in memory, one thread: a column store with ART indexes. */
    DUCKDB
}

package dev.wastecheck.sources;

/** What a SOURCE argument turned out to be, from its content rather than its name. */
public enum SourceKind {
    MYSQL_SCRIPT,
    POSTGRESQL_SCRIPT,
    SQLITE_SCRIPT,
    SQLITE_FILE,
    DUCKDB_FILE,
    PARQUET,
    CSV,
    JSON
}

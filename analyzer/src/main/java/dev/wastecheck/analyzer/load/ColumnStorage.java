package dev.wastecheck.analyzer.load;

import dev.wastecheck.analyzer.schema.SqlType;
import dev.wastecheck.analyzer.schema.TypeFamily;

/** How a column's values sit in the profiling database. */
public enum ColumnStorage {
    /** BIGINT, parsed while loading. */
    INT64,
    /** VARCHAR holding the value's text exactly as the dump wrote it. */
    TEXT,
    /** BLOB holding the value's bytes. */
    BYTES,
    /** A typed column DuckDB itself read (CSV, Parquet, JSON, DuckDB files). */
    NATIVE;

    static ColumnStorage forDeclared(SqlType type) {
        if (type.family() == TypeFamily.INTEGER && (type.intBits() < 64 || (type.intBits() == 64 && !type.unsigned()))) {
            return INT64;
        }
        if (type.family().isBinary() || type.family() == TypeFamily.BIT) {
            return BYTES;
        }
        return TEXT;
    }
}

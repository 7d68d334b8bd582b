package dev.wastecheck.sources.load;

import dev.wastecheck.model.arrow.ArrowSchemas;
import dev.wastecheck.model.schema.SqlType;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** How a column's values sit in the profiling database. */
public enum ColumnStorage {
    /** BIGINT, parsed while loading. */
    INT64,
    /**
     * VARCHAR holding the value's text exactly as the dump wrote it (a dump's FLOAT or DOUBLE
     * column may be stored as doubles under a view that gives that text back: {@code DoubleSpelling}).
     */
    TEXT,
    /** BLOB holding the value's bytes. */
    BYTES,
    /** A typed column DuckDB itself read (CSV, Parquet, JSON, DuckDB files). */
    NATIVE;

    /** How a declared type's values are loaded: in the Arrow type that carries them unchanged ({@link ArrowSchemas#carrier}). */
    static ColumnStorage forDeclared(SqlType type) {
        ArrowType carrier = ArrowSchemas.carrier(type);
        if (carrier instanceof ArrowType.Int) {
            return INT64;
        }
        return carrier instanceof ArrowType.Binary ? BYTES : TEXT;
    }
}

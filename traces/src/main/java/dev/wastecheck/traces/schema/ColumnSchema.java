package dev.wastecheck.traces.schema;

/**
 * One declared column: its name and its SQL type as the DDL wrote it (for example
 * {@code binary(14)}, {@code int unsigned}, {@code varbinary(255)}).
 */
public record ColumnSchema(String name, String sqlType, boolean nullable) {
    public ColumnSchema(String name, String sqlType) {
        this(name, sqlType, true);
    }
}

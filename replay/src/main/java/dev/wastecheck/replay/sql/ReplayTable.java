package dev.wastecheck.replay.sql;

import java.sql.Types;
import java.util.List;
import java.util.Locale;

/**
 * A table as loaded into a replay engine: its name and its columns, in the table's column order,
 * each with the storage class both engines give it, and its primary key's columns (empty when it has none).
 */
record ReplayTable(String name, List<String> columns, List<Kind> kinds, List<String> primaryKey) {

    /** How a column is stored, bound and digested: SQLite INTEGER / TEXT / BLOB, DuckDB BIGINT / VARCHAR / BLOB. */
    enum Kind {
        INTEGER("INTEGER", "BIGINT", Types.BIGINT),
        TEXT("TEXT", "VARCHAR", Types.VARCHAR),
        BLOB("BLOB", "BLOB", Types.BLOB);

        final String sqliteType;
        final String duckdbType;
        final int jdbcType;

        Kind(String sqliteType, String duckdbType, int jdbcType) {
            this.sqliteType = sqliteType;
            this.duckdbType = duckdbType;
            this.jdbcType = jdbcType;
        }

        /** The kind of a DuckDB column type: integers of any width, byte strings, and text for the rest. */
        static Kind ofDuckDbType(String type) {
            String t = type.toUpperCase(Locale.ROOT);
            return switch (t) {
                case "BIGINT",
                        "INTEGER",
                        "SMALLINT",
                        "TINYINT",
                        "UBIGINT",
                        "UINTEGER",
                        "USMALLINT",
                        "UTINYINT",
                        "HUGEINT",
                        "INT8",
                        "INT4",
                        "INT2",
                        "INT1",
                        "LONG",
                        "INT" -> INTEGER;
                case "BLOB", "BYTEA", "VARBINARY", "BINARY" -> BLOB;
                default -> TEXT;
            };
        }
    }

    /** The position of a column in the table, ignoring case, or -1. */
    int column(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A double-quoted SQL identifier (both engines accept the standard form). */
    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}

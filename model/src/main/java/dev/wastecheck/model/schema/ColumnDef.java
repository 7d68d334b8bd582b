package dev.wastecheck.model.schema;

/**
 * One declared column.
 *
 * @param autoIncrement AUTO_INCREMENT, SERIAL, IDENTITY, or a {@code nextval()} default: the
 *                      column grows with the table, so a suggestion must leave it room, and rows
 *                      that omit it get the next number, as the database would give them
 * @param defaultValue  the literal DEFAULT (unquoted text), or null when there is none or it is an expression
 * @param clauses       what the DDL wrote after the type ({@code NOT NULL DEFAULT '' COMMENT 'x'}), as written;
 *                      empty when unknown (a MODIFY COLUMN must restate what it should keep)
 */
public record ColumnDef(
        String name, SqlType type, boolean nullable, boolean autoIncrement, String defaultValue, String clauses) {
    public ColumnDef {
        clauses = clauses == null ? "" : clauses;
    }

    public ColumnDef(String name, SqlType type, boolean nullable, boolean autoIncrement, String defaultValue) {
        this(name, type, nullable, autoIncrement, defaultValue, "");
    }

    public ColumnDef(String name, SqlType type, boolean nullable, boolean autoIncrement) {
        this(name, type, nullable, autoIncrement, null, "");
    }

    /** The same column with another type. */
    public ColumnDef withType(SqlType newType) {
        return new ColumnDef(name, newType, nullable, autoIncrement, defaultValue, clauses);
    }
}

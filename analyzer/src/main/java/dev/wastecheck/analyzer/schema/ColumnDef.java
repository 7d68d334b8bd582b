package dev.wastecheck.analyzer.schema;

/**
 * One declared column.
 *
 * @param autoIncrement AUTO_INCREMENT, SERIAL, IDENTITY, or a {@code nextval()} default: the
 *                      column grows with the table, so a suggestion must leave it room, and rows
 *                      that omit it get the next number, as the database would give them
 * @param defaultValue  the literal DEFAULT (unquoted text), or null when there is none or it is an expression
 */
public record ColumnDef(String name, SqlType type, boolean nullable, boolean autoIncrement, String defaultValue) {
    public ColumnDef(String name, SqlType type, boolean nullable, boolean autoIncrement) {
        this(name, type, nullable, autoIncrement, null);
    }
}

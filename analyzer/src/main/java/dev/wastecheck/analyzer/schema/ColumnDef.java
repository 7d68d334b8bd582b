package dev.wastecheck.analyzer.schema;

/**
 * One declared column.
 *
 * @param autoIncrement AUTO_INCREMENT, SERIAL, IDENTITY, or a {@code nextval()} default: the
 *                      column grows with the table, so a suggestion must leave it room.
 */
public record ColumnDef(String name, SqlType type, boolean nullable, boolean autoIncrement) {
}

package dev.wastecheck.analyzer.report;

/**
 * A column that holds another column's key values: {@code table.column} refers to
 * {@code keyTable.keyColumn}. A reference takes exactly its key's type, and the two change
 * together or not at all (docs/analyze.md, "References and domains").
 *
 * @param evidence how it was found
 * @param found    by values: how many of the column's distinct values the key holds (-1 when not checked)
 * @param distinct by values: the column's distinct values (-1 when not checked)
 */
public record Reference(
        String table, String column, String keyTable, String keyColumn, Evidence evidence, long found, long distinct) {

    /** How a reference was found, strongest first. */
    public enum Evidence {
        /** A FOREIGN KEY (or column-level REFERENCES) in the DDL. */
        DECLARED,
        /** The column's name names the key ({@code staff.address_id}, {@code rev_page}, {@code pl_from}). */
        NAME,
        /** Every distinct value of the column is in the key, where chance would not put them all. */
        VALUES
    }

    public Reference(String table, String column, String keyTable, String keyColumn, Evidence evidence) {
        this(table, column, keyTable, keyColumn, evidence, -1, -1);
    }

    /** {@code table.column}, as written in reports. */
    public String from() {
        return table + "." + column;
    }

    /** {@code keyTable.keyColumn}. */
    public String to() {
        return keyTable + "." + keyColumn;
    }

    /** The evidence in words: "declared", "by name", "by values: 26 of 26 distinct values found in page.page_id". */
    public String describe() {
        return switch (evidence) {
            case DECLARED -> "declared FOREIGN KEY";
            case NAME -> "by name";
            case VALUES -> "by values: " + found + " of " + distinct + " distinct values found in " + to();
        };
    }
}

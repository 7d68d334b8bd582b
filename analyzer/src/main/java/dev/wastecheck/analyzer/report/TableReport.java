package dev.wastecheck.analyzer.report;

import java.util.List;
import java.util.Map;

/**
 * A table's verdict.
 *
 * @param badRows   rows that could not be read as the table's rows (counted, never dropped silently)
 * @param badValues values that did not read as their declared type (loaded as NULL, counted)
 * @param problems  where the first bad rows and values were, {@code file:line: what}
 * @param badValuesByColumn per column with bad values: how many, and the first with where it was
 */
public record TableReport(
        String name,
        long rows,
        long declaredBytes,
        long tightBytes,
        List<ColumnReport> columns,
        long badRows,
        long badValues,
        List<String> problems,
        String partitionOf,
        Map<String, BadValues> badValuesByColumn) {
    public TableReport {
        columns = List.copyOf(columns);
        problems = List.copyOf(problems);
        badValuesByColumn = Map.copyOf(badValuesByColumn);
    }

    /** The same table with these columns' verdicts (findings added by a later pass). */
    public TableReport withColumns(List<ColumnReport> columns) {
        return new TableReport(
                name,
                rows,
                declaredBytes,
                tightBytes,
                columns,
                badRows,
                badValues,
                problems,
                partitionOf,
                badValuesByColumn);
    }

    public TableReport(
            String name,
            long rows,
            long declaredBytes,
            long tightBytes,
            List<ColumnReport> columns,
            long badRows,
            long badValues,
            List<String> problems,
            String partitionOf) {
        this(name, rows, declaredBytes, tightBytes, columns, badRows, badValues, problems, partitionOf, Map.of());
    }

    /**
     * A column's values that its declared type cannot hold or read ({@code 300} in a TINYINT
     * UNSIGNED, {@code 'five'} in an INT).
     *
     * @param first the first, {@code file:line: column c: 'v' why}
     */
    public record BadValues(long count, String first) {}

    /** The column's bad values, or null when it has none. */
    public BadValues badValues(String column) {
        return badValuesByColumn.get(column);
    }

    public long wastedBytes() {
        return Math.max(0, declaredBytes - tightBytes);
    }

    public ColumnReport column(String name) {
        return columns.stream()
                .filter(c -> c.name().equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no column " + name + " in " + this.name));
    }
}

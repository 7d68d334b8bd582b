package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * A table's verdict.
 *
 * @param badRows   rows that could not be read as the table's rows (counted, never dropped silently)
 * @param badValues values that did not read as their declared type (loaded as NULL, counted)
 * @param problems  where the first bad rows and values were, {@code file:line: what}
 */
public record TableReport(String name, long rows, long declaredBytes, long tightBytes, List<ColumnReport> columns,
                          long badRows, long badValues, List<String> problems, String partitionOf) {
    public TableReport {
        columns = List.copyOf(columns);
        problems = List.copyOf(problems);
    }

    public long wastedBytes() {
        return Math.max(0, declaredBytes - tightBytes);
    }

    public ColumnReport column(String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no column " + name + " in " + this.name));
    }
}

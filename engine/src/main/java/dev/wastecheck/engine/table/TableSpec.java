package dev.wastecheck.engine.table;

import java.util.List;

/** A table's columns and indexes as the engine builds them. */
public record TableSpec(String name, List<ColumnSpec> columns, List<IndexSpec> indexes) {
    public TableSpec {
        columns = List.copyOf(columns);
        indexes = List.copyOf(indexes);
    }

    /** The column's position, matched case-insensitively, or -1. */
    public int columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) return i;
        }
        return -1;
    }
}

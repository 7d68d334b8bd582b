package dev.wastecheck.traces.schema;

import java.util.List;

/** An index of a table: its key columns in order; the primary key is an index named {@code PRIMARY}. */
public record IndexSchema(String name, List<String> columns, boolean unique) {
    public IndexSchema {
        columns = List.copyOf(columns);
    }

    public static final String PRIMARY = "PRIMARY";

    public boolean isPrimary() {
        return PRIMARY.equals(name);
    }
}

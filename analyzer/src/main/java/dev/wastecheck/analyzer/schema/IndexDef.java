package dev.wastecheck.analyzer.schema;

import java.util.List;

/** A declared index or key. */
public record IndexDef(String name, List<String> columns, boolean unique) {
    public IndexDef {
        columns = List.copyOf(columns);
    }
}

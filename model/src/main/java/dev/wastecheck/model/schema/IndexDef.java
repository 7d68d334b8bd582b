package dev.wastecheck.model.schema;

import java.util.List;

/** A declared index or key; the primary key is the index named {@link #PRIMARY}. */
public record IndexDef(String name, List<String> columns, boolean unique) {
    /** The name the primary key goes by, as MySQL names it and access events name its index. */
    public static final String PRIMARY = "PRIMARY";

    public IndexDef {
        columns = List.copyOf(columns);
    }

    public boolean isPrimary() {
        return PRIMARY.equals(name);
    }
}

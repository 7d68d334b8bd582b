package dev.wastecheck.model.schema;

import java.util.Collections;
import java.util.List;

/**
 * A declared index or key; the primary key is the index named {@link #PRIMARY}.
 *
 * @param prefixes per column, the prefix length a MySQL index keeps ({@code KEY (title(20))}), 0 for the whole value
 * @param kind     a B-tree, or MySQL's FULLTEXT or SPATIAL index
 */
public record IndexDef(String name, List<String> columns, boolean unique, List<Integer> prefixes, Kind kind) {
    /** The name the primary key goes by, as MySQL names it and access events name its index. */
    public static final String PRIMARY = "PRIMARY";

    /** What structure the index is. */
    public enum Kind {
        BTREE,
        FULLTEXT,
        SPATIAL
    }

    public IndexDef {
        columns = List.copyOf(columns);
        prefixes = prefixes == null || prefixes.size() != columns.size()
                ? Collections.nCopies(columns.size(), 0)
                : List.copyOf(prefixes);
        kind = kind == null ? Kind.BTREE : kind;
    }

    public IndexDef(String name, List<String> columns, boolean unique) {
        this(name, columns, unique, null, Kind.BTREE);
    }

    public boolean isPrimary() {
        return PRIMARY.equals(name);
    }
}

package dev.wastecheck.engine.table;

import java.util.List;

/**
 * A B+tree index of a table.
 *
 * @param name        the index's name ({@code PRIMARY} for the primary key), as access events name it
 * @param columns     key columns, in key order
 * @param cacheFields columns whose values the index cache may keep in the leaves' free space
 *                    (the analyzer's ranking or the user's choice); only NOT NULL fixed-width
 *                    columns of a unique index are cached, the others are ignored
 */
public record IndexSpec(String name, List<String> columns, boolean unique, List<String> cacheFields) {
    public static final String PRIMARY = "PRIMARY";

    public IndexSpec {
        if (columns.isEmpty()) throw new IllegalArgumentException("index " + name + " has no columns");
        columns = List.copyOf(columns);
        cacheFields = List.copyOf(cacheFields);
    }

    public IndexSpec(String name, List<String> columns, boolean unique) {
        this(name, columns, unique, List.of());
    }

    public IndexSpec withCacheFields(List<String> fields) {
        return new IndexSpec(name, columns, unique, fields);
    }
}

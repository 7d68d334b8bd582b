package dev.wastecheck.model.schema;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * A declared index or key; the primary key is the index named {@link #PRIMARY}.
 *
 * @param columns   its key parts in order: column names, or an expression as written
 *                  ({@code lower(email)})
 * @param prefixes  per column, the prefix length a MySQL index keeps ({@code KEY (title(20))}), 0
 *                  for the whole value
 * @param kind      a B-tree, or MySQL's FULLTEXT or SPATIAL index
 * @param method    its access method, lower case: {@code btree} unless the DDL names another
 *                  (PostgreSQL {@code USING gin}, {@code gist}, {@code hash}, {@code brin};
 *                  {@code fulltext} and {@code spatial} for MySQL's kinds)
 * @param predicate a partial index's condition as written ({@code (status = 'new'::text)}), or null
 * @param include   the non-key columns it also stores (PostgreSQL {@code INCLUDE (...)})
 * @param definition the {@code CREATE INDEX} statement that declared it, as written, or null when
 *                  a CREATE TABLE or ALTER TABLE declared it
 */
public record IndexDef(
        String name,
        List<String> columns,
        boolean unique,
        List<Integer> prefixes,
        Kind kind,
        String method,
        String predicate,
        List<String> include,
        String definition) {
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
        method = method != null
                ? method.toLowerCase(Locale.ROOT)
                : kind == Kind.BTREE ? "btree" : kind.name().toLowerCase(Locale.ROOT);
        include = include == null ? List.of() : List.copyOf(include);
    }

    public IndexDef(String name, List<String> columns, boolean unique, List<Integer> prefixes, Kind kind) {
        this(name, columns, unique, prefixes, kind, null, null, List.of(), null);
    }

    public IndexDef(String name, List<String> columns, boolean unique) {
        this(name, columns, unique, null, Kind.BTREE);
    }

    public boolean isPrimary() {
        return PRIMARY.equals(name);
    }

    /** The same index with its name and column names mapped ({@code columns} and {@code include}). */
    public IndexDef renamed(UnaryOperator<String> names) {
        return new IndexDef(
                names.apply(name),
                columns.stream().map(names).toList(),
                unique,
                prefixes,
                kind,
                method,
                predicate,
                include.stream().map(names).toList(),
                definition);
    }
}

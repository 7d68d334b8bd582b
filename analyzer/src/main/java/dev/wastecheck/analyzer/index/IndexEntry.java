package dev.wastecheck.analyzer.index;

import java.util.List;
import java.util.Locale;

/**
 * One index as the engine's catalog (or a dump's DDL) declares it, with what the redundancy rules
 * compare: its key parts in order, each as the engine orders it, and what it enforces.
 *
 * @param table      the table, as the report names it
 * @param name       the index's name ({@code PRIMARY} for MySQL's primary key)
 * @param keys       its key parts in order, each normalized so that two parts that order rows alike
 *                   are equal strings: the column (lower case), or the expression, then a prefix
 *                   length ({@code title(20)}), {@code DESC}, a collation or operator class other
 *                   than the column's default
 * @param columns    the plain columns of its key, in order (empty entries for expressions), for the
 *                   foreign keys it serves
 * @param include    non-key columns it also stores (PostgreSQL {@code INCLUDE}), lower case
 * @param unique     it refuses duplicate keys
 * @param primary    it is the primary key
 * @param constraint the constraint whose index it is ({@code primary key}, {@code unique},
 *                   {@code exclusion}) when the engine drops it only with the constraint, else null
 * @param method     its access method, lower case ({@code btree}, {@code hash}, {@code gin}, {@code fulltext})
 * @param predicate  a partial index's WHERE condition, or null
 * @param definition the statement that creates it again, or null when none is known
 * @param bytes      what it holds, or -1 when unknown
 * @param measured   whether {@code bytes} is the engine's own count (else the storage model's prediction)
 */
public record IndexEntry(
        String table,
        String name,
        List<String> keys,
        List<String> columns,
        List<String> include,
        boolean unique,
        boolean primary,
        String constraint,
        String method,
        String predicate,
        String definition,
        long bytes,
        boolean measured) {
    public IndexEntry {
        keys = List.copyOf(keys);
        columns = List.copyOf(columns);
        include = List.copyOf(include);
        method = method == null ? "btree" : method.toLowerCase(Locale.ROOT);
    }

    /** A B-tree: ordered, so a left prefix of its key is an index of its own. */
    public boolean btree() {
        return method.equals("btree");
    }

    /** The engine refuses to drop it alone: the primary key, or the index of a UNIQUE or EXCLUDE constraint. */
    public boolean enforcesConstraint() {
        return primary || constraint != null;
    }

    /** The same index with its bytes. */
    public IndexEntry withBytes(long b, boolean isMeasured) {
        return new IndexEntry(
                table,
                name,
                keys,
                columns,
                include,
                unique,
                primary,
                constraint,
                method,
                predicate,
                definition,
                b,
                isMeasured);
    }

    /** Whether this index's first key parts are {@code prefix}'s, in order. */
    boolean startsWith(IndexEntry prefix) {
        return prefix.keys.size() <= keys.size()
                && keys.subList(0, prefix.keys.size()).equals(prefix.keys);
    }

    /** Whether it can serve a foreign key on these columns: they are its first key columns, in any order. */
    boolean serves(List<String> fkColumns) {
        if (fkColumns.size() > columns.size() || predicate != null) {
            return false;
        }
        List<String> lead = columns.subList(0, fkColumns.size()).stream()
                .map(c -> c.toLowerCase(Locale.ROOT))
                .toList();
        return fkColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).allMatch(lead::contains);
    }

    @Override
    public String toString() {
        return name + " (" + String.join(", ", keys) + ")";
    }
}

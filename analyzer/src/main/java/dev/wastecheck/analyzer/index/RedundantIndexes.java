package dev.wastecheck.analyzer.index;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Indexes that another index of the same table makes useless, the first kind of index waste
 * "No Bits Left Behind" counts among unused space (§1; §5 names index pages beside data pages).
 * Three rules, the ones MySQL's {@code sys.schema_redundant_indexes}, pg-index-health and
 * index-digest apply:
 *
 * <ol>
 *   <li><b>exact duplicate</b>: the same key parts (columns or expressions, prefix lengths, order,
 *       collation or operator class), the same method and partial-index condition; a unique index
 *       is never the redundant one beside a non-unique duplicate. A duplicate of the primary key is
 *       this case.
 *   <li><b>left prefix</b>: a non-unique B-tree whose key parts are the first key parts of another
 *       B-tree, in the same order and direction: the longer one serves every lookup, range and
 *       order the shorter serves. A unique prefix is never redundant: dropping it loses the
 *       uniqueness.
 *   <li><b>implied unique</b>: a unique B-tree whose first key parts are another unique index's
 *       whole key. The shorter already finds at most one row wherever the longer does, and every
 *       shorter prefix of the longer is a prefix of the shorter too, so it serves every lookup and
 *       the weaker constraint is implied. The choice we took where the rule leaves one open: a
 *       unique index whose columns merely contain another unique key's columns in another order
 *       ({@code UNIQUE (b, a)} beside {@code UNIQUE (a)}) is <i>not</i> reported, because it still
 *       serves lookups on {@code b} that the other does not; only its constraint is implied.
 * </ol>
 *
 * <p>Never reported: an index that enforces a constraint the engine drops only with the
 * constraint (the primary key; PostgreSQL's UNIQUE and EXCLUDE constraints), and the last index
 * left behind a foreign key (MySQL/InnoDB requires one on the referencing columns; on PostgreSQL it
 * serves the referenced table's deletes and key updates). The index that covers a redundant one is
 * never itself reported redundant, so dropping every reported index leaves each covered lookup a
 * path.
 */
public final class RedundantIndexes {
    private RedundantIndexes() {}

    /**
     * One redundant index.
     *
     * @param index     the index that can go
     * @param coveredBy the index that keeps serving what it served
     * @param why       the rule, in a sentence
     */
    public record Redundant(IndexEntry index, IndexEntry coveredBy, String why) {}

    /** The strongest first: constraints, the primary key, unique, then longer keys, then by name. */
    private static final Comparator<IndexEntry> STRENGTH = Comparator.comparing(IndexEntry::enforcesConstraint)
            .thenComparing(IndexEntry::primary)
            .thenComparing(IndexEntry::unique)
            .thenComparing(e -> e.keys().size())
            .reversed()
            .thenComparing(IndexEntry::name);

    /**
     * The redundant indexes among one database's indexes.
     *
     * @param indexes     every index, of every table
     * @param foreignKeys per lower-case table name, the referencing column lists of its foreign keys
     */
    public static List<Redundant> find(List<IndexEntry> indexes, Map<String, List<List<String>>> foreignKeys) {
        Map<String, List<IndexEntry>> byTable = new LinkedHashMap<>();
        for (IndexEntry e : indexes) {
            byTable.computeIfAbsent(e.table().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(e);
        }
        List<Redundant> out = new ArrayList<>();
        byTable.forEach((table, list) -> out.addAll(inTable(list, foreignKeys.getOrDefault(table, List.of()))));
        return out;
    }

    private static List<Redundant> inTable(List<IndexEntry> list, List<List<String>> fks) {
        List<IndexEntry> strongestFirst = new ArrayList<>(list);
        strongestFirst.sort(STRENGTH);
        List<IndexEntry> weakestFirst = new ArrayList<>(strongestFirst);
        Collections.reverse(weakestFirst);
        Map<IndexEntry, Redundant> found = new LinkedHashMap<>();
        for (IndexEntry a : weakestFirst) {
            if (a.enforcesConstraint()) {
                continue;
            }
            for (IndexEntry b : strongestFirst) {
                if (b == a || found.containsKey(b)) {
                    continue;
                }
                String why = covers(b, a);
                // exact duplicates cover each other: the stronger (earlier) one stays
                if (why != null && covers(a, b) != null && strongestFirst.indexOf(a) < strongestFirst.indexOf(b)) {
                    continue;
                }
                if (why != null && !lastBehindForeignKey(a, list, found.keySet(), fks)) {
                    found.put(a, new Redundant(a, b, why));
                    break;
                }
            }
        }
        // in the table's own order
        List<Redundant> out = new ArrayList<>();
        for (IndexEntry e : list) {
            if (found.containsKey(e)) {
                out.add(found.get(e));
            }
        }
        return out;
    }

    /** Whether dropping {@code a} (beside those already found) would leave a foreign key with no index. */
    private static boolean lastBehindForeignKey(
            IndexEntry a, List<IndexEntry> all, Set<IndexEntry> dropped, List<List<String>> fks) {
        for (List<String> fk : fks) {
            if (a.serves(fk) && all.stream().noneMatch(o -> o != a && !dropped.contains(o) && o.serves(fk))) {
                return true;
            }
        }
        return false;
    }

    /** Why {@code b} makes {@code a} redundant, or null when it does not. */
    static String covers(IndexEntry b, IndexEntry a) {
        if (!Objects.equals(a.predicate(), b.predicate())) {
            return null;
        }
        if (a.keys().equals(b.keys()) && a.method().equals(b.method())) {
            if ((a.unique() && !b.unique()) || !holds(b, a.include())) {
                return null;
            }
            return b.primary()
                    ? "duplicates the primary key " + keyText(b)
                    : "duplicates " + b.name() + " " + keyText(b)
                            + (b.unique() && !a.unique() ? ", which is unique" : "");
        }
        if (!a.btree() || !b.btree()) {
            return null;
        }
        if (!a.unique() && b.startsWith(a) && holds(b, a.include())) {
            return "its key " + keyText(a) + " is a left prefix of "
                    + (b.primary() ? "the primary key " : b.name() + " ") + keyText(b)
                    + ", which serves every lookup, range and order it serves";
        }
        if (a.unique()
                && b.unique()
                && a.startsWith(b)
                && a.keys().size() > b.keys().size()) {
            return "its uniqueness is implied by " + (b.primary() ? "the primary key " : b.name() + " ") + keyText(b)
                    + ", a unique left prefix of its key: that index finds at most one row wherever this one does"
                    + " (this one still answers index-only reads of its other columns)";
        }
        return null;
    }

    /** Whether {@code b} stores every one of {@code columns} (as key or included column). */
    private static boolean holds(IndexEntry b, List<String> columns) {
        if (columns.isEmpty()) {
            return true;
        }
        Set<String> stored =
                b.columns().stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        stored.addAll(b.include());
        return stored.containsAll(columns);
    }

    static String keyText(IndexEntry e) {
        return "(" + String.join(", ", e.keys()) + ")";
    }
}

package dev.wastecheck.engine.exec;

import dev.wastecheck.engine.table.Table;
import dev.wastecheck.model.access.AccessEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * What an access event binds of one of its table's indexes: the leading key columns it gives by
 * equality, their literals, and the encoded key prefix. The one rule the executor and the
 * clustering heat count share.
 *
 * @param index    the index, by position in the table
 * @param literals the bound columns' literals, in key order
 * @param key      the encoded prefix, or null when a literal cannot equal any stored value
 * @param whole    whether every key column is bound
 */
public record BoundKey(int index, List<String> literals, byte[] key, boolean whole) {

    /** The event's binding of its named index, or null when it names none of {@code t}'s indexes or binds no leading column. */
    public static BoundKey of(Table t, AccessEvent e) {
        BoundKey b = bind(t, e);
        return b == null ? null : new BoundKey(b.index, b.literals, t.keyOfLiterals(b.index, b.literals), b.whole);
    }

    /**
     * {@link #of} without the key encoded ({@code key} null): which index and which literals, what
     * resolving the statement's names decides once, before it runs. Encoding the literals is left to
     * each execution, since it depends on the table's state (a dictionary's codes).
     */
    static BoundKey bind(Table t, AccessEvent e) {
        if (e.index() == null || !e.keyComplete()) return null;
        int ix = t.indexNamed(e.index());
        if (ix < 0) return null;
        List<String> cols = t.spec().indexes().get(ix).columns();
        List<String> literals = new ArrayList<>();
        for (int k = 0;
                k < e.keyColumns().size()
                        && k < cols.size()
                        && cols.get(k).equalsIgnoreCase(e.keyColumns().get(k));
                k++) {
            literals.add(e.key().get(e.keyColumns().get(k)));
        }
        if (literals.isEmpty()) return null;
        return new BoundKey(ix, literals, null, literals.size() == cols.size());
    }
}

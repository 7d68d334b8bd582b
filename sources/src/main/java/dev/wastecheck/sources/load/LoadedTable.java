package dev.wastecheck.sources.load;

import dev.wastecheck.model.schema.TableDef;

/**
 * A table as the profiler sees it.
 *
 * @param relation the DuckDB relation holding its rows (quoted as needed), or null when it has none
 * @param storage  how each column sits in that relation
 * @param facts    per column, what the loader counted of its values ({@link ColumnFacts}), or
 *                 null (for the table, or for a column): the profile asks SQL for the rest
 * @param absent   per column, whether it was left out of the relation because the loader counted
 *                 every figure the profile asks of it (DumpLoader, {@link DistinctHashes#hashedAndUnique}),
 *                 or null when every column is there. A step that would read such a column gets
 *                 {@link ColumnNotLoaded} from {@link #physicalColumn}, and the analysis loads the
 *                 sources again whole.
 */
public record LoadedTable(
        TableDef def, String relation, long rows, ColumnStorage[] storage, ColumnFacts[] facts, boolean[] absent) {
    public LoadedTable(TableDef def, String relation, long rows, ColumnStorage[] storage) {
        this(def, relation, rows, storage, null, null);
    }

    public LoadedTable(TableDef def, String relation, long rows, ColumnStorage[] storage, ColumnFacts[] facts) {
        this(def, relation, rows, storage, facts, null);
    }

    /** Whether column {@code i}'s values are in the relation. */
    public boolean present(int i) {
        return absent == null || !absent[i];
    }

    /** The loader's facts of column {@code i}, when it counted them and they hold. */
    public ColumnFacts facts(int i) {
        return facts == null || facts[i] == null || !facts[i].valid() ? null : facts[i];
    }

    static LoadedTable empty(TableDef def) {
        ColumnStorage[] s = new ColumnStorage[def.columns().size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = ColumnStorage.forDeclared(def.columns().get(i).type());
        }
        return new LoadedTable(def, null, 0, s);
    }

    /**
     * The name of column {@code i} inside the relation.
     *
     * @throws ColumnNotLoaded when the loader left it out ({@link #absent})
     */
    public String physicalColumn(int i) {
        if (!present(i)) {
            throw new ColumnNotLoaded(this, i);
        }
        return physicalName(i);
    }

    /**
     * The name column {@code i} has, or would have, inside the relation, whether or not it is
     * there: for building a query whose parts for a left-out column are never run (the profile
     * checks {@link #present} before it runs a column's SQL).
     */
    public String physicalName(int i) {
        return storage[i] == ColumnStorage.NATIVE
                ? ProfilingDatabase.quote(def.columns().get(i).name())
                : "c" + i;
    }
}

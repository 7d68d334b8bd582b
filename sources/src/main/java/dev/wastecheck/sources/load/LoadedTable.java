package dev.wastecheck.sources.load;

import dev.wastecheck.model.schema.TableDef;

/**
 * A table as the profiler sees it.
 *
 * @param relation the DuckDB relation holding its rows (quoted as needed), or null when it has none
 * @param storage  how each column sits in that relation
 * @param facts    per column, what the loader counted of its values ({@link ColumnFacts}), or
 *                 null (for the table, or for a column): the profile asks SQL for the rest
 */
public record LoadedTable(TableDef def, String relation, long rows, ColumnStorage[] storage, ColumnFacts[] facts) {
    public LoadedTable(TableDef def, String relation, long rows, ColumnStorage[] storage) {
        this(def, relation, rows, storage, null);
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

    /** The name of column {@code i} inside the relation. */
    public String physicalColumn(int i) {
        return storage[i] == ColumnStorage.NATIVE
                ? ProfilingDatabase.quote(def.columns().get(i).name())
                : "c" + i;
    }
}

package dev.wastecheck.model.schema;

import dev.wastecheck.model.ddl.DdlCatalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The tables of one database, in declaration order, found by name case-insensitively: what a
 * trace's statements are resolved against and what a replay loads. Built from a {@link
 * DdlCatalog} (dump DDL), from the tables a source loaded, or by the
 * generator from its own DDL.
 */
public final class DatabaseSchema {
    private final Map<String, TableDef> tables = new LinkedHashMap<>();

    public DatabaseSchema(Iterable<TableDef> tables) {
        for (TableDef t : tables) {
            this.tables.put(t.name().toLowerCase(Locale.ROOT), t);
        }
    }

    public List<TableDef> tables() {
        return List.copyOf(tables.values());
    }

    public Optional<TableDef> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }
}

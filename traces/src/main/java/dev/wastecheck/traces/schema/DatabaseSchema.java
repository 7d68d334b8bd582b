package dev.wastecheck.traces.schema;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The tables a trace's statements are resolved against. Table names match case-insensitively. */
public final class DatabaseSchema {
    private final Map<String, TableSchema> tables = new LinkedHashMap<>();

    public DatabaseSchema(List<TableSchema> tables) {
        for (TableSchema t : tables) {
            this.tables.put(t.name().toLowerCase(Locale.ROOT), t);
        }
    }

    /** Reads every CREATE TABLE (and CREATE INDEX) of a DDL file such as a mysqldump or a schema script. */
    public static DatabaseSchema fromDdl(Path file) throws IOException {
        return new DatabaseSchema(DdlSchemaReader.read(file));
    }

    public static DatabaseSchema fromDdl(String ddl) {
        return new DatabaseSchema(DdlSchemaReader.parse(ddl));
    }

    public List<TableSchema> tables() {
        return List.copyOf(tables.values());
    }

    public Optional<TableSchema> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }
}

package dev.wastecheck.traces.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A table as the trace side needs it: columns with declared types, the primary key and the
 * indexes. The analyzer builds it from dump DDL; {@link DdlSchemaReader} builds it from a file of
 * CREATE TABLEs; the generator hands its own.
 *
 * @param indexes every index including the primary key (named {@link IndexSchema#PRIMARY})
 */
public record TableSchema(String name, List<ColumnSchema> columns, List<String> primaryKey, List<IndexSchema> indexes) {
    public TableSchema {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        List<IndexSchema> all = new ArrayList<>(indexes);
        if (!primaryKey.isEmpty() && all.stream().noneMatch(IndexSchema::isPrimary)) {
            all.add(0, new IndexSchema(IndexSchema.PRIMARY, primaryKey, true));
        }
        indexes = List.copyOf(all);
    }

    public Optional<ColumnSchema> column(String columnName) {
        for (ColumnSchema c : columns) {
            if (c.name().equalsIgnoreCase(columnName)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    public int columnIndex(String columnName) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(columnName)) {
                return i;
            }
        }
        return -1;
    }

    public List<String> columnNames() {
        return columns.stream().map(ColumnSchema::name).toList();
    }

    /** The primary key first, then the unique indexes: the keys that identify one tuple. */
    public List<IndexSchema> uniqueKeys() {
        return indexes.stream().filter(IndexSchema::unique).toList();
    }

    public Optional<IndexSchema> index(String indexName) {
        return indexes.stream().filter(i -> i.name().equalsIgnoreCase(indexName)).findFirst();
    }

    @Override
    public String toString() {
        return name.toLowerCase(Locale.ROOT) + columnNames();
    }
}

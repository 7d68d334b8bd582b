package dev.wastecheck.model.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A declared table: its columns in order, its keys, and where its DDL was read. The one table
 * model of every module: the analyzer profiles it, traces resolves statements against it, replay
 * maps it onto the engine's physical {@code TableSpec}.
 */
public final class TableDef {
    private final String name;
    private final List<ColumnDef> columns;
    private final List<String> primaryKey;
    private final List<IndexDef> indexes;
    private final String charset;
    private final String origin;
    private final boolean ddlKnown;

    public TableDef(
            String name,
            List<ColumnDef> columns,
            List<String> primaryKey,
            List<IndexDef> indexes,
            String charset,
            String origin,
            boolean ddlKnown) {
        this.name = name;
        this.columns = List.copyOf(columns);
        this.primaryKey = new ArrayList<>(primaryKey);
        this.indexes = new ArrayList<>(indexes);
        this.charset = charset;
        this.origin = origin;
        this.ddlKnown = ddlKnown;
    }

    public String name() {
        return name;
    }

    public List<ColumnDef> columns() {
        return columns;
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    public List<IndexDef> indexes() {
        return indexes;
    }

    /** Default character set from the DDL (MySQL {@code DEFAULT CHARSET=}), or null. */
    public String charset() {
        return charset;
    }

    /** file:line of the CREATE TABLE, for messages. */
    public String origin() {
        return origin;
    }

    /** False when rows arrived without any CREATE TABLE and columns were made up from them. */
    public boolean ddlKnown() {
        return ddlKnown;
    }

    public int columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    public Optional<ColumnDef> column(String column) {
        int i = columnIndex(column);
        return i < 0 ? Optional.empty() : Optional.of(columns.get(i));
    }

    public void setPrimaryKey(List<String> columns) {
        primaryKey.clear();
        primaryKey.addAll(columns);
    }

    public void addIndex(IndexDef index) {
        indexes.add(index);
    }

    /** The column names in declared order. */
    public List<String> columnNames() {
        return columns.stream().map(ColumnDef::name).toList();
    }

    /**
     * The keys a tuple or a range is found through: the primary key first, as an index named
     * {@link IndexDef#PRIMARY}, then every other declared index in declaration order.
     */
    public List<IndexDef> allIndexes() {
        List<IndexDef> all = new ArrayList<>();
        if (!primaryKey.isEmpty()) {
            all.add(new IndexDef(IndexDef.PRIMARY, primaryKey, true));
        }
        for (IndexDef ix : indexes) {
            if (!ix.name().equalsIgnoreCase(IndexDef.PRIMARY)) {
                all.add(ix);
            }
        }
        return all;
    }

    /** The primary key first, then the unique indexes: the keys that identify one tuple. */
    public List<IndexDef> uniqueKeys() {
        return allIndexes().stream().filter(IndexDef::unique).toList();
    }

    /** An index of {@link #allIndexes()} by name, ignoring case. */
    public Optional<IndexDef> index(String indexName) {
        return allIndexes().stream()
                .filter(i -> i.name().equalsIgnoreCase(indexName))
                .findFirst();
    }

    public boolean isPrimaryKeyColumn(String column) {
        return primaryKey.stream().anyMatch(c -> c.equalsIgnoreCase(column));
    }

    public String key() {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return name + columns;
    }
}

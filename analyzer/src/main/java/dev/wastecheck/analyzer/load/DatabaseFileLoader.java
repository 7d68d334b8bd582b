package dev.wastecheck.analyzer.load;

import dev.wastecheck.analyzer.source.DumpFormatException;
import dev.wastecheck.analyzer.source.SqlScriptReader;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Database files and typed files: SQLite through sqlite-jdbc (rows streamed into DuckDB as Arrow
 * batches), and DuckDB databases, Parquet, CSV and JSON through DuckDB's own readers.
 */
public final class DatabaseFileLoader {
    private final ProfilingDatabase db;
    private final LoadStats stats;
    private final Map<String, LoadedTable> loaded;

    public DatabaseFileLoader(ProfilingDatabase db, LoadStats stats, Map<String, LoadedTable> loaded) {
        this.db = db;
        this.stats = stats;
        this.loaded = loaded;
    }

    // ------------------------------------------------------------------ SQLite

    public void loadSqlite(Path file) throws SQLException, java.io.IOException {
        org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
        config.setReadOnly(true);
        try (Connection sq = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties())) {
            List<String> names = new ArrayList<>();
            try (Statement st = sq.createStatement();
                 ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String name : names) {
                TableDef def = sqliteTable(sq, name, file);
                loadSqliteRows(sq, def, file);
            }
        }
    }

    private static TableDef sqliteTable(Connection sq, String name, Path file) throws SQLException {
        List<ColumnDef> cols = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        List<IndexDef> indexes = new ArrayList<>();
        try (Statement st = sq.createStatement(); ResultSet rs = st.executeQuery("PRAGMA table_info(" + ProfilingDatabase.quote(name) + ")")) {
            List<String[]> info = new ArrayList<>();
            while (rs.next()) {
                info.add(new String[] {rs.getString("name"), rs.getString("type"), rs.getString("notnull"), rs.getString("pk")});
            }
            long pkCount = info.stream().filter(r -> !"0".equals(r[3])).count();
            for (String[] r : info) {
                SqlType type = TypeParser.parse(r[1] == null || r[1].isBlank() ? "BLOB" : r[1], Dialect.SQLITE);
                boolean isPk = !"0".equals(r[3]);
                if (isPk) {
                    pk.add(r[0]);
                }
                // INTEGER PRIMARY KEY is the rowid: it grows like an auto-increment key.
                boolean rowid = isPk && pkCount == 1 && r[1] != null && r[1].trim().equalsIgnoreCase("integer");
                cols.add(new ColumnDef(r[0], type, !"1".equals(r[2]) && !isPk, rowid));
            }
        }
        try (Statement st = sq.createStatement(); ResultSet rs = st.executeQuery("PRAGMA index_list(" + ProfilingDatabase.quote(name) + ")")) {
            List<String[]> idx = new ArrayList<>();
            while (rs.next()) {
                idx.add(new String[] {rs.getString("name"), rs.getString("unique")});
            }
            for (String[] i : idx) {
                List<String> ic = new ArrayList<>();
                try (Statement st2 = sq.createStatement();
                     ResultSet r2 = st2.executeQuery("PRAGMA index_info(" + ProfilingDatabase.quote(i[0]) + ")")) {
                    while (r2.next()) {
                        ic.add(r2.getString("name"));
                    }
                }
                indexes.add(new IndexDef(i[0], ic, "1".equals(i[1])));
            }
        }
        return new TableDef(name, cols, pk, indexes, null, file.toString(), true);
    }

    private void loadSqliteRows(Connection sq, TableDef def, Path file) throws SQLException, java.io.IOException {
        LoadStats.TableStats tstats = stats.table(def.name());
        // SQLite types values, not columns: everything travels as its text (or bytes) and the
        // profiler checks it against the declared type.
        ArrowRowBuilder builder = new ArrowRowBuilder(def, tstats, file.toString(), true);
        int n = def.columns().size();
        try (Statement st = sq.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + ProfilingDatabase.quote(def.name()))) {
            ArrowReader reader = new ArrowReader(db.allocator()) {
                boolean done;
                long rowNo;

                @Override
                public boolean loadNextBatch() throws java.io.IOException {
                    prepareLoadNextBatch();
                    if (done) {
                        return false;
                    }
                    VectorSchemaRoot root = getVectorSchemaRoot();
                    root.clear();
                    builder.startBatch(root);
                    try {
                        while (!builder.full(DumpLoader.BATCH_ROWS, DumpLoader.BATCH_BYTES)) {
                            if (!rs.next()) {
                                done = true;
                                break;
                            }
                            rowNo++;
                            for (int i = 0; i < n; i++) {
                                Object v = rs.getObject(i + 1);
                                if (v == null) {
                                    builder.value(i, SqlScriptReader.NULL, null, 0, 0);
                                } else if (v instanceof byte[] bytes) {
                                    builder.value(i, SqlScriptReader.BINARY, bytes, 0, bytes.length);
                                } else {
                                    byte[] b = v.toString().getBytes(StandardCharsets.UTF_8);
                                    builder.value(i, v instanceof Number ? SqlScriptReader.NUMBER : SqlScriptReader.STRING, b, 0, b.length);
                                }
                            }
                            builder.endRow(n, rowNo);
                        }
                    } catch (SQLException e) {
                        throw new java.io.IOException(file + ": table " + def.name() + ": " + e.getMessage(), e);
                    }
                    int rows = builder.rows();
                    builder.finishBatch();
                    return rows > 0 || !done;
                }

                @Override
                public long bytesRead() {
                    return 0;
                }

                @Override
                protected void closeReadSource() {
                }

                @Override
                protected Schema readSchema() {
                    return builder.schema();
                }
            };
            String relation = db.nextRelationName();
            try (ArrowArrayStream c = ArrowArrayStream.allocateNew(db.allocator())) {
                Data.exportArrayStream(db.allocator(), reader, c);
                String stream = db.nextStreamName();
                db.connection().registerArrowStream(stream, c);
                db.execute("CREATE TABLE " + relation + " AS SELECT * FROM " + stream);
            }
            loaded.put(def.key(), new LoadedTable(def, relation, count(relation), builder.storage()));
        }
    }

    // ------------------------------------------------------------------ DuckDB's own readers

    public void loadDuckDbFile(Path file) throws SQLException {
        String alias = "src_" + db.nextRelationName();
        db.execute("ATTACH " + ProfilingDatabase.literal(file.toAbsolutePath().toString()) + " AS " + alias + " (READ_ONLY)");
        List<String[]> tables = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = "
                     + ProfilingDatabase.literal(alias) + " ORDER BY schema_name, table_name")) {
            while (rs.next()) {
                tables.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        for (String[] t : tables) {
            String relation = alias + "." + ProfilingDatabase.quote(t[0]) + "." + ProfilingDatabase.quote(t[1]);
            String name = t[0].equals("main") ? t[1] : t[0] + "." + t[1];
            addNative(name, relation, file.toString());
            keysAndIndexes(alias, t[0], t[1], loaded.get(name.toLowerCase(Locale.ROOT)).def());
        }
    }

    /**
     * A DuckDB table's keys and indexes, as its catalog holds them: DuckDB cannot change the type
     * of a column under a key, nor of any column while an index is on the table.
     */
    private void keysAndIndexes(String alias, String schema, String table, TableDef def) throws SQLException {
        String where = " WHERE database_name = " + ProfilingDatabase.literal(alias) + " AND schema_name = "
                + ProfilingDatabase.literal(schema) + " AND table_name = " + ProfilingDatabase.literal(table);
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(
                "SELECT constraint_type, constraint_column_names FROM duckdb_constraints()" + where
                        + " AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')")) {
            while (rs.next()) {
                String kind = rs.getString(1);
                List<String> cols = new ArrayList<>();
                for (Object o : (Object[]) rs.getArray(2).getArray()) {
                    cols.add(String.valueOf(o));
                }
                if (kind.equals("PRIMARY KEY")) {
                    def.setPrimaryKey(cols);
                }
                def.addIndex(new IndexDef(kind, cols, !kind.equals("FOREIGN KEY")));
            }
        }
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(
                "SELECT index_name, is_unique FROM duckdb_indexes()" + where)) {
            while (rs.next()) {
                def.addIndex(new IndexDef(rs.getString(1), List.of(), rs.getBoolean(2)));
            }
        }
    }

    /** Parquet, CSV or JSON: DuckDB reads the file once into a table of the types it infers. */
    public void loadFile(Path file, String reader, String name) throws SQLException {
        String relation = db.nextRelationName();
        try {
            db.execute("CREATE TABLE " + relation + " AS SELECT * FROM " + reader + "("
                    + ProfilingDatabase.literal(file.toAbsolutePath().toString()) + ")");
        } catch (SQLException e) {
            String msg = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
            throw new DumpFormatException(file + ": DuckDB's " + reader + " could not read it: " + msg);
        }
        addNative(name, relation, file.toString());
    }

    private void addNative(String name, String relation, String origin) throws SQLException {
        List<ColumnDef> cols = new ArrayList<>();
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery("DESCRIBE " + relation)) {
            while (rs.next()) {
                String col = rs.getString("column_name");
                String type = rs.getString("column_type");
                cols.add(new ColumnDef(col, TypeParser.parse(type, Dialect.DUCKDB), !"NO".equalsIgnoreCase(rs.getString("null")), false));
            }
        }
        TableDef def = new TableDef(name, cols, List.of(), List.of(), null, origin, true);
        ColumnStorage[] storage = new ColumnStorage[cols.size()];
        java.util.Arrays.fill(storage, ColumnStorage.NATIVE);
        loaded.put(def.key(), new LoadedTable(def, relation, count(relation), storage));
    }

    private long count(String relation) throws SQLException {
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + relation)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A table name from a data file's name: {@code orders.csv.gz} is {@code orders}. */
    public static String tableNameOf(Path file) {
        String n = file.getFileName().toString();
        String lower = n.toLowerCase(Locale.ROOT);
        for (String ext : new String[] {".gz", ".csv", ".tsv", ".parquet", ".json", ".jsonl", ".ndjson", ".txt"}) {
            if (lower.endsWith(ext)) {
                n = n.substring(0, n.length() - ext.length());
                lower = n.toLowerCase(Locale.ROOT);
            }
        }
        return n;
    }
}

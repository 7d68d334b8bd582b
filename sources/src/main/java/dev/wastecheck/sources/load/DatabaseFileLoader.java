package dev.wastecheck.sources.load;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.DumpFormatException;
import dev.wastecheck.sources.SourceDetector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.sqlite.SQLiteConfig;

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

    /**
     * A SQLite database file, checked first with {@code PRAGMA quick_check}: a truncated file, a
     * corrupted page or a header claiming pages the file does not have is exit 2 naming the
     * file and what SQLite found, never an internal error halfway through a table.
     */
    public void loadSqlite(Path file, String name) throws SQLException, IOException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection sq =
                DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties())) {
            quickCheck(sq, name);
            readSqlite(sq, file, name);
        } catch (SQLException e) {
            throw damagedSqlite(name, e);
        }
    }

    private static DumpFormatException damagedSqlite(String name, SQLException e) {
        String msg = e.getMessage() == null
                ? e.toString()
                : e.getMessage().lines().findFirst().orElse("");
        return new DumpFormatException(name + ": the SQLite database is damaged or unreadable: " + msg);
    }

    private static void quickCheck(Connection sq, String name) throws SQLException {
        List<String> problems = new ArrayList<>();
        try (Statement st = sq.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA quick_check(5)")) {
            while (rs.next()) {
                problems.add(rs.getString(1));
            }
        }
        if (!(problems.size() == 1 && problems.get(0).equals("ok"))) {
            throw new DumpFormatException(name + ": the SQLite database is damaged (PRAGMA quick_check: "
                    + String.join("; ", problems) + ")");
        }
    }

    private void readSqlite(Connection sq, Path file, String display) throws SQLException, IOException {
        {
            List<String> names = new ArrayList<>();
            try (Statement st = sq.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String name : names) {
                TableDef def = sqliteTable(sq, name, display);
                loadSqliteRows(sq, def, display);
            }
        }
    }

    private static TableDef sqliteTable(Connection sq, String name, String file) throws SQLException {
        List<ColumnDef> cols = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        List<IndexDef> indexes = new ArrayList<>();
        try (Statement st = sq.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA table_info(" + ProfilingDatabase.quote(name) + ")")) {
            List<String[]> info = new ArrayList<>();
            while (rs.next()) {
                info.add(new String[] {
                    rs.getString("name"), rs.getString("type"), rs.getString("notnull"), rs.getString("pk")
                });
            }
            long pkCount = info.stream().filter(r -> !"0".equals(r[3])).count();
            for (String[] r : info) {
                SqlType type = TypeParser.parse(r[1] == null || r[1].isBlank() ? "BLOB" : r[1], Dialect.SQLITE);
                boolean isPk = !"0".equals(r[3]);
                if (isPk) {
                    pk.add(r[0]);
                }
                // INTEGER PRIMARY KEY is the rowid: it grows like an auto-increment key.
                boolean rowid =
                        isPk && pkCount == 1 && r[1] != null && r[1].trim().equalsIgnoreCase("integer");
                cols.add(new ColumnDef(r[0], type, !"1".equals(r[2]) && !isPk, rowid));
            }
        }
        try (Statement st = sq.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA index_list(" + ProfilingDatabase.quote(name) + ")")) {
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
        return new TableDef(name, cols, pk, indexes, null, file, true);
    }

    private void loadSqliteRows(Connection sq, TableDef def, String file) throws SQLException, IOException {
        try (Statement st = sq.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + ProfilingDatabase.quote(def.name()))) {
            // SQLite types values, not columns: everything travels as its text (or bytes) and the
            // profiler checks it against the declared type.
            loadRows(rs, def, file, null, "the SQLite database is damaged or unreadable");
        }
    }

    /**
     * Streams a result set's rows into a new DuckDB table as Arrow batches and registers it.
     *
     * @param binary   per column, whether its values are bytes (read with getBytes) rather than
     *                 text (getString), as a live server's column types say; null to go by each
     *                 value's Java type and keep every value as text (SQLite)
     * @param damaged  what a read error means, for the message
     */
    void loadRows(ResultSet rs, TableDef def, String file, boolean[] binary, String damaged)
            throws SQLException, IOException {
        LoadStats.TableStats tstats = stats.table(def.name());
        ArrowRowBuilder builder = new ArrowRowBuilder(def, tstats, file, binary == null);
        int n = def.columns().size();
        boolean[] number = new boolean[n];
        if (binary != null) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 0; i < n; i++) {
                number[i] = isNumber(md.getColumnType(i + 1));
            }
        }
        {
            ArrowReader reader = new ArrowReader(db.allocator()) {
                boolean done;
                long rowNo;

                @Override
                public boolean loadNextBatch() throws IOException {
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
                                if (binary != null) {
                                    liveValue(rs, i, binary[i], number[i], builder);
                                    continue;
                                }
                                Object v = rs.getObject(i + 1);
                                if (v == null) {
                                    builder.value(i, SqlScriptReader.NULL, null, 0, 0);
                                } else if (v instanceof byte[] bytes) {
                                    builder.value(i, SqlScriptReader.BINARY, bytes, 0, bytes.length);
                                } else {
                                    byte[] b = v.toString().getBytes(StandardCharsets.UTF_8);
                                    builder.value(
                                            i,
                                            v instanceof Number ? SqlScriptReader.NUMBER : SqlScriptReader.STRING,
                                            b,
                                            0,
                                            b.length);
                                }
                            }
                            builder.endRow(n, rowNo);
                        }
                    } catch (SQLException e) {
                        throw new DumpFormatException(file + ": table " + def.name() + ", row " + (rowNo + 1) + ": "
                                + damaged + ": " + e.getMessage());
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
                protected void closeReadSource() {}

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
            put(new LoadedTable(def, relation, count(relation), builder.storage()));
        }
    }

    private static void liveValue(ResultSet rs, int i, boolean binary, boolean number, ArrowRowBuilder builder)
            throws SQLException {
        byte[] b = binary ? rs.getBytes(i + 1) : null;
        if (!binary) {
            String s = rs.getString(i + 1);
            b = s == null ? null : s.getBytes(StandardCharsets.UTF_8);
        }
        if (b == null) {
            builder.value(i, SqlScriptReader.NULL, null, 0, 0);
        } else {
            int kind = binary ? SqlScriptReader.BINARY : number ? SqlScriptReader.NUMBER : SqlScriptReader.STRING;
            builder.value(i, kind, b, 0, b.length);
        }
    }

    private static boolean isNumber(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT,
                    Types.SMALLINT,
                    Types.INTEGER,
                    Types.BIGINT,
                    Types.DECIMAL,
                    Types.NUMERIC,
                    Types.REAL,
                    Types.FLOAT,
                    Types.DOUBLE -> true;
            default -> false;
        };
    }

    /** Whether a live server's column type holds bytes rather than text. */
    static boolean isBinary(int jdbcType) {
        return switch (jdbcType) {
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> true;
            default -> false;
        };
    }

    // ------------------------------------------------------------------ DuckDB's own readers

    public void loadDuckDbFile(Path file, String display) throws SQLException {
        String alias = "src_" + db.nextRelationName();
        try {
            db.execute("ATTACH "
                    + ProfilingDatabase.literal(file.toAbsolutePath().toString()) + " AS " + alias + " (READ_ONLY)");
        } catch (SQLException e) {
            throw new DumpFormatException(display + ": DuckDB cannot open the database file: " + firstLine(e));
        }
        List<String[]> tables = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = "
                                + ProfilingDatabase.literal(alias) + " ORDER BY schema_name, table_name")) {
            while (rs.next()) {
                tables.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        for (String[] t : tables) {
            String relation = alias + "." + ProfilingDatabase.quote(t[0]) + "." + ProfilingDatabase.quote(t[1]);
            String name = t[0].equals("main") ? t[1] : t[0] + "." + t[1];
            addNative(name, relation, display);
            keysAndIndexes(
                    alias, t[0], t[1], loaded.get(name.toLowerCase(Locale.ROOT)).def());
        }
    }

    /**
     * A DuckDB table's keys and indexes, as its catalog holds them: DuckDB cannot change the type
     * of a column under a key, nor of any column while an index is on the table.
     */
    private void keysAndIndexes(String alias, String schema, String table, TableDef def) throws SQLException {
        String where = " WHERE database_name = " + ProfilingDatabase.literal(alias) + " AND schema_name = "
                + ProfilingDatabase.literal(schema) + " AND table_name = " + ProfilingDatabase.literal(table);
        try (Statement st = db.connection().createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT constraint_type, constraint_column_names FROM duckdb_constraints()"
                                + where + " AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')")) {
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
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery("SELECT index_name, is_unique FROM duckdb_indexes()" + where)) {
            while (rs.next()) {
                def.addIndex(new IndexDef(rs.getString(1), List.of(), rs.getBoolean(2)));
            }
        }
    }

    /** Parquet (or JSON, once validated): DuckDB reads the file once into a table of the types it infers. */
    public void loadFile(Path file, String display, String reader, String name, boolean gzip) throws SQLException {
        loadFile(file, display, reader, "", name, gzip);
    }

    private void loadFile(Path file, String display, String reader, String options, String name, boolean gzip)
            throws SQLException {
        String relation = db.nextRelationName();
        try {
            db.execute("CREATE TABLE " + relation + " AS SELECT * FROM " + reader + "("
                    + ProfilingDatabase.literal(file.toAbsolutePath().toString()) + options
                    + (gzip ? ", compression = 'gzip'" : "") + ")");
        } catch (SQLException e) {
            throw new DumpFormatException(display + ": DuckDB's " + reader + " could not read it: " + firstLine(e));
        }
        addNative(name, relation, display);
    }

    /**
     * CSV through DuckDB's strict reader with its rejects table: a row of the wrong width, an
     * unterminated quote or bytes that are not text is counted as a bad row with its line
     * number, never merged into a single column or dropped unseen. A value that does not fit
     * the type DuckDB's sniffer chose from its sample ({@code hello} below 30,000 integers) is
     * not a bad row: the column is read again as text.
     */
    public void loadCsv(Path file, String display, String name, boolean gzip) throws SQLException, IOException {
        CsvQuotes.check(file, display, gzip);
        Set<String> asText = new LinkedHashSet<>();
        boolean latin1 = false;
        for (int attempt = 0; ; attempt++) {
            String relation = db.nextRelationName();
            String rejects = "wc_rejects_" + relation;
            StringBuilder options = new StringBuilder(", strict_mode = true, store_rejects = true, rejects_table = '")
                    .append(rejects)
                    .append("', rejects_scan = '")
                    .append(rejects)
                    .append("_scan'");
            if (!asText.isEmpty()) {
                options.append(", types = {");
                int k = 0;
                for (String c : asText) {
                    options.append(k++ > 0 ? ", " : "")
                            .append(ProfilingDatabase.literal(c))
                            .append(": 'VARCHAR'");
                }
                options.append('}');
            }
            if (latin1) {
                options.append(", encoding = 'latin-1'");
            }
            try {
                db.execute("CREATE TABLE " + relation + " AS SELECT * FROM read_csv("
                        + ProfilingDatabase.literal(file.toAbsolutePath().toString()) + options
                        + (gzip ? ", compression = 'gzip'" : "") + ")");
            } catch (SQLException e) {
                throw new DumpFormatException(display + ": DuckDB's CSV reader could not read it: " + firstLine(e));
            }
            Map<Long, String> badLines = new TreeMap<>();
            Set<String> castColumns = new LinkedHashSet<>();
            boolean encoding = false;
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT line, error_type, column_name, error_message FROM " + rejects + " ORDER BY line")) {
                while (rs.next()) {
                    String type = rs.getString(2);
                    if ("CAST".equals(type) && rs.getString(3) != null) {
                        castColumns.add(rs.getString(3));
                    } else if ("INVALID ENCODING".equals(type) || "INVALID UNICODE".equals(type)) {
                        encoding = true;
                    }
                    badLines.putIfAbsent(rs.getLong(1), type.toLowerCase(Locale.ROOT) + ": " + rs.getString(4));
                }
            }
            db.execute("DROP TABLE IF EXISTS " + rejects);
            db.execute("DROP TABLE IF EXISTS " + rejects + "_scan");
            boolean retry = attempt < 3 && (!asText.containsAll(castColumns) || encoding && !latin1);
            if (retry) {
                db.execute("DROP TABLE " + relation);
                asText.addAll(castColumns);
                latin1 |= encoding;
                continue;
            }
            LoadStats.TableStats ts = stats.table(name);
            for (Map.Entry<Long, String> b : badLines.entrySet()) {
                ts.badRow(
                        display,
                        b.getKey(),
                        "a CSV row of the table's columns (DuckDB's strict reader: " + b.getValue() + ")");
            }
            if (latin1) {
                stats.warn(display + ": not UTF-8; read as Latin-1 (every byte one character)");
            }
            addNative(name, relation, display);
            return;
        }
    }

    /**
     * JSON: an array of objects, newline-delimited objects, or one object. The whole file is
     * checked first with a streaming parser, so a syntax error is exit 2 at its line and column
     * (DuckDB's reader accepts a trailing comma), and nesting deeper than 64 levels is refused
     * before any reader recurses into it. Nested objects and arrays are profiled as their JSON text.
     */
    public void loadJson(SourceDetector.DetectedFile f, String name) throws IOException, SQLException {
        String format = JsonCheck.check(f);
        loadFile(f.path(), f.name(), "read_json", ", format = '" + format + "'", name, f.gzip());
    }

    private static String firstLine(SQLException e) {
        return e.getMessage() == null
                ? e.toString()
                : e.getMessage().lines().findFirst().orElse("");
    }

    /** A table from one more file: two files holding the same table is an error naming both. */
    private void put(LoadedTable t) {
        LoadedTable prior = loaded.get(t.def().key());
        if (prior != null) {
            throw new DumpFormatException("table " + t.def().name() + " comes from two sources, "
                    + prior.def().origin() + " and " + t.def().origin() + "; give one of them, or rename the file");
        }
        loaded.put(t.def().key(), t);
    }

    private void addNative(String name, String relation, String origin) throws SQLException {
        List<ColumnDef> cols = new ArrayList<>();
        List<String> nested = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery("DESCRIBE " + relation)) {
            while (rs.next()) {
                String col = rs.getString("column_name");
                String type = rs.getString("column_type");
                if (isNested(type)) {
                    // STRUCT, MAP, LIST, UNION: profiled as its JSON text (strlen and friends take no STRUCT)
                    nested.add(col);
                    stats.warn(origin + ": column " + col + " holds nested values ("
                            + (type.length() > 60 ? type.substring(0, 60) + "..." : type)
                            + "): profiled as their JSON text");
                    type = "JSON";
                }
                cols.add(new ColumnDef(
                        col,
                        TypeParser.parse(type, Dialect.DUCKDB),
                        !"NO".equalsIgnoreCase(rs.getString("null")),
                        false));
            }
        }
        if (!nested.isEmpty()) {
            String view = db.nextRelationName();
            StringBuilder sql = new StringBuilder("CREATE VIEW " + view + " AS SELECT * REPLACE (");
            for (int i = 0; i < nested.size(); i++) {
                String q = ProfilingDatabase.quote(nested.get(i));
                sql.append(i > 0 ? ", " : "")
                        .append("to_json(")
                        .append(q)
                        .append(") AS ")
                        .append(q);
            }
            db.execute(sql.append(") FROM ").append(relation).toString());
            relation = view;
        }
        TableDef def = new TableDef(name, cols, List.of(), List.of(), null, origin, true);
        ColumnStorage[] storage = new ColumnStorage[cols.size()];
        Arrays.fill(storage, ColumnStorage.NATIVE);
        put(new LoadedTable(def, relation, count(relation), storage));
    }

    private static boolean isNested(String duckType) {
        String t = duckType.toUpperCase(Locale.ROOT);
        return t.startsWith("STRUCT") || t.startsWith("MAP") || t.startsWith("UNION") || t.endsWith("]");
    }

    private long count(String relation) throws SQLException {
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + relation)) {
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

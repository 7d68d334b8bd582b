package dev.wastecheck.replay.sql;

import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.replay.sql.ReplayTable.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Copies the profiled tables from the source DuckDB into a fresh in-memory SQLite or DuckDB, with
 * the schema's primary key and indexes, so that both engines answer the trace from the same rows.
 *
 * <p>Columns are reduced to three storage classes ({@link Kind}): integers as SQLite INTEGER /
 * DuckDB BIGINT, byte strings as BLOB, everything else as text (cast to VARCHAR on the way out
 * of the source), so that the two engines hold, compare and return identical values.
 *
 * <p>SQLite is filled through JDBC, one batched PreparedStatement inside one transaction. DuckDB
 * is filled through a temporary Parquet file per table (written by the source, read by the
 * target, then deleted): per-row JDBC inserts into DuckDB are orders of magnitude slower.
 */
final class ReplayLoader {
    private static final int BATCH = 10_000;

    /** A loaded engine: its connection (the caller closes it) and its tables by lower-case name. */
    record Loaded(Connection connection, Map<String, ReplayTable> tables) {}

    private ReplayLoader() {}

    static Loaded load(SqlEngine engine, Connection source, Map<String, String> relations, DatabaseSchema schema)
            throws SQLException {
        Connection target = open(engine);
        try {
            Map<String, ReplayTable> tables = new LinkedHashMap<>();
            Path dir = engine == SqlEngine.DUCKDB ? Files.createTempDirectory("wastecheck-replay-") : null;
            try {
                int n = 0;
                for (Map.Entry<String, String> r : relations.entrySet()) {
                    TableDef ts = schema.table(r.getKey()).orElse(null);
                    String name = ts == null ? r.getKey() : ts.name();
                    ReplayTable t = describe(source, name, r.getValue(), ts == null ? List.of() : ts.primaryKey());
                    if (engine == SqlEngine.SQLITE) {
                        copyIntoSqlite(source, r.getValue(), t, target);
                    } else {
                        copyIntoDuckDb(source, r.getValue(), t, target, dir.resolve("t" + n + ".parquet"));
                    }
                    if (ts != null) {
                        createIndexes(engine, target, t, ts, n);
                    }
                    tables.put(name.toLowerCase(Locale.ROOT), t);
                    n++;
                }
            } finally {
                if (dir != null) {
                    deleteTree(dir);
                }
            }
            return new Loaded(target, tables);
        } catch (IOException e) {
            target.close();
            throw new UncheckedIOException(e);
        } catch (SQLException | RuntimeException e) {
            target.close();
            throw e;
        }
    }

    private static Connection open(SqlEngine engine) throws SQLException {
        if (engine == SqlEngine.SQLITE) {
            return DriverManager.getConnection("jdbc:sqlite::memory:");
        }
        Properties props = new Properties();
        // Offline machines cannot download extensions; Parquet is built in.
        props.setProperty("autoinstall_known_extensions", "false");
        Connection c = DriverManager.getConnection("jdbc:duckdb:", props);
        // One thread, as SQLite and our engine run: the replay compares engines, not core counts.
        execute(c, "SET threads=1");
        return c;
    }

    /** The relation's columns and their kinds, from the source's result metadata. */
    private static ReplayTable describe(Connection source, String name, String relation, List<String> primaryKey)
            throws SQLException {
        List<String> columns = new ArrayList<>();
        List<Kind> kinds = new ArrayList<>();
        try (Statement st = source.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + relation + " AS wc_src LIMIT 0")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(md.getColumnName(i));
                kinds.add(Kind.ofDuckDbType(md.getColumnTypeName(i)));
            }
        }
        return new ReplayTable(name, List.copyOf(columns), List.copyOf(kinds), List.copyOf(primaryKey));
    }

    /** The source query that yields the relation's rows in the three storage classes. */
    private static String exportQuery(String relation, ReplayTable t) {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
            String c = ReplayTable.quote(t.columns().get(i));
            sb.append(i == 0 ? "" : ", ")
                    .append("CAST(")
                    .append(c)
                    .append(" AS ")
                    .append(t.kinds().get(i).duckdbType)
                    .append(") AS ")
                    .append(c);
        }
        return sb.append(" FROM ").append(relation).append(" AS wc_src").toString();
    }

    private static String createTable(SqlEngine engine, ReplayTable t) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ")
                .append(ReplayTable.quote(t.name()))
                .append(" (");
        for (int i = 0; i < t.columns().size(); i++) {
            Kind k = t.kinds().get(i);
            sb.append(i == 0 ? "" : ", ")
                    .append(ReplayTable.quote(t.columns().get(i)))
                    .append(' ')
                    .append(engine == SqlEngine.SQLITE ? k.sqliteType : k.duckdbType);
        }
        return sb.append(')').toString();
    }

    private static void copyIntoSqlite(Connection source, String relation, ReplayTable t, Connection target)
            throws SQLException {
        execute(target, createTable(SqlEngine.SQLITE, t));
        int width = t.columns().size();
        StringBuilder insert = new StringBuilder("INSERT INTO ")
                .append(ReplayTable.quote(t.name()))
                .append(" VALUES (");
        for (int i = 0; i < width; i++) {
            insert.append(i == 0 ? "?" : ", ?");
        }
        insert.append(')');
        target.setAutoCommit(false);
        try (Statement st = source.createStatement();
                ResultSet rs = st.executeQuery(exportQuery(relation, t));
                PreparedStatement ps = target.prepareStatement(insert.toString())) {
            int pending = 0;
            while (rs.next()) {
                for (int i = 0; i < width; i++) {
                    int p = i + 1;
                    switch (t.kinds().get(i)) {
                        case INTEGER -> {
                            long v = rs.getLong(p);
                            if (rs.wasNull()) {
                                ps.setNull(p, Types.BIGINT);
                            } else {
                                ps.setLong(p, v);
                            }
                        }
                        case TEXT -> ps.setString(p, rs.getString(p));
                        case BLOB -> ps.setBytes(p, rs.getBytes(p));
                    }
                }
                ps.addBatch();
                if (++pending == BATCH) {
                    ps.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                ps.executeBatch();
            }
            target.commit();
        } finally {
            target.setAutoCommit(true);
        }
    }

    private static void copyIntoDuckDb(
            Connection source, String relation, ReplayTable t, Connection target, Path parquet)
            throws SQLException, IOException {
        String file = "'" + parquet.toAbsolutePath().toString().replace("'", "''") + "'";
        execute(source, "COPY (" + exportQuery(relation, t) + ") TO " + file + " (FORMAT parquet)");
        execute(target, createTable(SqlEngine.DUCKDB, t));
        execute(target, "INSERT INTO " + ReplayTable.quote(t.name()) + " SELECT * FROM read_parquet(" + file + ")");
        Files.deleteIfExists(parquet);
    }

    /**
     * The primary key and every index of the schema, each column list once (unique if any
     * declaration of it is). A unique index that the rows violate (a dump need not honour its
     * DDL) falls back to a plain index, so lookups stay indexed.
     *
     * <p>DuckDB: older versions rejected an UPDATE of a column in a unique ART index ("over-eager
     * constraint checking": the update ran as delete + insert and met its own old key). The bundled
     * duckdb_jdbc 2.0.0.1 accepts an autocommit update of a unique key's column (SqlEngineReplayTest
     * moves a row to another group of its unique key and finds it there), so DuckDB gets the same
     * unique indexes as SQLite; should a version regress, that test fails rather than the numbers
     * silently changing.
     */
    private static void createIndexes(SqlEngine engine, Connection target, ReplayTable t, TableDef ts, int tableNo)
            throws SQLException {
        Map<List<String>, Boolean> indexes = new LinkedHashMap<>();
        for (IndexDef ix : ts.allIndexes()) {
            List<String> cols = new ArrayList<>();
            for (String c : ix.columns()) {
                int at = t.column(c);
                if (at < 0) {
                    cols = null;
                    break;
                }
                cols.add(t.columns().get(at));
            }
            if (cols != null && !cols.isEmpty()) {
                indexes.merge(List.copyOf(cols), ix.unique(), Boolean::logicalOr);
            }
        }
        int n = 0;
        for (Map.Entry<List<String>, Boolean> ix : indexes.entrySet()) {
            String name = ReplayTable.quote("wc_ix_" + tableNo + "_" + n++);
            StringBuilder on = new StringBuilder(" ON ")
                    .append(ReplayTable.quote(t.name()))
                    .append(" (");
            for (int i = 0; i < ix.getKey().size(); i++) {
                on.append(i == 0 ? "" : ", ")
                        .append(ReplayTable.quote(ix.getKey().get(i)));
            }
            on.append(')');
            if (ix.getValue()) {
                try {
                    execute(target, "CREATE UNIQUE INDEX " + name + on);
                    continue;
                } catch (SQLException duplicates) {
                    // the rows break the declared uniqueness: index them anyway, without the constraint
                }
            }
            execute(target, "CREATE INDEX " + name + on);
        }
    }

    /** One statement on a fresh Statement (DuckDB closes a Statement after any error). */
    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static void deleteTree(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind is not worth failing the replay for
        }
    }
}

package dev.wastecheck.analyzer.index;

import dev.wastecheck.model.schema.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The indexes and foreign keys of a live PostgreSQL or MySQL/MariaDB database, read from its own
 * catalog with the bytes each index holds as the server counts them: PostgreSQL's
 * {@code pg_relation_size} of the index, InnoDB's persistent statistics ({@code
 * mysql.innodb_index_stats}, {@code size} in pages, times {@code innodb_page_size}, as of the
 * table's last ANALYZE or automatic recalculation).
 */
public final class ServerIndexes {
    private ServerIndexes() {}

    /** What the catalog says: every index of the current schema, and each table's foreign-key column lists. */
    public record Catalog(List<IndexEntry> indexes, Map<String, List<List<String>>> foreignKeys) {}

    /** Reads the catalog of the session's current schema (PostgreSQL) or database (MySQL/MariaDB). */
    public static Catalog read(Connection c, Dialect dialect) throws SQLException {
        return dialect == Dialect.POSTGRESQL ? postgres(c) : mysql(c);
    }

    private static Catalog postgres(Connection c) throws SQLException {
        Map<Long, List<String>> keys = new LinkedHashMap<>();
        Map<Long, List<String>> columns = new LinkedHashMap<>();
        Map<Long, List<String>> include = new LinkedHashMap<>();
        // one row per key part: the expression as pg_get_indexdef prints the column, with the order,
        // collation and operator class that make two indexes order rows alike or not
        String parts = "SELECT ix.indexrelid, k, pg_get_indexdef(ix.indexrelid, k, true), a.attname,"
                + " k > ix.indnkeyatts, ix.indoption[k - 1],"
                + " CASE WHEN ix.indcollation[k - 1] <> 0 AND ix.indcollation[k - 1] <> COALESCE(a.attcollation, 0)"
                + " THEN (SELECT collname FROM pg_collation WHERE oid = ix.indcollation[k - 1]) END,"
                + " CASE WHEN k <= ix.indnkeyatts AND NOT opc.opcdefault THEN opc.opcname END"
                + " FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " CROSS JOIN LATERAL generate_series(1, ix.indnatts) AS k"
                + " LEFT JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = ix.indkey[k - 1]"
                + " AND ix.indkey[k - 1] <> 0"
                + " LEFT JOIN pg_opclass opc ON opc.oid = ix.indclass[k - 1]"
                + " WHERE n.nspname = current_schema() AND t.relkind IN ('r', 'p', 'm')"
                + " ORDER BY ix.indexrelid, k";
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(parts)) {
            while (rs.next()) {
                long oid = rs.getLong(1);
                String attname = rs.getString(4);
                if (rs.getBoolean(5)) {
                    include.computeIfAbsent(oid, x -> new ArrayList<>())
                            .add(attname == null ? rs.getString(3) : attname.toLowerCase(Locale.ROOT));
                    continue;
                }
                int option = rs.getInt(6);
                String collation = rs.getString(7);
                String opclass = rs.getString(8);
                StringBuilder key =
                        new StringBuilder(attname == null ? rs.getString(3) : attname.toLowerCase(Locale.ROOT));
                if (collation != null) {
                    key.append(" COLLATE \"").append(collation).append('"');
                }
                if (opclass != null) {
                    key.append(' ').append(opclass);
                }
                boolean desc = (option & 1) != 0;
                boolean nullsFirst = (option & 2) != 0;
                if (desc) {
                    key.append(" DESC");
                }
                if (nullsFirst != desc) { // not the direction's default
                    key.append(nullsFirst ? " NULLS FIRST" : " NULLS LAST");
                }
                keys.computeIfAbsent(oid, x -> new ArrayList<>()).add(key.toString());
                columns.computeIfAbsent(oid, x -> new ArrayList<>()).add(attname == null ? "" : attname);
            }
        }
        List<IndexEntry> out = new ArrayList<>();
        String list = "SELECT ix.indexrelid, t.relname, i.relname, ix.indisunique, ix.indisprimary, am.amname,"
                + " pg_get_indexdef(ix.indexrelid), pg_get_expr(ix.indpred, ix.indrelid),"
                + " pg_relation_size(ix.indexrelid),"
                + " (SELECT min(con.contype) FROM pg_constraint con WHERE con.conindid = ix.indexrelid"
                + " AND con.conrelid = ix.indrelid AND con.contype IN ('p', 'u', 'x'))"
                + " FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid"
                + " JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_am am ON am.oid = i.relam"
                + " WHERE n.nspname = current_schema() AND t.relkind IN ('r', 'p', 'm')"
                + " ORDER BY t.relname, i.relname";
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(list)) {
            while (rs.next()) {
                long oid = rs.getLong(1);
                String con = rs.getString(10);
                String constraint = con == null
                        ? null
                        : switch (con) {
                            case "p" -> "primary key";
                            case "u" -> "unique";
                            default -> "exclusion";
                        };
                out.add(new IndexEntry(
                        rs.getString(2),
                        rs.getString(3),
                        keys.getOrDefault(oid, List.of()),
                        columns.getOrDefault(oid, List.of()),
                        include.getOrDefault(oid, List.of()),
                        rs.getBoolean(4),
                        rs.getBoolean(5),
                        constraint,
                        rs.getString(6),
                        rs.getString(8),
                        rs.getString(7),
                        rs.getLong(9),
                        true));
            }
        }
        Map<String, List<List<String>>> fks = new LinkedHashMap<>();
        String fk = "SELECT t.relname, con.oid, a.attname FROM pg_constraint con"
                + " JOIN pg_class t ON t.oid = con.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
                + " CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)"
                + " JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum"
                + " WHERE con.contype = 'f' AND n.nspname = current_schema() ORDER BY t.relname, con.oid, k.ord";
        readForeignKeys(c, fk, fks);
        return new Catalog(out, fks);
    }

    private static Catalog mysql(Connection c) throws SQLException {
        Map<String, Map<String, long[]>> sizes = innodbSizes(c);
        Map<String, IndexEntry> byName = new LinkedHashMap<>();
        Map<String, List<String>> keys = new LinkedHashMap<>();
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Map<String, List<String>> plain = new LinkedHashMap<>(); // for the definition: `col`(20) DESC
        Map<String, String[]> head = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME,"
                        + " SUB_PART, COLLATION, INDEX_TYPE FROM information_schema.STATISTICS"
                        + " WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX")) {
            while (rs.next()) {
                String table = rs.getString(1);
                String index = rs.getString(2);
                String id = table + "\u0000" + index;
                head.putIfAbsent(id, new String[] {table, index, rs.getString(3), rs.getString(8)});
                String column = rs.getString(5);
                long sub = rs.getLong(6);
                boolean hasSub = !rs.wasNull();
                boolean desc = "D".equals(rs.getString(7));
                String key = column.toLowerCase(Locale.ROOT) + (hasSub ? "(" + sub + ")" : "") + (desc ? " DESC" : "");
                keys.computeIfAbsent(id, x -> new ArrayList<>()).add(key);
                columns.computeIfAbsent(id, x -> new ArrayList<>()).add(column);
                plain.computeIfAbsent(id, x -> new ArrayList<>())
                        .add(quote(column) + (hasSub ? "(" + sub + ")" : "") + (desc ? " DESC" : ""));
            }
        }
        for (Map.Entry<String, String[]> e : head.entrySet()) {
            String[] h = e.getValue();
            boolean primary = h[1].equals("PRIMARY");
            boolean unique = "0".equals(h[2]);
            String type = h[3] == null ? "BTREE" : h[3].toUpperCase(Locale.ROOT);
            String method = switch (type) {
                case "FULLTEXT" -> "fulltext";
                case "SPATIAL" -> "spatial";
                case "HASH" -> "hash";
                default -> "btree";
            };
            String definition = "ALTER TABLE " + quote(h[0]) + " ADD "
                    + (primary
                            ? "PRIMARY KEY"
                            : (unique
                                            ? "UNIQUE "
                                            : method.equals("fulltext")
                                                    ? "FULLTEXT "
                                                    : method.equals("spatial") ? "SPATIAL " : "")
                                    + "INDEX " + quote(h[1]))
                    + " (" + String.join(", ", plain.get(e.getKey())) + ")";
            long[] size =
                    sizes.getOrDefault(h[0].toLowerCase(Locale.ROOT), Map.of()).get(h[1].toLowerCase(Locale.ROOT));
            byName.put(
                    e.getKey(),
                    new IndexEntry(
                            h[0],
                            h[1],
                            keys.get(e.getKey()),
                            columns.get(e.getKey()),
                            List.of(),
                            unique,
                            primary,
                            primary ? "primary key" : null,
                            method,
                            null,
                            definition,
                            size == null ? -1 : size[0],
                            size != null));
        }
        Map<String, List<List<String>>> fks = new LinkedHashMap<>();
        readForeignKeys(
                c,
                "SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE"
                        + " WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL"
                        + " ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION",
                fks);
        return new Catalog(new ArrayList<>(byName.values()), fks);
    }

    /**
     * Per lower-case table and index name, {bytes}: InnoDB's {@code size} statistic (pages the index
     * holds) times the page size; empty when the user may not read {@code mysql.innodb_index_stats}.
     */
    private static Map<String, Map<String, long[]>> innodbSizes(Connection c) {
        Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT s.table_name, s.index_name, s.stat_value * @@innodb_page_size"
                        + " FROM mysql.innodb_index_stats s WHERE s.database_name = DATABASE()"
                        + " AND s.stat_name = 'size'")) {
            while (rs.next()) {
                out.computeIfAbsent(rs.getString(1).toLowerCase(Locale.ROOT), k -> new LinkedHashMap<>())
                        .put(rs.getString(2).toLowerCase(Locale.ROOT), new long[] {rs.getLong(3)});
            }
        } catch (SQLException e) {
            return Map.of(); // no privilege on the mysql schema, or not InnoDB: the bytes stay unknown
        }
        return out;
    }

    private static void readForeignKeys(Connection c, String sql, Map<String, List<List<String>>> fks)
            throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            String last = null;
            List<String> cols = null;
            while (rs.next()) {
                String id = rs.getString(1) + "\u0000" + rs.getString(2);
                if (!id.equals(last)) {
                    cols = new ArrayList<>();
                    fks.computeIfAbsent(rs.getString(1).toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                            .add(cols);
                    last = id;
                }
                cols.add(rs.getString(3));
            }
        }
    }

    /** A MySQL identifier in backquotes. */
    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}

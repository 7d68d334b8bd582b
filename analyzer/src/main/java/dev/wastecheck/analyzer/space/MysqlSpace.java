package dev.wastecheck.analyzer.space;

import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableSpace;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A live MySQL's or MariaDB's space per InnoDB table of the current database: {@code data_length}
 * (the clustered index), each index's pages ({@code mysql.innodb_index_stats}, stat {@code size},
 * times {@code innodb_page_size}), {@code data_free} (free extents of the table's tablespace), and
 * the AUTO_INCREMENT counter against its column type's end. The free space inside the pages, which
 * no catalog column reports, is what the data takes beyond the storage model's rows at the fill a
 * rebuild reaches ({@link SpaceAnalysis}). The figures are the server's persistent statistics:
 * ANALYZE TABLE refreshes them, and InnoDB does when a tenth of the table changed.
 */
final class MysqlSpace {
    private static final Pattern INT_TYPE = Pattern.compile("(?i)^(tiny|small|medium|big)?int\\b.*?(unsigned)?$");

    private MysqlSpace() {}

    static Map<String, Measured> measure(Connection c) throws SQLException {
        Map<String, Measured> out = new LinkedHashMap<>();
        long page = 16384;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@innodb_page_size")) {
            if (rs.next()) {
                page = rs.getLong(1);
            }
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT table_name, data_length, index_length, data_free, auto_increment"
                        + " FROM information_schema.tables WHERE table_schema = DATABASE()"
                        + " AND table_type = 'BASE TABLE' AND engine = 'InnoDB'")) {
            while (rs.next()) {
                Measured m = new Measured(rs.getString(1));
                m.dataBytes = rs.getLong(2);
                m.freeBytes = rs.getLong(4);
                m.engineBytes = rs.getLong(2) + rs.getLong(3) + rs.getLong(4);
                m.method = "data_free";
                long next = rs.getLong(5);
                if (!rs.wasNull()) {
                    m.headroom = new TableSpace.Headroom(null, next, 0);
                }
                out.put(m.table.toLowerCase(Locale.ROOT), m);
            }
        }
        Map<String, Map<String, IndexSpace>> indexes = definitions(c);
        Map<String, Map<String, Long>> sizes = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT table_name, index_name, stat_value FROM mysql.innodb_index_stats"
                        + " WHERE database_name = DATABASE() AND stat_name = 'size'")) {
            while (rs.next()) {
                sizes.computeIfAbsent(rs.getString(1).toLowerCase(Locale.ROOT), k -> new LinkedHashMap<>())
                        .put(rs.getString(2), rs.getLong(3) * page);
            }
        } catch (SQLException e) {
            // no SELECT on mysql.innodb_index_stats: the indexes' bytes stay unmeasured
        }
        for (Measured m : out.values()) {
            String key = m.table.toLowerCase(Locale.ROOT);
            Map<String, Long> size = sizes.getOrDefault(key, Map.of());
            Map<String, IndexSpace> defs = indexes.getOrDefault(key, Map.of());
            boolean clusteredSeen = false;
            for (Map.Entry<String, Long> e : size.entrySet()) {
                IndexSpace d = defs.get(e.getKey());
                boolean clustered = e.getKey().equals("PRIMARY") || e.getKey().equals("GEN_CLUST_INDEX");
                clusteredSeen |= clustered;
                m.indexes.add(new IndexSpace(
                        e.getKey(),
                        d == null ? List.of() : d.columns(),
                        e.getKey().equals("PRIMARY"),
                        d != null && d.unique() || e.getKey().equals("PRIMARY"),
                        clustered,
                        -1,
                        -1,
                        e.getValue(),
                        -1,
                        IndexSpace.Use.NEEDED,
                        null));
            }
            if (!clusteredSeen && !m.indexes.isEmpty()) {
                // clustered by the first UNIQUE index of NOT NULL columns: InnoDB's data_length is that index
                IndexSpace first = m.indexes.get(0);
                m.indexes.set(
                        0,
                        new IndexSpace(
                                first.name(),
                                first.columns(),
                                false,
                                true,
                                true,
                                -1,
                                -1,
                                first.measuredBytes(),
                                -1,
                                IndexSpace.Use.NEEDED,
                                null));
            }
        }
        autoIncrement(c, out);
        return out;
    }

    /** Each index's columns in order and whether it is unique ({@code information_schema.statistics}). */
    private static Map<String, Map<String, IndexSpace>> definitions(Connection c) throws SQLException {
        Map<String, Map<String, List<String>>> cols = new LinkedHashMap<>();
        Map<String, Boolean> unique = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT table_name, index_name, column_name, non_unique"
                        + " FROM information_schema.statistics WHERE table_schema = DATABASE()"
                        + " ORDER BY table_name, index_name, seq_in_index")) {
            while (rs.next()) {
                String t = rs.getString(1).toLowerCase(Locale.ROOT);
                cols.computeIfAbsent(t, k -> new LinkedHashMap<>())
                        .computeIfAbsent(rs.getString(2), k -> new ArrayList<>())
                        .add(rs.getString(3));
                unique.put(t + "." + rs.getString(2), rs.getInt(4) == 0);
            }
        }
        Map<String, Map<String, IndexSpace>> out = new LinkedHashMap<>();
        cols.forEach((t, ixs) -> ixs.forEach((name, c2) -> out.computeIfAbsent(t, k -> new LinkedHashMap<>())
                .put(
                        name,
                        new IndexSpace(
                                name,
                                c2,
                                name.equals("PRIMARY"),
                                unique.get(t + "." + name),
                                false,
                                -1,
                                -1,
                                -1,
                                -1,
                                IndexSpace.Use.NEEDED,
                                null))));
        return out;
    }

    /** The AUTO_INCREMENT column's type bounds the counter: TINYINT stops at 127, INT UNSIGNED at 4,294,967,295. */
    private static void autoIncrement(Connection c, Map<String, Measured> out) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT table_name, column_name, column_type FROM information_schema.columns"
                                + " WHERE table_schema = DATABASE() AND extra LIKE '%auto_increment%'")) {
            while (rs.next()) {
                Measured m = out.get(rs.getString(1).toLowerCase(Locale.ROOT));
                if (m == null || m.headroom == null) {
                    continue;
                }
                long max = integerMax(rs.getString(3));
                if (max > 0) {
                    m.headroom = new TableSpace.Headroom(rs.getString(2), m.headroom.next(), max);
                } else {
                    m.headroom = null;
                }
            }
        }
        out.values().forEach(m -> {
            if (m.headroom != null && m.headroom.max() == 0) {
                m.headroom = null;
            }
        });
    }

    /** The largest value of a MySQL integer column type, or 0 for another type. */
    static long integerMax(String columnType) {
        Matcher im = INT_TYPE.matcher(columnType.trim());
        if (!im.matches()) {
            return 0;
        }
        boolean unsigned = im.group(2) != null;
        String size = im.group(1) == null ? "" : im.group(1).toLowerCase(Locale.ROOT);
        int bits = switch (size) {
            case "tiny" -> 8;
            case "small" -> 16;
            case "medium" -> 24;
            case "big" -> 64;
            default -> 32;
        };
        if (bits == 64) {
            return Long.MAX_VALUE; // BIGINT UNSIGNED's end is past a long: its signed half is headroom enough
        }
        return unsigned ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
    }
}

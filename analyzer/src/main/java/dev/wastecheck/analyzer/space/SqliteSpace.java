package dev.wastecheck.analyzer.space;

import dev.wastecheck.analyzer.report.IndexSpace;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * An SQLite file's space per table, from its {@code dbstat} virtual table (the figures {@code
 * sqlite3_analyzer} prints): each table's and each index's b-tree pages and the bytes unused on
 * them; and the file's freelist, pages no b-tree holds, under {@link SpaceAnalysis#FILE}. A table's
 * engine figure is its own and its indexes' pages.
 */
final class SqliteSpace {
    private SqliteSpace() {}

    static Map<String, Measured> measure(Path file) throws SQLException {
        Properties ro = new Properties();
        ro.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        Map<String, Measured> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), ro)) {
            long pageSize = single(c, "PRAGMA page_size");
            long freelist = single(c, "PRAGMA freelist_count");
            Map<String, long[]> btrees = new LinkedHashMap<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT name, sum(pgsize), sum(unused) FROM dbstat GROUP BY name ORDER BY name")) {
                while (rs.next()) {
                    btrees.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3)});
                }
            }
            List<String[]> objects = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT type, name, tbl_name FROM sqlite_schema"
                            + " WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' OR name LIKE 'sqlite_autoindex%'"
                            + " ORDER BY type DESC, name")) {
                while (rs.next()) {
                    objects.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
                }
            }
            for (String[] o : objects) {
                long[] b = btrees.getOrDefault(o[1], new long[2]);
                if (o[0].equals("table")) {
                    Measured m = new Measured(o[1]);
                    m.dataBytes = b[0];
                    m.freeBytes = b[1];
                    m.engineBytes = b[0];
                    m.method = "dbstat";
                    out.put(o[1].toLowerCase(Locale.ROOT), m);
                }
            }
            for (String[] o : objects) {
                Measured m = out.get(o[2].toLowerCase(Locale.ROOT));
                if (!o[0].equals("index") || m == null) {
                    continue;
                }
                long[] b = btrees.getOrDefault(o[1], new long[2]);
                m.engineBytes += b[0];
                m.indexes.add(new IndexSpace(
                        o[1],
                        columns(c, o[1]),
                        false,
                        unique(c, o[2], o[1]),
                        false,
                        -1,
                        -1,
                        b[0],
                        b[1],
                        IndexSpace.Use.NEEDED,
                        null));
            }
            Measured f = new Measured(SpaceAnalysis.FILE);
            f.dataBytes = single(c, "PRAGMA page_count") * pageSize;
            f.freeBytes = freelist * pageSize;
            f.engineBytes = f.dataBytes;
            f.method = "freelist";
            out.put(SpaceAnalysis.FILE, f);
        }
        return out;
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static List<String> columns(Connection c, String index) throws SQLException {
        List<String> cols = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM pragma_index_info(?) ORDER BY seqno")) {
            ps.setString(1, index);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    cols.add(rs.getString(1));
                }
            }
        }
        return cols;
    }

    private static boolean unique(Connection c, String table, String index) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?")) {
            ps.setString(1, table);
            ps.setString(2, index);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) == 1;
            }
        }
    }
}

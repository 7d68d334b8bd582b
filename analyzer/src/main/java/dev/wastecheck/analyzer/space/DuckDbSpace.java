package dev.wastecheck.analyzer.space;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A DuckDB file's space: each table's blocks ({@code pragma_storage_info}: the distinct blocks its
 * column segments sit in, times the block size) and the file's free blocks ({@code PRAGMA
 * database_size}) under {@link SpaceAnalysis#FILE}. DuckDB reports no size for its ART indexes and
 * no free bytes inside a block, so a DuckDB table's indexes and in-block free space stay unmeasured.
 */
final class DuckDbSpace {
    private DuckDbSpace() {}

    static Map<String, Measured> measure(Path file) throws SQLException {
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        Map<String, Measured> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), ro)) {
            long blockSize;
            Measured f = new Measured(SpaceAnalysis.FILE);
            try (Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT block_size, total_blocks, free_blocks FROM pragma_database_size()"
                                    + " WHERE database_name = current_database()")) {
                if (!rs.next()) {
                    return out;
                }
                blockSize = rs.getLong(1);
                f.dataBytes = rs.getLong(2) * blockSize;
                f.freeBytes = rs.getLong(3) * blockSize;
                f.engineBytes = f.dataBytes;
                f.method = "database_size";
            }
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables()"
                            + " WHERE database_name = current_database() AND schema_name = current_schema()")) {
                while (rs.next()) {
                    Measured m = new Measured(rs.getString(1));
                    m.method = "storage_info";
                    out.put(m.table.toLowerCase(Locale.ROOT), m);
                }
            }
            for (Measured m : out.values()) {
                try (PreparedStatement ps =
                        c.prepareStatement("SELECT count(DISTINCT block_id) FROM pragma_storage_info(?)"
                                + " WHERE persistent AND block_id >= 0")) {
                    ps.setString(1, m.table);
                    try (ResultSet rs = ps.executeQuery()) {
                        m.dataBytes = rs.next() ? rs.getLong(1) * blockSize : 0;
                        m.engineBytes = m.dataBytes;
                    }
                }
            }
            out.put(SpaceAnalysis.FILE, f);
        }
        return out;
    }
}

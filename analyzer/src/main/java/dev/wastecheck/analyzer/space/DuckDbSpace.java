package dev.wastecheck.analyzer.space;

import dev.wastecheck.analyzer.report.IndexSpace;
import java.io.IOException;
import java.nio.file.Files;
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
import java.util.stream.Stream;

/**
 * A DuckDB file's space: each table's blocks ({@code pragma_storage_info}: the distinct blocks its
 * column segments sit in, times the block size) and the file's free blocks ({@code PRAGMA
 * database_size}) under {@link SpaceAnalysis#FILE}.
 *
 * <p>DuckDB reports no size for its ART indexes ({@code duckdb_indexes()} and {@code
 * pragma_storage_info} have none), so each index is measured on a copy of the file: the blocks in
 * use, {@code DROP INDEX} and {@code CHECKPOINT}, the blocks in use again; the difference is the
 * index's bytes. The user's file is only read. Files over {@link #COPY_LIMIT} are not copied and
 * their indexes stay unmeasured; so do the ART indexes behind PRIMARY KEY and UNIQUE constraints,
 * which cannot be dropped, and the free bytes inside a block, which DuckDB does not report.
 */
final class DuckDbSpace {
    private DuckDbSpace() {}

    /** Largest file whose indexes are measured on a copy. */
    static final long COPY_LIMIT = 1L << 30;

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
        if (file.toFile().length() <= COPY_LIMIT) {
            measureIndexesOnACopy(file, out);
        }
        return out;
    }

    /** Each index's bytes: the blocks a copy of the file frees when the index is dropped and checkpointed. */
    private static void measureIndexesOnACopy(Path file, Map<String, Measured> out) throws SQLException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("wastecheck-duckdb-");
            Path copy = dir.resolve("copy.duckdb");
            Files.copy(file, copy);
            Path wal = file.resolveSibling(file.getFileName() + ".wal");
            if (Files.exists(wal)) {
                Files.copy(wal, dir.resolve("copy.duckdb.wal"));
            }
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + copy.toAbsolutePath());
                    Statement st = c.createStatement()) {
                st.execute("CHECKPOINT");
                List<String[]> indexes = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SELECT index_name, table_name, expressions, is_unique"
                        + " FROM duckdb_indexes() WHERE database_name = current_database()"
                        + " AND schema_name = current_schema() ORDER BY table_name, index_name")) {
                    while (rs.next()) {
                        indexes.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
                    }
                }
                for (String[] ix : indexes) {
                    Measured m = out.get(ix[1].toLowerCase(Locale.ROOT));
                    if (m == null) {
                        continue;
                    }
                    long before = usedBytes(st);
                    st.execute("DROP INDEX \"" + ix[0].replace("\"", "\"\"") + "\"");
                    st.execute("CHECKPOINT");
                    long bytes = Math.max(0, before - usedBytes(st));
                    m.engineBytes += bytes;
                    m.indexes.add(new IndexSpace(
                            ix[0],
                            columns(ix[2]),
                            false,
                            Boolean.parseBoolean(ix[3]),
                            false,
                            -1,
                            -1,
                            bytes,
                            -1,
                            IndexSpace.Use.NEEDED,
                            null));
                }
            }
        } catch (IOException e) {
            // no room for the copy: the indexes stay unmeasured, as DuckDB leaves them
        } finally {
            if (dir != null) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path p : (Iterable<Path>) files::iterator) {
                        Files.deleteIfExists(p);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }

    private static long usedBytes(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT (total_blocks - free_blocks) * block_size FROM"
                + " pragma_database_size() WHERE database_name = current_database()")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** {@code duckdb_indexes().expressions} as column names: {@code [h, id]}. */
    static List<String> columns(String expressions) {
        String e = expressions == null ? "" : expressions.trim();
        if (e.startsWith("[") && e.endsWith("]")) {
            e = e.substring(1, e.length() - 1);
        }
        List<String> out = new ArrayList<>();
        for (String part : e.split(",\\s*")) {
            if (!part.isBlank()) {
                out.add(part.replace("\"", "").trim());
            }
        }
        return out;
    }
}

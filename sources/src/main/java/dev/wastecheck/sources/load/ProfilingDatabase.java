package dev.wastecheck.sources.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;

/**
 * The embedded DuckDB that holds and profiles the rows: in memory, spilling to a private
 * temporary folder when tables outgrow the memory limit, and removed on close. Rows arrive as Arrow
 * batches ({@link #allocator()}), never as per-row inserts.
 */
public final class ProfilingDatabase implements AutoCloseable {
    private final Path dir;
    private final DuckDBConnection conn;
    private final BufferAllocator allocator;
    private int streams;
    private int relations;

    /** Why loading DuckDB's library on the preload thread failed, or null. */
    private static volatile Throwable preloadFailure;

    /**
     * Starts loading DuckDB's native library on a background thread: half a second (71 MB
     * unpacked and linked) that then overlaps the command's own start instead of preceding the
     * load. A failure there is kept, and the first database opened reports it.
     */
    public static void preload() {
        Thread t = new Thread(
                () -> {
                    try {
                        Class.forName("org.duckdb.DuckDBNative");
                    } catch (Throwable e) {
                        preloadFailure = e;
                    }
                },
                "wastecheck-duckdb-preload");
        t.setDaemon(true);
        t.start();
    }

    private static DuckDBConnection connect(Properties props) throws SQLException {
        try {
            return (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", props);
        } catch (LinkageError e) {
            // after a failed preload the class says only that it could not be initialized
            Throwable why = preloadFailure != null ? preloadFailure : e;
            throw new SQLException("DuckDB's native library could not be loaded: " + why, why);
        }
    }

    public ProfilingDatabase(ProfilingOptions options) throws SQLException, IOException {
        Path base = options.tempDir() == null ? Path.of(System.getProperty("java.io.tmpdir")) : options.tempDir();
        Files.createDirectories(base);
        this.dir = Files.createTempDirectory(base, "wastecheck-");
        Properties props = new Properties();
        // Offline machines cannot download extensions: fail fast instead of hanging.
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        // In memory, spilling to the private folder past the memory limit: a file-backed database
        // compresses and checkpoints every table it creates, which made loading 2.5x slower.
        this.conn = connect(props);
        execute("SET temp_directory='" + dir.resolve("spill").toString().replace("'", "''") + "'");
        if (options.memoryLimit() != null) {
            execute("SET memory_limit='" + options.memoryLimit().replace("'", "") + "'");
        }
        // Profiles are order-free aggregates: let DuckDB load and scan in parallel without
        // keeping row order.
        execute("SET preserve_insertion_order=" + options.keepOrder());
        if (options.threads() > 0) {
            execute("SET threads=" + options.threads());
        }
        this.allocator = new RootAllocator(options.arrowMemoryLimit());
    }

    public DuckDBConnection connection() {
        return conn;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public Path directory() {
        return dir;
    }

    /** A fresh name for a table of rows in the profiling database. */
    public String nextRelationName() {
        return "t_" + (relations++);
    }

    /** A fresh name for a registered Arrow stream. */
    public String nextStreamName() {
        return "wc_stream_" + (streams++);
    }

    /** Runs one statement on a fresh JDBC Statement (DuckDB closes a Statement after any error). */
    public void execute(String sql) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
        }
    }

    public static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    public static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    @Override
    public void close() throws SQLException, IOException {
        try {
            conn.close();
        } finally {
            allocator.close();
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    public Connection jdbc() {
        return conn;
    }
}

package dev.wastecheck.sources.load;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDriver;

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
    private final boolean leaveOutCounted;
    private final long wholeUpTo;

    /** Why loading DuckDB's library on the preload thread failed, or null. */
    private static volatile Throwable preloadFailure;

    /** The connection the preload thread opens for the first database, or null (none started, or taken). */
    private static final AtomicReference<CompletableFuture<DuckDBConnection>> PRECONNECTED = new AtomicReference<>();

    /**
     * Starts loading DuckDB's native library and its driver on a background thread, then opens the
     * in-memory database the first {@link ProfilingDatabase} will use: half a second (71 MB unpacked
     * and linked) and DuckDB's start (its catalog of functions, its threads: 0.03 s on a quiet
     * machine, 0.21 s on the main thread of docs/benchmarks.md's sixteenth session) that then
     * overlap the command's own start instead of preceding the load. The connection's settings are
     * those every database opens with ({@link #connectionProperties}); the options' own ({@code
     * --memory-limit}, {@code --threads}, the spill folder) are set on it as on any other. A failure
     * there is kept, and the first database opened reports it.
     */
    public static void preload() {
        CompletableFuture<DuckDBConnection> connection = new CompletableFuture<>();
        PRECONNECTED.set(connection);
        Thread t = new Thread(
                () -> {
                    DuckDBConnection c = null;
                    try {
                        withoutMemoryMonitor();
                        Class.forName("org.duckdb.DuckDBNative");
                        Class.forName("org.duckdb.DuckDBDriver");
                        c = (DuckDBConnection) new DuckDBDriver().connect("jdbc:duckdb:", connectionProperties());
                    } catch (Throwable e) {
                        preloadFailure = e;
                    } finally {
                        connection.complete(c);
                    }
                },
                "wastecheck-duckdb-preload");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The connection the preload thread opened, once (null when none was started, it failed, or it
     * was taken): the caller owns it.
     */
    private static DuckDBConnection preconnected() {
        CompletableFuture<DuckDBConnection> f = PRECONNECTED.getAndSet(null);
        return f == null ? null : f.join();
    }

    /** The properties every profiling database opens with. */
    private static Properties connectionProperties() {
        Properties props = new Properties();
        // Offline machines cannot download extensions: fail fast instead of hanging.
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        return props;
    }

    private static boolean monitorChecked;

    /**
     * Keeps DuckDB's driver (2.0.0.1) from starting the JDK's flight recorder. Its first connection
     * (or its driver's class initializer) registers a periodic JFR event for DuckDB's memory
     * ({@code DuckDBMemoryMonitor.init}, {@code FlightRecorder.addPeriodicEvent}), which sets up
     * JFR's metadata, about 100 classes and a logging manager, and once it is set up every later
     * JFR event class (Netty's chunk events under Arrow) gets a handler class generated at its
     * first use: with Netty's events, 0.08 s of CPU in a 1.1-1.4 s start (docs/benchmarks.md, issue
     * 32's start-up). The event is only ever read by a recording a user starts; there is no setting for it
     * (the connection property {@code jdbc_jfr_memory_monitor} names a monitor per database, after
     * the registration), so its {@code initialized} flag is set first. A driver without that field
     * is left as it is.
     */
    static synchronized void withoutMemoryMonitor() {
        if (monitorChecked) {
            return;
        }
        monitorChecked = true;
        try {
            Field f = Class.forName("org.duckdb.DuckDBMemoryMonitor", false, ProfilingDatabase.class.getClassLoader())
                    .getDeclaredField("initialized");
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == boolean.class) {
                f.setAccessible(true);
                f.setBoolean(null, true);
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // another driver version: its monitor, if any, runs as the driver decides
        }
    }

    private static DuckDBConnection connect(Properties props) throws SQLException {
        withoutMemoryMonitor();
        try {
            // DuckDB's driver itself, not DriverManager: its first call loads and initializes every
            // driver on the class path (SQLite, PostgreSQL, MariaDB, Trino with its HTTP client,
            // Calcite), 158 classes a dump's analyze never uses.
            return (DuckDBConnection) new DuckDBDriver().connect("jdbc:duckdb:", props);
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
        // In memory, spilling to the private folder past the memory limit: a file-backed database
        // compresses and checkpoints every table it creates, which made loading 2.5x slower.
        DuckDBConnection early = preconnected();
        this.conn = early != null ? early : connect(connectionProperties());
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
        this.leaveOutCounted = options.leaveOutCounted();
        this.wholeUpTo = options.wholeUpTo();
    }

    /** Whether a dump's fully counted columns stay out of its tables ({@link ProfilingOptions#leaveOutCounted}). */
    public boolean leavesOutCounted() {
        return leaveOutCounted;
    }

    /** The rows up to which a table keeps the columns its first batch forecasts ({@link ProfilingOptions#wholeUpTo}). */
    public long wholeUpTo() {
        return wholeUpTo;
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

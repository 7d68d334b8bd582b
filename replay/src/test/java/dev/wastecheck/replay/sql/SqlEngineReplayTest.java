package dev.wastecheck.replay.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.access.ResultDigest;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.traces.access.AccessExtractor;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same events replayed on SQLite and DuckDB loaded from one DuckDB source: both engines return
 * the same rows event by event, those rows are the ones the data holds, writes are seen by later
 * reads, and what cannot run is skipped or answered as matching nothing.
 */
class SqlEngineReplayTest {
    static final DatabaseSchema SCHEMA = DdlCatalog.parse("""
            CREATE TABLE person (
              id bigint NOT NULL,
              name varchar(64),
              city varchar(64),
              visits int,
              PRIMARY KEY (id),
              KEY person_city (city)
            );
            CREATE TABLE membership (
              member_id bigint NOT NULL,
              group_id bigint NOT NULL,
              user_name varbinary(32) NOT NULL,
              role varchar(16),
              token blob,
              PRIMARY KEY (member_id),
              UNIQUE KEY member_group_user (group_id, user_name)
            );
            """).schema();
    static final byte[] TOKEN = {(byte) 0xAA, 0x00, (byte) 0xFF, 0x41};

    static Connection source;
    static final Map<String, String> RELATIONS = new LinkedHashMap<>();

    @BeforeAll
    static void source() throws SQLException {
        source = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = source.createStatement()) {
            st.execute("CREATE TABLE person (id BIGINT, name VARCHAR, city VARCHAR, visits BIGINT)");
            st.execute(
                    "INSERT INTO person VALUES (1, 'Thula', NULL, 5), (2, 'Bo', 'Oslo', 7), (5, 'Åsa', 'Oslo', NULL)");
            st.execute(
                    "CREATE TABLE membership_raw (member_id BIGINT, group_id BIGINT, user_name BLOB, role VARCHAR, token BLOB)");
            st.execute(
                    "INSERT INTO membership_raw VALUES (100, 10, 'ann'::BLOB, 'admin', '\\xAA\\x00\\xFF\\x41'::BLOB),"
                            + " (101, 10, 'bob'::BLOB, NULL, NULL), (102, 20, 'ann'::BLOB, 'guest', 'x'::BLOB)");
        }
        RELATIONS.put("person", "person");
        // a parenthesized subquery, as the analyzer hands relations that are not plain tables
        RELATIONS.put("membership", "(SELECT * FROM membership_raw)");
    }

    @AfterAll
    static void close() throws SQLException {
        source.close();
    }

    /** The events of one statement, and whether the replay should run them. */
    private final List<AccessEvent> events = new ArrayList<>();

    private final List<Integer> executed = new ArrayList<>();
    private final AccessExtractor extractor = new AccessExtractor(SCHEMA);

    private int sql(String statement, boolean runs) {
        List<AccessEvent> ev = extractor.extract(statement, Dialect.MYSQL);
        assertThat(ev)
                .as("%s; unresolved: %s", statement, extractor.report().unresolvedReasons())
                .hasSize(1);
        return add(ev.get(0), runs);
    }

    /** Adds an event; returns its index among the executed events (or -1). */
    private int add(AccessEvent e, boolean runs) {
        events.add(e);
        if (!runs) {
            return -1;
        }
        executed.add(events.size() - 1);
        return executed.size() - 1;
    }

    private static long digest(Object[]... rows) {
        ResultDigest d = new ResultDigest();
        for (Object[] row : rows) {
            d.beginRow();
            for (Object v : row) {
                if (v == null) {
                    d.addNull();
                } else if (v instanceof Long l) {
                    d.addLong(l);
                } else if (v instanceof byte[] b) {
                    d.addBytes(b, 0, b.length);
                } else {
                    d.addString((String) v);
                }
            }
            d.endRow();
        }
        return d.value();
    }

    private static long count(long n) {
        return digest(new Object[] {n});
    }

    private static Object[] row(Object... values) {
        return values;
    }

    @Test
    void sqliteAndDuckDbAgreeEventByEventAndWithTheData() throws SQLException {
        int thula = sql("SELECT city, name FROM person WHERE id = 1", true);
        int ann = sql("SELECT * FROM membership WHERE group_id = 10 AND user_name = 'ann'", true);
        int rename = sql("UPDATE person SET name = 'O''Brien', visits = visits + 1 WHERE id = 1", true);
        int renamed = sql("SELECT name FROM person WHERE id = 1", true);
        int insert = sql("INSERT INTO person (id, name, city, visits) VALUES (3, 'Zed', 'Oslo', -1)", true);
        int oslo = sql("SELECT id, name FROM person WHERE city = 'Oslo'", true);
        int delete = sql("DELETE FROM person WHERE id = 2", true);
        int deleted = sql("SELECT name FROM person WHERE id = 2", true);
        int scan = sql("SELECT name FROM person WHERE visits > 3", true); // a scan: its bound filters every row
        sql("SELECT name FROM person WHERE id = ?", false);
        int badKey = sql("SELECT name FROM person WHERE id = 'abc'", true);
        int moveGroup = sql("UPDATE membership SET group_id = 11 WHERE member_id = 100", true);
        int moved = sql("SELECT member_id, token FROM membership WHERE group_id = 11 AND user_name = 'ann'", true);
        int duplicate = sql("INSERT INTO person (id, name) VALUES (1, 'dup')", true);
        sql("UPDATE person SET visits = visits + 1 WHERE id = 3", false);
        int badInsert = sql("INSERT INTO person (id, name) VALUES ('x9', 'bad')", true);
        int setNull = sql("UPDATE person SET city = NULL WHERE id = 3", true);
        int afterNull = sql("SELECT city, visits FROM person WHERE id = 3", true);
        int keysOnly = add(
                new AccessEvent(
                        "membership",
                        Operation.POINT_LOOKUP,
                        "member_group_user",
                        Map.of("group_id", "20", "user_name", "ann"),
                        List.of("group_id", "user_name"),
                        Set.of(),
                        Set.of(),
                        Set.of(),
                        Set.of(),
                        Map.of(),
                        1,
                        -1,
                        0),
                true);
        add(
                new AccessEvent(
                        "nowhere",
                        Operation.POINT_LOOKUP,
                        "PRIMARY",
                        Map.of("id", "1"),
                        List.of("id"),
                        Set.of("id"),
                        Set.of(),
                        Set.of(),
                        Set.of(),
                        Map.of(),
                        1,
                        -1,
                        0),
                false);

        List<Long> progress = new ArrayList<>();
        SqlReplayResult lite = SqlEngineReplay.run(SqlEngine.SQLITE, source, RELATIONS, SCHEMA, events, progress::add);
        SqlReplayResult duck = SqlEngineReplay.run(SqlEngine.DUCKDB, source, RELATIONS, SCHEMA, events, null);

        for (SqlReplayResult r : List.of(lite, duck)) {
            assertThat(r.queries()).as("%s executed", r.engine()).isEqualTo(executed.size());
            assertThat(r.skipped()).as("%s skipped", r.engine()).isEqualTo(events.size() - executed.size());
            assertThat(r.digests()).hasSize(executed.size());
            assertThat(r.p50Us()).isPositive();
            assertThat(r.p99Us()).isGreaterThanOrEqualTo(r.p50Us());
            assertThat(r.throughputQps()).isPositive();
        }
        assertThat(duck.digests()).as("DuckDB and SQLite, event by event").containsExactly(lite.digests());
        assertThat(progress).containsExactly((long) events.size());

        long[] d = lite.digests();
        assertThat(d[thula])
                .as("selected in table column order: name, then the NULL city")
                .isEqualTo(digest(row("Thula", null)));
        assertThat(d[ann]).isEqualTo(digest(row(100L, 10L, "ann".getBytes(StandardCharsets.UTF_8), "admin", TOKEN)));
        assertThat(d[rename]).isEqualTo(count(1));
        assertThat(d[renamed]).as("the update is visible").isEqualTo(digest(row("O'Brien")));
        assertThat(d[insert]).isEqualTo(count(1));
        assertThat(d[oslo])
                .as("a range: the inserted row too, in any order")
                .isEqualTo(digest(row(5L, "Åsa"), row(3L, "Zed"), row(2L, "Bo")));
        assertThat(d[delete]).isEqualTo(count(1));
        assertThat(d[deleted]).isZero();
        assertThat(d[scan])
                .as("a scan: its bound, visits > 3, keeps O'Brien (6 visits); Zed has -1, Åsa NULL, Bo is deleted")
                .isEqualTo(digest(row("O'Brien")));
        assertThat(d[badKey]).as("a non-integer literal matches nothing").isZero();
        assertThat(d[moveGroup]).as("an update of a unique key's column").isEqualTo(count(1));
        assertThat(d[moved]).isEqualTo(digest(row(100L, TOKEN)));
        assertThat(d[duplicate]).as("a duplicate primary key is rejected").isEqualTo(count(0));
        assertThat(d[badInsert]).isEqualTo(count(0));
        assertThat(d[setNull]).isEqualTo(count(1));
        assertThat(d[afterNull]).isEqualTo(digest(row(null, -1L)));
        assertThat(d[keysOnly])
                .as("no projection: the key columns")
                .isEqualTo(digest(row(20L, "ann".getBytes(StandardCharsets.UTF_8))));
        assertThat(lite.rows()).isEqualTo(duck.rows());
    }

    @Test
    void progressIsReportedEveryThousandEvents() throws SQLException {
        for (int i = 0; i < 2_500; i++) {
            add(
                    new AccessEvent(
                            "person",
                            Operation.POINT_LOOKUP,
                            "PRIMARY",
                            Map.of("id", String.valueOf(i % 7)),
                            List.of("id"),
                            Set.of("name"),
                            Set.of(),
                            Set.of(),
                            Set.of(),
                            Map.of(),
                            1,
                            -1,
                            0),
                    true);
        }
        List<Long> progress = new ArrayList<>();
        SqlReplayResult r = SqlEngineReplay.run(
                SqlEngine.SQLITE, source, Map.of("person", "person"), SCHEMA, events, progress::add);
        assertThat(progress).containsExactly(1_000L, 2_000L, 2_500L);
        assertThat(r.queries()).isEqualTo(2_500);
        assertThat(r.rows())
                .as("ids 1, 2 and 5 of each 7 in 357 full cycles; the 2,500th asks for id 0")
                .isEqualTo(357L * 3);
    }

    @Test
    void rowsThatBreakTheDeclaredKeyStillLoadAndAreAllFound() throws SQLException {
        int twice = sql("SELECT name FROM person WHERE id = 7", true);
        Map<String, String> dup = Map.of(
                "person", "(SELECT * FROM (VALUES (7, 'a', 'x', 1), (7, 'b', 'y', 2)) AS v(id, name, city, visits))");
        for (SqlEngine engine : SqlEngine.values()) {
            SqlReplayResult r = SqlEngineReplay.run(engine, source, dup, SCHEMA, events, null);
            assertThat(r.digests()[twice]).as("%s", engine).isEqualTo(digest(row("a"), row("b")));
        }
    }
}

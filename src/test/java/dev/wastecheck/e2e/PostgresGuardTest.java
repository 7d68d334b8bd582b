package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TypeParser;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code tune}'s PostgreSQL migration against a live database that has moved on since the dump:
 * rows that no longer fit the new types, or a view someone redefined. The migration runs in one
 * transaction and checks before its first change, so it stops with an error that says what does
 * not fit, and the database is as it was.
 */
class PostgresGuardTest {
    @TempDir
    static Path shared;

    static PostgresServer pg;
    static Path shop;
    static JsonNode tune;
    static String migration;

    @BeforeAll
    static void start() throws Exception {
        pg = PostgresServer.get();
        shop = GuardFixture.postgres(shared);
        Cli.Result json = Cli.run("tune", "-q", "--representation", "all", "--format", "json", shop.toString());
        assertThat(json.exitCode()).as(json.err()).isZero();
        tune = json.json();
        Cli.Result sql = Cli.run("tune", "-q", "--representation", "all", shop.toString());
        assertThat(sql.exitCode()).as(sql.err()).isZero();
        migration = sql.out();
        assertThat(migration).startsWith("-- wastecheck tune: a migration for PostgreSQL");
    }

    static String newType(String table, String column) {
        JsonNode t = StreamSupport.stream(tune.get("tables").spliterator(), false)
                .filter(x -> x.get("name").asText().equals(table))
                .findFirst()
                .orElseThrow();
        return StreamSupport.stream(t.get("changes").spliterator(), false)
                .filter(x -> x.get("column").asText().equals(column)
                        && x.get("applied").asBoolean())
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("tune does not change " + table + "." + column + ":\n" + migration))
                .get("new_type")
                .asText();
    }

    static Connection loaded(String db) throws Exception {
        Connection c = pg.createDatabase(db);
        TunePostgresTest.load(c, shop);
        return c;
    }

    @Test
    void theMigrationAppliesWhenTheLiveDataStillFits() throws Exception {
        try (Connection c = loaded("shop_fits")) {
            Map<String, ServerValues.Table> before = ServerValues.read(c, ServerValues.Engine.POSTGRESQL);
            Map<String, String> schema = ServerValues.postgresSchema(c);
            try (Connection m = pg.connect("shop_fits");
                    Statement st = m.createStatement()) {
                st.execute(migration);
            }
            Map<String, ServerValues.Table> after = ServerValues.read(c, ServerValues.Engine.POSTGRESQL);
            ServerValues.assertSameValues(before, after, "shop on PostgreSQL");
            assertThat(ServerValues.changedColumns(before, after)).isNotEmpty();
            // the view over the changed key was dropped and re-created as it was
            assertThat(ServerValues.postgresSchema(c).get("heavy_orders")).isEqualTo(schema.get("heavy_orders"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"key", "fraction", "enum"})
    void aLiveTableGrownBeyondTheNewTypesStopsTheMigrationBeforeAnyChange(String kind) throws Exception {
        String grow = switch (kind) {
            case "key" ->
                "INSERT INTO orders VALUES ("
                        + TypeParser.parse(newType("orders", "order_id"), Dialect.POSTGRESQL)
                                .intMax()
                                .add(java.math.BigInteger.ONE)
                        + ", 1, 'open', 1, '1.00', '2021-01-01 00:00:00')";
            case "fraction" -> {
                assertThat(newType("orders", "ratio")).startsWith("numeric(").endsWith(",8)");
                yield "INSERT INTO orders VALUES (3001, 1, 'open', 1, '1.123456789', '2021-01-01 00:00:00')";
            }
            default -> {
                assertThat(migration).contains("CREATE TYPE \"orders_status_enum\" AS ENUM");
                yield "INSERT INTO orders VALUES (3001, 1, 'shipped', 1, '1.00', '2021-01-01 00:00:00')";
            }
        };
        String column =
                kind.equals("key") ? "orders.order_id" : kind.equals("fraction") ? "orders.ratio" : "orders.status";
        String db = "shop_" + kind;
        try (Connection c = loaded(db)) {
            try (Statement st = c.createStatement()) {
                st.execute(grow);
            }
            Map<String, ServerValues.Table> before = ServerValues.read(c, ServerValues.Engine.POSTGRESQL);
            Map<String, String> schema = ServerValues.postgresSchema(c);
            assertThatThrownBy(() -> run(db))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("the live database no longer fits this migration; nothing was changed")
                    .hasMessageContaining(column + ": 1 rows do not fit");
            assertThat(ServerValues.postgresSchema(c)).isEqualTo(schema);
            ServerValues.assertSameValues(before, ServerValues.read(c, ServerValues.Engine.POSTGRESQL), db);
            try (Statement st = c.createStatement();
                    var rs = st.executeQuery("SELECT count(*) FROM pg_type WHERE typname = 'orders_status_enum'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("no enum type left behind").isZero();
            }
        }
    }

    @Test
    void aViewRedefinedSinceTheDumpIsNotSilentlyReplaced() throws Exception {
        try (Connection c = loaded("shop_view")) {
            try (Statement st = c.createStatement()) {
                st.execute(
                        "CREATE OR REPLACE VIEW heavy_orders AS SELECT order_id, customer_id, placed FROM orders WHERE customer_id > 200");
            }
            Map<String, String> schema = ServerValues.postgresSchema(c);
            assertThatThrownBy(() -> run("shop_view"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("view heavy_orders is not the dump's");
            assertThat(ServerValues.postgresSchema(c)).isEqualTo(schema);
            assertThat(schema.get("heavy_orders")).contains("200");
        }
    }

    @Test
    void tuneApplyRunsTheSameTransactionAndExitsThreeWhenItStops() throws Exception {
        try (Connection c = loaded("shop_apply")) {
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO orders VALUES (3001, 1, 'shipped', 1, '1.00', '2021-01-01 00:00:00')");
            }
            Map<String, String> schema = ServerValues.postgresSchema(c);
            Cli.Result stopped = Cli.run(
                    "tune",
                    "-q",
                    "-o",
                    shared.resolve("apply.sql").toString(),
                    "--apply",
                    pg.url("shop_apply"),
                    shop.toString());
            assertThat(stopped.exitCode()).as(stopped.err()).isEqualTo(3);
            assertThat(stopped.err()).contains("nothing was changed", "orders.status: 1 rows do not fit");
            assertThat(ServerValues.postgresSchema(c)).isEqualTo(schema);
            try (Statement st = c.createStatement()) {
                st.execute("DELETE FROM orders WHERE order_id = 3001");
            }
            Cli.Result applied = Cli.run(
                    "tune",
                    "-q",
                    "-o",
                    shared.resolve("apply.sql").toString(),
                    "--apply",
                    pg.url("shop_apply"),
                    shop.toString());
            assertThat(applied.exitCode()).as(applied.err()).isZero();
            assertThat(ServerValues.postgresSchema(c).get("orders")).contains("status orders_status_enum");
        }
    }

    /** The migration in a fresh session, as a user runs it. */
    private static void run(String db) throws SQLException {
        try (Connection m = pg.connect(db);
                Statement st = m.createStatement()) {
            st.execute(migration);
        }
    }
}

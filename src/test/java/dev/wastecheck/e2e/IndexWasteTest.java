package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index waste planted on real servers and found, dropped and put back: a duplicate index, a left
 * prefix of another index, an index only a foreign key needs, an index the trace never uses and a
 * unique index. {@code analyze URL --trace} must find exactly the duplicate, the prefix and the
 * unused one (never the foreign key's index nor the unique one); {@code tune URL --apply} must run
 * the reversible steps (PostgreSQL's DROP INDEX CONCURRENTLY; MariaDB's IGNORED, then the DROP
 * script); the bytes freed, measured by the server before and after, must be within 15% of the
 * prediction; the trace's statements must still run; and the rollback must restore every index.
 */
class IndexWasteTest {
    static final int CUSTOMERS = 1000;
    static final int ORDERS = 5000;

    /** The statements of the workload: never the note, never the customer_id (only the foreign key needs it). */
    static final List<String> TRACE = List.of(
            "SELECT city FROM customer WHERE id = " + customerId(7),
            "SELECT id FROM customer WHERE email = '" + email(7) + "'",
            "SELECT id, email FROM customer WHERE city = '" + city(7) + "'",
            "SELECT id, total FROM orders WHERE placed = '2024-03-05'",
            "SELECT id FROM orders WHERE placed >= '2024-01-01' AND total > 5000100000",
            "SELECT id, placed FROM orders ORDER BY placed DESC LIMIT 10",
            "SELECT id FROM orders WHERE total = " + total(10),
            "UPDATE orders SET total = total + 1 WHERE id = " + orderId(15));

    static long customerId(int i) {
        return 1_000_000_000_000L + i * 1_000_003L;
    }

    static long orderId(int i) {
        return 2_000_000_000_000L + i * 1_000_033L;
    }

    static long total(int i) {
        return 5_000_000_000L + i * 7_919L;
    }

    /** 24 characters, as declared: no narrower type to suggest. */
    static String email(int i) {
        return String.format("cust%08d@example.org", i);
    }

    static String city(int i) {
        return String.format("city-%04d-abcdefghijklmn", i % 200);
    }

    static String schema(boolean postgres) {
        String unique = postgres ? "CONSTRAINT uq_email UNIQUE (email)" : "UNIQUE KEY uq_email (email)";
        return "CREATE TABLE customer (id BIGINT PRIMARY KEY, email VARCHAR(24) NOT NULL, city VARCHAR(24) NOT NULL, "
                + unique + ");\n"
                + "CREATE INDEX customer_city ON customer (city);\n"
                + "CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, placed DATE NOT NULL,"
                + " total BIGINT NOT NULL, note VARCHAR(24) NOT NULL);\n"
                + "CREATE INDEX orders_customer ON orders (customer_id);\n"
                + "ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customer (id);\n"
                + "CREATE INDEX orders_placed ON orders (placed);\n"
                + "CREATE INDEX orders_placed_total ON orders (placed, total);\n"
                + "CREATE INDEX orders_total ON orders (total);\n"
                + "CREATE INDEX orders_total_copy ON orders (total);\n"
                + "CREATE INDEX orders_note ON orders (note)";
    }

    static void build(Connection c, boolean postgres) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : schema(postgres).split(";\n")) {
                st.execute(s);
            }
        }
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO customer VALUES (?, ?, ?)")) {
            for (int i = 0; i < CUSTOMERS; i++) {
                ps.setLong(1, customerId(i));
                ps.setString(2, email(i));
                ps.setString(3, city(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?)")) {
            for (int i = 0; i < ORDERS; i++) {
                ps.setLong(1, orderId(i));
                ps.setLong(2, customerId((i * 37) % CUSTOMERS));
                ps.setDate(3, Date.valueOf(LocalDate.of(2022, 1, 1).plusDays((i * 13L) % 1000)));
                ps.setLong(4, total(i));
                ps.setString(5, String.format("note-%019d", (i * 7_777_777L) % 10_000_000_000L));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        c.commit();
        c.setAutoCommit(true);
    }

    /** The workload, run as the application would, so the server's own counts see it. */
    static void runTrace(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : TRACE) {
                st.execute(s);
            }
        }
    }

    static Path traceFile(Path dir) throws Exception {
        Path t = dir.resolve("trace.sql");
        Files.writeString(t, String.join(";\n", TRACE) + ";\n", StandardCharsets.UTF_8);
        return t;
    }

    /** The index findings as {@code table.index kind}. */
    static Map<String, JsonNode> findings(JsonNode report) {
        Map<String, JsonNode> out = new TreeMap<>();
        report.get("index_findings")
                .forEach(f ->
                        out.put(f.get("table").asText() + "." + f.get("index").asText(), f));
        return out;
    }

    static void assertPlantedWaste(Map<String, JsonNode> f) {
        assertThat(f.keySet())
                .containsExactly("orders.orders_note", "orders.orders_placed", "orders.orders_total_copy");
        assertThat(f.get("orders.orders_placed").get("kind").asText()).isEqualTo("redundant_index");
        assertThat(f.get("orders.orders_placed").get("covered_by").asText()).isEqualTo("orders_placed_total");
        assertThat(f.get("orders.orders_total_copy").get("kind").asText()).isEqualTo("redundant_index");
        assertThat(f.get("orders.orders_total_copy").get("covered_by").asText()).isEqualTo("orders_total");
        assertThat(f.get("orders.orders_note").get("kind").asText()).isEqualTo("unused_index");
        f.values().forEach(x -> {
            assertThat(x.get("bytes").asLong()).isPositive();
            assertThat(x.get("bytes_basis").asText()).isEqualTo("measured");
        });
    }

    /** A script as tune writes it: one statement a line, ended by ";", comments after "--". */
    static List<String> statements(Path script) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(script)) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("--")) {
                continue;
            }
            int end = s.indexOf(";");
            out.add(s.substring(0, end));
        }
        return out;
    }

    static void run(Connection c, List<String> statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    static long predicted(Map<String, JsonNode> f) {
        return f.values().stream().mapToLong(x -> x.get("bytes").asLong()).sum();
    }

    /** What the storage model predicts the dropped indexes hold, from the rows (analyzer/space). */
    static long modelled(Map<String, JsonNode> f) {
        return f.values().stream()
                .mapToLong(x -> x.get("predicted_bytes").asLong())
                .sum();
    }

    // ------------------------------------------------------------------ PostgreSQL

    @Test
    void postgresqlFindsDropsAndRestoresThePlantedIndexes(@TempDir Path dir) throws Exception {
        PostgresServer pg = PostgresServer.get();
        try (Connection c = pg.createDatabase("index_waste")) {
            build(c, true);
            try (Statement st = c.createStatement()) {
                st.execute("ANALYZE");
            }
            runTrace(c);
        }
        Thread.sleep(1500); // the backend's counts reach pg_stat_user_indexes when it ends
        String url = pg.url("index_waste");
        Path trace = traceFile(dir);
        Cli.Result analyzed = Cli.run("analyze", url, "--trace", trace.toString(), "--format", "json", "-q");
        assertThat(analyzed.exitCode()).as(analyzed.err()).isZero();
        Map<String, JsonNode> f = findings(analyzed.json());
        assertPlantedWaste(f);
        assertThat(f.get("orders.orders_note").get("detail").asText())
                .contains("pg_stat_user_indexes.idx_scan")
                .contains("no statement of the trace");
        assertDropsInTuneJson(url, trace, f, "DROP INDEX CONCURRENTLY IF EXISTS \"orders_note\"", ".indexes.sql");

        Map<String, String> before = pgIndexes(pg);
        long sizeBefore = pgIndexBytes(pg);
        Path migration = dir.resolve("migration.sql");
        Cli.Result tuned =
                Cli.run("tune", url, "--trace", trace.toString(), "-o", migration.toString(), "--apply", url, "-q");
        System.out.println(tuned.err());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        // no column changes: the freed bytes are the indexes' alone
        assertThat(tuned.err()).contains("tune: 0 changes");
        Path drops = dir.resolve("migration.indexes.sql");
        assertThat(Files.readString(drops))
                .contains("DROP INDEX CONCURRENTLY IF EXISTS \"orders_placed\"")
                .contains("DROP INDEX CONCURRENTLY IF EXISTS \"orders_total_copy\"")
                .contains("DROP INDEX CONCURRENTLY IF EXISTS \"orders_note\"")
                .doesNotContain("orders_customer\"")
                .doesNotContain("uq_email");
        Map<String, String> after = pgIndexes(pg);
        assertThat(after.keySet())
                .doesNotContain("orders_placed", "orders_total_copy", "orders_note")
                .contains("orders_customer", "uq_email", "orders_placed_total", "orders_total");
        long freed = sizeBefore - pgIndexBytes(pg);
        long predicted = predicted(f);
        long model = modelled(f);
        System.out.printf(
                "PostgreSQL: server's index bytes before %d, storage model's prediction %d, freed (measured) %d%n",
                predicted, model, freed);
        assertThat((double) freed).isCloseTo(predicted, Percentage.withPercentage(15));
        assertThat((double) freed).isCloseTo(model, Percentage.withPercentage(15));
        try (Connection c = pg.connect("index_waste")) {
            runTrace(c); // the workload still runs
            run(c, statements(dir.resolve("migration.indexes.rollback.sql")));
        }
        assertThat(pgIndexes(pg)).isEqualTo(before);
    }

    static Map<String, String> pgIndexes(PostgresServer pg) throws SQLException {
        return pgIndexes(pg, "index_waste");
    }

    /** Each index of {@code database}'s public schema and its definition, by name. */
    static Map<String, String> pgIndexes(PostgresServer pg, String database) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = pg.connect(database);
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    static long pgIndexBytes(PostgresServer pg) throws SQLException {
        try (Connection c = pg.connect("index_waste");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_indexes_size('orders') + pg_indexes_size('customer')")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ------------------------------------------------------------------ MariaDB

    @Test
    void mariadbFindsIgnoresDropsAndRestoresThePlantedIndexes(@TempDir Path dir) throws Exception {
        MariaDbServer maria = MariaDbServer.get();
        maria.createDatabase("index_waste");
        try (Connection c = maria.connect("index_waste")) {
            build(c, false);
            analyzeTables(c);
            runTrace(c);
        }
        String url = maria.url("index_waste");
        Path trace = traceFile(dir);
        Cli.Result analyzed = Cli.run("analyze", url, "--trace", trace.toString(), "--format", "json", "-q");
        assertThat(analyzed.exitCode()).as(analyzed.err()).isZero();
        Map<String, JsonNode> f = findings(analyzed.json());
        assertPlantedWaste(f);
        assertThat(f.get("orders.orders_note").get("detail").asText())
                .contains("table_io_waits_summary_by_index_usage")
                .contains("no statement of the trace");
        JsonNode note = assertDropsInTuneJson(
                url, trace, f, "ALTER TABLE `orders` DROP INDEX `orders_note`", ".indexes.drop.sql");
        assertThat(note.get("first_step").asText()).isEqualTo("ALTER TABLE `orders` ALTER INDEX `orders_note` IGNORED");

        Map<String, String> before = mariaIndexes(maria);
        long sizeBefore = mariaIndexBytes(maria);
        Path migration = dir.resolve("migration.sql");
        Cli.Result tuned =
                Cli.run("tune", url, "--trace", trace.toString(), "-o", migration.toString(), "--apply", url, "-q");
        System.out.println(tuned.err());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        // no column changes: the freed bytes are the indexes' alone
        assertThat(tuned.err()).contains("tune: 0 changes");
        assertThat(Files.readString(dir.resolve("migration.indexes.sql")))
                .contains("ALTER TABLE `orders` ALTER INDEX `orders_note` IGNORED");
        // step 1 applied: the optimizer ignores them, the server keeps them
        assertThat(mariaIndexes(maria).get("orders.orders_note")).endsWith("ignored=YES");
        assertThat(mariaIndexes(maria).get("orders.orders_customer")).endsWith("ignored=NO");
        try (Connection c = maria.connect("index_waste")) {
            runTrace(c);
        }
        // step 2, as a DBA runs it, through the server's own client
        maria.load("index_waste", dir.resolve("migration.indexes.drop.sql"));
        assertThat(mariaIndexes(maria).keySet())
                .doesNotContain("orders.orders_placed", "orders.orders_total_copy", "orders.orders_note")
                .contains("orders.orders_customer", "customer.uq_email");
        long freed = sizeBefore - mariaIndexBytes(maria);
        long predicted = predicted(f);
        long model = modelled(f);
        System.out.printf(
                "MariaDB: server's index bytes before %d, storage model's prediction %d, freed (measured) %d%n",
                predicted, model, freed);
        f.forEach((k, x) -> System.out.printf(
                "MariaDB: %s measured %d, model %d%n",
                k, x.get("bytes").asLong(), x.get("predicted_bytes").asLong()));
        assertThat((double) freed).isCloseTo(predicted, Percentage.withPercentage(15));
        // the InnoDB model's figure is the sorted build's (OPTIMIZE TABLE, a mysqldump load); these rows
        // were inserted one by one, splitting the randomly keyed indexes' pages, so it runs low here
        // (docs/tune.md, "Indexes: dropped reversibly"; InnoDbInsertFillTest): printed, not asserted
        assertThat(model).isPositive();
        try (Connection c = maria.connect("index_waste")) {
            runTrace(c);
        }
        maria.load("index_waste", dir.resolve("migration.indexes.rollback.sql"));
        assertThat(mariaIndexes(maria)).isEqualTo(before);
    }

    /**
     * {@code tune URL --format json}: the three planted drops under {@code index_drops}, each with
     * the statement that frees its bytes, the bytes analyze reports, measured, and its script; the
     * entry of orders_note.
     */
    static JsonNode assertDropsInTuneJson(
            String url, Path trace, Map<String, JsonNode> f, String noteStatement, String script) {
        Cli.Result tuned = Cli.run("tune", url, "--trace", trace.toString(), "--format", "json", "-q");
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        Map<String, JsonNode> drops = new TreeMap<>();
        tuned.json()
                .get("index_drops")
                .forEach(d ->
                        drops.put(d.get("table").asText() + "." + d.get("index").asText(), d));
        assertThat(drops.keySet())
                .containsExactly("orders.orders_note", "orders.orders_placed", "orders.orders_total_copy");
        drops.forEach((k, d) -> {
            assertThat(d.get("bytes").asLong())
                    .as(k)
                    .isEqualTo(f.get(k).get("bytes").asLong())
                    .isPositive();
            assertThat(d.get("bytes_basis").asText()).as(k).isEqualTo("measured");
            assertThat(d.get("kind").asText())
                    .as(k)
                    .isEqualTo(f.get(k).get("kind").asText());
            assertThat(d.get("script").asText()).as(k).isEqualTo(script);
            assertThat(d.get("file").isNull()).as(k).isTrue(); // --format json writes no script
            assertThat(d.get("rollback").asText())
                    .as(k)
                    .contains("orders")
                    .contains(d.get("index").asText());
        });
        JsonNode note = drops.get("orders.orders_note");
        assertThat(note.get("statement").asText()).isEqualTo(noteStatement);
        return note;
    }

    static void analyzeTables(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("ANALYZE TABLE customer, orders");
        }
    }

    static Map<String, String> mariaIndexes(MariaDbServer maria) throws SQLException {
        return mariaIndexes(maria, "index_waste");
    }

    /** Every index of {@code database}: {@code table.index} -> uniqueness, columns and whether it is IGNORED. */
    static Map<String, String> mariaIndexes(MariaDbServer maria, String database) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (Connection c = maria.connect(database);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE,"
                        + " GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX), MAX(IGNORED)"
                        + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"
                        + " GROUP BY TABLE_NAME, INDEX_NAME, NON_UNIQUE")) {
            while (rs.next()) {
                out.put(
                        rs.getString(1) + "." + rs.getString(2),
                        "non_unique=" + rs.getString(3) + " (" + rs.getString(4) + ") ignored=" + rs.getString(5));
            }
        }
        return out;
    }

    /** The secondary indexes' bytes InnoDB counts, after ANALYZE TABLE refreshes its statistics. */
    static long mariaIndexBytes(MariaDbServer maria) throws SQLException {
        try (Connection c = maria.connect("index_waste")) {
            analyzeTables(c);
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT SUM(INDEX_LENGTH) FROM information_schema.TABLES"
                            + " WHERE TABLE_SCHEMA = 'index_waste'")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}

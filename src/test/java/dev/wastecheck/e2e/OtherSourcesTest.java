package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same rows in every format wastecheck reads, written by the test itself: mysqldump (plain,
 * gzipped, and in a folder of per-table dumps), plain pg_dump, SQLite's script and database file,
 * CSV, Parquet, JSON and a DuckDB database file.
 */
class OtherSourcesTest {
    private static final long ROWS = 5_000;

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeTheSameRowsInEveryFormat() throws Exception {
        SyntheticDump.writeMysqldump(dir.resolve("orders.sql"), ROWS, 3);
        SyntheticDump.writeCsv(dir.resolve("orders.csv"), ROWS, 3);
        SyntheticDump.writePgDump(dir.resolve("orders-pg.sql"), ROWS, 3);
        SyntheticDump.writeSqliteScript(dir.resolve("orders-sqlite.sql"), ROWS, 3);
        SyntheticDump.writeSqliteFile(dir.resolve("orders.sqlite"), ROWS, 3);
        Files.createDirectories(dir.resolve("shop"));
        Files.copy(dir.resolve("orders.sql"), dir.resolve("shop/orders.sql"));
        Files.writeString(
                dir.resolve("shop/customers.sql"),
                "-- MySQL dump 10.13\n"
                        + "CREATE TABLE `customers` (\n  `customer_id` int(11) NOT NULL,\n  `name` varchar(100) NOT NULL,\n"
                        + "  PRIMARY KEY (`customer_id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n"
                        + "INSERT INTO `customers` VALUES (1,'Ada'),(2,'Grace'),(3,'Edsger');\n");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("orders.sql.gz")))) {
            Files.copy(dir.resolve("orders.sql"), out);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("shop.duckdb"));
                Statement st = c.createStatement()) {
            String csv = dir.resolve("orders.csv").toString();
            st.execute("CREATE TABLE orders AS SELECT * FROM read_csv('" + csv + "')");
            st.execute("COPY orders TO '" + dir.resolve("orders.parquet") + "' (FORMAT parquet)");
            st.execute("COPY orders TO '" + dir.resolve("orders.json") + "' (FORMAT json)");
        }
    }

    @Test
    void gzippedDumpReadsLikeThePlainOne() {
        JsonNode plain = Cli.analyzeJson(dir.resolve("orders.sql"));
        JsonNode gz = Cli.analyzeJson(dir.resolve("orders.sql.gz"));
        assertThat(gz.get("tables")).isEqualTo(plain.get("tables"));
        assertThat(Cli.table(gz, "orders").get("rows").asLong()).isEqualTo(ROWS);
        // A DECIMAL's bounds are numbers, not text: '999.99' sorts above '9500.00' as text.
        JsonNode amount = column(plain, "orders", "amount");
        assertThat(new java.math.BigDecimal(amount.get("max").asText()))
                .isGreaterThan(new java.math.BigDecimal("1000"))
                .isGreaterThan(new java.math.BigDecimal(amount.get("min").asText()));
    }

    @Test
    void duckdbReadersInferTypesThatWastecheckNarrows() {
        for (String file : new String[] {"orders.csv", "orders.parquet", "orders.json", "shop.duckdb"}) {
            JsonNode r = Cli.analyzeJson(dir.resolve(file));
            assertThat(r.get("dialect").asText()).as(file).isEqualTo("duckdb");
            JsonNode orders = Cli.table(r, "orders");
            assertThat(orders.get("rows").asLong()).as(file).isEqualTo(ROWS);
            // DuckDB reads quantity (1..10) as BIGINT: one byte holds it, with room to grow.
            JsonNode quantity = column(r, "orders", "quantity");
            assertThat(quantity.get("declared_type").asText()).as(file).isEqualTo("BIGINT");
            assertThat(quantity.get("suggested_type").asText()).as(file).isEqualTo("TINYINT");
            assertThat(kinds(column(r, "orders", "flag"))).as(file).contains("constant");
            assertThat(column(r, "orders", "note").get("nulls").asLong())
                    .as(file)
                    .isBetween(ROWS / 14, ROWS / 7);
        }
    }

    @Test
    void aPlainPgDumpReadsTheSameRowsAndItsKeyAddedAfterThem() {
        JsonNode plain = Cli.analyzeJson(dir.resolve("orders.sql"));
        JsonNode pg = Cli.analyzeJson(dir.resolve("orders-pg.sql"));
        assertThat(pg.get("dialect").asText()).isEqualTo("postgresql");
        assertThat(Cli.table(pg, "orders").get("rows").asLong()).isEqualTo(ROWS);
        // COPY's \N is NULL and its escapes decode: the same NULLs and the same distinct notes as the mysqldump's
        for (String c : new String[] {"note", "status", "customer_id", "amount"}) {
            assertThat(column(pg, "orders", c).get("nulls"))
                    .as(c)
                    .isEqualTo(column(plain, "orders", c).get("nulls"));
            assertThat(column(pg, "orders", c).get("distinct"))
                    .as(c)
                    .isEqualTo(column(plain, "orders", c).get("distinct"));
        }
        JsonNode quantity = column(pg, "orders", "quantity");
        assertThat(quantity.get("declared_type").asText()).isEqualTo("bigint");
        assertThat(quantity.get("suggested_type").asText()).isEqualTo("smallint");
        assertThat(kinds(column(pg, "orders", "flag"))).contains("constant");
        assertThat(kinds(column(pg, "orders", "created"))).contains("string_holds_timestamp");
    }

    @Test
    void sqlitesScriptAndDatabaseFileReadTheSameRows() {
        JsonNode plain = Cli.analyzeJson(dir.resolve("orders.sql"));
        for (String file : new String[] {"orders-sqlite.sql", "orders.sqlite"}) {
            JsonNode r = Cli.analyzeJson(dir.resolve(file));
            assertThat(r.get("dialect").asText()).as(file).isEqualTo("sqlite");
            assertThat(Cli.table(r, "orders").get("rows").asLong()).as(file).isEqualTo(ROWS);
            for (String c : new String[] {"note", "status", "customer_id", "country"}) {
                assertThat(column(r, "orders", c).get("nulls"))
                        .as(file + " " + c)
                        .isEqualTo(column(plain, "orders", c).get("nulls"));
                assertThat(column(r, "orders", c).get("distinct"))
                        .as(file + " " + c)
                        .isEqualTo(column(plain, "orders", c).get("distinct"));
            }
            // SQLite sizes an integer by its value: there is no narrower INTEGER to suggest
            assertThat(column(r, "orders", "quantity").get("suggested_type").asText())
                    .as(file)
                    .isEqualTo("INTEGER");
            assertThat(kinds(column(r, "orders", "flag"))).as(file).contains("constant");
        }
    }

    @Test
    void aFolderOfPerTableDumpsIsOneDatabase() {
        JsonNode r = Cli.analyzeJson(dir.resolve("shop"));
        assertThat(r.get("dialect").asText()).isEqualTo("mysql");
        assertThat(Cli.table(r, "orders").get("rows").asLong()).isEqualTo(ROWS);
        assertThat(Cli.table(r, "customers").get("rows").asLong()).isEqualTo(3);
        // orders.customer_id names customers' key: one group, decided by the key's 3 rows, which are too
        // few to narrow either side.
        assertThat(column(r, "customers", "customer_id").get("suggested_type").asText())
                .isEqualTo("int(11)");
        assertThat(Cli.detail(column(r, "orders", "customer_id"), "references"))
                .isEqualTo("refers to customers.customer_id (by name)");
        assertThat(column(r, "orders", "customer_id").get("suggested_type").asText())
                .isEqualTo("int(11)");
    }
}

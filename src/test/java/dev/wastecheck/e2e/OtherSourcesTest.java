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

/** The same rows as gzipped mysqldump, CSV, Parquet, JSON and a DuckDB database file. */
class OtherSourcesTest {
    private static final long ROWS = 5_000;

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeTheSameRowsInEveryFormat() throws Exception {
        SyntheticDump.writeMysqldump(dir.resolve("orders.sql"), ROWS, 3);
        SyntheticDump.writeCsv(dir.resolve("orders.csv"), ROWS, 3);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve("orders.sql.gz")))) {
            Files.copy(dir.resolve("orders.sql"), out);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("shop.duckdb")); Statement st = c.createStatement()) {
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
            assertThat(column(r, "orders", "note").get("nulls").asLong()).as(file).isBetween(ROWS / 14, ROWS / 7);
        }
    }
}

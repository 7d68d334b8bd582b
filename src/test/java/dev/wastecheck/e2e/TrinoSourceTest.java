package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.analyzer.load.LiveLoader;
import dev.wastecheck.analyzer.source.LiveSource;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code analyze jdbc:trino://...}: a real Trino profiles TPC-H's {@code lineitem} and
 * {@code orders} where they live (generated SQL in Trino's dialect, Trino's own mergeable
 * aggregates, only the results come back), and finds what the same rows read into the local
 * DuckDB and profiled there find. Runs in the {@code trino} Maven profile (.ci/run enables it),
 * which needs a JDK 24+ for the server and fails without one.
 */
@Tag("trino")
class TrinoSourceTest {
    static TrinoServer trino;

    @BeforeAll
    static void start() throws Exception {
        trino = TrinoServer.get();
    }

    @Test
    void tpchProfiledInsideTrinoFindsWhatTheSameRowsProfiledLocallyFind() {
        String url = trino.url("tpch", "tiny");
        Cli.Result pushed = Cli.run("analyze", "--format", "json", "-q", url);
        Cli.Result fetched = Cli.run("analyze", "--format", "json", "-q", "--fetch-rows", url);
        assertThat(pushed.exitCode()).as(pushed.err()).isZero();
        assertThat(fetched.exitCode()).as(fetched.err()).isZero();
        JsonNode remote = pushed.json();
        JsonNode local = fetched.json();
        assertThat(remote.get("dialect").asText()).isEqualTo("trino");
        for (String table : List.of("lineitem", "orders")) {
            assertThat(Cli.table(remote, table).get("rows"))
                    .isEqualTo(Cli.table(local, table).get("rows"));
            for (JsonNode col : Cli.table(local, table).get("columns")) {
                String name = col.get("name").asText();
                assertThat(Cli.column(remote, table, name))
                        .as(table + "." + name)
                        .isEqualTo(col);
            }
        }
        // TPC-H at scale 0.01: 60,175 line items over 15,000 orders
        assertThat(Cli.table(remote, "lineitem").get("rows").asLong()).isEqualTo(60_175);
        assertThat(Cli.table(remote, "orders").get("rows").asLong()).isEqualTo(15_000);
        // what the generator's value ranges make of Trino's bigint and integer columns
        assertThat(Cli.column(remote, "lineitem", "linenumber")
                        .get("suggested_type")
                        .asText())
                .isEqualTo("tinyint");
        assertThat(Cli.column(remote, "orders", "orderkey")
                        .get("suggested_type")
                        .asText())
                .isEqualTo("integer");
        assertThat(Cli.column(remote, "orders", "shippriority").toString()).contains("constant");
        // Trino has no unsigned integers and no ENUM: neither is ever suggested
        assertThat(remote.toString()).doesNotContainIgnoringCase("unsigned").doesNotContain("ENUM(");
    }

    @Test
    void theSessionIsReadOnlyEvenOnACatalogThatTakesWrites() throws Exception {
        LiveSource source = LiveSource.parse(trino.url("memory", "default"));
        try (Connection c = LiveLoader.connect(source, Map.of());
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.execute("CREATE TABLE memory.default.written (a integer)"))
                    .hasMessageContaining("read-only");
        }
    }

    @Test
    void aUrlWithoutASchemaOrServerExitsTwoWithAClearMessage() {
        Cli.Result noSchema = Cli.run("analyze", "-q", "jdbc:trino://127.0.0.1:" + trino.port() + "/tpch");
        assertThat(noSchema.exitCode()).isEqualTo(2);
        assertThat(noSchema.err()).contains("names no catalog and schema").doesNotContain("\tat ");
        Cli.Result noServer = Cli.run("analyze", "-q", "jdbc:trino://127.0.0.1:1/tpch/tiny");
        assertThat(noServer.exitCode()).isEqualTo(2);
        assertThat(noServer.err()).contains("cannot").doesNotContain("\tat ");
    }
}

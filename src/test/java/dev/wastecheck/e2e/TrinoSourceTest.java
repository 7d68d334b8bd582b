package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.load.LiveLoader;
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
                assertThat(Cli.withoutDependencies(Cli.column(remote, table, name)))
                        .as(table + "." + name)
                        .isEqualTo(Cli.withoutDependencies(col));
            }
        }
        // the dependency search runs on rows read here only, and the pushed-down report says so;
        // on them it finds what TPC-H's generator does: a line item is open ('O') or finished
        // ('F') by its ship date alone
        assertThat(remote.get("warnings").toString()).contains("functional dependencies were not searched");
        assertThat(Cli.column(local, "lineitem", "linestatus").toString())
                .contains("functional_dependency")
                .contains("determined by (shipdate)");
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
    void arraysMapsAndRowsAreProfiledAsTheirJson() throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection(trino.url("memory", "default"), "test", null);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS nested AS SELECT CAST(n AS bigint) AS id,"
                    + " ARRAY['a', CAST(n AS varchar)] AS tags, MAP(ARRAY['k'], ARRAY[n]) AS attrs,"
                    + " CAST(ROW(n, n * 2.5) AS ROW(x integer, y double)) AS pos"
                    + " FROM UNNEST(sequence(1, 300)) AS t(n)");
        }
        // judged on range alone (no evidence floor for 300 rows)
        Cli.Result r = Cli.run("analyze", "--format", "json", "-q", "--min-rows", "0", trino.url("memory", "default"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Cli.table(r.json(), "nested").get("rows").asLong()).isEqualTo(300);
        assertThat(Cli.column(r.json(), "nested", "pos").get("distinct").asLong())
                .isEqualTo(300);
        // the plain columns beside them are judged as ever (an id keeps the policy's room to grow)
        assertThat(Cli.column(r.json(), "nested", "id").get("suggested_type").asText())
                .isIn("smallint", "integer");
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

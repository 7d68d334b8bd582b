package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The profile pushed into a live server ({@code analyze URL}: generated SQL in the server's
 * dialect, only aggregates come back) agrees, column by column, with the same rows read into the
 * local DuckDB and profiled there ({@code analyze --fetch-rows URL}): every figure of every
 * column (nulls, distinct values, minimum and maximum, suggested type, bytes, findings). The rows
 * are chosen to catch where the engines differ: case and trailing spaces (MariaDB's default
 * collation calls 'a', 'A' and 'a ' equal), null markers with backslashes, numbers, dates and
 * UUIDs spelled in text (valid, invalid, non-canonical), impossible dates (February 30th),
 * non-ASCII text, byte strings, decimals whose smallest value is spelled with trailing zeros,
 * floats, and extreme integers.
 */
class PushdownProfileTest {
    static PostgresServer pg;
    static MariaDbServer maria;

    @BeforeAll
    static void start() throws Exception {
        pg = PostgresServer.get();
        maria = MariaDbServer.get();
    }

    /** Rows in the order of {@link #COLUMNS}, as SQL literals. */
    private static List<String> rows() {
        String[] labels = {"'alpha'", "'Alpha'", "'alpha '", "'NULL'", "'\\N'", "'N/A'", "'élan'", "'日本'", "NULL"};
        String[] codes = {"'007'", "'12'", "'-3'", "'12a'", "'99999999999999999999'", "'4.50'", "'0.25'", "NULL"};
        String[] dates = {"'2021-02-28'", "'2021-02-30'", "'2020-02-29'", "'1999-12-31'", "'2021-13-01'", "NULL"};
        String[] ts = {"'2021-02-28 23:59:59'", "'2021-02-28 24:00:00'", "'2000-01-01 00:00:00'", "NULL"};
        String[] ts14 = {"'20210228235959'", "'20210230000000'", "'20000101000000'", "'2000010100000x'"};
        String[] uuids = {
            "'123e4567-e89b-12d3-a456-426614174000'", "'123E4567-E89B-12D3-A456-426614174000'", "'not-a-uuid'"
        };
        String[] flags = {"'yes'", "'no'", "'Y'", "'N'"};
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String amount = i % 7 == 0 ? "NULL" : (i % 5 == 0 ? "-" : "") + (i * 37 % 1000) + "." + (i % 10) + "0";
            String ratio = i % 11 == 0 ? "NULL" : String.valueOf(i % 3 == 0 ? 0.5 * i : i / 8.0);
            String big = i == 0 ? "9223372036854775807" : i == 1 ? "-9223372036854775808" : String.valueOf(i * 1000L);
            out.add("(" + (i + 1) + ", " + labels[i % labels.length] + ", " + codes[i % codes.length] + ", " + amount
                    + ", " + ratio + ", " + dates[i % dates.length] + ", " + ts[i % ts.length] + ", "
                    + ts14[i % ts14.length] + ", " + uuids[i % uuids.length] + ", " + flags[i % flags.length] + ", "
                    + (i % 4 == 0 ? "NULL" : "'" + "note " + (i % 13) + "'") + ", " + big + ", "
                    + (1 + i % 50) + ", " + (i % 3) + ", " + (i % 3 == 0 ? "'x'" : i % 3 == 1 ? "'y'" : "'z'") + ")");
        }
        return out;
    }

    private static final String COLUMNS =
            "(id, label, code, amount, ratio, born, seen, ts14, ref, flag, note, big," + " parent_id, kind, kind_name)";

    private static String insert(String table) {
        return "INSERT INTO " + table + " " + COLUMNS + " VALUES " + String.join(",\n", rows());
    }

    @Test
    void aPostgresqlProfileRunInsideTheServerAgreesWithTheRowsProfiledLocally() throws Exception {
        try (Connection c = pg.createDatabase("pushdown");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE parent (parent_id integer PRIMARY KEY, name text)");
            st.execute("INSERT INTO parent SELECT g, 'p' || g FROM generate_series(1, 60) g");
            st.execute("CREATE TABLE hostile (id integer PRIMARY KEY, label varchar(20), code text,"
                    + " born text, seen text, ts14 varchar(14), ref text, flag text, note text, big bigint,"
                    + " parent_id integer, kind integer, kind_name char(10), amount numeric(12,2),"
                    + " ratio double precision, payload bytea, day date, at timestamp)");
            st.execute(insert("hostile"));
            st.execute("UPDATE hostile SET payload = decode(lpad(to_hex(id % 9), 4, '0'), 'hex'),"
                    + " day = DATE '2020-01-01' + id, at = TIMESTAMP '2020-01-01 00:00:00' + id * interval '1 hour'"
                    + " WHERE id % 6 <> 0");
            st.execute("UPDATE hostile SET payload = convert_to('NULL', 'UTF8') WHERE id = 6");
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
        Cli.Result r = Cli.run("analyze", "--format", "json", "-q", pg.url("pushdown"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        try (Connection c = pg.connect("pushdown");
                Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FILTER (WHERE query ILIKE 'SELECT * FROM%'),"
                        + " count(*) FILTER (WHERE query LIKE '%octet_length%') FROM pg_stat_statements"
                        + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())")) {
            rs.next();
            // the server profiled its own rows and sent none
            assertThat(rs.getLong(1)).isZero();
            assertThat(rs.getLong(2)).isPositive();
        }
        assertAgree(pg.url("pushdown"));
    }

    @Test
    void aMariaDbProfileRunInsideTheServerAgreesWithTheRowsProfiledLocally() throws Exception {
        maria.createDatabase("pushdown");
        try (Connection c = maria.connect("pushdown");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE parent (parent_id int PRIMARY KEY, name varchar(20))");
            StringBuilder parents = new StringBuilder("INSERT INTO parent VALUES ");
            for (int i = 1; i <= 60; i++) {
                parents.append(i > 1 ? "," : "")
                        .append("(")
                        .append(i)
                        .append(", 'p")
                        .append(i)
                        .append("')");
            }
            st.execute(parents.toString());
            // the server's default collation: case-insensitive, padding with spaces
            st.execute("CREATE TABLE hostile (id int PRIMARY KEY, label varchar(20), code varchar(30),"
                    + " born varchar(20), seen varchar(30), ts14 varbinary(14), ref varchar(40), flag varchar(5),"
                    + " note text, big bigint, parent_id int, kind int, kind_name varchar(10),"
                    + " amount decimal(12,2), ratio double, payload varbinary(8), day date, at datetime)"
                    + " DEFAULT CHARSET=utf8mb4");
            st.execute(insert("hostile"));
            st.execute("UPDATE hostile SET payload = UNHEX(LPAD(HEX(id % 9), 4, '0')),"
                    + " day = DATE '2020-01-01' + INTERVAL id DAY,"
                    + " at = TIMESTAMP '2020-01-01 00:00:00' + INTERVAL id HOUR WHERE id % 6 <> 0");
            st.execute("UPDATE hostile SET payload = 'NULL' WHERE id = 6");
        }
        assertAgree(maria.url("pushdown"));
    }

    private static void assertAgree(String url) {
        Cli.Result pushed = Cli.run("analyze", "--format", "json", "-q", "--min-rows", "0", url);
        Cli.Result fetched = Cli.run("analyze", "--format", "json", "-q", "--min-rows", "0", "--fetch-rows", url);
        assertThat(pushed.exitCode()).as(pushed.err()).isZero();
        assertThat(fetched.exitCode()).as(fetched.err()).isZero();
        JsonNode remote = pushed.json();
        JsonNode local = fetched.json();
        for (String table : List.of("parent", "hostile")) {
            assertThat(Cli.table(remote, table).get("rows"))
                    .isEqualTo(Cli.table(local, table).get("rows"));
            for (JsonNode col : Cli.table(local, table).get("columns")) {
                String name = col.get("name").asText();
                assertThat(comparable(Cli.column(remote, table, name)))
                        .as(table + "." + name)
                        .isEqualTo(comparable(col));
            }
        }
        // the case the collations would hide: three spellings of alpha are three values
        assertThat(Cli.column(remote, "hostile", "label").get("distinct").asLong())
                .isEqualTo(8);
        // the reference was found by its values, on the server
        assertThat(remote.get("references").toString()).contains("parent_id");
        // the dependency search needs the rows here: the pushed-down report says it did not run
        assertThat(remote.get("warnings").toString()).contains("functional dependencies were not searched");
        assertThat(local.get("warnings").toString()).doesNotContain("functional dependencies were not searched");
    }

    /**
     * A column's report without what is measured rather than computed from the rows, and without
     * the functional dependencies, which only a profile of rows read here searches (the pushed-down
     * report says so in a warning, asserted above).
     */
    private static JsonNode comparable(JsonNode column) {
        ObjectNode c = (ObjectNode) Cli.withoutDependencies(column);
        c.remove("server_bytes");
        return c;
    }
}

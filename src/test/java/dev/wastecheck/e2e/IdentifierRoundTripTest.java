package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identifiers round-trip exactly: a table and columns whose names hold a double quote, a
 * semicolon, unicode, a space and a reserved word are read from a pg_dump under one name (CREATE
 * TABLE and COPY alike), profiled, and written back in the migration with PostgreSQL's quoting,
 * which then runs on a real PostgreSQL (zonky) and changes the types without changing a value.
 */
class IdentifierRoundTripTest {
    private static EmbeddedPostgres pg;

    private static final String TABLE = "we\"ird;tab";
    private static final List<String> COLUMNS = List.of("or\"der", "x;y", "select", "ünï cöl");

    @BeforeAll
    static void start() throws Exception {
        pg = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        pg.close();
    }

    private static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static Path pgDump(Path dir) throws Exception {
        StringBuilder sql = new StringBuilder("--\n-- PostgreSQL database dump\n--\n\nSET standard_conforming_strings = on;\n\n");
        sql.append("CREATE TABLE public.").append(quote(TABLE)).append(" (\n    ").append(quote(COLUMNS.get(0))).append(" integer NOT NULL,\n    ")
                .append(quote(COLUMNS.get(1))).append(" text NOT NULL,\n    ").append(quote(COLUMNS.get(2))).append(" integer,\n    ")
                .append(quote(COLUMNS.get(3))).append(" character varying(50)\n);\n\n");
        sql.append("COPY public.").append(quote(TABLE)).append(" (")
                .append(String.join(", ", COLUMNS.stream().map(IdentifierRoundTripTest::quote).toList())).append(") FROM stdin;\n");
        String[] kinds = {"alpha", "beta", "gamma"};
        for (int i = 1; i <= 90; i++) {
            sql.append((i * 37) % 500).append('\t').append(kinds[i % 3]).append('\t').append(i % 7).append('\t')
                    .append(i % 10 == 0 ? "\\N" : "v" + i).append('\n');
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
        assertThat(t.get("columns").findValuesAsText("declared_type")).containsExactly("integer", "text", "integer",
                "character varying(50)");

        Cli.Result tuned = Cli.run("tune", "-q", dump.toString());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        String migration = tuned.out();
        assertThat(migration).contains(quote(TABLE)).contains("ALTER TABLE");

        try (Connection admin = pg.getPostgresDatabase().getConnection(); Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE odd_names");
        }
        try (Connection c = pg.getDatabase("postgres", "odd_names").getConnection()) {
            load(c, dump);
            Map<String, String> before = types(c);
            List<String> rowsBefore = rows(c, before);
            try (Statement st = c.createStatement()) {
                st.execute(migration);
            }
            Map<String, String> after = types(c);
            assertThat(after.keySet()).containsExactlyElementsOf(COLUMNS);
            assertThat(after).as("some column changed type").isNotEqualTo(before);
            assertThat(rows(c, before)).as("every row, read in the original types").isEqualTo(rowsBefore);
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
        org.postgresql.copy.CopyManager cm = c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
        cm.copyIn(sql.substring(copy, copyEnd - 1), new java.io.StringReader(sql.substring(copyEnd + 1, dataEnd)));
    }

    /** The table's columns and their types, as PostgreSQL has them, in order. */
    private static Map<String, String> types(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                        + "WHERE c.relname = " + "'" + TABLE.replace("'", "''") + "' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Every row, each value cast back to its original type and printed by PostgreSQL, sorted. */
    private static List<String> rows(Connection c, Map<String, String> originalTypes) throws SQLException {
        List<String> exprs = new ArrayList<>();
        originalTypes.forEach((col, type) -> exprs.add("coalesce(CAST(" + quote(col) + " AS " + type + ")::text, '<null>')"));
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT concat_ws('|', " + String.join(", ", exprs) + ") AS r FROM public." + quote(TABLE) + " ORDER BY r")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}

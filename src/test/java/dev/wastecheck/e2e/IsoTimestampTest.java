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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ISO-8601 timestamps written as text, the spelling of JSON APIs and pandas
 * ({@code 2013-01-01T10:00:00Z}): recognised in a mysqldump, a pg_dump, a CSV and a JSON file,
 * the finding saying what the offset means, and the migration run on a real MariaDB and a real
 * PostgreSQL reading every value back as written (PostgreSQL in a session in another time zone,
 * where a {@code timestamptz} prints otherwise). Spellings no type gives back (an offset other
 * than UTC; milliseconds on MySQL) keep their text.
 */
class IsoTimestampTest {
    private static final int ROWS = 1200;
    private static final String[] COLUMNS = {"z", "ms", "off", "us", "t", "uz"};

    /** Row i's values, or null for the NULL every 50th row holds in {@code z}. */
    private static String[] values(int i) {
        String d = String.format("2013-%02d-%02dT%02d:%02d:%02d", 1 + i % 12, 1 + i % 28, i % 24, i % 60, (i * 7) % 60);
        return new String[] {
            i % 50 == 0 ? null : d + "Z",
            d + ".123Z",
            d + "+02:00",
            d.replace('T', ' ') + "." + String.format("%06d", i * 37 % 1_000_000),
            d,
            d + ".654321+00:00"
        };
    }

    private static Path mysqldump(Path dir) throws Exception {
        StringBuilder b = new StringBuilder("-- MySQL dump 10.13\nCREATE TABLE `ev` (\n  `id` bigint NOT NULL,\n");
        for (String c : COLUMNS) {
            b.append("  `").append(c).append("` text,\n");
        }
        b.append("  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\nINSERT INTO `ev` VALUES ");
        for (int i = 1; i <= ROWS; i++) {
            b.append(i > 1 ? "," : "").append('(').append(i);
            for (String v : values(i)) {
                b.append(',').append(v == null ? "NULL" : "'" + v + "'");
            }
            b.append(')');
        }
        Path p = dir.resolve("ev.sql");
        Files.writeString(p, b.append(";\n"));
        return p;
    }

    private static Path pgDump(Path dir) throws Exception {
        StringBuilder b = new StringBuilder(
                "--\n-- PostgreSQL database dump\n--\nCREATE TABLE public.ev (\n    id bigint NOT NULL PRIMARY KEY");
        for (String c : COLUMNS) {
            b.append(",\n    ").append(c).append(" text");
        }
        b.append("\n);\nCOPY public.ev (id, ")
                .append(String.join(", ", COLUMNS))
                .append(") FROM stdin;\n");
        for (int i = 1; i <= ROWS; i++) {
            b.append(i);
            for (String v : values(i)) {
                b.append('\t').append(v == null ? "\\N" : v);
            }
            b.append('\n');
        }
        Path p = dir.resolve("ev.pg.sql");
        Files.writeString(p, b.append("\\.\n"));
        return p;
    }

    private static JsonNode finding(JsonNode column) {
        for (JsonNode f : column.get("findings")) {
            if (f.get("kind").asText().equals("string_holds_timestamp")) {
                return f;
            }
        }
        return null;
    }

    @Test
    void aMysqldumpsIsoTextBecomesDatetimeInUtcAndReadsBackOnMariaDb(@TempDir Path dir) throws Exception {
        Path dump = mysqldump(dir);
        JsonNode r = Cli.analyzeJson(dump);
        assertThat(Cli.column(r, "ev", "z").get("suggested_type").asText()).isEqualTo("DATETIME");
        assertThat(finding(Cli.column(r, "ev", "z")).get("detail").asText())
                .contains("ISO-8601 timestamps 'YYYY-MM-DDTHH:MM:SSZ'", "in UTC (the 'Z' suffix)", "not TIMESTAMP");
        assertThat(Cli.column(r, "ev", "us").get("suggested_type").asText()).isEqualTo("DATETIME(6)");
        assertThat(Cli.column(r, "ev", "t").get("suggested_type").asText()).isEqualTo("DATETIME");
        assertThat(Cli.column(r, "ev", "uz").get("suggested_type").asText()).isEqualTo("DATETIME(6)");
        // +02:00 keeps text (the offset would be lost); so do milliseconds on MySQL (no format prints .123)
        assertThat(finding(Cli.column(r, "ev", "off"))).isNull();
        assertThat(finding(Cli.column(r, "ev", "ms"))).isNull();

        MariaDbServer server = MariaDbServer.get();
        server.createDatabase("iso_ev");
        server.load("iso_ev", dump);
        List<String> before = rowsMariaDb(server, "SELECT CONCAT_WS('|', id, IFNULL(z, 'NULL'), us, t, uz) FROM ev");
        Path migration = dir.resolve("migration.sql");
        Cli.Result sql = Cli.run("tune", "-q", "--representation", "all", "-o", migration.toString(), dump.toString());
        assertThat(sql.exitCode()).as(sql.err()).isZero();
        MariaDbServer.ClientRun run = server.source("iso_ev", null, migration);
        assertThat(run.exitCode())
                .as(Files.readString(migration) + "\n" + run.err())
                .isZero();
        try (Connection c = server.connect("iso_ev");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT column_name, column_type FROM information_schema.columns "
                        + "WHERE table_schema = 'iso_ev' AND table_name = 'ev' ORDER BY ordinal_position")) {
            List<String> types = new ArrayList<>();
            while (rs.next()) {
                types.add(rs.getString(1) + " " + rs.getString(2));
            }
            assertThat(types).contains("z datetime", "us datetime(6)", "t datetime", "uz datetime(6)", "off text");
        }
        List<String> after = rowsMariaDb(
                server,
                "SELECT CONCAT_WS('|', id, IFNULL(DATE_FORMAT(z, '%Y-%m-%dT%H:%i:%sZ'), 'NULL'), "
                        + "DATE_FORMAT(us, '%Y-%m-%d %H:%i:%s.%f'), DATE_FORMAT(t, '%Y-%m-%dT%H:%i:%s'), "
                        + "DATE_FORMAT(uz, '%Y-%m-%dT%H:%i:%s.%f+00:00')) FROM ev");
        assertThat(after).hasSize(ROWS).isEqualTo(before);
    }

    @Test
    void aPgDumpsIsoTextBecomesTimestamptzAndReadsBackInAnotherTimeZone(@TempDir Path dir) throws Exception {
        Path dump = pgDump(dir);
        JsonNode r = Cli.analyzeJson(dump);
        assertThat(Cli.column(r, "ev", "z").get("suggested_type").asText()).isEqualTo("timestamp with time zone");
        assertThat(finding(Cli.column(r, "ev", "z")).get("detail").asText())
                .contains("an instant in UTC (the 'Z' suffix)");
        assertThat(Cli.column(r, "ev", "ms").get("suggested_type").asText()).isEqualTo("timestamp with time zone");
        assertThat(Cli.column(r, "ev", "us").get("suggested_type").asText()).isEqualTo("timestamp");
        assertThat(Cli.column(r, "ev", "t").get("suggested_type").asText()).isEqualTo("timestamp");
        assertThat(finding(Cli.column(r, "ev", "off"))).isNull();

        Cli.Result tune = Cli.run("tune", "-q", "--representation", "all", dump.toString());
        assertThat(tune.exitCode()).as(tune.err()).isZero();
        String migration = tune.out();
        PostgresServer pg = PostgresServer.get();
        try (Connection c = pg.createDatabase("iso_ev")) {
            TunePostgresTest.load(c, dump);
            List<String> before = rows(c, "SELECT concat_ws('|', id, coalesce(z, 'NULL'), ms, us, t, uz) FROM ev");
            try (Connection m = pg.connect("iso_ev");
                    Statement st = m.createStatement()) {
                st.execute("SET TIME ZONE 'America/New_York'");
                st.execute(migration);
            }
            assertThat(TunePostgresTest.columnTypes(c).get("ev"))
                    .contains(
                            "z timestamp with time zone",
                            "ms timestamp with time zone",
                            "us timestamp without time zone",
                            "t timestamp without time zone",
                            "uz timestamp with time zone",
                            "off text");
            try (Statement st = c.createStatement()) {
                st.execute("SET TIME ZONE 'Asia/Kolkata'"); // a reader elsewhere: the instants print in UTC below
            }
            List<String> after = rows(
                    c,
                    "SELECT concat_ws('|', id, coalesce(to_char(z AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"
                            + " 'NULL'), to_char(ms AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
                            + " to_char(us, 'YYYY-MM-DD HH24:MI:SS.US'), to_char(t, 'YYYY-MM-DD\"T\"HH24:MI:SS'),"
                            + " to_char(uz AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"')) FROM ev");
            assertThat(after).hasSize(ROWS).isEqualTo(before);
        }
    }

    @Test
    void csvAndJsonReadIsoTextAsTimestampsWithTheOffsetsMeaning(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("id,z,t\n");
        StringBuilder json = new StringBuilder();
        for (int i = 1; i <= 50; i++) {
            String[] v = values(i);
            String z = v[0] == null ? "" : v[0];
            csv.append(i).append(',').append(z).append(',').append(v[4]).append('\n');
            json.append("{\"id\":")
                    .append(i)
                    .append(",\"z\":")
                    .append(v[0] == null ? "null" : "\"" + z + "\"")
                    .append(",\"t\":\"")
                    .append(v[4])
                    .append("\"}\n");
        }
        Path c = dir.resolve("ev.csv");
        Files.writeString(c, csv);
        Path j = dir.resolve("ev.json");
        Files.writeString(j, json);
        for (Path p : List.of(c, j)) {
            JsonNode r = Cli.analyzeJson(p);
            // DuckDB's readers take the Z as UTC: an instant, TIMESTAMP WITH TIME ZONE; no offset, a TIMESTAMP
            assertThat(Cli.column(r, "ev", "z").get("declared_type").asText())
                    .as(p.toString())
                    .isEqualTo("TIMESTAMP WITH TIME ZONE");
            assertThat(Cli.column(r, "ev", "t").get("declared_type").asText())
                    .as(p.toString())
                    .isEqualTo("TIMESTAMP");
            assertThat(Cli.column(r, "ev", "z").get("nulls").asLong()).isEqualTo(1);
        }
    }

    private static List<String> rowsMariaDb(MariaDbServer server, String query) throws SQLException {
        try (Connection c = server.connect("iso_ev")) {
            return rows(c, query + " ORDER BY id");
        }
    }

    private static List<String> rows(Connection c, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query.contains("ORDER BY") ? query : query + " ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}

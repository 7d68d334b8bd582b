package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wastecheck tune} on the real Chinook PostgreSQL script, and its migration run on a real
 * PostgreSQL holding the same rows: the migration must run as written, every value of every
 * table must read back unchanged in its original type, and the tables must take fewer bytes on
 * disk, as PostgreSQL itself counts them.
 */
class TunePostgresTest {
    static PostgresServer pg;

    @BeforeAll
    static void start() throws Exception {
        pg = PostgresServer.get();
    }

    /**
     * The migrations here prove tune's mechanics on PostgreSQL (partitions, views, enums, the heap
     * estimate), so they lower the evidence threshold and the key floor that keep the default advice
     * from touching these small databases' keys (docs/analyze.md, "Growth").
     */
    static final List<String> MECHANICS = List.of("--min-rows", "0", "--key-floor", "2", "--representation", "all");

    /** A fresh database on the JVM's server. */
    static Connection database(String name) throws SQLException {
        return pg.createDatabase(name);
    }

    @Test
    @Tag("real-data")
    void chinookMigrationRunsOnPostgresqlLosesNoValueAndShrinksTheTables() throws Exception {
        Path script = Cli.data("chinook/Chinook_PostgreSql.sql");
        String migration = tune(script);
        assertThat(migration)
                .contains("ALTER COLUMN \"genre_id\" TYPE smallint")
                // an INT that only ever holds 1 gives no range to size a type by
                .doesNotContain("ALTER COLUMN \"quantity\" TYPE")
                .contains("ALTER COLUMN \"invoice_date\" TYPE date");
        try (Connection c = database("chinook")) {
            load(c, script);
            Outcome o = applyAndCompare(c, () -> pg.connect("chinook"), migration, "chinook");
            assertThat(o.types().get("genre")).contains("genre_id smallint");
            assertThat(o.types().get("invoice")).contains("invoice_date date");
            // tune's row-by-row heap estimate against what PostgreSQL stores: to the page, here
            assertThat(estimatedSaving(script))
                    .isCloseTo(o.heapBefore() - o.heapAfter(), org.assertj.core.data.Offset.offset(2 * 8192L));
            assertHeapPredicted(new Path[] {script}, o, "chinook");
            // and with the columns in alignment order, as a rewrite would lay them out
            long reordered = reorderedHeap(c);
            long estimated = estimate(script, "heap_bytes_reordered");
            System.out.printf("chinook reordered by alignment: heap %d bytes, estimated %d%n", reordered, estimated);
            assertThat(estimated).isCloseTo(reordered, org.assertj.core.data.Offset.offset(2 * 8192L));
        }
    }

    /** Every public table copied with its columns in alignment order (fixed first, widest alignment first), then measured. */
    static long reorderedHeap(Connection c) throws SQLException {
        Map<String, List<String>> order = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
                                + "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid "
                                + "WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped "
                                + "ORDER BY c.relname, a.attlen = -1, CASE a.attalign WHEN 'd' THEN 0 WHEN 'i' THEN 1 WHEN 's' THEN 2 ELSE 3 END, "
                                + "a.attlen DESC, a.attnum")) {
            while (rs.next()) {
                order.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add('"' + rs.getString(2) + '"');
            }
        }
        long bytes = 0;
        try (Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA reordered");
            for (Map.Entry<String, List<String>> e : order.entrySet()) {
                st.execute("CREATE TABLE reordered.\"" + e.getKey() + "\" AS SELECT " + String.join(", ", e.getValue())
                        + " FROM public.\"" + e.getKey() + "\"");
            }
            st.execute("VACUUM FULL");
            try (ResultSet rs =
                    st.executeQuery("SELECT sum(pg_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
                            + "ON n.oid = c.relnamespace WHERE n.nspname = 'reordered' AND c.relkind = 'r'")) {
                rs.next();
                bytes = rs.getLong(1);
            }
        }
        return bytes;
    }

    static long estimate(Path script, String key) {
        List<String> args = new ArrayList<>(List.of("tune", "-q", "--format", "json", script.toString()));
        args.addAll(MECHANICS);
        Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.json().get("totals").get(key).asLong();
    }

    /**
     * Pagila as pg_dump wrote it: COPY data, partitions of payment, eight views and a
     * materialized view over the changed tables, a domain, an enum type, arrays and tsvector.
     */
    @Test
    @Tag("real-data")
    void pagilaMigrationChangesPartitionsThroughTheParentAndKeepsItsViews() throws Exception {
        Path schema = Cli.data("pagila-pgdump/pagila-schema.sql");
        Path data = Cli.data("pagila-pgdump/pagila-data.sql");
        String migration = tune(schema, data);
        assertThat(migration)
                .contains("ALTER TABLE \"public\".\"payment\"")
                .doesNotContain("\"payment_p2022_01\"\n")
                .contains(
                        "DROP MATERIALIZED VIEW public.rental_by_category;",
                        "REFRESH MATERIALIZED VIEW public.rental_by_category;")
                .doesNotContain("\"special_features\" TYPE", "\"release_year\" TYPE");
        try (Connection c = database("pagila")) {
            load(c, schema);
            load(c, data);
            List<String> viewsBefore = views(c);
            Outcome o = applyAndCompare(c, () -> pg.connect("pagila"), migration, "pagila");
            assertThat(o.types().get("payment")).contains("customer_id smallint");
            assertThat(o.types().get("payment_p2022_03")).contains("customer_id smallint");
            assertThat(estimatedSaving(schema, data))
                    .isCloseTo(o.heapBefore() - o.heapAfter(), org.assertj.core.data.Offset.offset(2 * 8192L));
            assertHeapPredicted(new Path[] {schema, data}, o, "pagila");
            assertThat(views(c)).isEqualTo(viewsBefore);
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM public.rental_by_category")) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("the re-created materialized view holds its rows")
                        .isPositive();
            }
        }
    }

    /**
     * Text that becomes an enum and a timestamp, run by a session in a time zone with a DST gap
     * at one of the values: the enum's type is created, the compact timestamp inside the gap
     * keeps its wall-clock value, and the column types whose meaning a value check cannot see
     * (an instant as a date, numeric as integer) stay as declared.
     */
    @Test
    void enumsAndCompactTimestampsSurviveASessionInAnotherTimeZone(@TempDir Path dir) throws Exception {
        StringBuilder sql = new StringBuilder("""
                CREATE TABLE events (
                    id integer NOT NULL PRIMARY KEY,
                    kind text NOT NULL,
                    stamp character varying(14) NOT NULL,
                    happened timestamp with time zone NOT NULL,
                    amount numeric(10,2) NOT NULL
                );
                """);
        String[] kinds = {"click", "view", "buy"};
        for (int i = 1; i <= 60; i++) {
            String stamp = i == 7 ? "20200329023000" : String.format("202001%02d1%d3000", 1 + i % 28, i % 10);
            sql.append(String.format(
                    "INSERT INTO events VALUES (%d, '%s', '%s', '2020-01-%02d 00:00:00+00', %d.00);%n",
                    i, kinds[i % 3], stamp, 1 + i % 28, i));
        }
        Path script = dir.resolve("events.sql");
        Files.writeString(script, sql);
        String migration = tune(script);
        assertThat(migration)
                .contains("CREATE TYPE \"events_kind_enum\" AS ENUM ('buy', 'click', 'view');")
                .contains("ALTER COLUMN \"stamp\" TYPE timestamp")
                .doesNotContain("\"happened\" TYPE", "\"amount\" TYPE")
                .contains("events.happened timestamp with time zone -> ");
        try (Connection c = database("events")) {
            load(c, script);
            List<String> before = rows(c, "SELECT id || '|' || kind || '|' || stamp FROM events ORDER BY id");
            try (Connection m = pg.connect("events");
                    Statement st = m.createStatement()) {
                st.execute("SET TIME ZONE 'Europe/Berlin'"); // 2020-03-29 02:30 does not exist there
                st.execute(migration);
            }
            List<String> after = rows(
                    c,
                    "SELECT id || '|' || kind::text || '|' || to_char(stamp, 'YYYYMMDDHH24MISS') FROM events ORDER BY id");
            assertThat(after).isEqualTo(before);
            assertThat(columnTypes(c).get("events"))
                    .contains("kind events_kind_enum", "stamp timestamp without time zone");
        }
    }

    /**
     * Small dumps of what PostgreSQL refuses to change, found in review: an identity column whose
     * sequence is far ahead, a partition key that is an expression, a column-level REFERENCES, a
     * view that compares a text column with text, inheritance children holding values the
     * parent's rows do not show. Each migration must run as written and lose nothing.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"ident", "part", "fk", "view", "inh", "inh2", "inh3", "schema"})
    void migrationsOfSchemasPostgresqlGuardsRunAsWritten(String name, @TempDir Path dir) throws Exception {
        Path script = dir.resolve("pg-" + name + ".sql");
        try (java.io.InputStream in = TunePostgresTest.class.getResourceAsStream("/tune/pg-" + name + ".sql")) {
            Files.copy(in, script);
        }
        String migration = tune(script);
        String db = "guard_" + name;
        try (Connection c = database(db)) {
            load(c, script);
            applyAndCompare(c, () -> pg.connect(db), migration, name);
        }
    }

    /**
     * Not a test: the heap estimate against PostgreSQL on a dump of the user's choosing, for
     * docs/benchmarks.md. {@code -Dwastecheck.tune.pgdump=FILE} (a plain pg_dump).
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "wastecheck.tune.pgdump", matches = ".+")
    void heapEstimateAgainstPostgresqlOnAGivenDump() throws Exception {
        Path dump = Path.of(System.getProperty("wastecheck.tune.pgdump"));
        long t0 = System.nanoTime();
        Cli.Result r = Cli.run("tune", "-q", "--format", "json", dump.toString());
        long tuneMillis = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.exitCode()).as(r.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode totals = r.json().get("totals");
        String migration = tune(dump);
        try (Connection c = database("given")) {
            load(c, dump);
            Outcome o = applyAndCompare(
                    c, () -> pg.connect("given"), migration, dump.getFileName().toString());
            System.out.printf(
                    "estimate %d -> %d (saves %d); PostgreSQL %d -> %d (saves %d); tune took %d ms in-process%n",
                    totals.get("heap_bytes_before").asLong(),
                    totals.get("heap_bytes_after").asLong(),
                    totals.get("heap_bytes_before").asLong()
                            - totals.get("heap_bytes_after").asLong(),
                    o.heapBefore(),
                    o.heapAfter(),
                    o.heapBefore() - o.heapAfter(),
                    tuneMillis);
        }
    }

    private static List<String> rows(Connection c, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static String tune(Path... sources) {
        List<String> args = new ArrayList<>(List.of("tune", "-q"));
        for (Path p : sources) {
            args.add(p.toString());
        }
        args.addAll(MECHANICS);
        Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith("-- wastecheck tune: a migration for PostgreSQL")
                .contains("BEGIN;", "COMMIT;");
        return r.out();
    }

    interface Connect {
        Connection get() throws SQLException;
    }

    /**
     * Runs the migration in a fresh session (as a user would, with the default search_path) and
     * checks that every row of every table reads back the same in its original column types,
     * and that the tables' heap is smaller. Returns the columns' types afterwards.
     */
    record Outcome(
            Map<String, List<String>> types,
            long heapBefore,
            long heapAfter,
            Map<String, Long> tablesBefore,
            Map<String, Long> tablesAfter) {}

    static Outcome applyAndCompare(Connection c, Connect fresh, String migration, String label) throws Exception {
        Map<String, ServerValues.Table> before = ServerValues.read(c, ServerValues.Engine.POSTGRESQL);
        long bytesBefore = ServerValues.heapSizes(c).values().stream()
                .mapToLong(Long::longValue)
                .sum();
        Map<String, Long> heapBefore = heapTrees(c);
        try (Connection m = fresh.get();
                Statement st = m.createStatement()) {
            st.execute(migration);
        }
        Map<String, ServerValues.Table> after = ServerValues.read(c, ServerValues.Engine.POSTGRESQL);
        long bytesAfter = ServerValues.heapSizes(c).values().stream()
                .mapToLong(Long::longValue)
                .sum();
        Map<String, Long> heapAfter = heapTrees(c);
        ServerValues.assertSameValues(before, after, label);
        assertThat(bytesAfter).as("heap bytes after VACUUM FULL").isLessThanOrEqualTo(bytesBefore);
        System.out.printf(
                "%s on PostgreSQL: table heap %d -> %d bytes (%.3fx), as pg_relation_size counts after VACUUM FULL%n",
                label, bytesBefore, bytesAfter, (double) bytesBefore / bytesAfter);
        return new Outcome(columnTypes(c), bytesBefore, bytesAfter, heapBefore, heapAfter);
    }

    /** tune's own estimate of the heap PostgreSQL saves, from its JSON. */
    static long estimatedSaving(Path... sources) {
        List<String> args = new ArrayList<>(List.of("tune", "-q", "--format", "json"));
        for (Path p : sources) {
            args.add(p.toString());
        }
        args.addAll(MECHANICS);
        Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode totals = r.json().get("totals");
        return totals.get("heap_bytes_before").asLong()
                - totals.get("heap_bytes_after").asLong();
    }

    static List<String> views(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT c.relname::text || ' ' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                + "WHERE n.nspname = 'public' AND c.relkind IN ('v', 'm') ORDER BY 1")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * Runs a SQL script the way psql would: statements split outside quotes, dollar quotes and
     * comments; {@code COPY ... FROM stdin} fed its data lines through the COPY protocol; psql's
     * meta-commands and CREATE/DROP DATABASE (the test made the database) left out.
     */
    static void load(Connection c, Path script) throws Exception {
        String sql = Files.readString(script, StandardCharsets.UTF_8);
        org.postgresql.copy.CopyManager copy =
                c.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
        int i = 0;
        try (Statement st = c.createStatement()) {
            while (i < sql.length()) {
                int end = statementEnd(sql, i);
                String statement = sql.substring(i, end).strip();
                i = end;
                String head = statement
                        .replaceAll("(?s)/\\*.*?\\*/", "")
                        .replaceAll("(?m)^\\s*--.*$", "")
                        .strip();
                String lower = head.toLowerCase(java.util.Locale.ROOT);
                if (head.isEmpty() || lower.startsWith("drop database") || lower.startsWith("create database")) {
                    continue;
                }
                if (head.startsWith("\\")) { // a meta-command ends at its line
                    continue;
                }
                if (lower.startsWith("copy ") && lower.contains("from stdin")) {
                    int dataStart = sql.indexOf('\n', i) + 1;
                    int dataEnd = sql.indexOf("\n\\.\n", dataStart - 1);
                    String rows = dataEnd < dataStart ? "" : sql.substring(dataStart, dataEnd + 1);
                    copy.copyIn(head, new java.io.StringReader(rows));
                    i = dataEnd < 0 ? sql.length() : dataEnd + 3;
                    continue;
                }
                st.execute(head);
            }
            st.execute("RESET ALL"); // pg_dump empties search_path for its session
        }
    }

    /** Where the statement from {@code i} ends: after its semicolon, or at the end of a meta-command's line. */
    static int statementEnd(String sql, int i) {
        int n = sql.length();
        int k = i;
        while (k < n && Character.isWhitespace(sql.charAt(k))) {
            k++;
        }
        if (k < n && sql.charAt(k) == '\\') {
            int eol = sql.indexOf('\n', k);
            return eol < 0 ? n : eol + 1;
        }
        while (k < n) {
            char ch = sql.charAt(k);
            if (ch == '\'') {
                k = sql.indexOf('\'', k + 1);
                if (k < 0) {
                    return n;
                }
            } else if (ch == '-' && k + 1 < n && sql.charAt(k + 1) == '-') {
                k = sql.indexOf('\n', k);
                if (k < 0) {
                    return n;
                }
            } else if (ch == '/' && k + 1 < n && sql.charAt(k + 1) == '*') {
                k = sql.indexOf("*/", k + 2) + 1;
                if (k <= 0) {
                    return n;
                }
            } else if (ch == '$') {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$[A-Za-z_]*\\$")
                        .matcher(sql)
                        .region(k, n);
                if (m.lookingAt()) {
                    int close = sql.indexOf(m.group(), m.end());
                    k = close < 0 ? n : close + m.group().length() - 1;
                }
            } else if (ch == ';') {
                return k + 1;
            }
            k++;
        }
        return n;
    }

    /** Each public table's columns as "name type" (its full type, as format_type prints it), in order. */
    static Map<String, List<String>> columnTypes(Connection c) throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
                                + "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
                                + "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped "
                                + "ORDER BY c.relname, a.attnum")) {
            while (rs.next()) {
                out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
                        .add(rs.getString(2) + " " + rs.getString(3));
            }
        }
        return out;
    }

    /**
     * Each public table's heap with its partitions and inheritance children (as tune estimates a
     * partitioned table), after the VACUUM FULL before it.
     */
    static Map<String, Long> heapTrees(Connection c) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT p.relname, (WITH RECURSIVE tree(oid) AS (SELECT p.oid UNION ALL SELECT i.inhrelid FROM pg_inherits i "
                                + "JOIN tree t ON i.inhparent = t.oid) SELECT sum(pg_relation_size(oid)) FROM tree) FROM pg_class p "
                                + "JOIN pg_namespace n ON n.oid = p.relnamespace WHERE n.nspname = 'public' AND p.relkind IN ('r', 'p') ORDER BY 1")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }

    /**
     * tune's heap estimate of the tables it changes against PostgreSQL's own sizes, before and
     * after: printed per table, the total within 10%.
     */
    static void assertHeapPredicted(Path[] sources, Outcome o, String label) {
        List<String> args = new ArrayList<>(List.of("tune", "-q", "--format", "json"));
        for (Path p : sources) {
            args.add(p.toString());
        }
        args.addAll(MECHANICS); // the same advice as the migration that was applied
        Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertThat(r.exitCode()).as(r.err()).isZero();
        Map<String, Long> measuredBefore = new LinkedHashMap<>();
        Map<String, Long> measuredAfter = new LinkedHashMap<>();
        o.tablesBefore().forEach((k, v) -> measuredBefore.put(k.toLowerCase(java.util.Locale.ROOT), v));
        o.tablesAfter().forEach((k, v) -> measuredAfter.put(k.toLowerCase(java.util.Locale.ROOT), v));
        com.fasterxml.jackson.databind.node.ObjectNode predicted =
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        com.fasterxml.jackson.databind.node.ArrayNode tables = predicted.putArray("tables");
        for (com.fasterxml.jackson.databind.JsonNode t : r.json().get("tables")) {
            if (t.has("heap_bytes_before")) {
                tables.addObject()
                        .put("name", t.get("name").asText().toLowerCase(java.util.Locale.ROOT))
                        .put("bytes_before", t.get("heap_bytes_before").asLong())
                        .put("bytes_after", t.get("heap_bytes_after").asLong());
            }
        }
        MigrationCycle.compare(
                label,
                "PostgreSQL heap, pg_relation_size after VACUUM FULL",
                predicted,
                measuredBefore,
                measuredAfter,
                0.10);
    }
}

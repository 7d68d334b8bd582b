package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The space outside the column values on real servers: bloat made by deleting half of a table is
 * found, each index's bytes are the server's own, a counter near its type's end is a finding, and
 * the per-table account (tight rows + waste + row overhead + indexes + free + dead) adds up to the
 * server's figure within 5% where the rows are walked by the storage model ({@code --fetch-rows}).
 */
class SpaceTest {
    private static PostgresServer pg;
    private static MariaDbServer maria;

    @BeforeAll
    static void servers() throws Exception {
        pg = PostgresServer.get();
        maria = MariaDbServer.get();
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String text(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static List<String> kinds(JsonNode space) {
        List<String> out = new ArrayList<>();
        space.get("findings").forEach(f -> out.add(f.get("kind").asText()));
        return out;
    }

    private static JsonNode index(JsonNode space, String name) {
        for (JsonNode ix : space.get("indexes")) {
            if (ix.get("name").asText().equalsIgnoreCase(name)) {
                return ix;
            }
        }
        throw new AssertionError("no index " + name + " in " + space);
    }

    /** The report of {@code args}, checked to hold a space object for {@code table}. */
    private static JsonNode space(String table, String... args) {
        Cli.Result r = Cli.run(args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Cli.table(r.json(), table).has("space")).as(r.err()).isTrue();
        return r.json();
    }

    @Test
    void postgresqlHalfDeletedTableShowsItsDeadAndFreeSpaceAndAccountAddsUp() throws Exception {
        long total;
        long pkey;
        long byGroup;
        try (Connection c = pg.createDatabase("space_pg");
                Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pgstattuple");
            st.execute("CREATE TABLE note (id integer PRIMARY KEY, grp bigint NOT NULL, body text NOT NULL)");
            st.execute("CREATE INDEX note_grp ON note (grp)");
            st.execute("INSERT INTO note SELECT g, g % 50, repeat('x', 80 + g % 40) FROM generate_series(1, 40000) g");
            st.execute("DELETE FROM note WHERE id % 2 = 0");
            // a smallserial at 30,000 of 32,767: 91.6% of its range
            st.execute("CREATE TABLE counter (id smallserial PRIMARY KEY, v integer)");
            st.execute("INSERT INTO counter (v) VALUES (1)");
            st.execute("SELECT setval('counter_id_seq', 30000)");
            total = single(c, "SELECT pg_total_relation_size('note')");
            pkey = single(c, "SELECT pg_relation_size('note_pkey')");
            byGroup = single(c, "SELECT pg_relation_size('note_grp')");
        }
        // the default: pgstattuple_approx (installed here)
        JsonNode report = space("note", "analyze", "--format", "json", "-q", pg.url("space_pg"));
        JsonNode note = Cli.table(report, "note").get("space");
        assertThat(note.get("method").asText()).isEqualTo("pgstattuple_approx");
        assertThat(index(note, "note_pkey").get("measured_bytes").asLong()).isEqualTo(pkey);
        assertThat(index(note, "note_grp").get("measured_bytes").asLong()).isEqualTo(byGroup);
        assertThat(note.get("engine_bytes").asLong()).isEqualTo(total);
        long heap = note.get("data_bytes").asLong();
        long beyond = note.get("dead_bytes").asLong() + note.get("free_bytes").asLong();
        assertThat(beyond)
                .as("dead + free of a %d-byte heap, half its rows deleted", heap)
                .isBetween(heap * 4 / 10, heap * 6 / 10);
        assertThat(kinds(note)).contains("space_account").containsAnyOf("dead_space", "free_space");
        // grp's tight type (bigint holding 0..49 becomes smallint) saves nothing in its index: an
        // index tuple is padded to 8 bytes (MAXALIGN) either way, and its 50 keys sit in posting lists
        JsonNode grp = index(note, "note_grp");
        assertThat(grp.get("tight_bytes").asLong())
                .isEqualTo(grp.get("predicted_bytes").asLong());
        JsonNode counter = Cli.table(report, "counter").get("space");
        assertThat(counter.get("headroom").get("percent_used").asDouble()).isCloseTo(91.6, within(0.1));
        assertThat(kinds(counter)).contains("sequence_headroom");
        assertThat(kinds(note)).doesNotContain("sequence_headroom");

        // exact: pgstattuple reads every page; the heap's rows walked by the model (--fetch-rows)
        JsonNode exact = Cli.table(
                        space(
                                "note",
                                "analyze",
                                "--format",
                                "json",
                                "-q",
                                "--exact-space",
                                "--fetch-rows",
                                pg.url("space_pg")),
                        "note")
                .get("space");
        assertThat(exact.get("method").asText()).isEqualTo("pgstattuple");
        // the deleted rows are dead tuples, or free space once a read has pruned their pages
        assertThat(exact.get("dead_bytes").asLong() + exact.get("free_bytes").asLong())
                .as("dead + free of 20,000 deleted rows")
                .isGreaterThan(heap / 3);
        JsonNode account = exact.get("account");
        System.out.printf(
                "PostgreSQL note: note_pkey predicted %d measured %d; note_grp predicted %d measured %d;"
                        + " account %d against pg_total_relation_size %d%n",
                index(exact, "note_pkey").get("predicted_bytes").asLong(),
                pkey,
                index(exact, "note_grp").get("predicted_bytes").asLong(),
                byGroup,
                account.get("total_bytes").asLong(),
                total);
        assertThat(account.get("row_overhead_bytes").asLong()).isPositive();
        assertThat(account.get("off_by").asDouble())
                .as("account %s against pg_total_relation_size %d", account, total)
                .isBetween(-0.05, 0.05);
    }

    @Test
    void mariadbHalfDeletedTableShowsFreeSpaceAndIndexSizesAndAccountAddsUp() throws Exception {
        maria.createDatabase("space_maria");
        try (Connection c = maria.connect("space_maria");
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE note (id int NOT NULL PRIMARY KEY, grp bigint NOT NULL, body varchar(200) NOT NULL,"
                            + " KEY by_grp (grp)) ENGINE=InnoDB");
            st.execute("INSERT INTO note SELECT seq, seq % 50, REPEAT('x', 80 + seq % 40) FROM seq_1_to_40000");
            st.execute("DELETE FROM note WHERE id % 2 = 0");
            st.execute("SET GLOBAL innodb_max_purge_lag_wait = 0"); // waits for purge to remove the deleted rows
            st.execute("ANALYZE TABLE note");
            st.execute("CREATE TABLE counter (id tinyint NOT NULL AUTO_INCREMENT PRIMARY KEY, v int) ENGINE=InnoDB");
            st.execute("INSERT INTO counter (id, v) VALUES (120, 1)");
        }
        long data;
        long indexes;
        long free;
        long byGroup;
        try (Connection c = maria.connect("space_maria")) {
            data = single(
                    c,
                    "SELECT data_length FROM information_schema.tables WHERE table_schema = DATABASE()"
                            + " AND table_name = 'note'");
            indexes = single(
                    c,
                    "SELECT index_length FROM information_schema.tables WHERE table_schema = DATABASE()"
                            + " AND table_name = 'note'");
            free = single(
                    c,
                    "SELECT data_free FROM information_schema.tables WHERE table_schema = DATABASE()"
                            + " AND table_name = 'note'");
            byGroup = single(
                    c,
                    "SELECT stat_value * @@innodb_page_size FROM mysql.innodb_index_stats"
                            + " WHERE database_name = DATABASE() AND table_name = 'note' AND index_name = 'by_grp'"
                            + " AND stat_name = 'size'");
        }
        JsonNode report = space(
                "note", "analyze", "--format", "json", "-q", "--exact-space", "--fetch-rows", maria.url("space_maria"));
        JsonNode note = Cli.table(report, "note").get("space");
        assertThat(note.get("engine_bytes").asLong()).isEqualTo(data + indexes + free);
        assertThat(index(note, "by_grp").get("measured_bytes").asLong()).isEqualTo(byGroup);
        assertThat(index(note, "PRIMARY").get("clustered").asBoolean()).isTrue();
        // in InnoDB it does: each by_grp record holds grp (8 bytes, 1 as TINYINT) and the primary key
        JsonNode grp = index(note, "by_grp");
        assertThat(grp.get("tight_bytes").asLong())
                .isLessThan(grp.get("predicted_bytes").asLong());
        // half the rows gone: beyond the tablespace's free extents, the clustered index holds about
        // half its pages' bytes free
        assertThat(note.get("free_bytes").asLong() - free)
                .as("free of data_length %d beyond data_free %d: %s", data, free, note)
                .isBetween(data * 3 / 10, data * 7 / 10);
        assertThat(kinds(note)).contains("free_space", "space_account");
        assertThat(note.get("account").get("off_by").asDouble()).isBetween(-0.05, 0.05);
        System.out.printf(
                "MariaDB note: by_grp predicted %d measured %d; data_length %d, free %d (data_free %d)%n",
                grp.get("predicted_bytes").asLong(),
                byGroup,
                data,
                note.get("free_bytes").asLong(),
                free);
        JsonNode counter = Cli.table(report, "counter").get("space");
        assertThat(counter.get("headroom").get("max").asLong()).isEqualTo(127);
        assertThat(kinds(counter)).contains("sequence_headroom");
    }

    /** The bytes the rebuild script says its one statement on {@code table} frees. */
    private static long predictedFree(Path script, String statement) throws Exception {
        String text = Files.readString(script);
        Matcher m = Pattern.compile(Pattern.quote(statement) + "; -- frees ([0-9,]+) bytes")
                .matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void tuneRebuildsAHalfDeletedPostgresqlTableAndFreesWhatItPredicted(@TempDir Path dir) throws Exception {
        try (Connection c = pg.createDatabase("space_pg_rebuild");
                Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pgstattuple");
            st.execute("CREATE TABLE note (id integer PRIMARY KEY, grp integer NOT NULL, body text NOT NULL)");
            st.execute("CREATE INDEX note_grp ON note (grp)");
            st.execute("INSERT INTO note SELECT g, g % 50, repeat('x', 80 + g % 40) FROM generate_series(1, 40000) g");
            st.execute("DELETE FROM note WHERE id % 2 = 0");
        }
        Path migration = dir.resolve("m.sql");
        Cli.Result r = Cli.run("tune", "-q", "-o", migration.toString(), pg.url("space_pg_rebuild"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path rebuild = dir.resolve("m.rebuild.sql");
        assertThat(rebuild).as(r.err()).exists();
        assertThat(Files.readString(rebuild)).contains("ACCESS EXCLUSIVE", "pg_repack");
        long predicted = predictedFree(rebuild, "VACUUM FULL \"note\"");
        // the same rebuild in tune's JSON, with the bytes the script gives
        Cli.Result json = Cli.run("tune", "-q", "--format", "json", pg.url("space_pg_rebuild"));
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().get("rebuilds")).hasSize(1);
        JsonNode b = json.json().get("rebuilds").get(0);
        assertThat(b.get("statement").asText()).isEqualTo("VACUUM FULL \"note\"");
        assertThat(b.get("table").asText()).isEqualTo("note");
        assertThat(b.get("bytes").asLong()).isEqualTo(predicted);
        assertThat(b.get("bytes_basis").asText()).isEqualTo("predicted");
        assertThat(b.get("bytes_before").asLong()).isGreaterThan(predicted);
        assertThat(b.get("script").asText()).isEqualTo(".rebuild.sql");
        // no statement has read note_grp (pg_stat_user_indexes): its drop is listed too, with the server's bytes
        assertThat(json.json().get("index_drops")).hasSize(1);
        JsonNode drop = json.json().get("index_drops").get(0);
        assertThat(drop.get("statement").asText()).isEqualTo("DROP INDEX CONCURRENTLY IF EXISTS \"note_grp\"");
        assertThat(drop.get("kind").asText()).isEqualTo("unused_index");
        assertThat(drop.get("bytes_basis").asText()).isEqualTo("measured");
        assertThat(drop.get("bytes").asLong()).isPositive();
        try (Connection c = pg.connect("space_pg_rebuild");
                Statement st = c.createStatement()) {
            String sizes = "SELECT pg_total_relation_size('note') || ' heap ' || pg_table_size('note') || ' pkey '"
                    + " || pg_relation_size('note_pkey') || ' grp ' || pg_relation_size('note_grp')";
            String sizesBefore = text(c, sizes);
            long before = single(c, "SELECT pg_total_relation_size('note')");
            st.execute("VACUUM FULL \"note\"");
            long after = single(c, "SELECT pg_total_relation_size('note')");
            System.out.printf(
                    "PostgreSQL VACUUM FULL: predicted %d freed, measured %d - %d%n", predicted, before, after);
            assertThat((double) (before - after))
                    .as(
                            "freed %d - %d against the predicted %d; before %s, after %s; %s",
                            before, after, predicted, sizesBefore, text(c, sizes), Files.readString(rebuild))
                    .isCloseTo(predicted, within(0.15 * predicted));
        }
    }

    /**
     * An index filled by inserts in random key order (leaves split in half, about 70% full) on a
     * heap with nothing to give back: not the table's VACUUM FULL but the index's REINDEX INDEX
     * CONCURRENTLY, which refills the leaves to 90%; the bytes it frees within 15% of its prediction.
     */
    @Test
    void tuneReindexesARandomlyFilledPostgresqlIndexAndFreesWhatItPredicted(@TempDir Path dir) throws Exception {
        try (Connection c = pg.createDatabase("space_pg_reindex");
                Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION pgstattuple");
            st.execute("CREATE TABLE tag (id integer PRIMARY KEY, label text NOT NULL)");
            st.execute("CREATE INDEX tag_label ON tag (label)");
            // md5 of the id: keys in no order, each insert lands on a random leaf
            st.execute("INSERT INTO tag SELECT g, md5(g::text) FROM generate_series(1, 60000) g");
            st.execute("VACUUM ANALYZE tag");
        }
        Path migration = dir.resolve("m.sql");
        Cli.Result r = Cli.run("tune", "-q", "-o", migration.toString(), pg.url("space_pg_reindex"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path rebuild = dir.resolve("m.rebuild.sql");
        assertThat(rebuild).as(r.err()).exists();
        assertThat(Files.readString(rebuild)).doesNotContain("VACUUM FULL \"tag\"");
        long predicted = predictedFree(rebuild, "REINDEX INDEX CONCURRENTLY \"tag_label\"");
        try (Connection c = pg.connect("space_pg_reindex");
                Statement st = c.createStatement()) {
            long before = single(c, "SELECT pg_relation_size('tag_label')");
            st.execute("REINDEX INDEX CONCURRENTLY \"tag_label\""); // autocommit: it cannot run in a transaction
            long after = single(c, "SELECT pg_relation_size('tag_label')");
            System.out.printf(
                    "PostgreSQL REINDEX INDEX CONCURRENTLY: predicted %d freed, measured %d - %d = %d%n",
                    predicted, before, after, before - after);
            assertThat((double) (before - after))
                    .as(
                            "freed %d - %d against the predicted %d; %s",
                            before, after, predicted, Files.readString(rebuild))
                    .isCloseTo(predicted, within(0.15 * predicted));
        }
    }

    @Test
    void tuneRebuildsAHalfDeletedMariadbTableAndFreesWhatItPredicted(@TempDir Path dir) throws Exception {
        maria.createDatabase("space_maria_rebuild");
        try (Connection c = maria.connect("space_maria_rebuild");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE note (id int NOT NULL PRIMARY KEY, grp int NOT NULL, body varchar(200) NOT NULL,"
                    + " KEY by_grp (grp)) ENGINE=InnoDB");
            st.execute("INSERT INTO note SELECT seq, seq % 50, REPEAT('x', 80 + seq % 40) FROM seq_1_to_40000");
            st.execute("DELETE FROM note WHERE id % 2 = 0");
            st.execute("SET GLOBAL innodb_max_purge_lag_wait = 0");
            st.execute("ANALYZE TABLE note");
        }
        Path migration = dir.resolve("m.sql");
        Cli.Result r = Cli.run("tune", "-q", "-o", migration.toString(), maria.url("space_maria_rebuild"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path rebuild = dir.resolve("m.rebuild.sql");
        assertThat(rebuild).as(r.err()).exists();
        long predicted = predictedFree(rebuild, "OPTIMIZE TABLE `note`");
        Cli.Result json = Cli.run("tune", "-q", "--format", "json", maria.url("space_maria_rebuild"));
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode b = json.json().get("rebuilds").get(0);
        assertThat(b.get("statement").asText()).isEqualTo("OPTIMIZE TABLE `note`");
        assertThat(b.get("bytes").asLong()).isEqualTo(predicted);
        assertThat(b.get("why").asText()).contains("InnoDB model");
        String size = "SELECT data_length + index_length + data_free FROM information_schema.tables"
                + " WHERE table_schema = DATABASE() AND table_name = 'note'";
        try (Connection c = maria.connect("space_maria_rebuild");
                Statement st = c.createStatement()) {
            long before = single(c, size);
            st.execute("OPTIMIZE TABLE `note`");
            st.execute("ANALYZE TABLE `note`");
            long after = single(c, size);
            System.out.printf(
                    "MariaDB OPTIMIZE TABLE: predicted %d freed, measured %d - %d%n", predicted, before, after);
            assertThat((double) (before - after))
                    .as("freed %d - %d against the predicted %d", before, after, predicted)
                    .isCloseTo(predicted, within(0.15 * predicted));
        }
    }
}

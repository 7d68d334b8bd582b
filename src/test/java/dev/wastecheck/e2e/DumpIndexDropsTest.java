package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tune DUMP -o migration.sql} writes the index scripts for the redundant indexes a dump
 * declares, as it does for a live server, from the dump's own declarations: on a real PostgreSQL
 * and MariaDB loaded with the same tables, the first script drops (or IGNOREs) exactly those, the
 * rest stay, and the rollback puts the catalog back as it was. A GIN index beside a B-tree on the
 * same column and a partial index beside a full one are not redundant and stay.
 */
class DumpIndexDropsTest {
    static final int ROWS = 1500;

    static final String PG_INDEXES = """
            CREATE INDEX doc_body ON public.doc USING btree (body);
            CREATE INDEX doc_body_hash ON public.doc USING hash (body);
            CREATE INDEX doc_status ON public.doc USING btree (status);
            CREATE INDEX doc_status_new ON public.doc USING btree (status) WHERE (status = 'new'::text);
            CREATE INDEX doc_owner ON public.doc USING btree (owner);
            CREATE INDEX doc_owner_copy ON public.doc USING btree (owner);
            CREATE INDEX doc_at ON public.doc USING btree (at);
            CREATE INDEX doc_at_body ON public.doc USING btree (at) INCLUDE (body);
            """;

    @Test
    void aPgDumpsRedundantIndexesAreDroppedAndPutBackOnPostgres(@TempDir Path dir) throws Exception {
        String table = "CREATE TABLE public.doc (id integer NOT NULL, owner integer NOT NULL, at integer NOT NULL,"
                + " body text NOT NULL, status text NOT NULL)";
        StringBuilder dump = new StringBuilder("--\n-- PostgreSQL database dump\n--\nSET statement_timeout = 0;\n")
                .append(table)
                .append(";\nCOPY public.doc (id, owner, at, body, status) FROM stdin;\n");
        for (int i = 0; i < ROWS; i++) {
            dump.append(i)
                    .append('\t')
                    .append(i % 50)
                    .append('\t')
                    .append(1000 + i * 7)
                    .append("\tbody ")
                    .append(i)
                    .append('\t')
                    .append(status(i))
                    .append('\n');
        }
        dump.append("\\.\n\nALTER TABLE ONLY public.doc\n    ADD CONSTRAINT doc_pkey PRIMARY KEY (id);\n")
                .append(PG_INDEXES);
        Path file = dir.resolve("doc.sql");
        Files.writeString(file, dump, StandardCharsets.UTF_8);
        Path migration = dir.resolve("migration.sql");
        Cli.Result tuned = Cli.run("tune", "-q", "-o", migration.toString(), file.toString());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        String said = tuned.err().replaceAll("\\s+", " ");
        assertThat(said).contains("2 indexes to drop", "as the storage model predicts them from the dump");
        Matcher predicted =
                Pattern.compile("([\\d,]+) bytes as the storage model").matcher(said);
        assertThat(predicted.find()).as(said).isTrue();
        long predictedBytes = Long.parseLong(predicted.group(1).replace(",", ""));
        String drops = Files.readString(dir.resolve("migration.indexes.sql"));
        assertThat(drops)
                .contains("DROP INDEX CONCURRENTLY IF EXISTS \"doc_owner_copy\"")
                .contains("DROP INDEX CONCURRENTLY IF EXISTS \"doc_at\"")
                .doesNotContain("\"doc_body_hash\"", "\"doc_status_new\"", "\"doc_at_body\"", "\"doc_owner\"");
        assertThat(Files.readString(dir.resolve("migration.indexes.rollback.sql")))
                .contains("CREATE INDEX CONCURRENTLY doc_at ON public.doc USING btree (at)");

        PostgresServer pg = PostgresServer.get();
        try (Connection c = pg.createDatabase("dump_index_drops");
                Statement st = c.createStatement()) {
            st.execute(table);
            st.execute("INSERT INTO doc SELECT i, i % 50, 1000 + i * 7, 'body ' || i,"
                    + " (ARRAY['new', 'open', 'done'])[i % 3 + 1] FROM generate_series(0, " + (ROWS - 1) + ") i");
            st.execute("ALTER TABLE ONLY public.doc ADD CONSTRAINT doc_pkey PRIMARY KEY (id)");
            for (String s : PG_INDEXES.strip().split(";\n")) {
                st.execute(s.replace(";", ""));
            }
        }
        Map<String, String> before = pgIndexes(pg);
        try (Connection c = pg.connect("dump_index_drops");
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT pg_relation_size('doc_owner_copy') + pg_relation_size('doc_at')")) {
            rs.next();
            // the dump's prediction against the server's own bytes for the same two indexes
            assertThat((double) predictedBytes).isCloseTo((double) rs.getLong(1), withinPercentage(25));
        }
        try (Connection c = pg.connect("dump_index_drops")) {
            c.setAutoCommit(true);
            IndexWasteTest.run(c, IndexWasteTest.statements(dir.resolve("migration.indexes.sql")));
            assertThat(pgIndexes(pg).keySet())
                    .doesNotContain("doc_owner_copy", "doc_at")
                    .contains("doc_owner", "doc_at_body", "doc_body", "doc_body_hash", "doc_status", "doc_status_new");
            IndexWasteTest.run(c, IndexWasteTest.statements(dir.resolve("migration.indexes.rollback.sql")));
        }
        assertThat(pgIndexes(pg)).isEqualTo(before);
    }

    @Test
    void aMariaDbDumpsRedundantIndexesAreIgnoredDroppedAndPutBack(@TempDir Path dir) throws Exception {
        StringBuilder dump = new StringBuilder(
                        "-- MariaDB dump 10.19  Distrib 11.4.5-MariaDB, for Linux (x86_64)\n--\n")
                .append("-- Host: localhost    Database: shop\n")
                .append("-- ------------------------------------------------------\n")
                .append("-- Server version\t11.4.5-MariaDB\n\n")
                .append("CREATE TABLE `doc` (\n  `id` int(11) NOT NULL,\n  `owner` int(11) NOT NULL,\n")
                .append("  `at` int(11) NOT NULL,\n  `body` varchar(40) NOT NULL,\n")
                .append("  PRIMARY KEY (`id`),\n  KEY `doc_owner` (`owner`),\n  KEY `doc_owner_at` (`owner`,`at`),\n")
                .append(
                        "  KEY `doc_at` (`at`),\n  KEY `doc_at_copy` (`at`),\n  FULLTEXT KEY `doc_body_text` (`body`),\n")
                .append("  KEY `doc_body` (`body`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n")
                .append("INSERT INTO `doc` VALUES ");
        for (int i = 0; i < ROWS; i++) {
            dump.append(i == 0 ? "" : ",").append(String.format("(%d,%d,%d,'body %d')", i, i % 50, 1000 + i * 7, i));
        }
        dump.append(";\n");
        Path file = dir.resolve("doc.sql");
        Files.writeString(file, dump, StandardCharsets.UTF_8);
        Path migration = dir.resolve("migration.sql");
        Cli.Result tuned = Cli.run("tune", "-q", "-o", migration.toString(), file.toString());
        assertThat(tuned.exitCode()).as(tuned.err()).isZero();
        // the header names MariaDB 11.4: IGNORED first, then the drops
        assertThat(Files.readString(dir.resolve("migration.indexes.sql")))
                .contains("ALTER TABLE `doc` ALTER INDEX `doc_owner` IGNORED")
                .contains("ALTER TABLE `doc` ALTER INDEX `doc_at_copy` IGNORED")
                .doesNotContain("`doc_body`", "`doc_body_text`", "`doc_owner_at`", "`doc_at` IGNORED");

        MariaDbServer maria = MariaDbServer.get();
        maria.createDatabase("dump_index_drops");
        maria.load("dump_index_drops", file);
        Map<String, String> before = IndexWasteTest.mariaIndexes(maria, "dump_index_drops");
        maria.load("dump_index_drops", dir.resolve("migration.indexes.sql"));
        assertThat(IndexWasteTest.mariaIndexes(maria, "dump_index_drops").get("doc.doc_owner"))
                .endsWith("ignored=YES");
        maria.load("dump_index_drops", dir.resolve("migration.indexes.drop.sql"));
        assertThat(IndexWasteTest.mariaIndexes(maria, "dump_index_drops").keySet())
                .doesNotContain("doc.doc_owner", "doc.doc_at_copy")
                .contains("doc.doc_owner_at", "doc.doc_at", "doc.doc_body", "doc.doc_body_text");
        maria.load("dump_index_drops", dir.resolve("migration.indexes.rollback.sql"));
        assertThat(IndexWasteTest.mariaIndexes(maria, "dump_index_drops")).isEqualTo(before);
    }

    private static String status(int i) {
        return new String[] {"new", "open", "done"}[i % 3];
    }

    private static Map<String, String> pgIndexes(PostgresServer pg) throws Exception {
        return IndexWasteTest.pgIndexes(pg, "dump_index_drops");
    }
}

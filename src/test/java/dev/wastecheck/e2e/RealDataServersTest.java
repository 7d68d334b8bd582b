package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MySQL databases of ../shared/data on a real MariaDB 11.4, each as its own scripts create it
 * ({@code mariadb < dump.sql}): tune's migration applies without error, every value reads back
 * equal, the foreign keys are re-created, InnoDB's size after OPTIMIZE TABLE is within 10% of tune's
 * prediction (the per-table figures are the calibration table of docs/analyze.md), and the
 * rollback gives back the dump's schema. The PostgreSQL databases run in {@link TunePostgresTest}.
 */
@Tag("real-data")
class RealDataServersTest {
    @TempDir
    static Path dir;

    static MariaDbServer server;

    @BeforeAll
    static void start() throws Exception {
        server = MariaDbServer.get();
    }

    @Test
    void sakila() throws Exception {
        Path schema = Cli.data("sakila-mv/sakila-mv-schema.sql");
        Path data = Cli.data("sakila-mv/sakila-mv-data.sql");
        server.load(null, schema, data);
        MigrationCycle.Outcome o = MigrationCycle.mariadb(server, "sakila", dir, List.of(schema, data), 0.10);
        assertThat(o.changed()).isNotEmpty();
        assertThat(o.sizes().ratioBefore()).isBetween(0.99, 1.01);
    }

    @Test
    void chinook() throws Exception {
        Path script = Cli.data("chinook/Chinook_MySql.sql");
        server.load(null, script);
        // By default Chinook's migration only narrows decimals (the same type name on the server); its
        // DATETIME -> DATE changes alter what the application reads, so they are asked for by name here
        // to carry the whole cycle, rollback included, on changed column types.
        MigrationCycle.Outcome o =
                MigrationCycle.mariadb(server, "Chinook", dir, List.of(script), 0.10, "--representation", "all");
        assertThat(o.changed()).isNotEmpty();
        assertThat(o.sizes().predictedAfter()).isEqualTo(o.sizes().measuredAfter());
    }

    @Test
    void mediawiki() throws Exception {
        Path folder = Cli.data("mediawiki-smw-2017-dump");
        Path[] files;
        try (Stream<Path> s = Files.list(folder)) {
            files = s.sorted().toArray(Path[]::new);
        }
        server.load(null, files);
        MigrationCycle.Outcome o = MigrationCycle.mariadb(server, "my_wiki", dir, List.of(folder), 0.10);
        assertThat(o.changed()).isNotEmpty();
        assertThat(o.sizes().predictedAfter()).isEqualTo(o.sizes().measuredAfter());
    }
}

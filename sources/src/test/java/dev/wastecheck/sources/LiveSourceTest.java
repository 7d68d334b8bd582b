package dev.wastecheck.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.model.schema.Dialect;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** URLs as SOURCE: told from paths, masked in messages, credentials from the environment only where the URL has none. */
class LiveSourceTest {
    @Test
    void aPasswordNeverReachesAMessage() {
        assertThat(LiveSource.redacted("jdbc:postgresql://db/shop?user=dba&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db/shop?user=dba&password=***&ssl=true");
        assertThat(LiveSource.redacted("jdbc:mariadb://dba:s3cret@db:3306/shop"))
                .isEqualTo("jdbc:mariadb://dba:***@db:3306/shop");
        assertThat(LiveSource.parse("jdbc:mysql://db/shop?password=x").display())
                .doesNotContain("=x");
    }

    @Test
    void theEnvironmentFillsOnlyWhatTheUrlLacks() {
        Map<String, String> env = Map.of("PGUSER", "reader", "PGPASSWORD", "pw", "MYSQL_PWD", "mpw", "USER", "me");
        Properties pg = LiveSource.parse("jdbc:postgresql://db/shop").properties(env);
        assertThat(pg.getProperty("user")).isEqualTo("reader");
        assertThat(pg.getProperty("password")).isEqualTo("pw");
        Properties given = LiveSource.parse("jdbc:postgresql://db/shop?user=dba&password=x")
                .properties(env);
        assertThat(given.getProperty("user")).isNull();
        assertThat(given.getProperty("password")).isNull();
        Properties maria = LiveSource.parse("jdbc:mysql://db/shop").properties(env);
        assertThat(maria.getProperty("password")).isEqualTo("mpw");
        assertThat(maria.getProperty("tinyInt1isBit")).isEqualTo("false");
        assertThat(LiveSource.parse("jdbc:mysql://db/shop").driverUrl()).isEqualTo("jdbc:mariadb://db/shop");
    }

    @Test
    void aUrlIsReadAloneAndOnlyForEnginesThatCanBeLive() {
        Sources live = Sources.of(List.of("jdbc:postgresql://db/shop"));
        assertThat(live.live().dialect()).isEqualTo(Dialect.POSTGRESQL);
        assertThat(live.files()).isEmpty();
        assertThat(Sources.of(List.of("a.sql", "-")).files()).containsExactly(Path.of("a.sql"), Path.of("-"));
        assertThatThrownBy(() -> Sources.of(List.of("jdbc:postgresql://db/shop", "a.sql")))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining("read alone");
        assertThat(Sources.of(List.of("jdbc:trino://lake:8080/hive/sales"))
                        .live()
                        .dialect())
                .isEqualTo(Dialect.TRINO);
        assertThatThrownBy(() -> Sources.of(List.of("jdbc:sqlserver://db;databaseName=x;password=x")))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageContaining("expected a jdbc:postgresql:, jdbc:mariadb:, jdbc:mysql: or jdbc:trino: URL")
                .hasMessageNotContaining("password=x");
    }
}

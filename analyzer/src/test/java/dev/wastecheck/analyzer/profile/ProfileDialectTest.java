package dev.wastecheck.analyzer.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import dev.wastecheck.sources.sql.ProfileDialect;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * What the local DuckDB computes and what the profiler computes in its place for a server: the
 * spelling of bytes and the DuckDB rendering of the one description. The renderings for the
 * servers are checked against the servers themselves (PushdownProfileTest, TrinoSourceTest).
 */
class ProfileDialectTest {

    @Test
    void bytesFromAServerAreShownAsDuckDbShowsABlob() throws Exception {
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults());
                Statement st = db.connection().createStatement()) {
            for (int b = 0; b < 256; b++) {
                byte[] bytes = {(byte) b, 'a'};
                try (ResultSet rs =
                        st.executeQuery("SELECT CAST(from_hex('" + String.format("%02x", b) + "61') AS VARCHAR)")) {
                    rs.next();
                    assertThat(Profiler.shown(bytes)).as("byte %d", b).isEqualTo(rs.getString(1));
                }
            }
        }
    }

    @Test
    void duckDbKeepsItsOwnFunctionsAndOtherEnginesSpellThemTheirWay() {
        assertThat(ProfileDialect.DUCKDB.countIf("x > 1")).isEqualTo("count(*) FILTER (WHERE x > 1)");
        assertThat(ProfileDialect.MARIADB.countIf("x > 1")).isEqualTo("COUNT(CASE WHEN x > 1 THEN 1 END)");
        assertThat(ProfileDialect.DUCKDB.byteLength("s")).isEqualTo("strlen(s)");
        assertThat(ProfileDialect.POSTGRESQL.byteLength("s")).isEqualTo("octet_length(s)");
        assertThat(ProfileDialect.TRINO.byteLength("s")).isEqualTo("length(to_utf8(s))");
        assertThat(ProfileDialect.DUCKDB.lateralAliases()).isTrue();
        assertThat(ProfileDialect.TRINO.lateralAliases()).isFalse();
    }
}

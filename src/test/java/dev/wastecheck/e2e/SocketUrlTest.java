package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live sources named by a Unix socket, as DBAs connect on the database host: MariaDB's
 * {@code localSocket=} reads the tables; a PostgreSQL socket exits 2 naming the TCP URL to use.
 */
class SocketUrlTest {
    @TempDir
    static Path dir;

    @Test
    void aMariaDbUnixSocketReadsTheTablesAsTcpDoes() throws Exception {
        MariaDbServer maria = MariaDbServer.get();
        maria.createDatabase("socket_shop");
        maria.load("socket_shop", GuardFixture.mysql(dir));
        // the URL of the issue: host localhost, the socket in localSocket, no port
        String url = "jdbc:mariadb://localhost/socket_shop?user=root&localSocket=" + maria.socket();
        Cli.Result r = Cli.run("analyze", "--format", "json", "-q", url);
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode viaSocket = r.json();
        JsonNode viaTcp = Cli.analyzeJson(maria.url("socket_shop"));
        assertThat(Cli.table(viaSocket, "orders").get("rows").asLong())
                .isEqualTo(Cli.table(viaTcp, "orders").get("rows").asLong())
                .isPositive();
        assertThat(Cli.column(viaSocket, "orders", "status").get("suggested_type"))
                .isEqualTo(Cli.column(viaTcp, "orders", "status").get("suggested_type"));

        // jdbc:mysql: takes the same option
        Cli.Result mysql = Cli.run(
                "analyze",
                "-q",
                "--format",
                "json",
                "jdbc:mysql://localhost/socket_shop?user=root&localSocket=" + maria.socket());
        assertThat(mysql.exitCode()).as(mysql.err()).isZero();
    }

    @Test
    void aMissingMariaDbSocketIsBadInputNotAnInternalError() {
        Cli.Result r =
                Cli.run("analyze", "-q", "jdbc:mariadb://localhost/x?user=wc&localSocket=" + dir.resolve("none.sock"));
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("cannot connect").doesNotContain("internal error");
    }

    @Test
    void aPostgresqlUnixSocketExitsTwoSayingWhatToUse() {
        for (String url : new String[] {
            "jdbc:postgresql://localhost/shop?socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg"
                    + "&socketFactoryArg=/var/run/postgresql/.s.PGSQL.5432",
            "jdbc:postgresql://localhost/shop?host=/var/run/postgresql"
        }) {
            Cli.Result r = Cli.run("analyze", "-q", url);
            assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
            assertThat(r.err())
                    .contains("Unix socket is not supported")
                    .contains("jdbc:postgresql://localhost:5432/DB")
                    .doesNotContain("internal error");
        }
    }
}

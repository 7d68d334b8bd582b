package dev.wastecheck.e2e;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The scale-out benchmark (not a test): rows profiled per second through a real Trino (the
 * profile pushed down: Trino's workers aggregate, only results come back) against the local
 * DuckDB profiling the same rows from CSV files ({@code analyze DIR}), and against reading the
 * rows out of Trino into the local DuckDB ({@code analyze --fetch-rows URL}). All three are whole
 * {@code analyze} commands in this JVM, alternating, after one warm-up each; medians with their
 * range are reported, and the ratios of medians.
 *
 * <p>What it measures on one machine: Trino here is one coordinator that is also its only
 * worker, on the same two cores, and its {@code tpch} connector makes every row afresh on each
 * scan (the generator's cost is inside Trino's time). So the figure is the floor of what a
 * cluster gives, where scans spread over workers and rows come from files.
 *
 * <p>Run: {@code ./bench trino [SCHEMA] [RUNS]} (default {@code sf1}, 3 runs each).
 */
public final class TrinoBenchmark {

    public static void main(String[] args) throws Exception {
        String schema = args.length > 0 ? args[0] : "sf1";
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        TrinoServer trino = TrinoServer.get();
        String url = trino.url("tpch", schema);
        Path dir = Path.of("target/bench-trino/" + schema).toAbsolutePath();
        long rows = export(url, dir);
        System.err.printf("tpch.%s: %,d rows; CSV copies in %s%n", schema, rows, dir);

        String[] pushed = {"analyze", "--format", "json", "-q", url};
        String[] local = {"analyze", "--format", "json", "-q", dir.toString()};
        String[] fetched = {"analyze", "--format", "json", "-q", "--fetch-rows", url};
        CommandTimer.time(pushed);
        CommandTimer.time(local);
        CommandTimer.time(fetched);
        double[] p = new double[runs];
        double[] l = new double[runs];
        double[] f = new double[runs];
        for (int i = 0; i < runs; i++) {
            p[i] = CommandTimer.time(pushed);
            l[i] = CommandTimer.time(local);
            f[i] = CommandTimer.time(fetched);
            System.err.printf("run %d: trino %.2f s, local duckdb %.2f s, fetch %.2f s%n", i + 1, p[i], l[i], f[i]);
        }
        System.out.printf(
                Locale.ROOT,
                "tpch.%s, %,d rows, %d runs each, alternating (median [min-max])%n"
                        + "| analyze jdbc:trino (profile in Trino) | %s | %,.0f rows/s |%n"
                        + "| analyze DIR of CSV (local DuckDB) | %s | %,.0f rows/s |%n"
                        + "| analyze --fetch-rows jdbc:trino (rows to the client) | %s | %,.0f rows/s |%n"
                        + "trino / local: %.2fx the time; fetch / trino: %.2fx%n",
                schema,
                rows,
                runs,
                CommandTimer.spread(p),
                rows / CommandTimer.median(p),
                CommandTimer.spread(l),
                rows / CommandTimer.median(l),
                CommandTimer.spread(f),
                rows / CommandTimer.median(f),
                CommandTimer.median(p) / CommandTimer.median(l),
                CommandTimer.median(f) / CommandTimer.median(p));
        System.exit(0); // the Trino server is stopped by its shutdown hook
    }

    /** Each table of the schema as DIR/TABLE.csv (once), read from Trino; the rows in all. */
    private static long export(String url, Path dir) throws Exception {
        Files.createDirectories(dir);
        long total = 0;
        try (Connection c = DriverManager.getConnection(url, "bench", null)) {
            List<String> tables = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SHOW TABLES")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String t : tables) {
                Path csv = dir.resolve(t + ".csv");
                Path count = dir.resolve(t + ".rows");
                if (Files.exists(count)) {
                    total += Long.parseLong(Files.readString(count).strip());
                    continue;
                }
                long n = 0;
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT * FROM \"" + t + "\"");
                        BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
                    int cols = rs.getMetaData().getColumnCount();
                    for (int i = 1; i <= cols; i++) {
                        w.write((i > 1 ? "," : "") + rs.getMetaData().getColumnName(i));
                    }
                    w.write('\n');
                    while (rs.next()) {
                        for (int i = 1; i <= cols; i++) {
                            if (i > 1) {
                                w.write(',');
                            }
                            Object v = rs.getObject(i);
                            if (v instanceof String s) {
                                w.write('"' + s.replace("\"", "\"\"") + '"');
                            } else if (v != null) {
                                w.write(v.toString());
                            }
                        }
                        w.write('\n');
                        n++;
                    }
                }
                Files.writeString(count, n + "\n");
                total += n;
            }
        }
        return total;
    }
}

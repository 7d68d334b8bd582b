package dev.wastecheck.sources.load;

import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.DumpFormatException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload a live server has recorded itself, as statements with how often each ran:
 * PostgreSQL's {@code pg_stat_statements} (normalized, constants as {@code $1}) or the statement
 * digests of MySQL's and MariaDB's {@code performance_schema} (constants as {@code ?}). Only the
 * current database's reads and writes are taken (SELECT, INSERT, UPDATE, DELETE, WITH), the most
 * frequent first, at most {@link #MAX_DISTINCT} of them.
 *
 * <p>What it can and cannot show: which columns the workload reads, filters on and writes, and
 * in what shares (unused columns, update shares for index-cache fields, granularity); not which
 * rows, since the constants are gone, so no hot tuples, skew or hot partitions (a statement log
 * with values, {@code --trace}, shows those).
 */
public final class LiveWorkload {
    /** The most frequent distinct statements read. */
    static final int MAX_DISTINCT = 10_000;
    /** At most this many statements written for the trace readers; more calls are scaled down in proportion. */
    static final long MAX_WRITTEN = 200_000;

    /** A normalized statement and the number of times the server ran it. */
    public record Entry(String sql, long calls) {}

    private LiveWorkload() {}

    /** Where the statements came from, for the report: "pg_stat_statements" or "performance_schema". */
    public static String sourceName(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? "pg_stat_statements" : "performance_schema statement digests";
    }

    /**
     * Reads the recorded statements over the (read-only) session {@code c}.
     *
     * @throws DumpFormatException when the server does not record them (the extension is missing,
     *     performance_schema is off) or this user may not read them, saying how to turn it on
     */
    public static List<Entry> read(Connection c, Dialect dialect, String where) {
        try {
            return dialect == Dialect.POSTGRESQL ? postgres(c, where) : mysql(c, where);
        } catch (SQLException e) {
            throw new DumpFormatException(where + ": cannot read the workload from " + sourceName(dialect) + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private static List<Entry> postgres(Connection c, String where) throws SQLException {
        String schema = null;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT quote_ident(n.nspname) FROM pg_extension e"
                        + " JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_stat_statements'")) {
            if (rs.next()) {
                schema = rs.getString(1);
            }
        }
        if (schema == null) {
            throw new DumpFormatException(where + ": --server-workload reads pg_stat_statements, which this database"
                    + " does not have: CREATE EXTENSION pg_stat_statements (with pg_stat_statements in the server's"
                    + " shared_preload_libraries), let the workload run, then analyze again");
        }
        return entries(
                c,
                "SELECT s.query, s.calls FROM " + schema + ".pg_stat_statements s"
                        + " WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                        + " AND s.query ~* '^\\s*(select|insert|update|delete|with)\\M'"
                        + " AND s.calls > 0 ORDER BY s.calls DESC LIMIT " + MAX_DISTINCT);
    }

    private static List<Entry> mysql(Connection c, String where) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT @@performance_schema")) {
            if (!rs.next() || rs.getLong(1) == 0) {
                throw new DumpFormatException(where + ": --server-workload reads performance_schema's statement"
                        + " digests, and performance_schema is off on this server: start it with"
                        + " performance_schema=ON, let the workload run, then analyze again");
            }
        }
        return entries(
                c,
                "SELECT DIGEST_TEXT, COUNT_STAR FROM performance_schema.events_statements_summary_by_digest"
                        + " WHERE SCHEMA_NAME = DATABASE() AND DIGEST_TEXT IS NOT NULL"
                        + " AND DIGEST_TEXT REGEXP '^[[:space:]]*(SELECT|INSERT|UPDATE|DELETE|WITH)[[:space:]]'"
                        + " AND COUNT_STAR > 0 ORDER BY COUNT_STAR DESC LIMIT " + MAX_DISTINCT);
    }

    private static List<Entry> entries(Connection c, String sql) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String q = rs.getString(1);
                if (q != null && !q.isBlank()) {
                    out.add(new Entry(q.strip(), rs.getLong(2)));
                }
            }
        }
        return out;
    }

    /**
     * Writes the statements as a trace of {@code ;}-terminated statements, each as many times as
     * it ran, scaled down in proportion (each at least once) when all of them together ran more
     * than {@link #MAX_WRITTEN} times: shares are what the workload analysis uses. Returns how
     * many statements were written.
     */
    public static long write(List<Entry> entries, Path file) throws IOException {
        long total = entries.stream().mapToLong(Entry::calls).sum();
        double scale = total > MAX_WRITTEN ? (double) MAX_WRITTEN / total : 1.0;
        long written = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Entry e : entries) {
                String sql = e.sql().endsWith(";") ? e.sql() : e.sql() + ";";
                long times = Math.max(1, Math.round(e.calls() * scale));
                for (long i = 0; i < times; i++) {
                    w.write(sql);
                    w.write('\n');
                }
                written += times;
            }
        }
        return written;
    }
}

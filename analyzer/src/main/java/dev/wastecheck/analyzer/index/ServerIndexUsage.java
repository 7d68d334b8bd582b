package dev.wastecheck.analyzer.index;

import dev.wastecheck.model.schema.Dialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a live server counted of each index's use, and the period the counts cover: the evidence an
 * index is unused, never the absence of evidence. PostgreSQL counts scans per index in
 * {@code pg_stat_user_indexes.idx_scan} since {@code pg_stat_database.stats_reset}; MySQL and
 * MariaDB count reads per index in performance_schema's {@code table_io_waits_summary_by_index_usage}
 * since the server started (its {@code Uptime}), when performance_schema is on and the table I/O
 * instrument enabled. An index the server has no row for (its table not opened since the start) has
 * no evidence either way.
 *
 * @param reads  per lower-case {@code table\0index}, the scans or reads counted
 * @param period the period the counts cover, in words ({@code "since 2026-11-27T21:00:00Z (3 h 2 min)"}),
 *               or null when the server offers no counts
 * @param source where the counts come from, for the finding's detail
 */
public record ServerIndexUsage(Map<String, Long> reads, String period, String source) {

    /** No counts: the server does not keep them, or this user may not read them. */
    public static final ServerIndexUsage NONE = new ServerIndexUsage(Map.of(), null, null);

    /** The reads counted for an index, or -1 when the server has no count for it. */
    public long reads(String table, String index) {
        return reads.getOrDefault(key(table, index), -1L);
    }

    static String key(String table, String index) {
        return (table + "\u0000" + index).toLowerCase(Locale.ROOT);
    }

    /** The counts of the session's server; {@link #NONE} when it keeps none this user may read. */
    public static ServerIndexUsage read(Connection c, Dialect dialect) {
        try {
            return dialect == Dialect.POSTGRESQL ? postgres(c) : mysql(c);
        } catch (SQLException e) {
            return NONE;
        }
    }

    private static ServerIndexUsage postgres(Connection c) throws SQLException {
        Map<String, Long> reads = new LinkedHashMap<>();
        Timestamp reset;
        Timestamp started;
        Timestamp now;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT d.stats_reset, pg_postmaster_start_time(), now()"
                        + " FROM pg_stat_database d WHERE d.datname = current_database()")) {
            if (!rs.next()) {
                return NONE;
            }
            reset = rs.getTimestamp(1);
            started = rs.getTimestamp(2);
            now = rs.getTimestamp(3);
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT relname, indexrelname, idx_scan FROM pg_stat_user_indexes"
                        + " WHERE schemaname = current_schema()")) {
            while (rs.next()) {
                reads.put(key(rs.getString(1), rs.getString(2)), rs.getLong(3));
            }
        }
        String period = reset != null
                ? "since " + reset.toInstant() + " (" + span(reset.toInstant(), now.toInstant())
                        + "), when pg_stat_database.stats_reset last reset them"
                : "since the statistics began (never reset; kept across clean restarts, lost at a crash;"
                        + " the server up since " + started.toInstant() + ", "
                        + span(started.toInstant(), now.toInstant()) + ")";
        return new ServerIndexUsage(reads, period, "pg_stat_user_indexes.idx_scan");
    }

    private static ServerIndexUsage mysql(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT ENABLED FROM performance_schema.setup_instruments"
                        + " WHERE NAME = 'wait/io/table/sql/handler'")) {
            if (!rs.next() || !"YES".equalsIgnoreCase(rs.getString(1))) {
                return NONE; // performance_schema off (the table is empty) or table I/O not instrumented
            }
        }
        long uptime = -1;
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS LIKE 'Uptime'")) {
            if (rs.next()) {
                uptime = rs.getLong(2);
            }
        }
        Map<String, Long> reads = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT OBJECT_NAME, INDEX_NAME, COUNT_READ"
                        + " FROM performance_schema.table_io_waits_summary_by_index_usage"
                        + " WHERE OBJECT_SCHEMA = DATABASE() AND INDEX_NAME IS NOT NULL")) {
            while (rs.next()) {
                reads.put(key(rs.getString(1), rs.getString(2)), rs.getLong(3));
            }
        }
        if (uptime < 0) {
            return NONE;
        }
        Instant now = Instant.now();
        Instant start = now.minusSeconds(uptime);
        return new ServerIndexUsage(
                reads,
                "since the server started at about " + start.truncatedTo(ChronoUnit.SECONDS) + " (" + span(start, now)
                        + " of Uptime), unless performance_schema's summary was truncated since",
                "performance_schema.table_io_waits_summary_by_index_usage.COUNT_READ");
    }

    /** A duration in words: {@code 3 d 4 h}, {@code 2 h 5 min}, {@code 40 s}. */
    static String span(Instant from, Instant to) {
        Duration d = Duration.between(from, to);
        if (d.toDays() > 0) {
            return d.toDays() + " d " + d.toHoursPart() + " h";
        }
        if (d.toHours() > 0) {
            return d.toHours() + " h " + d.toMinutesPart() + " min";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + " min " + d.toSecondsPart() + " s";
        }
        return d.toSeconds() + " s";
    }
}

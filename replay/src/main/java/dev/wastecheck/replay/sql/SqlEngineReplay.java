package dev.wastecheck.replay.sql;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.ResultDigest;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.replay.sql.ReplayTable.Kind;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;

/**
 * Replays a trace's access events as SQL on SQLite or DuckDB, loaded with the same rows, so that
 * {@code wastecheck replay} can set our engine's latencies beside two general-purpose engines'
 * and check, event by event, that all three return the same rows ({@link ResultDigest}).
 *
 * <p>What runs, in event order, in autocommit mode, one cached PreparedStatement per SQL text:
 * <ul>
 *   <li>POINT_LOOKUP and RANGE with a complete key: {@code SELECT <projected> FROM t WHERE k1 = ?
 *       AND k2 = ?}, the projected columns in table column order (the key columns when the event
 *       projects none);</li>
 *   <li>UPDATE with a complete key and at least one literal SET value ({@link AccessEvent#values()}):
 *       {@code UPDATE t SET c = ? ... WHERE keys};</li>
 *   <li>INSERT with values: {@code INSERT INTO t (cols) VALUES (?...)};</li>
 *   <li>DELETE with a complete key: {@code DELETE FROM t WHERE keys}.</li>
 * </ul>
 * Everything else (scans, keys bound by joins or unknown parameters, tables not loaded, columns
 * the table lacks) is skipped and counted. An event stands for one execution whatever its {@code
 * count}.
 *
 * <p>Binding: integer columns take {@code Long.parseLong} of the literal, text columns the string,
 * blob columns its UTF-8 bytes, NULL as SQL NULL. A literal that is not an integer (for an integer
 * column) cannot equal any stored value and could not be stored: the event is counted as executed
 * without being sent, with the result of matching nothing (no rows, or an update count of 0) and
 * no latency recorded. An INSERT, UPDATE or DELETE the engine rejects (a duplicate key) likewise
 * counts with an update count of 0, which is what the rejected statement changed.
 *
 * <p>Digests: a SELECT's rows, each value in the selected order as {@code addLong}, {@code
 * addString}, {@code addBytes} or {@code addNull}; a modification's update count as one row of one
 * {@code addLong}.
 */
public final class SqlEngineReplay {
    private static final int PROGRESS_EVERY = 1_000;

    private SqlEngineReplay() {}

    /**
     * Loads the relations into a fresh {@code engine} and replays the events on it.
     *
     * @param source    a DuckDB connection holding the rows
     * @param relations table name to a DuckDB relation (a table name or a parenthesized subquery)
     *                  with the table's columns, in schema order, and all its rows
     * @param progress  told the number of events handled every 1,000 events and at the end; may be null
     */
    public static SqlReplayResult run(SqlEngine engine, Connection source, Map<String, String> relations, DatabaseSchema schema,
                                      List<AccessEvent> events, LongConsumer progress) throws SQLException {
        long loadStart = System.nanoTime();
        ReplayLoader.Loaded loaded = ReplayLoader.load(engine, source, relations, schema);
        long loadMillis = (System.nanoTime() - loadStart) / 1_000_000;
        try (Connection c = loaded.connection()) {
            return new Replayer(engine, c, loaded.tables()).replay(events, progress, loadMillis);
        }
    }

    /** One event as SQL: its text, the values to bind and their columns, and the columns a SELECT returns. */
    private record Plan(String sql, boolean query, int[] bindColumns, String[] bindValues, int[] resultColumns) {}

    private static final class Replayer {
        private final SqlEngine engine;
        private final Connection connection;
        private final Map<String, ReplayTable> tables;
        private final Map<String, PreparedStatement> statements = new HashMap<>();
        private final ResultDigest digest = new ResultDigest();

        Replayer(SqlEngine engine, Connection connection, Map<String, ReplayTable> tables) {
            this.engine = engine;
            this.connection = connection;
            this.tables = tables;
        }

        SqlReplayResult replay(List<AccessEvent> events, LongConsumer progress, long loadMillis) throws SQLException {
            Histogram latency = new Histogram(3);
            long[] digests = new long[events.size()];
            java.util.BitSet executed = new java.util.BitSet(events.size());
            long queries = 0;
            long skipped = 0;
            long rows = 0;
            long start = System.nanoTime();
            try {
                for (int i = 0; i < events.size(); i++) {
                    AccessEvent e = events.get(i);
                    ReplayTable t = tables.get(e.table().toLowerCase(Locale.ROOT));
                    Plan plan = t == null ? null : plan(e, t);
                    if (plan == null) {
                        skipped++;
                    } else {
                        PreparedStatement ps = statement(plan.sql);
                        if (bind(ps, t, plan)) {
                            long t0 = System.nanoTime();
                            long n = execute(ps, plan, t);
                            latency.recordValue(System.nanoTime() - t0);
                            rows += n;
                        } else {
                            digest.reset();
                            if (!plan.query) {
                                oneCount(0);
                            }
                        }
                        executed.set(i);
                        digests[(int) queries++] = digest.value();
                    }
                    if (progress != null && (i + 1) % PROGRESS_EVERY == 0) {
                        progress.accept(i + 1);
                    }
                }
            } finally {
                for (PreparedStatement ps : statements.values()) {
                    ps.close();
                }
            }
            long elapsed = System.nanoTime() - start;
            if (progress != null && events.size() % PROGRESS_EVERY != 0) {
                progress.accept(events.size());
            }
            boolean any = latency.getTotalCount() > 0;
            return new SqlReplayResult(engine, queries, skipped, rows, elapsed, elapsed == 0 ? 0 : queries * 1e9 / elapsed,
                    any ? latency.getValueAtPercentile(50) / 1e3 : 0, any ? latency.getValueAtPercentile(95) / 1e3 : 0,
                    any ? latency.getValueAtPercentile(99) / 1e3 : 0, any ? latency.getMean() / 1e3 : 0,
                    Arrays.copyOf(digests, (int) queries), loadMillis, executed);
        }

        /** The event as SQL, or null when it is skipped. */
        private Plan plan(AccessEvent e, ReplayTable t) {
            String table = ReplayTable.quote(t.name());
            switch (e.operation()) {
                case POINT_LOOKUP, RANGE -> {
                    if (!e.keyComplete()) {
                        return null;
                    }
                    boolean[] selected = new boolean[t.columns().size()];
                    for (String c : e.projected().isEmpty() ? e.keyColumns() : e.projected()) {
                        int at = t.column(c);
                        if (at >= 0) {
                            selected[at] = true;
                        }
                    }
                    int[] result = positions(selected);
                    if (result.length == 0) {
                        return null;
                    }
                    StringBuilder sql = new StringBuilder("SELECT ");
                    for (int i = 0; i < result.length; i++) {
                        sql.append(i == 0 ? "" : ", ").append(ReplayTable.quote(t.columns().get(result[i])));
                    }
                    sql.append(" FROM ").append(table);
                    List<Integer> cols = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    return where(sql, e, t, cols, vals) ? new Plan(sql.toString(), true, ints(cols), vals.toArray(String[]::new), result) : null;
                }
                case UPDATE -> {
                    if (!e.keyComplete() || e.values().isEmpty()) {
                        return null;
                    }
                    StringBuilder sql = new StringBuilder("UPDATE ").append(table).append(" SET ");
                    List<Integer> cols = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    for (Map.Entry<String, String> v : e.values().entrySet()) {
                        int at = t.column(v.getKey());
                        if (at < 0) {
                            return null;
                        }
                        sql.append(cols.isEmpty() ? "" : ", ").append(ReplayTable.quote(t.columns().get(at))).append(" = ?");
                        cols.add(at);
                        vals.add(v.getValue());
                    }
                    return where(sql, e, t, cols, vals) ? new Plan(sql.toString(), false, ints(cols), vals.toArray(String[]::new), null) : null;
                }
                case INSERT -> {
                    if (e.values().isEmpty()) {
                        return null;
                    }
                    StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (");
                    List<Integer> cols = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    for (Map.Entry<String, String> v : e.values().entrySet()) {
                        int at = t.column(v.getKey());
                        if (at < 0) {
                            return null;
                        }
                        sql.append(cols.isEmpty() ? "" : ", ").append(ReplayTable.quote(t.columns().get(at)));
                        cols.add(at);
                        vals.add(v.getValue());
                    }
                    sql.append(") VALUES (").append("?, ".repeat(cols.size() - 1)).append("?)");
                    return new Plan(sql.toString(), false, ints(cols), vals.toArray(String[]::new), null);
                }
                case DELETE -> {
                    if (!e.keyComplete()) {
                        return null;
                    }
                    StringBuilder sql = new StringBuilder("DELETE FROM ").append(table);
                    List<Integer> cols = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    return where(sql, e, t, cols, vals) ? new Plan(sql.toString(), false, ints(cols), vals.toArray(String[]::new), null) : null;
                }
                default -> {
                    return null;
                }
            }
        }

        /** Appends {@code WHERE k1 = ? AND ...} for the event's key; false when a key column is not in the table. */
        private static boolean where(StringBuilder sql, AccessEvent e, ReplayTable t, List<Integer> cols, List<String> vals) {
            String sep = " WHERE ";
            for (String k : e.keyColumns()) {
                int at = t.column(k);
                if (at < 0) {
                    return false;
                }
                sql.append(sep).append(ReplayTable.quote(t.columns().get(at))).append(" = ?");
                sep = " AND ";
                cols.add(at);
                vals.add(e.key().get(k));
            }
            return true;
        }

        private static int[] positions(boolean[] selected) {
            int n = 0;
            for (boolean s : selected) {
                n += s ? 1 : 0;
            }
            int[] out = new int[n];
            for (int i = 0, j = 0; i < selected.length; i++) {
                if (selected[i]) {
                    out[j++] = i;
                }
            }
            return out;
        }

        private static int[] ints(List<Integer> list) {
            return list.stream().mapToInt(Integer::intValue).toArray();
        }

        private PreparedStatement statement(String sql) throws SQLException {
            PreparedStatement ps = statements.get(sql);
            if (ps == null || ps.isClosed()) {
                ps = connection.prepareStatement(sql);
                statements.put(sql, ps);
            }
            return ps;
        }

        /** Binds the plan's values by their columns' kinds; false when an integer column's literal is not an integer. */
        private static boolean bind(PreparedStatement ps, ReplayTable t, Plan plan) throws SQLException {
            for (int i = 0; i < plan.bindColumns.length; i++) {
                Kind kind = t.kinds().get(plan.bindColumns[i]);
                String v = plan.bindValues[i];
                int p = i + 1;
                if (v == null) {
                    ps.setNull(p, kind.jdbcType);
                    continue;
                }
                switch (kind) {
                    case INTEGER -> {
                        long n;
                        try {
                            n = Long.parseLong(v);
                        } catch (NumberFormatException notAnInteger) {
                            return false;
                        }
                        ps.setLong(p, n);
                    }
                    case TEXT -> ps.setString(p, v);
                    case BLOB -> ps.setBytes(p, v.getBytes(StandardCharsets.UTF_8));
                }
            }
            return true;
        }

        /** Executes the bound statement, leaving its digest in {@link #digest}; returns the rows returned or changed. */
        private long execute(PreparedStatement ps, Plan plan, ReplayTable t) throws SQLException {
            digest.reset();
            if (plan.query) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        digest.beginRow();
                        for (int i = 0; i < plan.resultColumns.length; i++) {
                            addValue(rs, i + 1, t.kinds().get(plan.resultColumns[i]));
                        }
                        digest.endRow();
                    }
                }
                return digest.rows();
            }
            int changed;
            try {
                changed = ps.executeUpdate();
            } catch (SQLException rejected) {
                // a constraint the statement breaks: it changed nothing. DuckDB closes a statement
                // after an error (STACK.md 5), so prepare it afresh next time.
                statements.remove(plan.sql).close();
                changed = 0;
            }
            oneCount(changed);
            return changed;
        }

        private void oneCount(long n) {
            digest.beginRow();
            digest.addLong(n);
            digest.endRow();
        }

        private void addValue(ResultSet rs, int p, Kind kind) throws SQLException {
            switch (kind) {
                case INTEGER -> {
                    long v = rs.getLong(p);
                    if (rs.wasNull()) {
                        digest.addNull();
                    } else {
                        digest.addLong(v);
                    }
                }
                case TEXT -> {
                    String s = rs.getString(p);
                    if (s == null) {
                        digest.addNull();
                    } else {
                        digest.addString(s);
                    }
                }
                case BLOB -> {
                    byte[] b = rs.getBytes(p);
                    if (b == null) {
                        digest.addNull();
                    } else {
                        digest.addBytes(b, 0, b.length);
                    }
                }
            }
        }
    }
}

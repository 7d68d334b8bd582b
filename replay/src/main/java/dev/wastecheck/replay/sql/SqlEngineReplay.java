package dev.wastecheck.replay.sql;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Bound;
import dev.wastecheck.model.access.Operation;
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
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 *   <li>SCAN: {@code SELECT <projected> FROM t WHERE <bounds>} (the primary key's columns, else the
 *       first column, when it projects none);</li>
 *   <li>a key that only a join binds: {@code SELECT t.<projected> FROM s JOIN t ON t.k = s.c WHERE
 *       <s's event's key and bounds> AND <t's literal key columns and bounds>}, s being the statement's
 *       other table, as our engine runs it: a nested loop through s's matching rows.</li>
 * </ul>
 * Every read, update and delete also filters on the event's {@link Bound}s.
 * Everything else (keys bound by unknown parameters, tables not loaded, columns the table lacks, a
 * bound comparing a number column with text) is skipped and counted. An event stands for one
 * execution whatever its {@code count}.
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
    public static SqlReplayResult run(
            SqlEngine engine,
            Connection source,
            Map<String, String> relations,
            DatabaseSchema schema,
            List<AccessEvent> events,
            LongConsumer progress)
            throws SQLException {
        long loadStart = System.nanoTime();
        ReplayLoader.Loaded loaded = ReplayLoader.load(engine, source, relations, schema);
        long loadMillis = (System.nanoTime() - loadStart) / 1_000_000;
        try (Connection c = loaded.connection()) {
            return new Executor(engine, c, loaded.tables()).replay(events, progress, loadMillis);
        }
    }

    /** One event as SQL: its text, the values to bind and their columns' kinds, and the kinds of the columns a SELECT returns. */
    private record Plan(String sql, boolean query, Kind[] bindKinds, String[] bindValues, Kind[] resultKinds) {}

    private static final class Executor {
        private final SqlEngine engine;
        private final Connection connection;
        private final Map<String, ReplayTable> tables;
        private final Map<String, PreparedStatement> statements = new HashMap<>();
        private final ResultDigest digest = new ResultDigest();

        Executor(SqlEngine engine, Connection connection, Map<String, ReplayTable> tables) {
            this.engine = engine;
            this.connection = connection;
            this.tables = tables;
        }

        SqlReplayResult replay(List<AccessEvent> events, LongConsumer progress, long loadMillis) throws SQLException {
            Histogram latency = new Histogram(3);
            long[] digests = new long[events.size()];
            BitSet executed = new BitSet(events.size());
            long queries = 0;
            long skipped = 0;
            long rows = 0;
            long start = System.nanoTime();
            try {
                for (int i = 0; i < events.size(); i++) {
                    AccessEvent e = events.get(i);
                    ReplayTable t = tables.get(e.table().toLowerCase(Locale.ROOT));
                    Plan plan = t == null ? null : plan(e, t);
                    if (plan == null && t != null && !e.joinKeys().isEmpty()) {
                        plan = joinPlan(events, i, t);
                    }
                    if (plan == null) {
                        skipped++;
                    } else {
                        PreparedStatement ps = statement(plan.sql);
                        if (bind(ps, plan)) {
                            long t0 = System.nanoTime();
                            long n = execute(ps, plan);
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
            return new SqlReplayResult(
                    engine,
                    queries,
                    skipped,
                    rows,
                    elapsed,
                    elapsed == 0 ? 0 : queries * 1e9 / elapsed,
                    any ? latency.getValueAtPercentile(50) / 1e3 : 0,
                    any ? latency.getValueAtPercentile(95) / 1e3 : 0,
                    any ? latency.getValueAtPercentile(99) / 1e3 : 0,
                    any ? latency.getMean() / 1e3 : 0,
                    Arrays.copyOf(digests, (int) queries),
                    loadMillis,
                    executed);
        }

        /** The event as SQL, or null when it is skipped. */
        private Plan plan(AccessEvent e, ReplayTable t) {
            String table = ReplayTable.quote(t.name());
            switch (e.operation()) {
                case POINT_LOOKUP, RANGE, SCAN -> {
                    boolean scan = e.index() == null;
                    if (!scan && !e.keyComplete()) {
                        return null;
                    }
                    int[] result = selected(e, t, scan);
                    if (result.length == 0) {
                        return null;
                    }
                    StringBuilder sql = new StringBuilder("SELECT ");
                    for (int i = 0; i < result.length; i++) {
                        sql.append(i == 0 ? "" : ", ")
                                .append(ReplayTable.quote(t.columns().get(result[i])));
                    }
                    sql.append(" FROM ").append(table);
                    List<Kind> kinds = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    return where(sql, " WHERE ", "", e, t, kinds, vals)
                            ? new Plan(
                                    sql.toString(),
                                    true,
                                    kinds.toArray(Kind[]::new),
                                    vals.toArray(String[]::new),
                                    kinds(t, result))
                            : null;
                }
                case UPDATE -> {
                    if (!e.keyComplete() || e.values().isEmpty()) {
                        return null;
                    }
                    StringBuilder sql =
                            new StringBuilder("UPDATE ").append(table).append(" SET ");
                    List<Kind> kinds = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    for (Map.Entry<String, String> v : e.values().entrySet()) {
                        int at = t.column(v.getKey());
                        if (at < 0) {
                            return null;
                        }
                        sql.append(kinds.isEmpty() ? "" : ", ")
                                .append(ReplayTable.quote(t.columns().get(at)))
                                .append(" = ?");
                        kinds.add(t.kinds().get(at));
                        vals.add(v.getValue());
                    }
                    return where(sql, " WHERE ", "", e, t, kinds, vals)
                            ? new Plan(
                                    sql.toString(),
                                    false,
                                    kinds.toArray(Kind[]::new),
                                    vals.toArray(String[]::new),
                                    null)
                            : null;
                }
                case INSERT -> {
                    if (e.values().isEmpty()) {
                        return null;
                    }
                    StringBuilder sql =
                            new StringBuilder("INSERT INTO ").append(table).append(" (");
                    List<Kind> cols = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    for (Map.Entry<String, String> v : e.values().entrySet()) {
                        int at = t.column(v.getKey());
                        if (at < 0) {
                            return null;
                        }
                        sql.append(cols.isEmpty() ? "" : ", ")
                                .append(ReplayTable.quote(t.columns().get(at)));
                        cols.add(t.kinds().get(at));
                        vals.add(v.getValue());
                    }
                    sql.append(") VALUES (")
                            .append("?, ".repeat(cols.size() - 1))
                            .append("?)");
                    return new Plan(
                            sql.toString(), false, cols.toArray(Kind[]::new), vals.toArray(String[]::new), null);
                }
                case DELETE -> {
                    if (!e.keyComplete()) {
                        return null;
                    }
                    StringBuilder sql = new StringBuilder("DELETE FROM ").append(table);
                    List<Kind> kinds = new ArrayList<>();
                    List<String> vals = new ArrayList<>();
                    return where(sql, " WHERE ", "", e, t, kinds, vals)
                            ? new Plan(
                                    sql.toString(),
                                    false,
                                    kinds.toArray(Kind[]::new),
                                    vals.toArray(String[]::new),
                                    null)
                            : null;
                }
                default -> {
                    return null;
                }
            }
        }

        /**
         * Appends {@code WHERE k1 = ? AND ...} for the event's literal key columns and its bounds, each column
         * prefixed by {@code alias}; false when a column is not in the table or a bound compares an integer column
         * with text (the event is skipped, as our engine skips it).
         */
        private static boolean where(
                StringBuilder sql,
                String first,
                String alias,
                AccessEvent e,
                ReplayTable t,
                List<Kind> kinds,
                List<String> vals) {
            String sep = first;
            for (String k : e.keyColumns()) {
                if (!e.key().containsKey(k)) {
                    continue; // bound by a join: the join's ON says it
                }
                int at = t.column(k);
                if (at < 0) {
                    return false;
                }
                sql.append(sep)
                        .append(alias)
                        .append(ReplayTable.quote(t.columns().get(at)))
                        .append(" = ?");
                sep = " AND ";
                kinds.add(t.kinds().get(at));
                vals.add(e.key().get(k));
            }
            for (Bound b : e.bounds()) {
                int at = t.column(b.column());
                if (at < 0) {
                    return false;
                }
                Kind kind = t.kinds().get(at);
                String c = alias + ReplayTable.quote(t.columns().get(at));
                for (String v : new String[] {b.lo(), b.hi()}) {
                    if (v != null && kind == Kind.INTEGER && !number(v)) {
                        return false;
                    }
                }
                if (b.isEquality()) {
                    sql.append(sep).append(c).append(" = ?");
                    kinds.add(kind);
                    vals.add(b.lo());
                    sep = " AND ";
                    continue;
                }
                if (b.lo() != null) {
                    sql.append(sep).append(c).append(b.loInclusive() ? " >= ?" : " > ?");
                    kinds.add(kind);
                    vals.add(b.lo());
                    sep = " AND ";
                }
                if (b.hi() != null) {
                    sql.append(sep).append(c).append(b.hiInclusive() ? " <= ?" : " < ?");
                    kinds.add(kind);
                    vals.add(b.hi());
                    sep = " AND ";
                }
            }
            return true;
        }

        private static boolean number(String v) {
            try {
                Double.parseDouble(v.trim());
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }

        /** The columns a SELECT returns, in table order: projected, else the key's; a scan projecting nothing, the first column. */
        private static int[] selected(AccessEvent e, ReplayTable t, boolean scan) {
            boolean[] selected = new boolean[t.columns().size()];
            for (String c : e.projected().isEmpty() ? e.keyColumns() : e.projected()) {
                int at = t.column(c);
                if (at >= 0) {
                    selected[at] = true;
                }
            }
            int[] result = positions(selected);
            if (result.length == 0 && scan && !t.primaryKey().isEmpty()) {
                for (String c : t.primaryKey()) {
                    if (t.column(c) >= 0) {
                        selected[t.column(c)] = true;
                    }
                }
                result = positions(selected);
            }
            return result.length == 0 && scan && !t.columns().isEmpty() ? new int[] {0} : result;
        }

        private static Kind[] kinds(ReplayTable t, int[] columns) {
            Kind[] out = new Kind[columns.length];
            for (int i = 0; i < columns.length; i++) {
                out[i] = t.kinds().get(columns[i]);
            }
            return out;
        }

        /**
         * A read whose key a join binds, as our engine runs it: the statement's other table's event (its driver: the
         * same trace line and time) finds rows, and each gives the key. Null when no driver can.
         */
        private Plan joinPlan(List<AccessEvent> events, int i, ReplayTable t) {
            AccessEvent e = events.get(i);
            if (e.operation() != Operation.POINT_LOOKUP && e.operation() != Operation.RANGE) {
                return null;
            }
            String driverTable = null;
            Map<String, String> on = new LinkedHashMap<>();
            for (String k : e.keyColumns()) {
                if (e.key().containsKey(k)) {
                    continue;
                }
                String src = null;
                for (Map.Entry<String, String> j : e.joinKeys().entrySet()) {
                    if (j.getKey().equalsIgnoreCase(k)) {
                        src = j.getValue();
                    }
                }
                if (src == null) {
                    break;
                }
                String st = src.substring(0, src.lastIndexOf('.'));
                if (driverTable != null && !driverTable.equalsIgnoreCase(st)) {
                    return null;
                }
                driverTable = st;
                on.put(k, src.substring(src.lastIndexOf('.') + 1));
            }
            if (driverTable == null) {
                return null;
            }
            int start = i, end = i + 1;
            while (start > 0 && sameStatement(events.get(start - 1), e)) {
                start--;
            }
            while (end < events.size() && sameStatement(events.get(end), e)) {
                end++;
            }
            ReplayTable s = tables.get(driverTable.toLowerCase(Locale.ROOT));
            if (s == null) {
                return null;
            }
            for (int d = start; d < end; d++) {
                AccessEvent de = events.get(d);
                if (d == i || !de.table().equalsIgnoreCase(driverTable)) {
                    continue;
                }
                boolean keyed = de.index() != null && de.keyComplete();
                boolean scan = de.index() == null
                        && (de.operation() == Operation.SCAN
                                || de.operation() == Operation.RANGE
                                || de.operation() == Operation.POINT_LOOKUP);
                if (!keyed && !scan) {
                    continue;
                }
                int[] result = selected(e, t, false);
                if (result.length == 0) {
                    return null;
                }
                StringBuilder sql = new StringBuilder("SELECT ");
                for (int r = 0; r < result.length; r++) {
                    sql.append(r == 0 ? "" : ", ")
                            .append("t_.")
                            .append(ReplayTable.quote(t.columns().get(result[r])));
                }
                sql.append(" FROM ")
                        .append(ReplayTable.quote(s.name()))
                        .append(" s_ JOIN ")
                        .append(ReplayTable.quote(t.name()))
                        .append(" t_ ON ");
                String sep = "";
                for (Map.Entry<String, String> j : on.entrySet()) {
                    int tc = t.column(j.getKey()), sc = s.column(j.getValue());
                    if (tc < 0 || sc < 0) {
                        return null;
                    }
                    sql.append(sep)
                            .append("t_.")
                            .append(ReplayTable.quote(t.columns().get(tc)))
                            .append(" = s_.")
                            .append(ReplayTable.quote(s.columns().get(sc)));
                    sep = " AND ";
                }
                List<Kind> kinds = new ArrayList<>();
                List<String> vals = new ArrayList<>();
                if (!where(sql, " WHERE ", "s_.", de, s, kinds, vals)) {
                    return null;
                }
                if (!where(sql, kinds.isEmpty() ? " WHERE " : " AND ", "t_.", e, t, kinds, vals)) {
                    return null;
                }
                return new Plan(
                        sql.toString(),
                        true,
                        kinds.toArray(Kind[]::new),
                        vals.toArray(String[]::new),
                        kinds(t, result));
            }
            return null;
        }

        private static boolean sameStatement(AccessEvent a, AccessEvent b) {
            return a.line() == b.line() && a.timeMillis() == b.timeMillis() && a.line() >= 0;
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

        private PreparedStatement statement(String sql) throws SQLException {
            PreparedStatement ps = statements.get(sql);
            if (ps == null || ps.isClosed()) {
                ps = connection.prepareStatement(sql);
                statements.put(sql, ps);
            }
            return ps;
        }

        /** Binds the plan's values by their columns' kinds; false when an integer column's literal is not an integer. */
        private static boolean bind(PreparedStatement ps, Plan plan) throws SQLException {
            for (int i = 0; i < plan.bindKinds.length; i++) {
                Kind kind = plan.bindKinds[i];
                String v = plan.bindValues[i];
                int p = i + 1;
                if (v == null) {
                    ps.setNull(p, kind.jdbcType);
                    continue;
                }
                switch (kind) {
                    case INTEGER -> {
                        try {
                            ps.setLong(p, Long.parseLong(v));
                        } catch (NumberFormatException notAnInteger) {
                            if (!plan.query || !number(v)) {
                                return false;
                            }
                            ps.setDouble(p, Double.parseDouble(v.trim())); // a bound such as rev_len < 99.5
                        }
                    }
                    case TEXT -> ps.setString(p, v);
                    case BLOB -> ps.setBytes(p, v.getBytes(StandardCharsets.UTF_8));
                }
            }
            return true;
        }

        /** Executes the bound statement, leaving its digest in {@link #digest}; returns the rows returned or changed. */
        private long execute(PreparedStatement ps, Plan plan) throws SQLException {
            digest.reset();
            if (plan.query) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        digest.beginRow();
                        for (int i = 0; i < plan.resultKinds.length; i++) {
                            addValue(rs, i + 1, plan.resultKinds[i]);
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
                // after an error, so prepare it afresh next time.
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

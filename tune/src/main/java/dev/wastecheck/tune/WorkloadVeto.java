package dev.wastecheck.tune;

import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.traces.access.StatementNormalizer;
import dev.wastecheck.traces.read.SqlStatement;
import dev.wastecheck.traces.read.TraceReader;
import dev.wastecheck.traces.read.TraceRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The workload decides where it can: every INSERT, UPDATE and DELETE of a trace is replayed, in
 * order, in DuckDB against a copy of each changed table kept in the declared types' terms, and
 * every value an INSERT or UPDATE writes into a changed column is checked under the new type the
 * same way tune checks the dump's rows ({@link Conversion}). A value the new type cannot hold (a
 * counter that {@code SET x = x + ?} carries past SMALLINT, a new ENUM member) means the statement
 * would fail on the migrated database; one that comes back different (a fraction under a narrower
 * scale) means it would be rounded or truncated. Either vetoes the change, and the report names
 * the statement.
 *
 * <p>Replaying the statements, rather than checking their literals, is what catches arithmetic:
 * {@code balance = balance + 500} is harmless once and overflows after the hundredth time. The
 * copy keeps the declared semantics (integers as BIGINT, decimals at their declared scale, text as
 * text), so the statements compute what the source database computes; what the new types would
 * do to the written values is the check's to say. A statement DuckDB cannot run (a server
 * function, a parameter whose value the trace does not carry) is counted and shown, never guessed.
 */
final class WorkloadVeto {
    private static final Pattern TARGET =
            Pattern.compile("(?is)^\\s*(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+[`\"]([^`\"]+)[`\"]");
    private static final String SCHEMA = "wc_replay";

    /**
     * What the replay found.
     *
     * @param writes      INSERT, UPDATE and DELETE statements of the trace on the changed tables
     * @param replayed    those DuckDB ran
     * @param unreplayed  the first few it could not, with why
     * @param vetoes      per vetoed change ({@code table.column}, lower case): the statement and what it would do
     */
    record Outcome(
            List<Path> traces,
            long writes,
            long replayed,
            long unreplayedCount,
            List<String> unreplayed,
            Map<String, String> vetoes) {}

    private record Target(String table, List<LoadedTable> parts, List<Tuner.Checked> changes) {}

    /** A change (lower-case {@code table.column}) a write vetoes: the message up to the statement, and the statement's number. */
    private record Veto(String change, String message, int statement) {}

    private WorkloadVeto() {}

    static Outcome replay(
            List<Path> traces,
            LoadedSource session,
            List<Tuner.TableResult> tables,
            Function<String, String> rootOf,
            Progress progress)
            throws IOException, SQLException {
        ProfilingDatabase db = session.database();
        Map<String, Target> targets = new LinkedHashMap<>();
        for (Tuner.TableResult t : tables) {
            if (t.applied().isEmpty()) {
                continue;
            }
            List<LoadedTable> parts = new ArrayList<>();
            for (LoadedTable lt : session.tables().values()) {
                String root = rootOf.apply(lt.def().name());
                if (lt.def().name().equalsIgnoreCase(t.name()) || t.name().equalsIgnoreCase(root)) {
                    parts.add(lt);
                }
            }
            if (!parts.isEmpty()) {
                targets.put(t.name().toLowerCase(Locale.ROOT), new Target(t.name(), parts, t.applied()));
            }
        }
        Set<String> names = new HashSet<>();
        for (LoadedTable lt : session.tables().values()) {
            names.add(lt.def().name());
            lt.def().columns().forEach(c -> names.add(c.name()));
        }
        targets.values().forEach(t -> names.add(t.table()));
        StatementNormalizer normalizer = new StatementNormalizer(names);
        Map<String, List<String>> columnsOf = new HashMap<>();
        for (Target t : targets.values()) {
            columnsOf.put(
                    t.table().toLowerCase(Locale.ROOT),
                    t.parts().get(0).def().columns().stream()
                            .map(c -> c.name().toLowerCase(Locale.ROOT))
                            .toList());
        }
        Map<String, List<String[]>> written = new LinkedHashMap<>();
        Set<String> stateful = new HashSet<>();
        Counts counts = new Counts();
        Map<String, Long> checkedAsWritten = new HashMap<>();
        // Pass 1: every write on a changed table. A literal written into a changed column is
        // checked as written, without running anything; a table where some write computes a
        // changed column (credit = credit + 40), or that a write changes in a way the shape does
        // not show, is replayed in pass 2, where the rows' state decides the values.
        progress.begin("reading the trace's writes", traces.size());
        scan(
                traces,
                session,
                normalizer,
                targets,
                (t, n, index, where, sql) -> {
                    if (n.literals().contains(null)) {
                        counts.unreplayed(where, "a parameter whose value the trace does not carry", sql);
                        return;
                    }
                    WriteShape shape = WriteShape.parse(n.shape(), n.quote(), columnsOf::get);
                    if (shape == null
                            || t.changes().stream()
                                    .anyMatch(c -> shape.computes(
                                            c.conversion().column().name().toLowerCase(Locale.ROOT)))) {
                        stateful.add(t.table().toLowerCase(Locale.ROOT));
                        return;
                    }
                    List<String[]> rows =
                            written.computeIfAbsent(t.table().toLowerCase(Locale.ROOT), k -> new ArrayList<>());
                    for (Map<String, Integer> r : shape.rows()) {
                        String[] row = new String[t.changes().size() + 1];
                        row[0] = String.valueOf(index);
                        boolean any = false;
                        for (int k = 0; k < t.changes().size(); k++) {
                            Integer v = r.get(t.changes()
                                    .get(k)
                                    .conversion()
                                    .column()
                                    .name()
                                    .toLowerCase(Locale.ROOT));
                            if (v != null && v >= 0) {
                                row[k + 1] = n.literals().get(v);
                                any = true;
                            }
                        }
                        if (any) {
                            rows.add(row);
                        }
                    }
                    checkedAsWritten.merge(t.table().toLowerCase(Locale.ROOT), 1L, Long::sum);
                },
                counts,
                progress);
        progress.end();
        // A table replayed in pass 2 counts its statements there.
        checkedAsWritten.forEach((table, n) -> counts.replayed += stateful.contains(table) ? 0 : n);
        if (!stateful.isEmpty()) {
            db.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            db.execute("CREATE SCHEMA " + SCHEMA);
            // One prepared statement per shape: a trace repeats a few shapes with other literals,
            // and DuckDB's planning is most of a short statement's cost.
            Map<String, PreparedStatement> prepared = new HashMap<>();
            try {
                for (String name : stateful) {
                    createCopy(db, targets.get(name));
                    written.remove(name);
                }
                db.execute("SET schema = '" + SCHEMA + "'");
                progress.begin("replaying writes", traces.size());
                scan(
                        traces,
                        session,
                        normalizer,
                        targets,
                        (t, n, index, where, sql) -> {
                            if (!stateful.contains(t.table().toLowerCase(Locale.ROOT))
                                    || n.literals().contains(null)) {
                                return;
                            }
                            String why = run(db, t, n, index, written, prepared);
                            if (why == null) {
                                counts.replayed++;
                            } else {
                                counts.unreplayed(where, why, sql);
                            }
                        },
                        null,
                        progress);
                progress.end();
            } finally {
                for (PreparedStatement ps : prepared.values()) {
                    ps.close();
                }
                db.execute("SET schema = 'main'");
                db.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
            }
        }
        List<Veto> vetoes = check(db, targets, written);
        // The vetoing statements' text, read back from the trace by position.
        Map<Integer, String> text = new HashMap<>();
        if (!vetoes.isEmpty()) {
            Set<Integer> wanted = new HashSet<>();
            vetoes.forEach(v -> wanted.add(v.statement()));
            scan(
                    traces,
                    session,
                    normalizer,
                    targets,
                    (t, n, index, where, sql) -> {
                        if (wanted.contains(index)) {
                            text.put(index, where + ": " + excerpt(sql));
                        }
                    },
                    null,
                    Progress.NONE);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Veto v : vetoes) {
            out.put(v.change(), v.message() + text.get(v.statement()) + ")");
        }
        return new Outcome(traces, counts.writes, counts.replayed, counts.unreplayedCount, counts.unreplayed, out);
    }

    /** What the passes count: writes on changed tables, those that vouch for their values, those that cannot. */
    private static final class Counts {
        long writes;
        long replayed;
        long unreplayedCount;
        final List<String> unreplayed = new ArrayList<>();

        void unreplayed(String where, String why, String sql) {
            unreplayedCount++;
            if (unreplayed.size() < 5) {
                unreplayed.add(where + ": " + why + ": " + excerpt(sql));
            }
        }
    }

    private interface WriteVisitor {
        void write(Target t, StatementNormalizer.Normalized n, int index, String where, String sql) throws SQLException;
    }

    /**
     * Reads the traces in order and hands each INSERT, UPDATE and DELETE on a changed table to
     * {@code visitor}, numbered in trace order (the same numbers on every pass).
     *
     * @param counts where to count the writes (the first pass), or null
     */
    private static void scan(
            List<Path> traces,
            LoadedSource session,
            StatementNormalizer normalizer,
            Map<String, Target> targets,
            WriteVisitor visitor,
            Counts counts,
            Progress progress)
            throws IOException, SQLException {
        int index = 0;
        int done = 0;
        for (Path trace : traces) {
            try (TraceReader reader = TraceReader.open(trace)) {
                while (reader.hasNext()) {
                    TraceRecord rec = reader.next();
                    if (!(rec instanceof SqlStatement s)) {
                        continue;
                    }
                    String head = s.sql().stripLeading();
                    if (head.length() < 6 || !isWrite(head)) {
                        continue;
                    }
                    Dialect d = s.dialect() != null ? s.dialect() : session.dialect();
                    StatementNormalizer.Normalized n = normalizer.normalize(s.sql(), d);
                    Matcher m = TARGET.matcher(n.shape());
                    Target t = m.find() ? targets.get(m.group(2).toLowerCase(Locale.ROOT)) : null;
                    if (t == null) {
                        continue;
                    }
                    if (counts != null) {
                        counts.writes++;
                    }
                    visitor.write(t, n, index++, trace.getFileName() + ":" + rec.line(), s.sql());
                }
            }
            progress.advance(++done);
        }
    }

    private static boolean isWrite(String head) {
        String w = head.substring(0, Math.min(7, head.length())).toUpperCase(Locale.ROOT);
        return w.startsWith("INSERT") || w.startsWith("UPDATE") || w.startsWith("DELETE") || w.startsWith("REPLACE");
    }

    /**
     * The table's rows in the declared types' terms, under its own name in the replay schema:
     * integers as BIGINT, decimals at their declared scale, floats as DOUBLE, the rest as text.
     */
    private static void createCopy(ProfilingDatabase db, Target t) throws SQLException {
        List<ColumnDef> cols = t.parts().get(0).def().columns();
        StringBuilder ddl =
                new StringBuilder("CREATE TABLE " + SCHEMA + "." + ProfilingDatabase.quote(t.table()) + " (");
        for (int i = 0; i < cols.size(); i++) {
            ddl.append(i > 0 ? ", " : "")
                    .append(ProfilingDatabase.quote(cols.get(i).name()))
                    .append(' ')
                    .append(replayType(cols.get(i), t.parts().get(0).storage()[i]));
        }
        db.execute(ddl.append(")").toString());
        for (LoadedTable part : t.parts()) {
            if (part.relation() == null || part.def().columns().size() != cols.size()) {
                continue;
            }
            StringBuilder sql =
                    new StringBuilder("INSERT INTO " + SCHEMA + "." + ProfilingDatabase.quote(t.table()) + " SELECT ");
            for (int i = 0; i < cols.size(); i++) {
                sql.append(i > 0 ? ", " : "")
                        .append("TRY_CAST(")
                        .append(part.physicalColumn(i))
                        .append(" AS ")
                        .append(replayType(cols.get(i), part.storage()[i]))
                        .append(")");
            }
            db.execute(sql.append(" FROM ").append(part.relation()).toString());
        }
    }

    private static String replayType(ColumnDef col, ColumnStorage storage) {
        TypeFamily f = col.type().family();
        if (storage == ColumnStorage.INT64 || f == TypeFamily.INTEGER) {
            return "BIGINT";
        }
        if (f == TypeFamily.DECIMAL) {
            int scale = Math.max(
                    0, Math.min(37, col.type().scale() < 0 ? 10 : col.type().scale()));
            return "DECIMAL(38," + scale + ")";
        }
        if (f == TypeFamily.FLOAT || f == TypeFamily.DOUBLE) {
            return "DOUBLE";
        }
        return "VARCHAR";
    }

    /** Runs one statement on the copy, keeping what it wrote into changed columns; null when it ran, else why not. */
    private static String run(
            ProfilingDatabase db,
            Target t,
            StatementNormalizer.Normalized n,
            int index,
            Map<String, List<String[]>> written,
            Map<String, PreparedStatement> prepared) {
        if (n.literals().contains(null)) {
            return "a parameter whose value the trace does not carry";
        }
        String sql = n.quote() == '`' ? n.shape().replace('`', '"') : n.shape();
        boolean delete = sql.regionMatches(true, 0, "DELETE", 0, 6);
        if (!delete) {
            StringBuilder ret = new StringBuilder(" RETURNING ");
            for (int k = 0; k < t.changes().size(); k++) {
                ret.append(k > 0 ? ", " : "")
                        .append("CAST(")
                        .append(ProfilingDatabase.quote(
                                t.changes().get(k).conversion().column().name()))
                        .append(" AS VARCHAR)");
            }
            sql = sql + ret;
        }
        PreparedStatement ps = null;
        try {
            ps = prepared.get(sql);
            if (ps == null) {
                ps = db.connection().prepareStatement(sql);
                prepared.put(sql, ps);
            }
            for (int i = 0; i < n.literals().size(); i++) {
                ps.setString(i + 1, n.literals().get(i));
            }
            if (delete) {
                ps.execute();
                return null;
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<String[]> rows =
                        written.computeIfAbsent(t.table().toLowerCase(Locale.ROOT), k -> new ArrayList<>());
                while (rs.next()) {
                    String[] row = new String[t.changes().size() + 1];
                    row[0] = String.valueOf(index);
                    for (int k = 0; k < t.changes().size(); k++) {
                        row[k + 1] = rs.getString(k + 1);
                    }
                    rows.add(row);
                }
            }
            return null;
        } catch (SQLException e) {
            // DuckDB closes a statement after an error: the next of this shape prepares anew.
            PreparedStatement failed = prepared.remove(sql);
            if (failed != null) {
                try {
                    failed.close();
                } catch (SQLException ignored) {
                    // already closed by the driver
                }
            }
            String msg = e.getMessage() == null
                    ? "error"
                    : e.getMessage().lines().findFirst().orElse("error");
            return "DuckDB cannot run it (" + (msg.length() > 120 ? msg.substring(0, 120) + "..." : msg) + ")";
        }
    }

    /**
     * Every value the replay wrote into a changed column, checked under the new type: the first
     * statement whose value the new type cannot hold, or gives back changed, vetoes the change.
     */
    /**
     * Every value written into a changed column, checked under the new type: per vetoed change, the
     * first statement whose value the new type cannot hold, or gives back changed.
     */
    private static List<Veto> check(
            ProfilingDatabase db, Map<String, Target> targets, Map<String, List<String[]>> written)
            throws SQLException {
        List<Veto> vetoes = new ArrayList<>();
        for (Map.Entry<String, List<String[]>> e : written.entrySet()) {
            Target t = targets.get(e.getKey());
            List<String[]> rows = e.getValue();
            if (rows.isEmpty()) {
                continue;
            }
            String table = db.nextRelationName();
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (stmt BIGINT");
            for (int k = 0; k < t.changes().size(); k++) {
                ddl.append(", v").append(k).append(" VARCHAR");
            }
            db.execute(ddl.append(")").toString());
            try {
                try (DuckDBAppender app = db.connection().createAppender(DuckDBConnection.DEFAULT_SCHEMA, table)) {
                    for (String[] row : rows) {
                        app.beginRow();
                        app.append(Long.parseLong(row[0]));
                        for (int k = 0; k < t.changes().size(); k++) {
                            if (row[k + 1] == null) {
                                app.appendNull();
                            } else {
                                app.append(row[k + 1]);
                            }
                        }
                        app.endRow();
                    }
                }
                StringBuilder q = new StringBuilder("SELECT 0");
                for (int k = 0; k < t.changes().size(); k++) {
                    Conversion c = t.changes().get(k).conversion();
                    String o = "v" + k;
                    String n = "CAST(" + Conversion.apply(c.toTuned(), o) + " AS " + c.duckType() + ")";
                    String bad = c.mismatch(o, n);
                    q.append(", min(stmt) FILTER (WHERE ").append(bad).append(")");
                    q.append(", arg_min(")
                            .append(o)
                            .append(", stmt) FILTER (WHERE ")
                            .append(bad)
                            .append(")");
                    q.append(", bool_or(")
                            .append(o)
                            .append(" IS NOT NULL AND ")
                            .append(n)
                            .append(" IS NULL) FILTER (WHERE ")
                            .append(bad)
                            .append(")");
                    q.append(", count(*) FILTER (WHERE ").append(bad).append(")");
                }
                try (Statement st = db.connection().createStatement();
                        ResultSet rs =
                                st.executeQuery(q.append(" FROM ").append(table).toString())) {
                    rs.next();
                    for (int k = 0; k < t.changes().size(); k++) {
                        long first = rs.getLong(2 + 4 * k);
                        if (rs.wasNull()) {
                            continue;
                        }
                        String value = rs.getString(3 + 4 * k);
                        boolean fails = rs.getBoolean(4 + 4 * k);
                        long count = rs.getLong(5 + 4 * k);
                        Conversion c = t.changes().get(k).conversion();
                        String what = fails
                                ? "would fail: " + c.target() + " cannot hold " + shown(value)
                                : "would be rounded or cut: " + shown(value) + " does not survive " + c.target();
                        String key = (t.table() + "." + c.column().name()).toLowerCase(Locale.ROOT);
                        String message = "the trace's write " + what + " (" + count
                                + (count == 1 ? " value" : " values") + " in all; first ";
                        vetoes.add(new Veto(key, message, (int) first));
                    }
                }
            } finally {
                db.execute("DROP TABLE IF EXISTS " + table);
            }
        }
        return vetoes;
    }

    private static String shown(String v) {
        if (v == null) {
            return "NULL";
        }
        String s = v.length() > 60 ? v.substring(0, 60) + "..." : v;
        return "'" + s.replace("\n", "\\n") + "'";
    }

    private static String excerpt(String sql) {
        String s = sql.replaceAll("\\s+", " ").strip();
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }
}

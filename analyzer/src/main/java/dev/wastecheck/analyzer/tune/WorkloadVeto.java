package dev.wastecheck.analyzer.tune;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TypeFamily;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final Pattern TARGET = Pattern.compile("(?is)^\\s*(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+[`\"]([^`\"]+)[`\"]");
    private static final String SCHEMA = "wc_replay";

    /**
     * What the replay found.
     *
     * @param writes      INSERT, UPDATE and DELETE statements of the trace on the changed tables
     * @param replayed    those DuckDB ran
     * @param unreplayed  the first few it could not, with why
     * @param vetoes      per vetoed change ({@code table.column}, lower case): the statement and what it would do
     */
    record Outcome(List<Path> traces, long writes, long replayed, long unreplayedCount, List<String> unreplayed,
                   Map<String, String> vetoes) {
    }

    private record Target(String table, List<LoadedTable> parts, List<Tuner.Checked> changes) {
    }

    private WorkloadVeto() {
    }

    static Outcome replay(List<Path> traces, Analyzer.Session session, List<Tuner.TableResult> tables,
                          java.util.function.Function<String, String> rootOf, Progress progress) throws IOException, SQLException {
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
        long writes = 0;
        long replayed = 0;
        long unreplayedCount = 0;
        List<String> unreplayed = new ArrayList<>();
        Map<String, List<String[]>> written = new LinkedHashMap<>();
        List<String> statements = new ArrayList<>();
        db.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        db.execute("CREATE SCHEMA " + SCHEMA);
        try {
            for (Target t : targets.values()) {
                createCopy(db, t);
            }
            db.execute("SET schema = '" + SCHEMA + "'");
            progress.begin("replaying writes", traces.size());
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
                        if (!m.find()) {
                            continue;
                        }
                        Target t = targets.get(m.group(2).toLowerCase(Locale.ROOT));
                        if (t == null) {
                            continue;
                        }
                        writes++;
                        String where = trace.getFileName() + ":" + rec.line();
                        String why = run(db, t, n, statements.size(), written);
                        if (why == null) {
                            replayed++;
                            statements.add(where + ": " + excerpt(s.sql()));
                        } else {
                            unreplayedCount++;
                            if (unreplayed.size() < 5) {
                                unreplayed.add(where + ": " + why + ": " + excerpt(s.sql()));
                            }
                            statements.add(null);
                        }
                    }
                }
                progress.advance(++done);
            }
            progress.end();
            db.execute("SET schema = 'main'");
            Map<String, String> vetoes = check(db, targets, written, statements);
            return new Outcome(traces, writes, replayed, unreplayedCount, unreplayed, vetoes);
        } finally {
            db.execute("SET schema = 'main'");
            db.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
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
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + SCHEMA + "." + ProfilingDatabase.quote(t.table()) + " (");
        for (int i = 0; i < cols.size(); i++) {
            ddl.append(i > 0 ? ", " : "").append(ProfilingDatabase.quote(cols.get(i).name())).append(' ')
                    .append(replayType(cols.get(i), t.parts().get(0).storage()[i]));
        }
        db.execute(ddl.append(")").toString());
        for (LoadedTable part : t.parts()) {
            if (part.relation() == null || part.def().columns().size() != cols.size()) {
                continue;
            }
            StringBuilder sql = new StringBuilder("INSERT INTO " + SCHEMA + "." + ProfilingDatabase.quote(t.table()) + " SELECT ");
            for (int i = 0; i < cols.size(); i++) {
                sql.append(i > 0 ? ", " : "").append("TRY_CAST(").append(part.physicalColumn(i)).append(" AS ")
                        .append(replayType(cols.get(i), part.storage()[i])).append(")");
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
            int scale = Math.max(0, Math.min(37, col.type().scale() < 0 ? 10 : col.type().scale()));
            return "DECIMAL(38," + scale + ")";
        }
        if (f == TypeFamily.FLOAT || f == TypeFamily.DOUBLE) {
            return "DOUBLE";
        }
        return "VARCHAR";
    }

    /** Runs one statement on the copy, keeping what it wrote into changed columns; null when it ran, else why not. */
    private static String run(ProfilingDatabase db, Target t, StatementNormalizer.Normalized n, int index,
                              Map<String, List<String[]>> written) {
        if (n.literals().contains(null)) {
            return "a parameter whose value the trace does not carry";
        }
        String sql = n.quote() == '`' ? n.shape().replace('`', '"') : n.shape();
        boolean delete = sql.regionMatches(true, 0, "DELETE", 0, 6);
        if (!delete) {
            StringBuilder ret = new StringBuilder(" RETURNING ");
            for (int k = 0; k < t.changes().size(); k++) {
                ret.append(k > 0 ? ", " : "").append("CAST(")
                        .append(ProfilingDatabase.quote(t.changes().get(k).conversion().column().name())).append(" AS VARCHAR)");
            }
            sql = sql + ret;
        }
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            for (int i = 0; i < n.literals().size(); i++) {
                ps.setString(i + 1, n.literals().get(i));
            }
            if (delete) {
                ps.execute();
                return null;
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<String[]> rows = written.computeIfAbsent(t.table().toLowerCase(Locale.ROOT), k -> new ArrayList<>());
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
            String msg = e.getMessage() == null ? "error" : e.getMessage().lines().findFirst().orElse("error");
            return "DuckDB cannot run it (" + (msg.length() > 120 ? msg.substring(0, 120) + "..." : msg) + ")";
        }
    }

    /**
     * Every value the replay wrote into a changed column, checked under the new type: the first
     * statement whose value the new type cannot hold, or gives back changed, vetoes the change.
     */
    private static Map<String, String> check(ProfilingDatabase db, Map<String, Target> targets, Map<String, List<String[]>> written,
                                             List<String> statements) throws SQLException {
        Map<String, String> vetoes = new LinkedHashMap<>();
        for (Map.Entry<String, List<String[]>> e : written.entrySet()) {
            Target t = targets.get(e.getKey());
            List<String[]> rows = e.getValue();
            if (rows.isEmpty()) {
                continue;
            }
            String table = db.nextRelationName();
            StringBuilder ddl = new StringBuilder("CREATE TEMP TABLE " + table + " (stmt BIGINT");
            for (int k = 0; k < t.changes().size(); k++) {
                ddl.append(", v").append(k).append(" VARCHAR");
            }
            db.execute(ddl.append(")").toString());
            try {
                StringBuilder ins = new StringBuilder("INSERT INTO " + table + " VALUES (?");
                for (int k = 0; k < t.changes().size(); k++) {
                    ins.append(", ?");
                }
                try (PreparedStatement ps = db.connection().prepareStatement(ins.append(")").toString())) {
                    for (String[] row : rows) {
                        ps.setLong(1, Long.parseLong(row[0]));
                        for (int k = 0; k < t.changes().size(); k++) {
                            ps.setString(k + 2, row[k + 1]);
                        }
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                StringBuilder q = new StringBuilder("SELECT 0");
                for (int k = 0; k < t.changes().size(); k++) {
                    Conversion c = t.changes().get(k).conversion();
                    String o = "v" + k;
                    String n = "CAST(" + Conversion.apply(c.toTuned(), o) + " AS " + c.duckType() + ")";
                    String bad = "(" + o + " IS NULL) <> (" + n + " IS NULL) OR (" + o + " IS NOT NULL AND ("
                            + Conversion.apply(c.originalKey(), o) + " IS NULL OR " + Conversion.apply(c.tunedKey(), n)
                            + " IS DISTINCT FROM " + Conversion.apply(c.originalKey(), o) + "))";
                    q.append(", min(stmt) FILTER (WHERE ").append(bad).append(")");
                    q.append(", arg_min(").append(o).append(", stmt) FILTER (WHERE ").append(bad).append(")");
                    q.append(", bool_or(").append(o).append(" IS NOT NULL AND ").append(n).append(" IS NULL) FILTER (WHERE ")
                            .append(bad).append(")");
                    q.append(", count(*) FILTER (WHERE ").append(bad).append(")");
                }
                try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(q.append(" FROM ").append(table).toString())) {
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
                        String what = fails ? "would fail: " + c.target() + " cannot hold " + shown(value)
                                : "would be rounded or cut: " + shown(value) + " does not survive " + c.target();
                        vetoes.put((t.table() + "." + c.column().name()).toLowerCase(Locale.ROOT),
                                "the trace's write " + what + " (" + count + (count == 1 ? " value" : " values") + " in all; first "
                                        + statements.get((int) first) + ")");
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

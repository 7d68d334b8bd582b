package dev.wastecheck.tune;

import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.analyzer.check.LiveDataGuard;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.Bytes;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.tune.SqlScript.Role;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The SQL of {@code wastecheck tune}'s migration: one ALTER TABLE per table in the source's dialect, each
 * change annotated with what the check on the tuned copy found. MySQL and PostgreSQL rewrite a
 * table once per ALTER TABLE, so a table's changes go into one statement; DuckDB takes one
 * change per statement.
 *
 * <p>Before the first change, a guard checks the live rows ({@link LiveDataGuard}): the dump is a
 * snapshot, the database has gone on. PostgreSQL's migration runs in one transaction (its DDL is
 * transactional: a guard or change that fails leaves nothing done), and checks that each view it
 * re-creates is still the dump's. MySQL's DDL commits as it goes, so its script ({@link MysqlMigration})
 * checks everything first, and comes with a rollback script.
 */
public final class Migration {
    private Migration() {}

    /** Writes the migration of a tune result: a header of what was checked and measured, the changes, what was left out. */
    public static void write(Tuner.Result r, PrintWriter w) {
        script(r).print(w);
    }

    /** The migration as text and statements. */
    public static SqlScript script(Tuner.Result r) {
        Dialect d = r.dialect();
        SqlScript s = new SqlScript();
        header(r, s);
        switch (d) {
            case MYSQL -> MysqlMigration.forward(r, s);
            case POSTGRESQL -> postgres(r, s);
            default -> duckdb(r, s);
        }
        List<String> altered = altered(r);
        if (!altered.isEmpty()) {
            s.blank();
            s.comment("Not as analyze suggested, or changing what the application reads:");
            altered.forEach(l -> s.comment("  " + l));
        }
        List<String> left = leftOut(r);
        if (!left.isEmpty()) {
            s.blank();
            s.comment("Left out:");
            left.forEach(l -> s.comment("  " + l));
        }
        return s;
    }

    /**
     * The script that puts the dump's declared types back after the migration ran (and committed),
     * or null when there is nothing to put back: MySQL and PostgreSQL (DuckDB files are copied
     * before a migration more easily than reversed).
     */
    public static SqlScript rollback(Tuner.Result r) {
        if (r.tables().stream().allMatch(t -> t.applied().isEmpty())) {
            return null;
        }
        return switch (r.dialect()) {
            case MYSQL -> MysqlMigration.rollback(r);
            case POSTGRESQL -> postgresRollback(r);
            default -> null;
        };
    }

    /**
     * PostgreSQL's rollback, in one transaction like the migration: the views over the changed
     * tables dropped, each changed column given its declared type back through the inverse of its
     * conversion (an enum or a number read back as its text, a timestamp printed in the text's own
     * format, a boolean as 0 and 1), the enum types the migration created dropped, the views
     * re-created from the dump's definitions.
     */
    static SqlScript postgresRollback(Tuner.Result r) {
        SqlScript s = new SqlScript();
        s.comment("wastecheck tune: the rollback of the migration for PostgreSQL, from "
                + String.join(", ", r.sources()));
        s.comment(
                "It puts back the types the dump declared, for the columns the migration changed, in one transaction.");
        s.statement(Role.SETUP, "BEGIN;");
        List<String> locked = r.tables().stream()
                .filter(t -> !t.applied().isEmpty())
                .map(t -> pgTable(t.name(), r.schemaOf(t.name())))
                .toList();
        s.statement(Role.SETUP, "LOCK TABLE " + String.join(", ", locked) + " IN ACCESS EXCLUSIVE MODE;");
        List<DdlCatalog.ViewDef> reversed = new ArrayList<>(r.views());
        Collections.reverse(reversed);
        for (DdlCatalog.ViewDef v : reversed) {
            s.statement(
                    Role.CHANGE, "DROP " + (v.materialized() ? "MATERIALIZED VIEW" : "VIEW") + " " + v.name() + ";");
        }
        List<String> enums = new ArrayList<>();
        for (Tuner.TableResult t : r.tables()) {
            if (t.applied().isEmpty()) {
                continue;
            }
            s.blank();
            s.comment(t.name());
            StringBuilder sql = new StringBuilder("ALTER TABLE " + pgTable(t.name(), r.schemaOf(t.name())));
            List<String> clauses = new ArrayList<>();
            for (Tuner.Checked c : t.applied()) {
                Conversion v = c.conversion();
                String col = quote(v.column().name());
                if (c.defaultValue() != null) {
                    clauses.add("ALTER COLUMN " + col + " DROP DEFAULT");
                }
                clauses.add("ALTER COLUMN " + col + " TYPE " + v.column().type().declared() + " USING "
                        + PostgresRollback.back(v, col));
                if (c.defaultValue() != null) {
                    clauses.add("ALTER COLUMN " + col + " SET DEFAULT "
                            + ProfilingDatabase.literal(v.column().defaultValue()));
                }
                if (v.kind() == FindingKind.LOW_CARDINALITY) {
                    enums.add(quote(v.target()));
                }
            }
            sql.append("\n  ").append(String.join(",\n  ", clauses));
            s.columnChange(sql.toString(), "", t.applied().size());
        }
        for (String e : enums) {
            s.statement(Role.CHANGE, "DROP TYPE " + e + ";");
        }
        s.blank();
        for (DdlCatalog.ViewDef v : r.views()) {
            s.statement(Role.CHANGE, terminated(v.text()));
            v.indexes().forEach(i -> s.statement(Role.CHANGE, terminated(i)));
            if (v.materialized() && v.text().toLowerCase(Locale.ROOT).matches("(?s).*with\\s+no\\s+data\\s*;?\\s*$")) {
                s.statement(Role.CHANGE, "REFRESH MATERIALIZED VIEW " + v.name() + ";");
            }
        }
        s.statement(Role.RESTORE, "COMMIT;");
        return s;
    }

    private static void header(Tuner.Result r, SqlScript s) {
        Dialect d = r.dialect();
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        List<String> left = leftOut(r);
        s.comment("wastecheck tune: a migration for " + d.label() + ", from " + String.join(", ", r.sources()));
        s.comment("Each change below was checked on every row of a tuned copy (" + r.rowsChecked()
                + " rows in all): every value reads back unchanged in the declared type.");
        s.comment("Bytes of the tables it changes, counted on the tuned copy in " + d.label() + "'s storage model: "
                + Bytes.human(r.bytesBefore()) + " -> " + Bytes.human(r.bytesAfter()) + " ("
                + ratio(r.bytesBefore(), r.bytesAfter())
                + "; table data only, without indexes and page overhead).");
        s.comment("Evidence: " + r.basis() + ".");
        long[] heap = r.heapTotal();
        if (heap != null) {
            s.comment(
                    "PostgreSQL heap of those tables, estimated row by row with alignment, row headers and 8 kB pages: "
                            + Bytes.human(heap[0]) + " -> " + Bytes.human(heap[1]) + " (" + ratio(heap[0], heap[1])
                            + ").");
            if (heap[2] < heap[1]) {
                s.comment("With their columns also in alignment order (8-byte types first, texts last) it would be "
                        + Bytes.human(heap[2]) + " (" + ratio(heap[0], heap[2])
                        + "): that takes rewriting the tables, which no ALTER does.");
            }
        }
        long[] innodb = r.innodbTotal();
        if (innodb != null) {
            s.comment(
                    "InnoDB size of those tables, data and indexes as OPTIMIZE TABLE leaves them (row headers, page fill, the");
            s.comment("primary key in every secondary index): " + Bytes.human(innodb[0]) + " -> "
                    + Bytes.human(innodb[1]) + " (" + ratio(innodb[0], innodb[1]) + ").");
        }
        s.comment(applied + (applied == 1 ? " change" : " changes") + "; "
                + (left.isEmpty()
                        ? "no suggestion left out."
                        : left.size() + (left.size() == 1 ? " suggestion" : " suggestions")
                                + " left out, listed at the end."));
        if (!r.altered().isEmpty()) {
            s.comment(r.altered().size() + (r.altered().size() == 1 ? " change differs" : " changes differ")
                    + " from analyze's suggestion or change" + (r.altered().size() == 1 ? "s" : "")
                    + " what the application reads (--representation), listed at the end.");
        }
        long representation =
                r.skipped().stream().filter(Tuner.Skipped::representation).count();
        if (representation > 0) {
            s.comment(representation + (representation == 1 ? " suggestion changes" : " suggestions change")
                    + " what the application reads (text to a number or time, 0/1 to boolean): left out by default,");
            s.comment("applied by --representation TABLE.COLUMN,... (or all) once the application reads the new type.");
        }
    }

    /** The changes that differ from analyze's suggestion or change what the application reads, one line each. */
    public static List<String> altered(Tuner.Result r) {
        return r.altered().stream()
                .map(a -> a.table() + "." + a.column() + " " + a.declaredType() + " -> " + a.suggestedType() + ": "
                        + a.why())
                .toList();
    }

    /** The suggestions not in the migration, one line each. */
    public static List<String> leftOut(Tuner.Result r) {
        List<String> out = new ArrayList<>();
        for (Tuner.TableResult t : r.tables()) {
            for (Tuner.Checked c : t.changes()) {
                if (!c.lossless()) {
                    out.add(t.name() + "." + c.conversion().column().name() + " " + c.declaredType() + " -> "
                            + c.conversion().target()
                            + ": " + c.mismatches() + " of " + t.rows() + " rows would change (first: "
                            + (c.example() == null ? "NULL" : ProfilingDatabase.literal(c.example())) + ")");
                }
            }
        }
        for (Tuner.Skipped s : r.skipped()) {
            out.add(s.table() + "." + s.column() + " " + s.declaredType() + " -> " + s.suggestedType() + ": "
                    + s.why());
        }
        return out;
    }

    public static String ratio(long before, long after) {
        if (before == after) {
            return "unchanged";
        }
        return after <= 0 ? "all saved" : String.format(Locale.ROOT, "%.2fx smaller", (double) before / after);
    }

    static String note(Tuner.Checked c) {
        return " -- " + c.declaredType() + ", " + c.conversion().kind();
    }

    /** The per-table comment line before a table's changes. */
    static String tableLine(Tuner.Result r, Tuner.TableResult t) {
        long[] h = r.heap().get(t.name());
        long[] i = r.innodb().get(t.name());
        return t.name() + ": " + t.rows() + " rows, " + Bytes.human(t.bytesBefore()) + " -> "
                + Bytes.human(t.bytesAfter())
                + (h == null ? "" : "; heap " + Bytes.human(h[0]) + " -> " + Bytes.human(h[1]))
                + (i == null ? "" : "; InnoDB " + Bytes.human(i[0]) + " -> " + Bytes.human(i[1]));
    }

    private static void postgres(Tuner.Result r, SqlScript s) {
        List<DdlCatalog.ViewDef> views = r.views();
        if (!views.isEmpty()) {
            s.comment(
                    "PostgreSQL will not change the type of a column a view reads: the views over changed tables are");
            s.comment(
                    "dropped first and re-created last from the dump's own definitions (grants and comments on them are");
            s.comment(
                    "not restored; check them against your live schema). Each must still be the dump's: the migration");
            s.comment(
                    "compares the live definition with the dump's, as this server prints both, and stops if they differ.");
        }
        s.comment("One transaction: a check or change that fails leaves nothing done.");
        s.statement(Role.SETUP, "BEGIN;");
        List<String> locked = r.tables().stream()
                .filter(t -> !t.applied().isEmpty())
                .map(t -> pgTable(t.name(), r.schemaOf(t.name())))
                .toList();
        if (!locked.isEmpty()) {
            // Writes wait from here (reads go on) until COMMIT, so the guard's check still holds when each ALTER runs.
            s.statement(Role.SETUP, "LOCK TABLE " + String.join(", ", locked) + " IN SHARE ROW EXCLUSIVE MODE;");
        }
        PostgresGuard.liveData(r, s);
        PostgresGuard.views(views, s);
        List<DdlCatalog.ViewDef> reversed = new ArrayList<>(views);
        Collections.reverse(reversed);
        for (DdlCatalog.ViewDef v : reversed) {
            // No CASCADE: an object over the view that the dump does not re-create (a function
            // returning its rows) must stop the migration, not vanish with it.
            s.statement(
                    Role.CHANGE, "DROP " + (v.materialized() ? "MATERIALIZED VIEW" : "VIEW") + " " + v.name() + ";");
        }
        for (Tuner.TableResult t : r.tables()) {
            if (t.applied().isEmpty()) {
                continue;
            }
            s.blank();
            s.comment(tableLine(r, t));
            postgresTable(t, r.schemaOf(t.name()), s);
        }
        s.blank();
        if (!views.isEmpty()) {
            s.comment("the views, as the dump created them");
        }
        for (DdlCatalog.ViewDef v : views) {
            s.statement(Role.CHANGE, terminated(v.text()));
            v.indexes().forEach(i -> s.statement(Role.CHANGE, terminated(i)));
            if (v.materialized() && v.text().toLowerCase(Locale.ROOT).matches("(?s).*with\\s+no\\s+data\\s*;?\\s*$")) {
                s.statement(Role.CHANGE, "REFRESH MATERIALIZED VIEW " + v.name() + ";");
            }
        }
        s.statement(Role.RESTORE, "COMMIT;");
    }

    /** A table as the migration names it: with the dump's schema, so it does not depend on the session's search_path. */
    static String pgTable(String table, String schema) {
        return schema == null ? qualified(table) : quote(schema) + "." + quote(table);
    }

    private static void postgresTable(Tuner.TableResult t, String schema, SqlScript s) {
        List<Tuner.Checked> changes = t.applied();
        for (Tuner.Checked c : changes) {
            Conversion v = c.conversion();
            if (v.kind() == FindingKind.LOW_CARDINALITY) {
                String d = v.duckType();
                s.statement(
                        Role.CHANGE,
                        "CREATE TYPE " + quote(v.target()) + " AS ENUM (" + d.substring(d.indexOf('(') + 1) + ";");
            }
        }
        StringBuilder sql = new StringBuilder("ALTER TABLE " + pgTable(t.name(), schema));
        List<String[]> lines = new ArrayList<>(); // a clause and its comment
        for (Tuner.Checked c : changes) {
            Conversion v = c.conversion();
            String col = quote(v.column().name());
            if (c.defaultValue() != null) {
                lines.add(new String[] {"ALTER COLUMN " + col + " DROP DEFAULT", ""});
            }
            String type = v.kind() == FindingKind.LOW_CARDINALITY ? quote(v.target()) : v.target();
            String using = v.using() == null
                    ? ""
                    : " USING " + v.using().replace(Conversion.VALUE, col).replace("::" + v.target(), "::" + type);
            lines.add(new String[] {"ALTER COLUMN " + col + " TYPE " + type + using, note(c)});
            if (c.defaultValue() != null) {
                lines.add(new String[] {
                    "ALTER COLUMN " + col + " SET DEFAULT " + ProfilingDatabase.literal(c.defaultValue()), ""
                });
            }
        }
        for (int i = 0; i < lines.size(); i++) {
            sql.append("\n  ").append(lines.get(i)[0]).append(i + 1 < lines.size() ? "," + lines.get(i)[1] : "");
        }
        s.columnChange(sql.toString(), lines.get(lines.size() - 1)[1], changes.size());
    }

    private static void duckdb(Tuner.Result r, SqlScript s) {
        s.statement(Role.SETUP, "BEGIN TRANSACTION;");
        for (Tuner.TableResult t : r.tables()) {
            if (t.applied().isEmpty()) {
                continue;
            }
            s.blank();
            s.comment(tableLine(r, t));
            for (Tuner.Checked c : t.applied()) {
                Conversion v = c.conversion();
                String col = quote(v.column().name());
                String using = v.using() == null ? "" : " USING " + v.using().replace(Conversion.VALUE, col);
                s.columnChange(
                        "ALTER TABLE " + qualified(t.name()) + " ALTER COLUMN " + col + " SET DATA TYPE " + v.target()
                                + using,
                        note(c),
                        1);
            }
        }
        s.blank();
        s.statement(Role.RESTORE, "COMMIT;");
    }

    static String terminated(String statement) {
        String s = statement.strip();
        return s.endsWith(";") ? s : s + ";";
    }

    /** A table name; DuckDB files name tables outside {@code main} as {@code schema.table}. */
    static String qualified(String name) {
        int dot = name.indexOf('.');
        return dot < 0 ? quote(name) : quote(name.substring(0, dot)) + "." + quote(name.substring(dot + 1));
    }

    static String quote(String name) {
        return ProfilingDatabase.quote(name);
    }
}

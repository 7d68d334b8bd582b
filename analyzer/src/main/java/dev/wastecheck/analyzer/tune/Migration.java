package dev.wastecheck.analyzer.tune;

import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.Bytes;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The SQL of {@code wastecheck tune}'s migration: one ALTER TABLE per table in the source's dialect, each
 * change annotated with what the check on the tuned copy found. MySQL and PostgreSQL rewrite a
 * table once per ALTER TABLE, so a table's changes go into one statement; DuckDB takes one
 * change per statement. PostgreSQL's run in one transaction (its DDL is transactional: a change
 * that fails leaves nothing half done).
 */
public final class Migration {
    private Migration() {
    }

    /** Writes the migration of a tune result: a header of what was checked and measured, the changes, what was left out. */
    public static void write(Tuner.Result r, PrintWriter w) {
        Dialect d = r.dialect();
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        List<String> left = leftOut(r);
        w.println("-- wastecheck tune: a migration for " + d.label() + ", from " + String.join(", ", r.sources()));
        w.println("-- Each change below was checked on every row of a tuned copy (" + r.rowsChecked()
                + " rows in all): every value reads back unchanged in the declared type.");
        w.println("-- Bytes of the tables it changes, counted on the tuned copy in " + d.label() + "'s storage model: "
                + Bytes.human(r.bytesBefore()) + " -> " + Bytes.human(r.bytesAfter()) + " (" + ratio(r.bytesBefore(), r.bytesAfter())
                + "; table data only, without indexes and page overhead).");
        w.println("-- Evidence: " + r.basis() + ".");
        long[] heap = r.heapTotal();
        if (heap != null) {
            w.println("-- PostgreSQL heap of those tables, estimated row by row with alignment, row headers and 8 kB pages: "
                    + Bytes.human(heap[0]) + " -> " + Bytes.human(heap[1]) + " (" + ratio(heap[0], heap[1]) + ").");
            if (heap[2] < heap[1]) {
                w.println("-- With their columns also in alignment order (8-byte types first, texts last) it would be "
                        + Bytes.human(heap[2]) + " (" + ratio(heap[0], heap[2]) + "): that takes rewriting the tables, which no ALTER does.");
            }
        }
        w.println("-- " + applied + (applied == 1 ? " change" : " changes") + "; " + (left.isEmpty() ? "no suggestion left out." : left.size() + (left.size() == 1 ? " suggestion" : " suggestions")
                + " left out, listed at the end."));
        if (r.tables().stream().flatMap(t -> t.applied().stream()).anyMatch(c -> c.conversion().kind().stringHolds())) {
            w.println("-- The string_holds_* changes turn text into numbers, dates or times: queries that apply string functions or LIKE");
            w.println("-- to those columns must change with them.");
        }
        if (d == Dialect.MYSQL) {
            w.println("-- MODIFY COLUMN restates NULL, DEFAULT, AUTO_INCREMENT, ON UPDATE, CHARACTER SET, COLLATE and COMMENT as the dump");
            w.println("-- declared them; check them against your live schema. Foreign key checks are off while the keys change type");
            w.println("-- (both sides of a key change together: their ranges were taken together).");
            w.println("SET @wastecheck_fk = @@FOREIGN_KEY_CHECKS;");
            w.println("SET FOREIGN_KEY_CHECKS = 0;");
        } else if (d == Dialect.DUCKDB) {
            w.println("BEGIN TRANSACTION;");
        } else if (d == Dialect.POSTGRESQL) {
            if (!r.views().isEmpty()) {
                w.println("-- PostgreSQL will not change the type of a column a view reads: the views over changed tables are");
                w.println("-- dropped first and re-created last from the dump's own definitions (grants and comments on them are");
                w.println("-- not restored; check them against your live schema).");
            }
            w.println("BEGIN;");
            List<DdlCatalog.ViewDef> reversed = new ArrayList<>(r.views());
            java.util.Collections.reverse(reversed);
            for (DdlCatalog.ViewDef v : reversed) {
                // No CASCADE: an object over the view that the dump does not re-create (a function
                // returning its rows) must stop the migration, not vanish with it.
                w.println("DROP " + (v.materialized() ? "MATERIALIZED VIEW" : "VIEW") + " IF EXISTS " + v.name() + ";");
            }
        }
        for (Tuner.TableResult t : r.tables()) {
            List<Tuner.Checked> changes = t.applied();
            if (changes.isEmpty()) {
                continue;
            }
            w.println();
            long[] h = r.heap().get(t.name());
            w.println("-- " + t.name() + ": " + t.rows() + " rows, " + Bytes.human(t.bytesBefore()) + " -> " + Bytes.human(t.bytesAfter())
                    + (h == null ? "" : "; heap " + Bytes.human(h[0]) + " -> " + Bytes.human(h[1])));
            switch (d) {
                case MYSQL -> mysql(t, changes, w);
                case POSTGRESQL -> postgres(t, r.schemaOf(t.name()), changes, w);
                default -> duckdb(t, changes, w);
            }
        }
        w.println();
        if (d == Dialect.DUCKDB) {
            w.println("COMMIT;");
        } else if (d == Dialect.MYSQL) {
            w.println("SET FOREIGN_KEY_CHECKS = @wastecheck_fk;");
        } else if (d == Dialect.POSTGRESQL) {
            if (!r.views().isEmpty()) {
                w.println("-- the views, as the dump created them");
            }
            for (DdlCatalog.ViewDef v : r.views()) {
                w.println(terminated(v.text()));
                v.indexes().forEach(i -> w.println(terminated(i)));
                if (v.materialized() && v.text().toLowerCase(Locale.ROOT).matches("(?s).*with\\s+no\\s+data\\s*;?\\s*$")) {
                    w.println("REFRESH MATERIALIZED VIEW " + v.name() + ";");
                }
            }
            w.println("COMMIT;");
        }
        if (!left.isEmpty()) {
            w.println();
            w.println("-- Left out:");
            left.forEach(l -> w.println("--   " + l));
        }
        w.flush();
    }

    /** The suggestions not in the migration, one line each. */
    public static List<String> leftOut(Tuner.Result r) {
        List<String> out = new ArrayList<>();
        for (Tuner.TableResult t : r.tables()) {
            for (Tuner.Checked c : t.changes()) {
                if (!c.lossless()) {
                    out.add(t.name() + "." + c.conversion().column().name() + " " + c.declaredType() + " -> " + c.conversion().target()
                            + ": " + c.mismatches() + " of " + t.rows() + " rows would change (first: "
                            + (c.example() == null ? "NULL" : ProfilingDatabase.literal(c.example())) + ")");
                }
            }
        }
        for (Tuner.Skipped s : r.skipped()) {
            out.add(s.table() + "." + s.column() + " " + s.declaredType() + " -> " + s.suggestedType() + ": " + s.why());
        }
        return out;
    }

    public static String ratio(long before, long after) {
        if (before == after) {
            return "unchanged";
        }
        return after <= 0 ? "all saved" : String.format(Locale.ROOT, "%.2fx smaller", (double) before / after);
    }

    private static String note(Tuner.Checked c) {
        return " -- " + c.declaredType() + ", " + c.conversion().kind();
    }

    private static void mysql(Tuner.TableResult t, List<Tuner.Checked> changes, PrintWriter w) {
        w.println("ALTER TABLE " + mysqlName(t.name()));
        for (int i = 0; i < changes.size(); i++) {
            Tuner.Checked c = changes.get(i);
            Conversion v = c.conversion();
            w.println("  MODIFY COLUMN " + mysqlName(v.column().name()) + " " + v.target() + " "
                    + MysqlClauses.restated(v.column(), v, c.defaultValue()) + (i + 1 < changes.size() ? "," : ";") + note(c));
        }
    }

    private static void postgres(Tuner.TableResult t, String schema, List<Tuner.Checked> changes, PrintWriter w) {
        for (Tuner.Checked c : changes) {
            Conversion v = c.conversion();
            if (v.kind() == FindingKind.LOW_CARDINALITY) {
                String d = v.duckType();
                w.println("CREATE TYPE " + quote(v.target()) + " AS ENUM (" + d.substring(d.indexOf('(') + 1) + ";");
            }
        }
        // Named with the dump's schema: the migration does not depend on the session's search_path.
        w.println("ALTER TABLE " + (schema == null ? qualified(t.name()) : quote(schema) + "." + quote(t.name())));
        List<String[]> lines = new ArrayList<>(); // a clause and its comment
        for (Tuner.Checked c : changes) {
            Conversion v = c.conversion();
            String col = quote(v.column().name());
            if (c.defaultValue() != null) {
                lines.add(new String[] {"ALTER COLUMN " + col + " DROP DEFAULT", ""});
            }
            String type = v.kind() == FindingKind.LOW_CARDINALITY ? quote(v.target()) : v.target();
            String using = v.using() == null ? "" : " USING " + v.using().replace(Conversion.VALUE, col)
                    .replace("::" + v.target(), "::" + type);
            lines.add(new String[] {"ALTER COLUMN " + col + " TYPE " + type + using, note(c)});
            if (c.defaultValue() != null) {
                lines.add(new String[] {"ALTER COLUMN " + col + " SET DEFAULT " + ProfilingDatabase.literal(c.defaultValue()), ""});
            }
        }
        for (int i = 0; i < lines.size(); i++) {
            w.println("  " + lines.get(i)[0] + (i + 1 < lines.size() ? "," : ";") + lines.get(i)[1]);
        }
    }

    private static void duckdb(Tuner.TableResult t, List<Tuner.Checked> changes, PrintWriter w) {
        for (Tuner.Checked c : changes) {
            Conversion v = c.conversion();
            String col = quote(v.column().name());
            String using = v.using() == null ? "" : " USING " + v.using().replace(Conversion.VALUE, col);
            w.println("ALTER TABLE " + qualified(t.name()) + " ALTER COLUMN " + col + " SET DATA TYPE " + v.target() + using + ";" + note(c));
        }
    }

    private static String terminated(String statement) {
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

    static String mysqlName(String name) {
        return '`' + name.replace("`", "``") + '`';
    }
}

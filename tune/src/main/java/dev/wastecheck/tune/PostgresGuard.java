package dev.wastecheck.tune;

import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.analyzer.check.LiveDataGuard;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.tune.SqlScript.Role;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks a PostgreSQL migration makes inside its transaction before the first change: the
 * live rows still fit the new types ({@link LiveDataGuard}), each identity or serial counter is
 * still inside the new range, and each view it drops and re-creates is still the one the dump
 * holds. Any of them raises an exception, and the transaction changes nothing.
 */
final class PostgresGuard {
    private static final String STOP =
            "wastecheck: the live database no longer fits this migration; nothing was changed: ";

    private PostgresGuard() {}

    /** One DO block: every changed table scanned once, every counter read, one exception naming all that does not fit. */
    static void liveData(Tuner.Result r, SqlScript s) {
        List<String> body = new ArrayList<>();
        for (Tuner.TableResult t : r.tables()) {
            String table = Migration.pgTable(t.name(), r.schemaOf(t.name()));
            List<String> found = new ArrayList<>();
            for (Tuner.Checked c : t.applied()) {
                Conversion v = c.conversion();
                String col = Migration.quote(v.column().name());
                String text = v.column().type().family().isBinary() ? "convert_from(" + col + ", 'UTF8')" : col;
                String bad = LiveDataGuard.postgres(v, col, text);
                if (bad != null) {
                    String what = ProfilingDatabase.literal(
                            t.name() + "." + v.column().name() + ": ");
                    found.add("CASE WHEN count(*) FILTER (WHERE " + bad + ") > 0 THEN " + what
                            + " || count(*) FILTER (WHERE " + bad
                            + ") || ' rows do not fit "
                            + LiveDataGuard.typeName(v).replace("'", "''") + ", first ' || left(min((" + col
                            + ")::text) FILTER (WHERE " + bad + "), 40) END");
                }
                BigInteger[] range = LiveDataGuard.integerRange(v, Dialect.POSTGRESQL);
                if (range != null && v.column().autoIncrement()) {
                    body.add("  seq := pg_get_serial_sequence(" + ProfilingDatabase.literal(table) + ", "
                            + ProfilingDatabase.literal(v.column().name()) + ");");
                    body.add("  IF seq IS NOT NULL THEN");
                    body.add("    EXECUTE 'SELECT last_value FROM ' || seq INTO counter;");
                    body.add("    IF counter > " + range[1] + " THEN");
                    body.add("      stop := concat_ws('; ', nullif(stop, ''), "
                            + ProfilingDatabase.literal(
                                    t.name() + "." + v.column().name() + ": its sequence is at ")
                            + " || counter || ', beyond " + range[1] + "');");
                    body.add("    END IF;");
                    body.add("  END IF;");
                }
            }
            if (!found.isEmpty()) {
                body.add("  SELECT concat_ws('; ', " + String.join(",\n      ", found) + ")");
                body.add("    INTO found FROM " + table + ";");
                body.add("  stop := concat_ws('; ', nullif(stop, ''), nullif(found, ''));");
            }
        }
        if (body.isEmpty()) {
            return;
        }
        s.blank();
        s.comment(
                "Guard: tune checked the dump's rows, but the database has taken rows since. A live value the new type");
        s.comment(
                "would not hold as it is (beyond its range, a fraction under its scale, text it does not read back, no");
        s.comment(
                "member of the new enum, longer than the new length), or a counter beyond the new range, stops here.");
        StringBuilder sql = new StringBuilder(
                "DO $wastecheck$\nDECLARE\n  stop text := '';\n  found text;\n  seq text;\n  counter numeric;\nBEGIN\n");
        body.forEach(l -> sql.append(l).append('\n'));
        sql.append("  IF stop <> '' THEN\n    RAISE EXCEPTION '")
                .append(STOP)
                .append("%', stop;\n  END IF;\nEND\n$wastecheck$;");
        s.statement(Role.GUARD, sql.toString());
    }

    private static final Pattern VIEW_HEAD = Pattern.compile(
            "(?is)^\\s*create\\s+(?:or\\s+replace\\s+)?(materialized\\s+)?(recursive\\s+)?"
                    + "(?:temp\\s+|temporary\\s+)?view\\s+(?:if\\s+not\\s+exists\\s+)?(?:\"(?:[^\"]|\"\")*\"|[\\w$]+)(?:\\s*\\.\\s*(?:\"(?:[^\"]|\"\")*\"|[\\w$]+))?");
    private static final Pattern MATVIEW_OPTIONS =
            Pattern.compile("(?is)^((?:\\s*\\([^)]*\\))?)\\s*(?:using\\s+\\w+\\s*)?(?:with\\s*\\([^)]*\\)\\s*)?"
                    + "(?:tablespace\\s+\\w+\\s*)?(?=as\\b)");
    private static final Pattern WITH_DATA = Pattern.compile("(?is)\\s+with\\s+(?:no\\s+)?data\\s*;?\\s*$");

    /**
     * Each view the migration drops: it must exist and be the dump's. The dump's definition is
     * created again as a temporary view and both are printed by this server
     * ({@code pg_get_viewdef}), so the comparison does not depend on how the dump's server spelled it.
     */
    static void views(List<DdlCatalog.ViewDef> views, SqlScript s) {
        if (views.isEmpty()) {
            return;
        }
        s.blank();
        s.comment(
                "Guard: each view dropped below must still be the dump's, or re-creating it would silently replace the live one.");
        int n = 0;
        for (DdlCatalog.ViewDef v : views) {
            String temp = "wastecheck_view_" + (++n);
            String create = temporaryView(v, temp);
            if (create == null) {
                continue;
            }
            String name = ProfilingDatabase.literal(v.name());
            s.statement(Role.GUARD, create);
            s.statement(
                    Role.GUARD,
                    "DO $wastecheck$\nBEGIN\n"
                            + "  IF to_regclass(" + name + ") IS NULL THEN\n"
                            + "    RAISE EXCEPTION '" + STOP + "%', "
                            + ProfilingDatabase.literal("view " + v.name() + " is not in the database") + ";\n"
                            + "  END IF;\n"
                            + "  IF pg_get_viewdef(to_regclass(" + name + ")) IS DISTINCT FROM pg_get_viewdef('pg_temp."
                            + temp + "'::regclass) THEN\n"
                            + "    RAISE EXCEPTION '" + STOP + "%', "
                            + ProfilingDatabase.literal(
                                    "view " + v.name()
                                            + " is not the dump's: re-creating it from the dump would replace what the database holds")
                            + ";\n"
                            + "  END IF;\nEND\n$wastecheck$;");
            s.statement(Role.GUARD, "DROP VIEW pg_temp." + temp + ";");
        }
    }

    /** The dump's CREATE [MATERIALIZED] VIEW as a temporary view named {@code temp}, or null when its head does not read. */
    static String temporaryView(DdlCatalog.ViewDef v, String temp) {
        String text = v.text().strip();
        Matcher m = VIEW_HEAD.matcher(text);
        if (!m.find()) {
            return null;
        }
        String rest = text.substring(m.end());
        if (m.group(1) != null) { // a materialized view's storage clauses and WITH [NO] DATA have no place in a view
            Matcher o = MATVIEW_OPTIONS.matcher(rest);
            if (o.find()) {
                rest = o.group(1) + " " + rest.substring(o.end());
            }
            rest = WITH_DATA.matcher(rest).replaceFirst("");
        }
        return Migration.terminated(
                "CREATE TEMPORARY " + (m.group(2) != null ? "RECURSIVE " : "") + "VIEW " + temp + rest);
    }
}

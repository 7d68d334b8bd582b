package dev.wastecheck.tune;

import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.sql.IsoTimestamps;

/**
 * The inverse of each PostgreSQL conversion, for the rollback script: the expression that gives a
 * tuned column's value back in its declared type. Every change in a migration was checked to read
 * back unchanged in the declared type's terms (the tuned copy's comparable form), so the inverse
 * is that comparable form written in PostgreSQL: a timestamp printed in the text's own format, an
 * enum member or a number as its text, a boolean as 0 or 1.
 */
final class PostgresRollback {
    private PostgresRollback() {}

    /** The USING expression over {@code col} (quoted) that restores the declared type. */
    static String back(Conversion v, String col) {
        SqlType declared = v.column().type();
        String text = switch (v.kind()) {
            case STRING_HOLDS_TIMESTAMP, STRING_HOLDS_DATE -> {
                String format = format(v);
                if (format == null) {
                    yield col + "::text";
                }
                boolean zone = !IsoTimestamps.offset(format).isEmpty();
                String pg = switch (format) {
                    case "%Y%m%d%H%M%S" -> "YYYYMMDDHH24MISS";
                    case "%Y-%m-%d %H:%M:%S" -> "YYYY-MM-DD HH24:MI:SS";
                    case "%Y-%m-%d" -> "YYYY-MM-DD";
                    default -> IsoTimestamps.postgresFormat(format);
                };
                yield "to_char(" + col + (zone ? " AT TIME ZONE 'UTC'" : "") + ", '" + pg + "')";
            }
            case LOW_CARDINALITY, STRING_HOLDS_INTEGER, STRING_HOLDS_DECIMAL, STRING_HOLDS_UUID, PADDING ->
                col + "::text";
            default -> null;
        };
        if (text == null) {
            // numbers and times among themselves; a boolean made from 0/1 goes back through integer
            String from = v.target().equalsIgnoreCase("boolean") ? col + "::integer" : col;
            return from + "::" + declared.declared();
        }
        if (declared.family().isBinary()) {
            return "convert_to(" + text + ", 'UTF8')";
        }
        return declared.family() == TypeFamily.TEXT && v.kind() != FindingKind.PADDING
                ? text
                : "(" + text + ")::" + declared.declared();
    }

    /** The DuckDB strftime format of a text-to-time change (from its comparable form), or null. */
    private static String format(Conversion v) {
        String key = v.tunedKey();
        int at = key.indexOf("strftime(");
        if (at < 0) {
            return null;
        }
        int q = key.indexOf('\'', at);
        return key.substring(q + 1, key.indexOf('\'', q + 1));
    }
}

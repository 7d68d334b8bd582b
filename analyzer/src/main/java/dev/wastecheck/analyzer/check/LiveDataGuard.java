package dev.wastecheck.analyzer.check;

import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.sql.IsoTimestamps;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The check a migration makes on the live database before its first change: tune proved each
 * change on the rows of the dump, but the database has gone on taking rows since. A value the
 * new type would not hold as it is (beyond its range, a fraction under its scale, a text it
 * does not print back, a string that is no member of the new ENUM or longer than the new
 * length) stops the migration with nothing changed. The ALTER itself cannot be trusted to
 * refuse: MariaDB's strict mode rounds a fraction under a narrower DECIMAL scale with only a
 * note, a non-strict session cuts integers to the type's maximum, and PostgreSQL's explicit
 * casts ({@code USING x::varchar(5)}, {@code x::numeric(6,1)}) truncate and round silently.
 *
 * <p>Each check is a predicate over the live column, true for a value that does not fit, in
 * the migration's own dialect.
 */
public final class LiveDataGuard {
    private LiveDataGuard() {}

    /** The new type's integer range, or null when the target is no integer type. */
    public static BigInteger[] integerRange(Conversion c, Dialect dialect) {
        SqlType t = TypeParser.parse(c.target(), dialect);
        if (!t.isInteger() || c.kind() == FindingKind.LOW_CARDINALITY) {
            return null;
        }
        BigInteger max = t.intMax();
        BigInteger min = t.unsigned() ? BigInteger.ZERO : max.negate().subtract(BigInteger.ONE);
        return new BigInteger[] {min, max};
    }

    /** Whether every value of the declared integer type lies in [min, max]: a widening needs no check. */
    private static boolean declaredWithin(SqlType declared, BigInteger[] range) {
        if (!declared.isInteger() || declared.intBits() == 0) {
            return false;
        }
        BigInteger max = declared.intMax();
        BigInteger min = declared.unsigned() ? BigInteger.ZERO : max.negate().subtract(BigInteger.ONE);
        return min.compareTo(range[0]) >= 0 && max.compareTo(range[1]) <= 0;
    }

    /** The DuckDB strftime format of a string_holds_timestamp/date change (from its comparable form), or null. */
    private static String timeFormat(Conversion c) {
        String key = c.tunedKey();
        int at = key.indexOf("strftime(");
        if (at < 0) {
            return null;
        }
        int q = key.indexOf('\'', at);
        return key.substring(q + 1, key.indexOf('\'', q + 1));
    }

    private static String intervalCheck(String value, BigInteger[] range) {
        return value + " NOT BETWEEN " + range[0] + " AND " + range[1];
    }

    /**
     * MySQL/MariaDB: the predicate over {@code col} (a quoted column) that is true for a live
     * value the new type would not hold as it is, or null when no value of the declared type can
     * fail (a widening). NULL values make it NULL, which counts as fitting.
     */
    public static String mysql(Conversion c, String col) {
        SqlType declared = c.column().type();
        SqlType target = TypeParser.parse(c.target(), Dialect.MYSQL);
        BigInteger[] range = integerRange(c, Dialect.MYSQL);
        String bytes = "CAST(" + col + " AS BINARY)";
        if (range != null) {
            if (declared.family().isString()) {
                return "(NOT (" + bytes + " REGEXP '^(0|-?[1-9][0-9]{0,19})$') OR "
                        + intervalCheck("CAST(" + col + " AS DECIMAL(65,0))", range) + ")";
            }
            if (declared.family() == TypeFamily.DECIMAL
                    || declared.family() == TypeFamily.FLOAT
                    || declared.family() == TypeFamily.DOUBLE) {
                return "(" + intervalCheck(col, range) + " OR " + col + " <> FLOOR(" + col + "))";
            }
            return declaredWithin(declared, range) ? null : intervalCheck(col, range);
        }
        switch (target.family()) {
            case DECIMAL -> {
                int p = target.precision() < 0 ? 10 : target.precision();
                int s = Math.max(0, target.scale());
                String limit = BigInteger.TEN.pow(Math.max(0, p - s)).toString();
                if (declared.family().isString()) {
                    return "(NOT (" + bytes + " REGEXP '^-?[0-9]+([.][0-9]+)?$') OR ABS(CAST(" + col
                            + " AS DECIMAL(65,30))) >= " + limit + " OR " + bytes + " <> CAST(CAST(CAST(" + col
                            + " AS DECIMAL(" + p + "," + s + ")) AS CHAR) AS BINARY))";
                }
                return "(ABS(" + col + ") >= " + limit + " OR " + col + " <> ROUND(" + col + ", " + s + "))";
            }
            case DATE, DATETIME, TIMESTAMP -> {
                String format = timeFormat(c);
                if (format == null) { // a DATETIME becoming a DATE
                    return "TIME(" + col + ") <> TIME '00:00:00'";
                }
                String my = format.replace("%M", "%i").replace("%S", "%s");
                return "NOT (" + bytes + " <=> CAST(DATE_FORMAT(STR_TO_DATE(" + col + ", '" + my + "'), '" + my
                        + "') AS BINARY))";
            }
            case ENUM -> {
                // Compared as bytes: an ENUM takes 'Buy' as member 'buy' under a case-insensitive
                // collation, and strips trailing spaces; either would change the value.
                String members = enumMembers(c).stream()
                        .map(m -> "CAST(_utf8mb4" + mysqlLiteral(m) + " AS BINARY)")
                        .collect(Collectors.joining(", "));
                return "CAST(CONVERT(" + col + " USING utf8mb4) AS BINARY) NOT IN (" + members + ")";
            }
            case CHAR, VARCHAR -> {
                return target.length() < 0 ? null : "CHAR_LENGTH(" + col + ") > " + target.length();
            }
            default -> {
                return null;
            }
        }
    }

    /** PostgreSQL: as {@link #mysql}, over {@code col} (a quoted column); {@code text} is the column as text. */
    public static String postgres(Conversion c, String col, String text) {
        SqlType declared = c.column().type();
        BigInteger[] range = integerRange(c, Dialect.POSTGRESQL);
        if (range != null) {
            if (declared.family().isString()) {
                return "CASE WHEN " + text + " ~ '^(0|-?[1-9][0-9]{0,19})$' THEN "
                        + intervalCheck(text + "::numeric", range) + " ELSE true END";
            }
            if (!declared.isInteger()) {
                return "(" + intervalCheck(col, range) + " OR " + col + " <> trunc(" + col + "))";
            }
            return declaredWithin(declared, range) ? null : intervalCheck(col, range);
        }
        if (c.kind() == FindingKind.LOW_CARDINALITY) {
            return text + " NOT IN ("
                    + enumMembers(c).stream().map(ProfilingDatabase::literal).collect(Collectors.joining(", "))
                    + ")";
        }
        SqlType target = TypeParser.parse(c.target(), Dialect.POSTGRESQL);
        switch (target.family()) {
            case DECIMAL -> {
                int p = target.precision();
                int s = Math.max(0, target.scale());
                if (p < 0) {
                    return null; // unconstrained numeric holds every number
                }
                String limit = BigInteger.TEN.pow(Math.max(0, p - s)).toString();
                if (declared.family().isString()) {
                    return "CASE WHEN " + text + " !~ '^-?[0-9]+([.][0-9]+)?$' THEN true WHEN abs(" + text
                            + "::numeric) >= " + limit + " THEN true ELSE " + text + "::numeric(" + p + "," + s
                            + ")::text <> " + text + " END";
                }
                return "(abs(" + col + ") >= " + limit + " OR " + col + " <> round(" + col + ", " + s + "))";
            }
            case DATE, DATETIME, TIMESTAMP -> {
                String format = timeFormat(c);
                if (format == null) {
                    return col + " <> date_trunc('day', " + col + ")";
                }
                if (IsoTimestamps.offset(format).length() > 0 || format.contains("T") || format.contains(".%")) {
                    String parsed = c.using().replace(Conversion.VALUE, col);
                    String back = IsoTimestamps.offset(format).isEmpty() ? parsed : parsed + " AT TIME ZONE 'UTC'";
                    return "CASE WHEN " + text + " ~ '" + IsoTimestamps.regex(format) + "' THEN to_char(" + back + ", '"
                            + IsoTimestamps.postgresFormat(format) + "') <> " + text + " ELSE true END";
                }
                return switch (format) {
                    case "%Y%m%d%H%M%S" ->
                        "CASE WHEN " + text + " ~ '^[0-9]{14}$' THEN to_char("
                                + c.using().replace(Conversion.VALUE, col) + ", 'YYYYMMDDHH24MISS') <> " + text
                                + " ELSE true END";
                    case "%Y-%m-%d %H:%M:%S" ->
                        "CASE WHEN " + text
                                + " ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$' THEN to_char(" + text
                                + "::timestamp, 'YYYY-MM-DD HH24:MI:SS') <> " + text + " ELSE true END";
                    default ->
                        "CASE WHEN " + text + " ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN to_char(" + text
                                + "::date, 'YYYY-MM-DD') <> " + text + " ELSE true END";
                };
            }
            case BOOLEAN -> {
                return col + " NOT IN (0, 1)";
            }
            case UUID -> {
                return text + " !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'";
            }
            case FLOAT -> {
                return col + "::real::double precision <> " + col;
            }
            case CHAR, VARCHAR -> {
                return target.length() < 0 ? null : "length(" + col + ") > " + target.length();
            }
            default -> {
                return null;
            }
        }
    }

    /** An ENUM change's members, from its DuckDB type. */
    public static List<String> enumMembers(Conversion c) {
        String d = c.duckType();
        return TypeParser.quoted(d.substring(d.indexOf('(') + 1, d.lastIndexOf(')')));
    }

    /** A MySQL identifier in backquotes, a backquote inside doubled. */
    public static String mysqlName(String name) {
        return '`' + name.replace("`", "``") + '`';
    }

    /** A MySQL string literal that reads back exactly under the default sql_mode (backslash escapes on). */
    public static String mysqlLiteral(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /** A short description of the new type for the stop message. */
    public static String typeName(Conversion c) {
        String t = c.target();
        return t.length() > 40 ? t.substring(0, 37) + "..." : t.toUpperCase(Locale.ROOT);
    }
}

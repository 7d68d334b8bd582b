package dev.wastecheck.sources.sql;

import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * How one engine spells what the profile measures. The analyzer's profiler describes each column's
 * aggregates once, in terms of these operations (the byte length of a value's text, a count of
 * rows that satisfy a test, whether a text round-trips through a date, ...); each engine renders
 * them in its own SQL, so that DuckDB over loaded rows, a live PostgreSQL or MariaDB, and Trino
 * over a data lake compute the same numbers where the rows live.
 *
 * <p>The engines differ in more than names, and the renderings close the gaps:
 * <ul>
 *   <li><b>Comparison of text</b> is by code point everywhere (DuckDB's default): PostgreSQL's
 *       columns compare by their collation, so text is cast {@code COLLATE "C"}; MariaDB's
 *       default collations are case-insensitive and pad with spaces ({@code 'a' = 'A '}), so text
 *       is converted to {@code utf8mb4_nopad_bin}. Otherwise counts of distinct values, minima and
 *       maxima would differ from the dump's.
 *   <li><b>Failed conversions give NULL</b>, never an error that stops the scan: DuckDB and Trino
 *       have {@code TRY_CAST}; PostgreSQL checks the spelling (a regular expression, a month's
 *       length) before it casts; MariaDB's casts return NULL or a clipped value with a warning,
 *       and every check compares the result back to the text.
 *   <li><b>Filtered aggregates</b> ({@code FILTER (WHERE ...)}) become {@code CASE} inside the
 *       aggregate where the engine lacks them (MariaDB).
 * </ul>
 *
 * <p>Texts given to these methods are the values' text with the comparison above; numbers given
 * are exact numerics. Every method returns an SQL expression.
 */
public abstract class ProfileDialect {
    /** The three spellings of a point in time that the pattern checks try. */
    public enum TimeFormat {
        /** {@code 2024-01-31}. */
        DATE(10),
        /** {@code 2024-01-31 23:59:59}. */
        TIMESTAMP(19),
        /** MediaWiki's {@code 20240131235959}. */
        COMPACT(14);

        public final int width;

        TimeFormat(int width) {
            this.width = width;
        }
    }

    public static final ProfileDialect DUCKDB = new DuckDb();
    public static final ProfileDialect POSTGRESQL = new Postgres();
    public static final ProfileDialect MARIADB = new MariaDb();
    public static final ProfileDialect TRINO = new Trino();

    /** A short name for messages. */
    public abstract String name();

    /** Run once on the session before the profile's queries (session settings the renderings rely on). */
    public void prepare(Connection c) throws SQLException {}

    /** A quoted identifier. */
    public String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** A string literal. */
    public String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** A typed value's text, compared by code point. */
    public abstract String text(String x);

    /**
     * A server column's values as their text, as the server's own client would print them (and
     * so as a dump holds them), compared by code point.
     */
    public String columnText(String column, SqlType type) {
        return text(column);
    }

    /** The text of a byte string's bytes (for the few checks that need text). */
    public String bytesAsText(String x) {
        return text(x);
    }

    /**
     * A byte string to show (a minimum, a maximum): the bytes themselves, which the profiler
     * prints as DuckDB prints a BLOB; DuckDB prints them itself, cut to 60 characters.
     */
    public String bytesShown(String x) {
        return x;
    }

    /** Length in bytes of a text's UTF-8 encoding. */
    public abstract String byteLength(String s);

    /** Length in characters. */
    public abstract String charLength(String s);

    /** Length of a byte string. */
    public abstract String binaryLength(String b);

    /** The first {@code n} characters. */
    public String left(String s, int n) {
        return "left(" + s + ", " + n + ")";
    }

    /** How many rows satisfy {@code cond}. */
    public String countIf(String cond) {
        return "count(*) FILTER (WHERE " + cond + ")";
    }

    /** {@code fn} (min, max, sum, count) of {@code x} over the rows that satisfy {@code cond}. */
    public String aggIf(String fn, String x, String cond) {
        return fn + "(" + x + ") FILTER (WHERE " + cond + ")";
    }

    /** Distinct values of {@code x} among the rows that satisfy {@code cond}. */
    public String countDistinctIf(String x, String cond) {
        return "count(DISTINCT " + x + ") FILTER (WHERE " + cond + ")";
    }

    /** The text as an exact integer of any size, or NULL when it is not one. */
    public abstract String tryInteger(String s);

    /** The text as a 64-bit integer, or NULL when it is not one (the text is at most 20 bytes). */
    public abstract String tryBigint(String s);

    /** The text as an exact decimal (at least ten fractional digits kept), or NULL. */
    public abstract String tryDecimal(String s);

    /** The text as a double, or NULL. */
    public abstract String tryDouble(String s);

    /** The text as a value of a temporal family (YEAR as an integer), or NULL. */
    public abstract String tryTemporal(String s, TypeFamily family);

    /**
     * A date, time or timestamp as its text, as DuckDB prints it: {@code 2024-01-31 23:59:59},
     * fractional seconds only when there are some, without trailing zeros.
     */
    public String temporalText(String x) {
        return text(x);
    }

    /** Trailing zeros of a fraction (and a bare point) dropped from a temporal's text. */
    static String trimFraction(String t, String position) {
        return "CASE WHEN " + position + " > 0 THEN trim(TRAILING '.' FROM trim(TRAILING '0' FROM " + t + ")) ELSE " + t
                + " END";
    }

    /** An exact integer (or an integral number) as its decimal text. */
    public abstract String integerText(String n);

    /** The number towards zero. */
    public String truncate(String d) {
        return "trunc(" + d + ")";
    }

    /** The engine's 4-byte and 8-byte floating-point types. */
    protected String floatType() {
        return "real";
    }

    protected String doubleType() {
        return "double";
    }

    /** A number as a double. */
    public String toDouble(String d) {
        return "CAST(" + d + " AS " + doubleType() + ")";
    }

    /**
     * True when a double keeps its value as a 4-byte float; false beyond the float's range
     * (3.4e38), where a cast would fail or overflow rather than answer.
     */
    public String floatRoundTrips(String d) {
        return "CASE WHEN abs(" + d + ") <= 3.4028234663852886e38 THEN CAST(CAST(" + d + " AS " + floatType() + ") AS "
                + doubleType() + ") = " + d + " ELSE false END";
    }

    /** True when a timestamp is at midnight. */
    public String isMidnight(String ts) {
        return ts + " = date_trunc('day', " + ts + ")";
    }

    /** True when the text ends with a space. */
    public String endsWithSpace(String s) {
        return s + " LIKE '% '";
    }

    /** True when the whole text matches the regular expression (POSIX-style, no anchors given). */
    public abstract String fullMatch(String s, String regex);

    /** Characters before the first point, a leading minus dropped (for a canonical decimal's text). */
    public abstract String integerDigits(String s);

    /** Characters after the point (for a canonical decimal's text). */
    public abstract String fractionDigits(String s);

    /** Digits after the point once trailing zeros are dropped; 0 without a point. */
    public abstract String usedScale(String t);

    /** The text of the row with the least {@code number} (the spelling of the smallest value). */
    public abstract String argMin(String text, String number);

    /** The text of the row with the greatest {@code number}. */
    public abstract String argMax(String text, String number);

    /**
     * True when the text, {@code width} bytes long ({@code len}), parses in {@code format} and
     * prints back to exactly itself.
     */
    public abstract String roundTripTime(String s, String len, TimeFormat format);

    /**
     * True when {@code s} is an ISO-8601 timestamp that prints back as itself in {@code format}
     * (an {@link IsoTimestamps} format); null where the dialect does not check them (the servers'
     * pushed-down profiles, which keep to {@link TimeFormat}).
     */
    public String roundTripIsoTimestamp(String s, String len, String format) {
        return null;
    }

    /** True when the text, 36 bytes long, is a UUID as a UUID type prints it (lower-case hex). */
    public String roundTripUuid(String s, String len) {
        return "CASE WHEN " + len + " = 36 THEN " + fullMatch(s, UUID) + " ELSE false END";
    }

    /**
     * The exact count of distinct values of an integer column whose values all lie in
     * {@code [min, max]}, as one bit a value in that range, or null where the engine has no such
     * aggregate (then {@code count(DISTINCT)}, a hash table of the values, is used).
     */
    public String distinctIntegersByBits(String n, long min, long max) {
        return null;
    }

    /**
     * An estimate of the distinct values of {@code c} from a sketch (a fraction of the exact
     * count's cost), or null where the engine's estimate is not used: the profile screens
     * large columns with it and counts exactly only where a decision depends on the count.
     */
    public String approxDistinct(String c) {
        return null;
    }

    /**
     * How many columns one profile query takes: 1 where a column scans apart cheaply and a
     * query's distinct-count hash tables should stay few (DuckDB's columnar tables in memory);
     * every column of the table on a row store, which reads whole rows on each scan anyway.
     */
    public int columnsPerQuery() {
        return Integer.MAX_VALUE;
    }

    /** Whether an expression of a SELECT list may name an alias defined before it in the same list (DuckDB). */
    public boolean lateralAliases() {
        return false;
    }

    /**
     * What ends a derived table's SELECT so that the engine computes it as written rather than
     * folding its expressions into the query that uses them (once for each use).
     */
    public String fence() {
        return "";
    }

    /** A derived table's alias, as every engine but DuckDB requires one. */
    public String alias(String name) {
        return " AS " + name;
    }

    static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    // ------------------------------------------------------------------ DuckDB

    /** DuckDB, over the rows loaded into the profiling database. */
    private static final class DuckDb extends ProfileDialect {
        @Override
        public String name() {
            return "DuckDB";
        }

        @Override
        public String text(String x) {
            return "CAST(" + x + " AS VARCHAR)";
        }

        @Override
        public String byteLength(String s) {
            return "strlen(" + s + ")";
        }

        @Override
        public String charLength(String s) {
            return "length(" + s + ")";
        }

        @Override
        public String binaryLength(String b) {
            return "octet_length(" + b + ")";
        }

        @Override
        public String tryInteger(String s) {
            return "TRY_CAST(" + s + " AS HUGEINT)";
        }

        @Override
        public String tryBigint(String s) {
            return "TRY_CAST(" + s + " AS BIGINT)";
        }

        @Override
        public String tryDecimal(String s) {
            return "TRY_CAST(" + s + " AS DECIMAL(38,10))";
        }

        @Override
        public String tryDouble(String s) {
            return "TRY_CAST(" + s + " AS DOUBLE)";
        }

        @Override
        public String tryTemporal(String s, TypeFamily f) {
            return "TRY_CAST(" + s + " AS " + temporalType(f) + ")";
        }

        @Override
        public String integerText(String n) {
            return "CAST(CAST(" + n + " AS HUGEINT) AS VARCHAR)";
        }

        @Override
        protected String doubleType() {
            return "DOUBLE";
        }

        @Override
        public String floatRoundTrips(String d) {
            // TRY_CAST: a DOUBLE beyond FLOAT's range (3.4e38) does not round-trip, it is no error
            return "CAST(TRY_CAST(" + d + " AS FLOAT) AS DOUBLE) = " + d;
        }

        @Override
        public String endsWithSpace(String s) {
            return "suffix(" + s + ", ' ')";
        }

        @Override
        public String fullMatch(String s, String regex) {
            return "regexp_full_match(" + s + ", '" + regex + "')";
        }

        @Override
        public String integerDigits(String s) {
            return "strlen(split_part(ltrim(" + s + ", '-'), '.', 1))";
        }

        @Override
        public String fractionDigits(String s) {
            return "strlen(split_part(" + s + ", '.', 2))";
        }

        @Override
        public String usedScale(String t) {
            return "CASE WHEN instr(" + t + ", '.') = 0 THEN 0 ELSE strlen(rtrim(" + t + ", '0')) - instr(" + t
                    + ", '.') END";
        }

        @Override
        public String argMin(String text, String number) {
            return "arg_min(" + text + ", " + number + ")";
        }

        @Override
        public String argMax(String text, String number) {
            return "arg_max(" + text + ", " + number + ")";
        }

        @Override
        public String roundTripTime(String s, String len, TimeFormat f) {
            String fmt = switch (f) {
                case DATE -> "%Y-%m-%d";
                case TIMESTAMP -> "%Y-%m-%d %H:%M:%S";
                case COMPACT -> "%Y%m%d%H%M%S";
            };
            return "CASE WHEN " + len + " = " + f.width + " THEN strftime(try_strptime(" + s + ", '" + fmt + "'), '"
                    + fmt + "') = " + s + " ELSE false END";
        }

        @Override
        public String roundTripIsoTimestamp(String s, String len, String format) {
            return "CASE WHEN " + len + " = " + IsoTimestamps.width(format) + " THEN strftime(try_strptime(" + s + ", '"
                    + format + "'), '" + format + "') = " + s + " ELSE false END";
        }

        @Override
        public String roundTripUuid(String s, String len) {
            return "CASE WHEN " + len + " = 36 THEN CAST(TRY_CAST(" + s + " AS UUID) AS VARCHAR) = " + s
                    + " ELSE false END";
        }

        @Override
        public String approxDistinct(String c) {
            return "approx_count_distinct(" + c + ")";
        }

        @Override
        public String distinctIntegersByBits(String n, long min, long max) {
            return "bit_count(bitstring_agg(CAST(" + n + " AS BIGINT), " + min + ", " + max + "))";
        }

        @Override
        public boolean lateralAliases() {
            return true;
        }

        @Override
        public int columnsPerQuery() {
            return 1;
        }

        @Override
        public String bytesShown(String x) {
            return left(text(x), 60);
        }
    }

    static String temporalType(TypeFamily f) {
        return switch (f) {
            case DATE -> "DATE";
            case TIME -> "TIME";
            case YEAR -> "INTEGER";
            default -> "TIMESTAMP";
        };
    }

    // ------------------------------------------------------------------ PostgreSQL

    /**
     * PostgreSQL (any supported version: no {@code pg_input_is_valid}, which came in 16). Text
     * compares as {@code COLLATE "C"}: by byte, which for UTF-8 is by code point. A text is cast
     * only after a regular expression has shown that the cast cannot fail; dates are checked
     * against the length of their month.
     */
    private static final class Postgres extends ProfileDialect {
        static final String NUMBER = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$";

        @Override
        public String name() {
            return "PostgreSQL";
        }

        @Override
        public String text(String x) {
            return "CAST(" + x + " AS text) COLLATE \"C\"";
        }

        /**
         * A {@code character(n)} value keeps its padding, as psql and pg_dump print it (a cast to
         * text would trim it): through the type's own output function.
         */
        @Override
        public String columnText(String column, SqlType type) {
            String t = type.declared().toLowerCase(Locale.ROOT).strip();
            boolean fixed = (t.startsWith("char") || t.startsWith("character") || t.startsWith("bpchar"))
                    && !t.contains("varying");
            return fixed ? "textin(bpcharout(" + column + ")) COLLATE \"C\"" : text(column);
        }

        /** PostgreSQL keeps a subquery with an OFFSET apart, and shares no repeated expression. */
        @Override
        public String fence() {
            return " OFFSET 0";
        }

        @Override
        public String bytesAsText(String x) {
            // printable bytes as they are; zero and high bytes as \nnn, backslashes doubled
            return "encode(" + x + ", 'escape') COLLATE \"C\"";
        }

        @Override
        public String byteLength(String s) {
            return "octet_length(" + s + ")";
        }

        @Override
        public String charLength(String s) {
            return "char_length(" + s + ")";
        }

        @Override
        public String binaryLength(String b) {
            return "octet_length(" + b + ")";
        }

        @Override
        public String tryInteger(String s) {
            return "CASE WHEN " + s + " ~ '^\\s*[-+]?[0-9]+\\s*$' THEN CAST(" + s + " AS numeric) END";
        }

        @Override
        public String tryBigint(String s) {
            return "CASE WHEN " + s + " ~ '^[-+]?[0-9]{1,19}$' THEN CASE WHEN CAST(" + s
                    + " AS numeric) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN CAST(" + s
                    + " AS bigint) END END";
        }

        @Override
        public String tryDecimal(String s) {
            return "CASE WHEN " + s + " ~ '" + NUMBER + "' THEN CAST(" + s + " AS numeric) END";
        }

        @Override
        public String tryDouble(String s) {
            return "CASE WHEN " + s + " ~ '" + NUMBER + "' OR " + s + " IN ('NaN', 'Infinity', '-Infinity') THEN CAST("
                    + s + " AS double precision) END";
        }

        /** The text of a temporal column (always a valid spelling: it is the server's own output). */
        @Override
        public String tryTemporal(String s, TypeFamily f) {
            String type = switch (f) {
                case DATE -> "date";
                case TIME -> "time";
                case YEAR -> "integer";
                default -> "timestamp";
            };
            return "CAST(" + s + " AS " + type + ")";
        }

        @Override
        public String integerText(String n) {
            return "CAST(CAST(" + n + " AS numeric) AS text)";
        }

        @Override
        protected String doubleType() {
            return "double precision";
        }

        @Override
        public String fullMatch(String s, String regex) {
            return s + " ~ '^(" + regex + ")$'";
        }

        @Override
        public String integerDigits(String s) {
            return "octet_length(split_part(ltrim(" + s + ", '-'), '.', 1))";
        }

        @Override
        public String fractionDigits(String s) {
            return "octet_length(split_part(" + s + ", '.', 2))";
        }

        @Override
        public String usedScale(String t) {
            return "CASE WHEN strpos(" + t + ", '.') = 0 THEN 0 ELSE octet_length(rtrim(" + t + ", '0')) - strpos(" + t
                    + ", '.') END";
        }

        /**
         * The least number printed: the numbers are casts of the column's own text, which print
         * back as that text (numeric keeps its display scale, a double prints its shortest
         * round-trip form), so this is the spelling of the row that holds it.
         */
        @Override
        public String argMin(String text, String number) {
            return "CAST(min(" + number + ") AS text)";
        }

        @Override
        public String argMax(String text, String number) {
            return "CAST(max(" + number + ") AS text)";
        }

        /**
         * The digits in range (month 01-12, day 01-31, hours 00-23, minutes and seconds 00-59,
         * year not 0000), then the day within its month's length: a zero-padded text that passes
         * both is a date and prints back as itself.
         */
        @Override
        public String roundTripTime(String s, String len, TimeFormat f) {
            String date = "[0-9]{4}-?(0[1-9]|1[0-2])-?(0[1-9]|[12][0-9]|3[01])";
            String time = "([01][0-9]|2[0-3]):?[0-5][0-9]:?[0-5][0-9]";
            String shape = switch (f) {
                case DATE -> date.replace("-?", "-");
                case TIMESTAMP -> date.replace("-?", "-") + " " + time.replace(":?", ":");
                case COMPACT -> date.replace("-?", "") + time.replace(":?", "");
            };
            int month = f == TimeFormat.COMPACT ? 5 : 6;
            int day = f == TimeFormat.COMPACT ? 7 : 9;
            String monthLength = "extract(day from make_date(CAST(substr(" + s + ", 1, 4) AS integer), CAST(substr(" + s
                    + ", " + month + ", 2) AS integer), 1) + interval '1 month' - interval '1 day')";
            return "CASE WHEN " + len + " = " + f.width + " AND " + fullMatch(s, shape) + " AND substr(" + s
                    + ", 1, 4) <> '0000' THEN CAST(substr(" + s + ", " + day + ", 2) AS integer) <= " + monthLength
                    + " ELSE false END";
        }
    }

    // ------------------------------------------------------------------ MariaDB and MySQL

    /**
     * MariaDB (and MySQL 8): text converted to {@code utf8mb4} with a binary, no-pad collation;
     * filtered aggregates as {@code CASE}; backslashes in literals kept as written
     * ({@code NO_BACKSLASH_ESCAPES}, set by {@link #prepare} after the catalog is read).
     *
     * <p>MariaDB folds the nested derived tables into the query, so a derived value is computed
     * once per use. {@code optimizer_switch='derived_merge=off'} would compute each once a row
     * (25.8 s instead of 36.4 s on a 2 M-row table) by writing every level out as a temporary
     * table of all the rows: on a production server's large table that is its size again in
     * tmpdir, which a read-only analysis must not risk. It is not set.
     */
    private static final class MariaDb extends ProfileDialect {
        @Override
        public String name() {
            return "MariaDB";
        }

        @Override
        public void prepare(Connection c) throws SQLException {
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
            }
        }

        @Override
        public String quote(String identifier) {
            return "`" + identifier.replace("`", "``") + "`";
        }

        @Override
        public String text(String x) {
            return "CONVERT(" + x + " USING utf8mb4) COLLATE utf8mb4_nopad_bin";
        }

        @Override
        public String byteLength(String s) {
            return "LENGTH(" + s + ")";
        }

        @Override
        public String charLength(String s) {
            return "CHAR_LENGTH(" + s + ")";
        }

        @Override
        public String binaryLength(String b) {
            return "LENGTH(" + b + ")";
        }

        @Override
        public String left(String s, int n) {
            return "LEFT(" + s + ", " + n + ")";
        }

        @Override
        public String countIf(String cond) {
            return "COUNT(CASE WHEN " + cond + " THEN 1 END)";
        }

        @Override
        public String aggIf(String fn, String x, String cond) {
            return fn + "(CASE WHEN " + cond + " THEN " + x + " END)";
        }

        @Override
        public String countDistinctIf(String x, String cond) {
            return "COUNT(DISTINCT CASE WHEN " + cond + " THEN " + x + " END)";
        }

        @Override
        public String tryInteger(String s) {
            return "CASE WHEN " + s + " REGEXP '^[[:space:]]*[-+]?[0-9]+[[:space:]]*$' THEN CAST(" + s
                    + " AS DECIMAL(65,0)) END";
        }

        @Override
        public String tryBigint(String s) {
            // a cast clips an out-of-range value with a warning: the checks compare it back to the text
            return "CASE WHEN " + s + " REGEXP '^-?[0-9]+$' THEN CAST(" + s + " AS SIGNED) END";
        }

        @Override
        public String tryDecimal(String s) {
            return "CASE WHEN " + s + " REGEXP '^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$' THEN CAST(" + s
                    + " AS DECIMAL(65,10)) END";
        }

        @Override
        public String tryDouble(String s) {
            return "CASE WHEN " + s + " REGEXP '^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$' THEN CAST(" + s
                    + " AS DOUBLE) END";
        }

        @Override
        public String tryTemporal(String s, TypeFamily f) {
            return switch (f) {
                case DATE -> "CAST(" + s + " AS DATE)";
                case TIME -> "CAST(" + s + " AS TIME(6))";
                case YEAR -> "CAST(" + s + " AS SIGNED)";
                default -> "CAST(" + s + " AS DATETIME(6))";
            };
        }

        @Override
        public String integerText(String n) {
            return "CAST(CAST(" + n + " AS DECIMAL(65,0)) AS CHAR)";
        }

        @Override
        public String temporalText(String x) {
            String t = "CAST(" + x + " AS CHAR)";
            return trimFraction(t, "INSTR(" + t + ", '.')");
        }

        @Override
        public String truncate(String d) {
            return "TRUNCATE(" + d + ", 0)";
        }

        @Override
        protected String floatType() {
            return "FLOAT";
        }

        @Override
        public String isMidnight(String ts) {
            return "TIME(" + ts + ") = '00:00:00'";
        }

        @Override
        public String fullMatch(String s, String regex) {
            return s + " REGEXP '^(" + regex.replace("\\.", "[.]") + ")$'";
        }

        @Override
        public String integerDigits(String s) {
            return "LENGTH(SUBSTRING_INDEX(TRIM(LEADING '-' FROM " + s + "), '.', 1))";
        }

        @Override
        public String fractionDigits(String s) {
            return "LENGTH(SUBSTRING_INDEX(" + s + ", '.', -1))";
        }

        @Override
        public String usedScale(String t) {
            return "CASE WHEN INSTR(" + t + ", '.') = 0 THEN 0 ELSE LENGTH(TRIM(TRAILING '0' FROM " + t + ")) - INSTR("
                    + t + ", '.') END";
        }

        /**
         * The text of the first row by number: a fixed-width image of the number that sorts as
         * the number does (the number moved by 10^54 so that none is negative, at ten fractional
         * digits, zero-padded to 66 characters), then the text; the least such string, the image
         * cut off. Exact for numbers under 10^54 in magnitude at ten fractional digits.
         */
        @Override
        public String argMin(String text, String number) {
            return "SUBSTRING(MIN(CASE WHEN " + number + " IS NOT NULL THEN CONCAT("
                    + sortable(exact(number) + " + " + TEN_TO_54) + ", " + text + ") END), 67)";
        }

        @Override
        public String argMax(String text, String number) {
            return "SUBSTRING(MIN(CASE WHEN " + number + " IS NOT NULL THEN CONCAT("
                    + sortable(TEN_TO_54 + " - " + exact(number)) + ", " + text + ") END), 67)";
        }

        /** 10^54 as an exact (DECIMAL) literal: {@code 1e54} would be a DOUBLE. */
        private static final String TEN_TO_54 = "1" + "0".repeat(54);

        private static String exact(String number) {
            return "CAST(" + number + " AS DECIMAL(65,10))";
        }

        private static String sortable(String positive) {
            return "LPAD(CAST(CAST(" + positive + " AS DECIMAL(65,10)) AS CHAR), 66, '0')";
        }

        @Override
        public String roundTripTime(String s, String len, TimeFormat f) {
            String fmt = switch (f) {
                case DATE -> "%Y-%m-%d";
                case TIMESTAMP -> "%Y-%m-%d %H:%i:%s";
                case COMPACT -> "%Y%m%d%H%i%s";
            };
            return "CASE WHEN " + len + " = " + f.width + " THEN DATE_FORMAT(STR_TO_DATE(" + s + ", '" + fmt + "'), '"
                    + fmt + "') = " + s + " ELSE false END";
        }
    }

    // ------------------------------------------------------------------ Trino

    /** Trino: {@code try_cast}, {@code min_by}; varchar compares by code point. */
    private static final class Trino extends ProfileDialect {
        @Override
        public String name() {
            return "Trino";
        }

        @Override
        public String text(String x) {
            return "CAST(" + x + " AS varchar)";
        }

        @Override
        public String bytesAsText(String x) {
            return "try(from_utf8(" + x + "))";
        }

        /**
         * Four columns a query: every scan costs (a connector may make or decode whole rows:
         * TPC-H's generator does), yet each column's exact distinct count holds a hash table of
         * its values until the query ends, and all of lineitem's in one query ran a 2 GB
         * coordinator out of heap at scale 1. One a query took 89 s for scale 1 on one node.
         */
        @Override
        public int columnsPerQuery() {
            return 4;
        }

        /**
         * A double or real as Java prints it ({@code 9987.71}, not {@code 9.98771E3}), as the JDBC
         * driver hands it over; a row, map or array as its JSON.
         */
        @Override
        public String columnText(String column, SqlType type) {
            String t = type.declared().toLowerCase(Locale.ROOT).strip();
            if (t.equals("double") || t.equals("real")) {
                return "format('%s', " + column + ")";
            }
            // a row, map or array (declared json by the catalog reader) has no cast to varchar: its JSON does
            return t.equals("json") ? "json_format(CAST(" + column + " AS json))" : text(column);
        }

        @Override
        public String byteLength(String s) {
            return "length(to_utf8(" + s + "))";
        }

        @Override
        public String charLength(String s) {
            return "length(" + s + ")";
        }

        @Override
        public String binaryLength(String b) {
            return "length(" + b + ")";
        }

        @Override
        public String left(String s, int n) {
            return "substr(" + s + ", 1, " + n + ")";
        }

        @Override
        public String tryInteger(String s) {
            return "try_cast(trim(" + s + ") AS decimal(38,0))";
        }

        @Override
        public String tryBigint(String s) {
            return "try_cast(" + s + " AS bigint)";
        }

        @Override
        public String tryDecimal(String s) {
            return "try_cast(" + s + " AS decimal(38,10))";
        }

        @Override
        public String tryDouble(String s) {
            return "try_cast(" + s + " AS double)";
        }

        @Override
        public String tryTemporal(String s, TypeFamily f) {
            return "try_cast(" + s + " AS " + temporalType(f).toLowerCase(Locale.ROOT) + ")";
        }

        @Override
        public String integerText(String n) {
            return "CAST(CAST(" + n + " AS decimal(38,0)) AS varchar)";
        }

        @Override
        public String temporalText(String x) {
            String t = "CAST(" + x + " AS varchar)";
            return trimFraction(t, "strpos(" + t + ", '.')");
        }

        @Override
        public String truncate(String d) {
            return "truncate(" + d + ")";
        }

        @Override
        public String fullMatch(String s, String regex) {
            return "regexp_like(" + s + ", '^(" + regex + ")$')";
        }

        @Override
        public String integerDigits(String s) {
            return "length(split_part(trim(LEADING '-' FROM " + s + "), '.', 1))";
        }

        @Override
        public String fractionDigits(String s) {
            return "length(split_part(" + s + ", '.', 2))";
        }

        @Override
        public String usedScale(String t) {
            return "CASE WHEN strpos(" + t + ", '.') = 0 THEN 0 ELSE length(trim(TRAILING '0' FROM " + t
                    + ")) - strpos(" + t + ", '.') END";
        }

        @Override
        public String argMin(String text, String number) {
            return "min_by(" + text + ", " + number + ")";
        }

        @Override
        public String argMax(String text, String number) {
            return "max_by(" + text + ", " + number + ")";
        }

        @Override
        public String roundTripTime(String s, String len, TimeFormat f) {
            String fmt = switch (f) {
                case DATE -> "%Y-%m-%d";
                case TIMESTAMP -> "%Y-%m-%d %H:%i:%s";
                case COMPACT -> "%Y%m%d%H%i%s";
            };
            return "CASE WHEN " + len + " = " + f.width + " THEN coalesce(date_format(try(date_parse(" + s + ", '" + fmt
                    + "')), '" + fmt + "') = " + s + ", false) ELSE false END";
        }
    }
}

package dev.wastecheck.sources.sql;

import dev.wastecheck.model.schema.Dialect;

/**
 * ISO-8601 timestamps written as text (ISO 8601-1:2019, 5.4.2; RFC 3339, 5.6), the spelling JSON
 * APIs and pandas write: {@code 2013-01-01T10:00:00Z}, a {@code T} or a space between date and
 * time, fractional seconds of 3 or 6 digits, and a {@code Z}, {@code +hh:mm} or {@code +hh} offset.
 *
 * <p>A column is read in one spelling, the one its least value has: the DuckDB {@code strptime}
 * format of that spelling, with the offset as literal text. A value counts as a timestamp only when
 * it prints back as itself in that format, so a column whose values mix offsets, or fraction
 * widths, counts short and keeps its text: no type holds a written offset (PostgreSQL's
 * {@code timestamptz} keeps the instant, not the offset it was written with), and a rounded
 * fraction would be a changed value. The plain {@code 2024-01-31 23:59:59} spelling stays with
 * {@link ProfileDialect.TimeFormat#TIMESTAMP}.
 */
public final class IsoTimestamps {
    private IsoTimestamps() {}

    /**
     * The DuckDB format of an ISO-8601 timestamp spelled as {@code sample}, or null when it is
     * none or the plain {@code YYYY-MM-DD HH:MM:SS} (19 characters, a space).
     */
    public static String format(String sample) {
        if (sample == null || sample.length() < 19 || sample.length() > 32) {
            return null;
        }
        String shape = sample.replaceAll("[0-9]", "9");
        if (!shape.startsWith("9999-99-99") || !shape.startsWith("99:99:99", 11)) {
            return null;
        }
        char sep = sample.charAt(10);
        if (sep != 'T' && sep != ' ') {
            return null;
        }
        StringBuilder f = new StringBuilder("%Y-%m-%d").append(sep).append("%H:%M:%S");
        String rest = shape.substring(19);
        String restText = sample.substring(19);
        if (rest.startsWith(".999999")) {
            f.append(".%f");
            rest = rest.substring(7);
            restText = restText.substring(7);
        } else if (rest.startsWith(".999")) {
            f.append(".%g");
            rest = rest.substring(4);
            restText = restText.substring(4);
        }
        if (rest.isEmpty() || rest.equals("Z") || rest.matches("[+-]99(:99)?")) {
            f.append(restText);
        } else {
            return null;
        }
        String out = f.toString();
        return out.equals("%Y-%m-%d %H:%M:%S") ? null : out;
    }

    /** The width of a value in {@code format}. */
    public static int width(String format) {
        return pattern(format).length();
    }

    /** {@code format} as a reader sees it: {@code YYYY-MM-DDTHH:MM:SS.fffZ}. */
    public static String pattern(String format) {
        return format.replace("%Y", "YYYY")
                .replace("%m", "MM")
                .replace("%d", "DD")
                .replace("%H", "HH")
                .replace("%M", "MM")
                .replace("%S", "SS")
                .replace("%g", "fff")
                .replace("%f", "ffffff");
    }

    /** The literal offset at the end of {@code format} ({@code Z}, {@code +02:00}), or "" when it has none. */
    public static String offset(String format) {
        int at = format.indexOf("%S") + 2;
        String rest = format.substring(at).replace(".%g", "").replace(".%f", "");
        return rest;
    }

    /** Whether the offset names UTC: {@code Z}, {@code +00:00}, {@code +00}. */
    public static boolean utc(String offset) {
        return offset.equals("Z") || offset.matches("[+-]00(:?00)?");
    }

    /** Fractional digits the format carries: 0, 3 or 6. */
    public static int fraction(String format) {
        return format.contains("%f") ? 6 : format.contains("%g") ? 3 : 0;
    }

    /**
     * The type that holds every value and gives its text back, or null where none does: MySQL
     * {@code DATETIME} or {@code DATETIME(6)} holding the UTC time (never TIMESTAMP, which converts
     * by the session's time zone and ends in 2038); PostgreSQL {@code timestamp}, or
     * {@code timestamp with time zone} when the values say UTC (microsecond precision either way);
     * DuckDB alike. None for an offset other than UTC (the instant survives, the written offset
     * would not), for milliseconds on MySQL (its DATE_FORMAT prints six fraction digits or none,
     * so no format gives {@code .123} back), or on SQLite (INTEGER seconds drop the fraction).
     */
    public static String type(Dialect dialect, String format) {
        int fsp = fraction(format);
        String off = offset(format);
        if (!off.isEmpty() && !utc(off)) {
            return null;
        }
        return switch (dialect) {
            case MYSQL -> fsp == 0 ? "DATETIME" : fsp == 6 ? "DATETIME(6)" : null;
            case POSTGRESQL, TRINO -> off.isEmpty() ? "timestamp" : "timestamp with time zone";
            case DUCKDB -> off.isEmpty() ? "TIMESTAMP" : "TIMESTAMP WITH TIME ZONE";
            case SQLITE -> null;
        };
    }

    /** Bytes a value of {@link #type} takes: DATETIME 5, DATETIME(6) 8 (MySQL 8.0 manual, 13.7); 8 elsewhere. */
    public static int width(Dialect dialect, String format) {
        return dialect == Dialect.MYSQL && fraction(format) == 0 ? 5 : 8;
    }

    /** The MySQL DATE_FORMAT format that prints a DATETIME back in {@code format}. */
    public static String mysqlFormat(String format) {
        return format.replace("%M", "%i").replace("%S", "%s");
    }

    /** What the offset means in {@link #type}, and how the text comes back, for the finding. */
    public static String meaning(Dialect dialect, String format) {
        String off = offset(format);
        if (dialect == Dialect.MYSQL) {
            String back = "DATE_FORMAT(col, '" + mysqlFormat(format) + "') gives the text back";
            return off.isEmpty()
                    ? "; " + back
                    : "; every value is in UTC (the '" + off + "' suffix): DATETIME holds the UTC time (not TIMESTAMP,"
                            + " which converts by the session's time zone and ends in 2038); " + back;
        }
        if (off.isEmpty()) {
            return "; no offset written: a timestamp without time zone, as written";
        }
        return "; every value is an instant in UTC (the '" + off + "' suffix): timestamp with time zone stores it"
                + " as that instant, and read in UTC it prints back as written";
    }

    /** The format of a finding's pattern ({@link #pattern}), or null when {@code detail} names none. */
    public static String fromFinding(String detail) {
        String mark = "ISO-8601 timestamps '";
        int at = detail.indexOf(mark);
        if (at < 0) {
            return null;
        }
        String pattern = detail.substring(at + mark.length(), detail.indexOf('\'', at + mark.length()));
        String tail = pattern.substring(19);
        String fraction = tail.startsWith(".ffffff") ? ".%f" : tail.startsWith(".fff") ? ".%g" : "";
        tail = tail.substring(fraction.isEmpty() ? 0 : fraction.equals(".%f") ? 7 : 4);
        return "%Y-%m-%d" + pattern.charAt(10) + "%H:%M:%S" + fraction + tail;
    }

    /** A POSIX regular expression every value in {@code format} matches. */
    public static String regex(String format) {
        return "^"
                + format.replace(".", "[.]")
                        .replace("+", "[+]")
                        .replace("%Y", "[0-9]{4}")
                        .replace("%g", "[0-9]{3}")
                        .replace("%f", "[0-9]{6}")
                        .replaceAll("%[mdHMS]", "[0-9]{2}")
                + "$";
    }

    /** PostgreSQL's to_char format printing a timestamp back in {@code format}. */
    public static String postgresFormat(String format) {
        StringBuilder b = new StringBuilder("YYYY-MM-DD");
        b.append(format.charAt(8) == 'T' ? "\"T\"" : " ").append("HH24:MI:SS");
        if (fraction(format) > 0) {
            b.append(fraction(format) == 6 ? ".US" : ".MS");
        }
        String off = offset(format);
        if (!off.isEmpty()) {
            b.append('"').append(off).append('"');
        }
        return b.toString();
    }
}

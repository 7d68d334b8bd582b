package dev.wastecheck.sources.load;

import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a value from a dump fits the type its column declares: {@code 300} does not fit a
 * TINYINT UNSIGNED, {@code -5} a SMALLINT UNSIGNED, {@code 'z'} an ENUM('x','y'), {@code
 * 2023-02-30} a DATE, {@code 123456789012.345} a DECIMAL(10,2), eleven characters a
 * VARCHAR(10), {@code 1e39} a 4-byte FLOAT. A server would have refused or changed such a value,
 * so it came from an edited dump or a lenient mode; either way the report counts it per column
 * and no suggested type may be narrower than what holds it.
 *
 * <p>MySQL's own spellings of "no value" are in range: {@code ''} in an ENUM (the error member) and
 * zero dates ({@code 0000-00-00}, {@code 2023-00-00}). Checks run on the loader's hot path, so
 * each is a scan of the value's bytes; only values that could be out of range are parsed.
 */
final class DeclaredRange {
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final double FLOAT_MAX = Float.MAX_VALUE;

    private final SqlType type;
    private final byte[][] members;
    private final boolean mysql;
    /** The integer range the type holds (the whole long for 64 bits, but no negatives if unsigned). */
    private final long intMin;

    private final long intMax;

    DeclaredRange(SqlType type, boolean mysql) {
        this.type = type;
        this.mysql = mysql;
        int bits = type.intBits();
        if (bits <= 0 || bits >= 64) {
            intMin = type.unsigned() ? 0 : Long.MIN_VALUE; // a BIGINT UNSIGNED beyond 2^63 travels as text
            intMax = Long.MAX_VALUE;
        } else {
            intMin = type.unsigned() ? 0 : -(1L << (bits - 1));
            intMax = type.unsigned() ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
        }
        List<String> values = type.enumValues();
        members = new byte[values.size()][];
        for (int i = 0; i < members.length; i++) {
            members[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** A checker for the column's declared type, or null when every value the dump can spell fits it. */
    static DeclaredRange of(SqlType t, boolean mysql) {
        if (t.declared().endsWith("]")) {
            return null; // arrays: their elements are not checked
        }
        return switch (t.family()) {
            case INTEGER, DATE, DATETIME, TIMESTAMP -> new DeclaredRange(t, mysql);
            case DECIMAL -> t.precision() > 0 ? new DeclaredRange(t, mysql) : null;
            case FLOAT -> new DeclaredRange(t, mysql);
            case ENUM, SET -> t.enumValues().isEmpty() ? null : new DeclaredRange(t, mysql);
            case CHAR, VARCHAR, BINARY, VARBINARY -> t.length() > 0 ? new DeclaredRange(t, mysql) : null;
            default -> null;
        };
    }

    /** The least integer the type holds: {@link #integer} finds nothing to say from here to {@link #intMax()}. */
    long intMin() {
        return intMin;
    }

    long intMax() {
        return intMax;
    }

    /**
     * The byte length up to which every value fits the type, so that {@link #text} finds nothing
     * to say: a CHAR or VARCHAR of n characters (a character takes at least a byte) and a BINARY
     * or VARBINARY of n bytes hold any value of n bytes; -1 for the other types (each value judged).
     */
    int fitsBytes() {
        return switch (type.family()) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> type.length();
            default -> -1;
        };
    }

    /** For an integer column loaded as BIGINT: why {@code v} does not fit, or null. */
    String integer(long v) {
        if (v >= intMin && v <= intMax) {
            return null;
        }
        int bits = type.intBits();
        if (bits <= 0 || bits >= 64) {
            return outside();
        }
        return outside() + " (" + intMin + " to " + intMax + ")";
    }

    /** For a value kept as text or bytes: why it does not fit, or null. */
    String text(byte[] b, int off, int len) {
        return text(b, off, len, null);
    }

    /**
     * As {@link #text(byte[], int, int)}, with the value already read as a number ({@code number},
     * or null): a DECIMAL's plain spelling is judged from that reading, not read again.
     */
    String text(byte[] b, int off, int len, PlainNumber number) {
        if (number != null && number.plain && !number.exponent && type.family() == TypeFamily.DECIMAL) {
            return decimal(number);
        }
        return switch (type.family()) {
            case INTEGER -> unsignedBigint(b, off, len);
            case DECIMAL -> decimal(b, off, len);
            case FLOAT -> floating(b, off, len);
            case ENUM -> member(b, off, len) ? null : "is not a member of " + type.declared();
            case SET -> set(b, off, len);
            case DATE -> date(b, off, len, len) ? null : "is not a valid date";
            case DATETIME, TIMESTAMP -> timestamp(b, off, len) ? null : "is not a valid date and time";
            case CHAR, VARCHAR -> chars(b, off, len);
            case BINARY, VARBINARY ->
                len > type.length() ? "is " + len + " bytes, longer than " + type.declared() : null;
            default -> null;
        };
    }

    private String outside() {
        return "is outside " + type.declared();
    }

    /** BIGINT UNSIGNED travels as text: 0 to 18446744073709551615. */
    private String unsignedBigint(byte[] b, int off, int len) {
        if (len == 0 || len > 40) {
            return len == 0 ? null : outside();
        }
        if (len <= 19) {
            int i = off;
            while (i < off + len && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == off + len) {
                return null; // at most 19 digits: below 2^64, read without a BigInteger
            }
        }
        try {
            BigInteger v = new BigInteger(new String(b, off, len, StandardCharsets.US_ASCII).trim());
            return v.signum() < 0 || v.compareTo(UINT64_MAX) > 0 ? outside() + " (0 to " + UINT64_MAX + ")" : null;
        } catch (NumberFormatException e) {
            return null; // not a number at all: the profile counts it as a cast failure
        }
    }

    /** {@link #decimal(byte[], int, int)} of a value read as a plain number. */
    private String decimal(PlainNumber n) {
        return decimalFits(n.significantIntDigits, n.scale > Math.max(0, type.scale()) ? 1 : 0, n.negative);
    }

    /** Digits before the point at most precision - scale; digits after it beyond the scale only zeros. */
    private String decimal(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        boolean negative = false;
        if (i < end && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        int intDigits = 0;
        boolean leading = true;
        for (; i < end && b[i] >= '0' && b[i] <= '9'; i++) {
            if (leading && b[i] == '0') {
                continue;
            }
            leading = false;
            intDigits++;
        }
        int excess = 0;
        if (i < end && b[i] == '.') {
            i++;
            int frac = 0;
            for (; i < end && b[i] >= '0' && b[i] <= '9'; i++) {
                frac++;
                if (frac > Math.max(0, type.scale()) && b[i] != '0') {
                    excess++;
                }
            }
        }
        if (i != end) {
            return exponentDecimal(b, off, len); // 1.5e3, NaN, spaces: the slow path
        }
        return decimalFits(intDigits, excess, negative);
    }

    private String decimalFits(int intDigits, int excess, boolean negative) {
        int scale = Math.max(0, type.scale());
        if (intDigits > type.precision() - scale) {
            return "needs " + intDigits + " digits before the point; " + type.declared() + " holds "
                    + (type.precision() - scale);
        }
        if (excess > 0) {
            return "has more than " + scale + " digits after the point; " + type.declared() + " would round it";
        }
        if (negative && type.unsigned() && intDigits > 0) {
            return outside();
        }
        return null;
    }

    private String exponentDecimal(byte[] b, int off, int len) {
        String s = new String(b, off, len, StandardCharsets.US_ASCII).trim();
        if (s.equalsIgnoreCase("nan")) {
            return null;
        }
        try {
            BigDecimal v = new BigDecimal(s).stripTrailingZeros();
            int scale = Math.max(0, type.scale());
            int intDigits = Math.max(0, v.precision() - v.scale());
            if (intDigits > type.precision() - scale || v.scale() > scale) {
                return outside();
            }
            return null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A 4-byte float holds magnitudes up to 3.4028235e38. */
    private String floating(byte[] b, int off, int len) {
        boolean exponent = false;
        for (int i = off; i < off + len; i++) {
            if (b[i] == 'e' || b[i] == 'E') {
                exponent = true;
                break;
            }
        }
        if (!exponent && len < 40) {
            return null;
        }
        try {
            double d = Double.parseDouble(new String(b, off, len, StandardCharsets.US_ASCII).trim());
            return Math.abs(d) > FLOAT_MAX ? "is beyond a 4-byte " + type.declared() + " (at most 3.4028235e38)" : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private boolean member(byte[] b, int off, int len) {
        if (len == 0 && mysql) {
            return true; // MySQL's error member, index 0
        }
        for (byte[] m : members) {
            if (Arrays.equals(m, 0, m.length, b, off, off + len)) {
                return true;
            }
        }
        // MySQL compares ENUM members by the column's collation (case-insensitive by default)
        String v = new String(b, off, len, StandardCharsets.UTF_8);
        for (String m : type.enumValues()) {
            if (mysql && m.equalsIgnoreCase(v.stripTrailing())) {
                return true;
            }
        }
        return false;
    }

    private String set(byte[] b, int off, int len) {
        int start = off;
        for (int i = off; i <= off + len; i++) {
            if (i == off + len || b[i] == ',') {
                if (i > start && !member(b, start, i - start)) {
                    return "holds '" + new String(b, start, i - start, StandardCharsets.UTF_8) + "', not a member of "
                            + type.declared();
                }
                start = i + 1;
            }
        }
        return null;
    }

    private String chars(byte[] b, int off, int len) {
        if (len <= type.length()) {
            return null; // bytes bound characters
        }
        int chars = 0;
        for (int i = off; i < off + len; i++) {
            if ((b[i] & 0xc0) != 0x80) {
                chars++;
            }
        }
        return chars > type.length() ? "is " + chars + " characters, longer than " + type.declared() : null;
    }

    /**
     * The hot path for what dumps write almost always, {@code YYYY-MM-DD} optionally followed by
     * {@code HH:MM:SS} and a fraction, read from the bytes without a string: 1 in range, 0 not,
     * -1 another spelling (then the pattern below decides).
     */
    private int isoCalendar(byte[] b, int off, int len) {
        if (len != 10 && len < 19 || b[off + 4] != '-' || b[off + 7] != '-') {
            return -1;
        }
        int year = digits(b, off, 4);
        int month = digits(b, off + 5, 2);
        int day = digits(b, off + 8, 2);
        if (year < 0 || month < 0 || day < 0) {
            return -1;
        }
        if (len >= 19) {
            if (b[off + 10] != ' ' && b[off + 10] != 'T'
                    || b[off + 13] != ':'
                    || b[off + 16] != ':'
                    || len > 19 && b[off + 19] != '.') {
                return -1;
            }
            int h = digits(b, off + 11, 2);
            int m = digits(b, off + 14, 2);
            int sec = digits(b, off + 17, 2);
            if (h < 0 || m < 0 || sec < 0) {
                return -1;
            }
            for (int i = off + 20; i < off + len; i++) {
                if (b[i] < '0' || b[i] > '9') {
                    return -1; // a time zone: the pattern reads it
                }
            }
            if (!(h < 24 && m < 60 && sec < 60)) {
                return 0;
            }
        }
        if (mysql && (month == 0 || day == 0)) {
            return month <= 12 && day <= 31 ? 1 : 0;
        }
        if (month < 1 || month > 12 || day < 1) {
            return 0;
        }
        return day <= daysIn(year, month) ? 1 : 0;
    }

    /**
     * The days of a month of the proleptic Gregorian calendar (year 0 a leap year), as {@code
     * YearMonth.lengthOfMonth} gives them without a {@code YearMonth} a value (C1, which compiles
     * the runs below the launcher's line, allocates it).
     */
    static int daysIn(int year, int month) {
        return switch (month) {
            case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** The {@code n} decimal digits at {@code off} as a number, or -1 when one is not a digit. */
    static int digits(byte[] b, int off, int n) {
        int v = 0;
        for (int i = off; i < off + n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /**
     * Dates as the servers take them in an INSERT: year, month and day separated by any
     * punctuation ({@code 2021-01-01}, {@code 2021/1/1}), an optional time, a time zone or
     * {@code BC} after it. Only a calendar that cannot be (month 13, February 30, hour 25) is
     * outside the type; MySQL's zero parts are in it. A spelling this does not recognize is left
     * to the profile, whose cast counts it.
     */
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{1,6})[-/.](\\d{1,2})[-/.](\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2}))?(?:\\.\\d*)?)?\\s*"
                    + "([+-]\\d{1,2}(?::?\\d{2})?|Z| BC| [A-Za-z/_+-]+)?");

    private boolean date(byte[] b, int off, int len, int ignored) {
        return calendar(b, off, len);
    }

    private boolean timestamp(byte[] b, int off, int len) {
        return calendar(b, off, len);
    }

    private boolean calendar(byte[] b, int off, int len) {
        if (len > 64) {
            return true;
        }
        int fast = isoCalendar(b, off, len);
        if (fast >= 0) {
            return fast == 1;
        }
        String s = new String(b, off, len, StandardCharsets.US_ASCII).trim();
        Matcher m = DATE_TIME.matcher(s);
        if (!m.matches()) {
            return true; // not a spelling judged here
        }
        int year = Integer.parseInt(m.group(1));
        int month = Integer.parseInt(m.group(2));
        int day = Integer.parseInt(m.group(3));
        if (m.group(4) != null) {
            int h = Integer.parseInt(m.group(4));
            int min = Integer.parseInt(m.group(5));
            int sec = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
            if (!(h < 24 && min < 60 && sec < 60 || h == 24 && min == 0 && sec == 0 && !mysql)) {
                return false;
            }
        }
        if (mysql && (month == 0 || day == 0)) {
            return month <= 12 && day <= 31; // zero dates: MySQL keeps them unless NO_ZERO_DATE
        }
        if (month < 1 || month > 12 || day < 1) {
            return false;
        }
        return day <= daysIn(year, month);
    }
}

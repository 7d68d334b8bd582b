package dev.wastecheck.engine.table;

import dev.wastecheck.layouts.FieldType;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a column whose values arrive as text is stored in an integer field and printed back: the
 * tight types of "No Bits Left Behind" §4.1 that are not plain integers. A codec is exact or it
 * refuses: {@link #encode} returns {@link #NONE} for any value whose code would not print back the
 * same bytes, and the caller then stops the load (or fails the event) rather than store a near
 * value.
 *
 * <ul>
 *   <li>{@link Dictionary}: low-cardinality strings (MediaWiki's {@code content_model},
 *       {@code old_flags}; ENUMs) as a 1- or 2-byte code into a per-column dictionary that grows
 *       as new values arrive, up to its field's capacity;</li>
 *   <li>{@link Timestamp}: a timestamp written as 14 digits ({@code binary(14)},
 *       {@code 20160607193124}) or as {@code 2016-06-07 19:31:24}, kept as seconds since 1970 in
 *       4 bytes (until 2106) or 8; MySQL's zero date is code 0;</li>
 *   <li>{@link Date}: {@code 2016-06-07} as days since 1970 in 2 bytes (until 2149) or 4.</li>
 * </ul>
 * Codes of a timestamp or date keep the values' order; dictionary codes do not (an index on a
 * dictionary column orders by code, which changes no lookup's result).
 */
public abstract class ColumnCodec {
    /** What {@link #encode} returns for a value the codec cannot hold exactly. */
    public static final long NONE = Long.MIN_VALUE;

    private final FieldType field;

    ColumnCodec(FieldType field) {
        this.field = field;
    }

    /** The field the codes are stored in. */
    public FieldType field() {
        return field;
    }

    /** The code of a value's bytes, or {@link #NONE}. */
    public abstract long encode(byte[] b, int off, int len);

    public long encode(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return encode(b, 0, b.length);
    }

    /** The value a code stands for, as the bytes the source wrote. */
    public abstract byte[] decode(long code);

    /** The class of change, for reports: {@code dict}, {@code time}. */
    public abstract String kind();

    /** A short description: {@code dictionary in UINT8 (3 values)}. */
    public abstract String describe();

    // ------------------------------------------------------------------------------------

    /**
     * Values numbered in the order they first arrive. A value past the field's capacity is refused
     * (NONE): the analyzer's distinct count chose the field with room to double, so this needs a
     * workload that brings more new values than the table ever held.
     */
    public static final class Dictionary extends ColumnCodec {
        private final Map<String, Integer> codes = new HashMap<>();
        private final List<byte[]> values = new ArrayList<>();
        private final int capacity;
        private final int bits;

        /** A dictionary for a column with {@code distinct} values today: 1 byte up to 127 of them, else 2, else refused. */
        public static Dictionary forDistinct(long distinct) {
            return forDistinct(distinct, false);
        }

        /**
         * The same, and with {@code subByte} a code of the fewest bits that leave room to double (1 to 7:
         * up to 63 values), a sub-byte field ({@link ColumnSpec#bits}).
         */
        public static Dictionary forDistinct(long distinct, boolean subByte) {
            if (subByte && distinct <= 63) return new Dictionary(bitsFor(2 * Math.max(1, distinct) - 1));
            if (distinct <= 127) return new Dictionary(FieldType.UINT8);
            if (distinct <= 32_767) return new Dictionary(FieldType.UINT16);
            throw new IllegalArgumentException(distinct + " distinct values: too many for a dictionary field");
        }

        /** The bits that hold every value up to {@code max} (at least 1). */
        static int bitsFor(long max) {
            return Math.max(1, 64 - Long.numberOfLeadingZeros(max));
        }

        public Dictionary(FieldType field) {
            super(field);
            this.capacity = field == FieldType.UINT8 ? 256 : 65_536;
            this.bits = 0;
        }

        /** Codes of {@code bits} bits (1 to 7) in a UINT8 field: 2^bits values. */
        public Dictionary(int bits) {
            super(FieldType.UINT8);
            if (bits < 1 || bits > 7) throw new IllegalArgumentException("a sub-byte dictionary has 1 to 7 bits");
            this.capacity = 1 << bits;
            this.bits = bits;
        }

        /** The code's bits when it is a sub-byte field, else 0. */
        public int bits() {
            return bits;
        }

        @Override
        public long encode(byte[] b, int off, int len) {
            // ISO-8859-1 maps every byte to one char and back: an exact key for any bytes
            String key = new String(b, off, len, StandardCharsets.ISO_8859_1);
            Integer c = codes.get(key);
            if (c != null) return c;
            if (values.size() == capacity) return NONE;
            int code = values.size();
            codes.put(key, code);
            byte[] copy = new byte[len];
            System.arraycopy(b, off, copy, 0, len);
            values.add(copy);
            return code;
        }

        /** The code of a value if it has one, without adding it (for lookups: an unknown value matches nothing). */
        public long find(byte[] b, int off, int len) {
            Integer c = codes.get(new String(b, off, len, StandardCharsets.ISO_8859_1));
            return c == null ? NONE : c;
        }

        @Override
        public byte[] decode(long code) {
            return values.get((int) code);
        }

        public int size() {
            return values.size();
        }

        /** Memory the dictionary takes outside the pages: its values and, per value, a map entry (~48 B). */
        public long bytes() {
            long n = 0;
            for (byte[] v : values) n += v.length + 48;
            return n;
        }

        @Override
        public String kind() {
            return "dict";
        }

        @Override
        public String describe() {
            return "dictionary in " + (bits == 0 ? field().toString() : bits + " bits")
                    + (values.isEmpty() ? "" : " (" + values.size() + " values)");
        }
    }

    /** Seconds since 1970-01-01 00:00:00 (UTC, no leap seconds), plus one; 0 is the zero date. */
    public static final class Timestamp extends ColumnCodec {
        /** How the values are written. */
        public enum Format {
            DIGITS14,
            ISO_SPACE
        }

        private final Format format;

        public Timestamp(Format format, FieldType field) {
            super(field);
            this.format = format;
        }

        /**
         * The codec that holds both {@code min} and {@code max} exactly, in 4 bytes when the latest
         * is before 2100 (so that the field has room to grow), or null when neither format reads them.
         */
        public static Timestamp forRange(String min, String max) {
            for (Format f : Format.values()) {
                Timestamp probe = new Timestamp(f, FieldType.INT64);
                long lo = probe.encode(min), hi = probe.encode(max);
                if (lo == NONE || hi == NONE) continue;
                return new Timestamp(f, hi <= SECONDS_2100 ? FieldType.UINT32 : FieldType.INT64);
            }
            return null;
        }

        /** 2100-01-01 00:00:00, in seconds since 1970, plus one. */
        static final long SECONDS_2100 = 4_102_444_800L + 1;

        public Format format() {
            return format;
        }

        @Override
        public long encode(byte[] b, int off, int len) {
            int[] p = format == Format.DIGITS14 ? digits14(b, off, len) : isoSpace(b, off, len);
            if (p == null) return NONE;
            if (allZero(p)) return 0;
            if (!validDate(p[0], p[1], p[2]) || p[3] > 23 || p[4] > 59 || p[5] > 59) return NONE;
            long days = LocalDate.of(p[0], p[1], p[2]).toEpochDay();
            long code = days * 86_400 + p[3] * 3600L + p[4] * 60L + p[5] + 1;
            return field().fits(code) ? code : NONE;
        }

        @Override
        public byte[] decode(long code) {
            int[] p = new int[6];
            if (code != 0) {
                long s = code - 1;
                long days = Math.floorDiv(s, 86_400);
                long sec = Math.floorMod(s, 86_400);
                LocalDate d = LocalDate.ofEpochDay(days);
                p[0] = d.getYear();
                p[1] = d.getMonthValue();
                p[2] = d.getDayOfMonth();
                p[3] = (int) (sec / 3600);
                p[4] = (int) (sec / 60 % 60);
                p[5] = (int) (sec % 60);
            }
            // The digits written directly: String.format took 11% of a replayed event's CPU (JFR, docs/benchmarks.md,
            // "The measured cost, profiled"). Years are 0..9999 (what encode reads).
            boolean digits = format == Format.DIGITS14;
            byte[] out = new byte[digits ? 14 : 19];
            int at = put(out, 0, p[0], 4);
            for (int k = 1; k < 6; k++) {
                if (!digits) out[at++] = (byte) (k == 3 ? ' ' : k < 3 ? '-' : ':');
                at = put(out, at, p[k], 2);
            }
            return out;
        }

        /** Writes {@code v} as {@code width} decimal digits, zero-padded, at {@code at}; returns the end. */
        private static int put(byte[] out, int at, int v, int width) {
            for (int k = width - 1; k >= 0; k--, v /= 10) out[at + k] = (byte) ('0' + v % 10);
            return at + width;
        }

        @Override
        public String kind() {
            return "time";
        }

        @Override
        public String describe() {
            return "seconds in " + field() + " (" + (format == Format.DIGITS14 ? "14 digits" : "YYYY-MM-DD hh:mm:ss")
                    + ")";
        }
    }

    /** Days since 1970-01-01, plus one from 1970 on (earlier days are negative); 0 is the zero date {@code 0000-00-00}. */
    public static final class Date extends ColumnCodec {
        public Date(FieldType field) {
            super(field);
        }

        /** 2 bytes when both ends lie in 1970..2149 (the 2-byte range) and the latest is before 2100, else 4; null when not dates. */
        public static Date forRange(String min, String max) {
            Date probe = new Date(FieldType.INT32);
            long lo = probe.encode(min), hi = probe.encode(max);
            if (lo == NONE || hi == NONE) return null;
            boolean small = lo >= 0 && hi <= LocalDate.of(2100, 1, 1).toEpochDay() + 1;
            return new Date(small ? FieldType.UINT16 : FieldType.INT32);
        }

        @Override
        public long encode(byte[] b, int off, int len) {
            if (len != 10 || b[off + 4] != '-' || b[off + 7] != '-') return NONE;
            int y = num(b, off, 4), m = num(b, off + 5, 2), d = num(b, off + 8, 2);
            if (y < 0 || m < 0 || d < 0) return NONE;
            if (y == 0 && m == 0 && d == 0) return 0;
            if (!validDate(y, m, d)) return NONE;
            long day = LocalDate.of(y, m, d).toEpochDay();
            long code = day >= 0 ? day + 1 : day; // 0 stays the zero date
            return field().fits(code) ? code : NONE;
        }

        @Override
        public byte[] decode(long code) {
            if (code == 0) return "0000-00-00".getBytes(StandardCharsets.US_ASCII);
            LocalDate d = LocalDate.ofEpochDay(code > 0 ? code - 1 : code);
            return String.format("%04d-%02d-%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth())
                    .getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public String kind() {
            return "time";
        }

        @Override
        public String describe() {
            return "days in " + field();
        }
    }

    // ------------------------------------------------------------------------------------

    private static int[] digits14(byte[] b, int off, int len) {
        if (len != 14) return null;
        int[] p = {
            num(b, off, 4),
            num(b, off + 4, 2),
            num(b, off + 6, 2),
            num(b, off + 8, 2),
            num(b, off + 10, 2),
            num(b, off + 12, 2)
        };
        for (int x : p) if (x < 0) return null;
        return p;
    }

    private static int[] isoSpace(byte[] b, int off, int len) {
        if (len != 19
                || b[off + 4] != '-'
                || b[off + 7] != '-'
                || b[off + 10] != ' '
                || b[off + 13] != ':'
                || b[off + 16] != ':') {
            return null;
        }
        int[] p = {
            num(b, off, 4),
            num(b, off + 5, 2),
            num(b, off + 8, 2),
            num(b, off + 11, 2),
            num(b, off + 14, 2),
            num(b, off + 17, 2)
        };
        for (int x : p) if (x < 0) return null;
        return p;
    }

    private static boolean allZero(int[] p) {
        for (int x : p) if (x != 0) return false;
        return true;
    }

    /** A 1..9999 year, 1..12 month and a day the month has. */
    private static boolean validDate(int y, int m, int d) {
        if (y < 1 || m < 1 || m > 12 || d < 1) return false;
        return d <= YearMonth.of(y, m).lengthOfMonth();
    }

    /** The decimal number {@code n} ASCII digits spell, or -1. */
    private static int num(byte[] b, int off, int n) {
        int v = 0;
        for (int i = 0; i < n; i++) {
            int c = b[off + i] - '0';
            if (c < 0 || c > 9) return -1;
            v = v * 10 + c;
        }
        return v;
    }
}

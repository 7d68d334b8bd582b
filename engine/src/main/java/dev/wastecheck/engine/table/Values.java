package dev.wastecheck.engine.table;

import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import java.nio.charset.StandardCharsets;

/** Conversions between literal text (as traces and dumps write values) and stored field values. */
public final class Values {
    private Values() {}

    /** A stored value as the literal a trace would write for it (codes decoded), or null for NULL. */
    public static String literal(Table t, int f, Record r) {
        if (r.isNull(f)) return null;
        ColumnCodec codec = t.codec(f);
        if (codec != null) return new String(codec.decode(r.getLong(f)), StandardCharsets.UTF_8);
        FieldType type = t.schema().type(f);
        if (type.isVariable()) return new String(r.bytes(f), 0, r.length(f), StandardCharsets.UTF_8);
        if (type == FieldType.FLOAT64) return Double.toString(r.getDouble(f));
        return Long.toString(r.getLong(f));
    }

    /** The integer a literal spells exactly (an optional minus and decimal digits), or null. */
    public static Long parseLong(String s) {
        int n = s.length();
        if (n == 0 || n > 20) return null;
        int i = s.charAt(0) == '-' ? 1 : 0;
        if (i == n) return null;
        for (int k = i; k < n; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The integer ASCII bytes spell so that printing it gives the same bytes back (no leading
     * zero, no plus sign), or null: the test that lets a string of digits live in an integer field.
     */
    public static Long roundTripLong(byte[] b, int off, int len) {
        if (len == 0 || len > 20) return null;
        int i = off, end = off + len;
        boolean neg = b[i] == '-';
        if (neg) i++;
        if (i == end || (b[i] == '0' && end - i > 1) || (neg && b[i] == '0')) return null;
        long v = 0;
        for (; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) return null;
            try {
                v = Math.subtractExact(Math.multiplyExact(v, 10L), d); // negatively, to reach MIN_VALUE
            } catch (ArithmeticException e) {
                return null;
            }
        }
        if (!neg) {
            if (v == Long.MIN_VALUE) return null;
            v = -v;
        }
        return v;
    }

    /**
     * Sets field {@code f} of {@code r} from a literal, converting to the field's type. Returns
     * false when the literal is not a value of that type (it would not round-trip).
     */
    public static boolean setFromLiteral(Record r, int f, FieldType t, String literal) {
        if (literal == null) {
            if (!r.schema().nullable(f)) return false;
            r.setNull(f);
            return true;
        }
        if (t.isVariable()) {
            byte[] b = literal.getBytes(StandardCharsets.UTF_8);
            r.setBytes(f, b, 0, b.length);
            return true;
        }
        if (t == FieldType.FLOAT64) {
            try {
                r.setDouble(f, Double.parseDouble(literal));
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        Long v = parseLong(literal);
        // TRUE and FALSE are 1 and 0 for any integer field, as MySQL reads them: a boolean column
        // may be stored as BIT, a 1-bit field or (in Arrow blocks, tight=on) its UINT8
        if (v == null) {
            if (literal.equalsIgnoreCase("true")) v = 1L;
            else if (literal.equalsIgnoreCase("false")) v = 0L;
        }
        if (v == null || !r.schema().fits(f, v)) return false;
        r.setLong(f, v);
        return true;
    }
}

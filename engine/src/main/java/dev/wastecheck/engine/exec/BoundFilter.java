package dev.wastecheck.engine.exec;

import dev.wastecheck.engine.table.ColumnCodec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.Values;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.Bound;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An event's {@link Bound}s compiled against one table: the fields they read, a test of a
 * record, and the one bound a page's column kernel can select with ({@code scanBetween} on an
 * integer field, {@code scanEquals} on a variable-length one), which is what lets a scan of a PAX
 * or HPL page read one column instead of every record.
 *
 * <p>Comparisons are the stored values' order: integers and floating point numerically, text and
 * binary strings byte by byte (SQLite's BINARY collation), a coded column on the text it prints.
 * NULL matches no bound. A bound a column cannot be compared with (text against an integer
 * column) makes the event unexecutable: {@link #of} says why.
 */
final class BoundFilter {
    private final int[] fields;
    private final Cond[] conds;
    /** The kernel's field, or -1 for every live tuple. */
    final int kernelField;

    final long kernelLo, kernelHi;
    final byte[] kernelEqual;

    private record Cond(
            int field,
            FieldType type,
            ColumnCodec codec,
            Comparable<?> lo,
            boolean loInc,
            Comparable<?> hi,
            boolean hiInc) {}

    /** Why an event's bounds cannot be compiled, or null when {@link #of} succeeds. */
    static String problem(Table t, List<Bound> bounds) {
        for (Bound b : bounds) {
            int f = t.spec().columnIndex(b.column());
            if (f < 0) return "bound on a column the table lacks";
            FieldType type = t.schema().type(f);
            if (t.codec(f) == null && !type.isVariable()) {
                for (String v : new String[] {b.lo(), b.hi()}) {
                    if (v != null && number(v, type) == null) return "bound compares a number column with text";
                }
            }
        }
        return null;
    }

    private BoundFilter(int[] fields, Cond[] conds, int kernelField, long lo, long hi, byte[] equal) {
        this.fields = fields;
        this.conds = conds;
        this.kernelField = kernelField;
        this.kernelLo = lo;
        this.kernelHi = hi;
        this.kernelEqual = equal;
    }

    /** The compiled bounds; call only when {@link #problem} is null. */
    static BoundFilter of(Table t, List<Bound> bounds) {
        List<Cond> conds = new ArrayList<>();
        int kernel = -1;
        long lo = 0, hi = 0;
        byte[] equal = null;
        for (Bound b : bounds) {
            int f = t.spec().columnIndex(b.column());
            FieldType type = t.schema().type(f);
            ColumnCodec codec = t.codec(f);
            Comparable<?> l = b.lo() == null ? null : value(b.lo(), type, codec);
            Comparable<?> h = b.hi() == null ? null : value(b.hi(), type, codec);
            conds.add(new Cond(f, type, codec, l, b.loInclusive(), h, b.hiInclusive()));
            if (kernel >= 0) continue;
            if (codec == null && type.isVariable() && b.isEquality()) {
                kernel = f;
                equal = b.lo().getBytes(StandardCharsets.UTF_8);
            } else if (codec == null && !type.isVariable() && type != FieldType.FLOAT64) {
                long[] range = integerRange(b, type);
                if (range != null) {
                    kernel = f;
                    lo = range[0];
                    hi = range[1];
                }
            } else if (codec instanceof ColumnCodec.Dictionary d && b.isEquality()) {
                byte[] v = b.lo().getBytes(StandardCharsets.UTF_8);
                long code = d.find(v, 0, v.length);
                kernel = f;
                // an unknown value matches nothing: an empty range
                if (code == ColumnCodec.NONE) {
                    lo = 1;
                    hi = 0;
                } else {
                    lo = code;
                    hi = code;
                }
            }
        }
        // the distinct fields in the bounds' order, without a stream: a stream's pipeline was 9% of an update's CPU
        int[] fields = new int[conds.size()];
        int nf = 0;
        for (Cond c : conds) {
            boolean seen = false;
            for (int k = 0; k < nf; k++) seen |= fields[k] == c.field();
            if (!seen) fields[nf++] = c.field();
        }
        fields = Arrays.copyOf(fields, nf);
        if (kernel >= 0 && lo > hi && equal == null)
            return new BoundFilter(fields, conds.toArray(Cond[]::new), -2, 0, 0, null);
        return new BoundFilter(fields, conds.toArray(Cond[]::new), kernel, lo, hi, equal);
    }

    /** Whether the kernel already knows no tuple matches. */
    boolean matchesNothing() {
        return kernelField == -2;
    }

    int[] fields() {
        return fields;
    }

    /** Whether a record (holding at least {@link #fields()}) passes every bound. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    boolean matches(Record r) {
        for (Cond c : conds) {
            if (r.isNull(c.field)) return false;
            Comparable v = stored(r, c);
            if (c.lo != null) {
                int k = compare(v, c.lo);
                if (k < 0 || (k == 0 && !c.loInc)) return false;
            }
            if (c.hi != null) {
                int k = compare(v, c.hi);
                if (k > 0 || (k == 0 && !c.hiInc)) return false;
            }
        }
        return true;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Comparable v, Comparable bound) {
        return bound instanceof FractionBound f ? -f.compareTo(v) : v.compareTo(bound);
    }

    private static Comparable<?> stored(Record r, Cond c) {
        if (c.codec != null) return new Bytes(c.codec.decode(r.getLong(c.field)));
        if (c.type.isVariable()) return new Bytes(Arrays.copyOf(r.bytes(c.field), r.length(c.field)));
        if (c.type == FieldType.FLOAT64) return r.getDouble(c.field);
        return Long.valueOf(r.getLong(c.field));
    }

    private static Comparable<?> value(String literal, FieldType type, ColumnCodec codec) {
        if (codec != null || type.isVariable()) return new Bytes(literal.getBytes(StandardCharsets.UTF_8));
        return number(literal, type);
    }

    /** A literal compared with a number column: a Long for an integer column when it is one, else a Double; null when not a number. */
    private static Comparable<?> number(String literal, FieldType type) {
        if (type != FieldType.FLOAT64) {
            Long l = Values.parseLong(literal.trim());
            if (l != null) return l;
        }
        try {
            double d = Double.parseDouble(literal.trim());
            if (type == FieldType.FLOAT64) return d;
            return new FractionBound(d);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** [lo, hi] of integers a bound admits on an integer column, or null when its ends are not integers. */
    private static long[] integerRange(Bound b, FieldType type) {
        long lo = Long.MIN_VALUE, hi = Long.MAX_VALUE;
        if (b.lo() != null) {
            Long l = Values.parseLong(b.lo().trim());
            if (l == null) return null;
            lo = b.loInclusive() ? l : l == Long.MAX_VALUE ? l : l + 1;
        }
        if (b.hi() != null) {
            Long h = Values.parseLong(b.hi().trim());
            if (h == null) return null;
            hi = b.hiInclusive() ? h : h == Long.MIN_VALUE ? h : h - 1;
        }
        return new long[] {lo, hi};
    }

    /** A non-integer literal compared with an integer column: compares with Longs by numeric value. */
    private record FractionBound(double value) implements Comparable<Object> {
        @Override
        public int compareTo(Object o) {
            return Double.compare(value, ((Number) o).doubleValue());
        }
    }

    /** Bytes ordered as unsigned bytes, shorter first on a common prefix (memcmp). */
    private record Bytes(byte[] b) implements Comparable<Bytes> {
        @Override
        public int compareTo(Bytes o) {
            return Arrays.compareUnsigned(b, o.b);
        }
    }
}

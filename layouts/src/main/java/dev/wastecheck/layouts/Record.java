package dev.wastecheck.layouts;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable, mutable holder of one record's values: what {@link Page#insert} takes and
 * {@link Page#read} fills. Reading into the same {@code Record} again allocates nothing unless a
 * variable-size value outgrows the buffer kept for its field.
 */
public final class Record {
    private final RecordSchema schema;
    private final long[] values;
    private final boolean[] nulls;
    private final byte[][] bytes;
    private final int[] lengths;

    public Record(RecordSchema schema) {
        this.schema = schema;
        int n = schema.fieldCount();
        values = new long[n];
        nulls = new boolean[n];
        bytes = new byte[n][];
        lengths = new int[n];
        for (int f = 0; f < n; f++) {
            if (schema.type(f).isVariable())
                bytes[f] = new byte[Math.max(16, schema.field(f).expectedLength())];
        }
    }

    public RecordSchema schema() {
        return schema;
    }

    public Record setLong(int f, long value) {
        FieldType t = schema.type(f);
        if (t.isVariable()) throw new IllegalArgumentException("field " + f + " is VARLEN");
        if (!schema.fits(f, value))
            throw new IllegalArgumentException(value + " does not fit " + t
                    + (schema.field(f).isSubByte() ? " of " + schema.field(f).bits() + " bits" : ""));
        values[f] = value;
        nulls[f] = false;
        return this;
    }

    /**
     * Sets a BIT or fixed field without checking the type: for the page formats' {@link Page#read},
     * whose values fit their fields by construction (the checks of {@link #setLong} were a
     * share of every format's record construction), and for the Arrow-native blocks' reads, whose
     * values were checked by {@link #setLong} on their way in.
     */
    public void setRaw(int f, long value) {
        values[f] = value;
        nulls[f] = false;
    }

    /**
     * The values of the fixed and BIT fields, for a page's {@link Page#read} to fill in place: a
     * field that is not nullable is never NULL (only {@link #setNull} and {@link #setNullRaw} set
     * the flag, and only for nullable fields), so a read stores its value alone, and clears the
     * flag of a nullable field with {@link #setNotNull}.
     */
    long[] values() {
        return values;
    }

    /** Marks a field non-NULL without touching its value (for {@link Page#read}, after {@link #values}). */
    void setNotNull(int f) {
        nulls[f] = false;
    }

    /** Marks a nullable field NULL without checking (for {@link Page#read} and the Arrow-native blocks). */
    public void setNullRaw(int f) {
        nulls[f] = true;
        values[f] = 0;
        lengths[f] = 0;
    }

    public Record setDouble(int f, double value) {
        return setLong(f, Double.doubleToRawLongBits(value));
    }

    public Record setNull(int f) {
        if (!schema.nullable(f)) throw new IllegalArgumentException("field " + f + " is not nullable");
        nulls[f] = true;
        values[f] = 0;
        lengths[f] = 0;
        return this;
    }

    public Record setBytes(int f, byte[] src, int offset, int length) {
        System.arraycopy(src, offset, buffer(f, length), 0, length);
        return this;
    }

    public Record setString(int f, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return setBytes(f, b, 0, b.length);
    }

    /**
     * The buffer of VARLEN field {@code f}, grown to hold {@code length} bytes and marked non-null:
     * a reader fills it in place (one copy from the page or block, none through a temporary array).
     */
    public byte[] buffer(int f, int length) {
        if (!schema.type(f).isVariable()) throw new IllegalArgumentException("field " + f + " is not VARLEN");
        if (bytes[f].length < length) bytes[f] = new byte[Math.max(length, bytes[f].length * 2)];
        lengths[f] = length;
        nulls[f] = false;
        return bytes[f];
    }

    /** Every field NULL if nullable, otherwise zero or empty: the content a kept ghost slot gets. */
    void clearToEmpty() {
        for (int f = 0; f < values.length; f++) {
            values[f] = 0;
            lengths[f] = 0;
            nulls[f] = schema.nullable(f);
        }
    }

    public boolean isNull(int f) {
        return nulls[f];
    }

    public long getLong(int f) {
        return values[f];
    }

    public double getDouble(int f) {
        return Double.longBitsToDouble(values[f]);
    }

    public int length(int f) {
        return lengths[f];
    }
    /** The internal buffer of VARLEN field {@code f}; only the first {@link #length} bytes count. */
    public byte[] bytes(int f) {
        return bytes[f];
    }

    public String getString(int f) {
        return nulls[f] ? null : new String(bytes[f], 0, lengths[f], StandardCharsets.UTF_8);
    }

    /** Total bytes of the non-null variable-size values. */
    public int varBytes() {
        int total = 0;
        for (int i = 0; i < schema.varCount(); i++) total += lengths[schema.varField(i)];
        return total;
    }

    /**
     * Writes this record of a schema with packed sub-byte fields into {@code stored}, a record of
     * its {@link RecordSchema#stored()} schema: each field stored whole copied, each packed one
     * or-ed into its word ({@link PackedPage#insert}).
     */
    void packInto(Record stored) {
        for (int f = 0; f < values.length; f++) {
            if (!schema.packed(f)) continue;
            stored.values[schema.storedField(f)] = 0;
            stored.nulls[schema.storedField(f)] = false;
        }
        for (int f = 0; f < values.length; f++) {
            int sf = schema.storedField(f);
            if (schema.packed(f)) {
                stored.values[sf] = schema.pack(f, stored.values[sf], values[f]);
            } else if (schema.type(f).isVariable()) {
                if (nulls[f]) stored.setNullRaw(sf);
                else System.arraycopy(bytes[f], 0, stored.buffer(sf, lengths[f]), 0, lengths[f]);
            } else {
                stored.values[sf] = values[f];
                stored.nulls[sf] = nulls[f];
            }
        }
    }

    /** The reverse of {@link #packInto}: this record's fields from {@code stored}, a record of the stored schema. */
    void unpackFrom(Record stored) {
        for (int f = 0; f < values.length; f++) {
            int sf = schema.storedField(f);
            if (schema.packed(f)) {
                values[f] = schema.unpack(f, stored.values[sf]);
                nulls[f] = false;
            } else if (schema.type(f).isVariable()) {
                if (stored.nulls[sf]) setNullRaw(f);
                else System.arraycopy(stored.bytes[sf], 0, buffer(f, stored.lengths[sf]), 0, stored.lengths[sf]);
            } else {
                values[f] = stored.values[sf];
                nulls[f] = stored.nulls[sf];
            }
        }
    }

    public Record copyFrom(Record other) {
        for (int f = 0; f < values.length; f++) {
            values[f] = other.values[f];
            nulls[f] = other.nulls[f];
            if (schema.type(f).isVariable()) {
                System.arraycopy(other.bytes[f], 0, buffer(f, other.lengths[f]), 0, other.lengths[f]);
                nulls[f] = other.nulls[f];
            }
        }
        return this;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Record)) return false;
        Record r = (Record) o;
        if (r.values.length != values.length) return false;
        for (int f = 0; f < values.length; f++) {
            if (nulls[f] != r.nulls[f]) return false;
            if (nulls[f]) continue;
            if (schema.type(f).isVariable()) {
                if (!Arrays.equals(bytes[f], 0, lengths[f], r.bytes[f], 0, r.lengths[f])) return false;
            } else if (values[f] != r.values[f]) return false;
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int f = 0; f < values.length; f++) {
            if (nulls[f]) h = h * 31 + 7;
            else if (schema.type(f).isVariable()) h = h * 31 + Arrays.hashCode(Arrays.copyOf(bytes[f], lengths[f]));
            else h = h * 31 + Long.hashCode(values[f]);
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int f = 0; f < values.length; f++) {
            if (f > 0) sb.append(", ");
            if (nulls[f]) sb.append("NULL");
            else if (schema.type(f).isVariable())
                sb.append('\'').append(getString(f)).append('\'');
            else if (schema.type(f) == FieldType.FLOAT64) sb.append(getDouble(f));
            else sb.append(values[f]);
        }
        return sb.append(')').toString();
    }
}

package dev.wastecheck.layouts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The fields of a record, and the per-kind indexes every page format needs: which fields are
 * nullable (and their position in a null bitmap), which are bits, which are fixed-size and which
 * are variable-size. Immutable; shared by all pages of a table.
 *
 * <p><b>Sub-byte fields</b> ({@link Field#bits}, "No Bits Left Behind" §4.1: "int fields that store
 * small value ranges which can easily be encoded in 8, or even 4 bits"). The page formats store
 * whole bytes; a schema with NOT NULL sub-byte fields has a {@link #stored()} schema in which they
 * are packed into one-byte words, and the pages hold records of that schema ({@link PackedPage}
 * translates). The stored schema is the fields stored whole, in this schema's order (a nullable
 * sub-byte field among them as its UINT8), then the words: the sub-byte fields, widest first, each
 * into the first word with room (first fit; a field never straddles two bytes), from bit 0 up:
 *
 * <pre>
 *  fields: ns (4 bits), model (2 bits), role (4 bits), level (3 bits), minor (2 bits)
 *
 *  stored: [ fields stored whole ... ] [ #word0 ] [ #word1 ]       each word a UINT8
 *
 *  #word0   7      4 3      0     #word1   7  6   5 4   3 2     0
 *          +--------+--------+              +--+-----+-----+-------+
 *          |  role  |   ns   |              |- |minor|model| level |
 *          +--------+--------+              +--+-----+-----+-------+
 *  value of a field = (word >>> shift) &amp; (2^bits - 1)
 * </pre>
 *
 * A schema without sub-byte fields is its own stored schema.
 */
public final class RecordSchema {
    private final Field[] fields;
    private final FieldType[] types;
    private final int[] nullIndex;
    private final int[] bitIndex;
    private final int[] varIndex;
    private final int[] nullableFields;
    private final int[] bitFields;
    private final int[] byteFields;
    private final int[] varFields;
    /** The schema the pages store: this one, or the sub-byte fields packed into words. */
    private final RecordSchema stored;
    /** Per field: its field number in {@link #stored}, the word's for a packed field. */
    private final int[] storedField;
    /** Per packed field: its lowest bit in the word; -1 for a field stored whole. */
    private final int[] shift;

    public RecordSchema(List<Field> fields) {
        this.fields = fields.toArray(new Field[0]);
        int n = this.fields.length;
        if (n == 0) throw new IllegalArgumentException("a record needs at least one field");
        types = new FieldType[n];
        nullIndex = new int[n];
        bitIndex = new int[n];
        varIndex = new int[n];
        int nulls = 0, bits = 0, vars = 0, bytes = 0;
        for (int f = 0; f < n; f++) {
            Field field = this.fields[f];
            types[f] = field.type();
            nullIndex[f] = field.nullable() ? nulls++ : -1;
            bitIndex[f] = field.type().isBit() ? bits++ : -1;
            varIndex[f] = field.type().isVariable() ? vars++ : -1;
            if (field.type().isFixedBytes()) bytes++;
        }
        nullableFields = new int[nulls];
        bitFields = new int[bits];
        varFields = new int[vars];
        Integer[] byFieldWidth = new Integer[bytes];
        for (int f = 0, b = 0; f < n; f++) {
            if (nullIndex[f] >= 0) nullableFields[nullIndex[f]] = f;
            if (bitIndex[f] >= 0) bitFields[bitIndex[f]] = f;
            if (varIndex[f] >= 0) varFields[varIndex[f]] = f;
            if (types[f].isFixedBytes()) byFieldWidth[b++] = f;
        }
        // Widest first, so that consecutive fixed fields stay naturally aligned.
        Arrays.sort(byFieldWidth, (a, b) -> Integer.compare(types[b].width, types[a].width));
        byteFields = Arrays.stream(byFieldWidth).mapToInt(Integer::intValue).toArray();

        shift = new int[n];
        storedField = new int[n];
        Arrays.fill(shift, -1);
        List<Integer> packed = new ArrayList<>();
        List<Field> whole = new ArrayList<>();
        for (int f = 0; f < n; f++) {
            Field x = this.fields[f];
            if (x.isSubByte() && !x.nullable()) {
                packed.add(f);
            } else {
                storedField[f] = whole.size();
                whole.add(x.isSubByte() ? new Field(x.name(), x.type(), true, 0) : x);
            }
        }
        if (packed.isEmpty()) {
            stored = this;
            return;
        }
        // First fit, widest first: a field never straddles two bytes.
        packed.sort(
                Comparator.comparingInt((Integer f) -> -this.fields[f].bits()).thenComparingInt(f -> f));
        List<Integer> used = new ArrayList<>();
        for (int f : packed) {
            int width = this.fields[f].bits(), w = 0;
            while (w < used.size() && used.get(w) + width > 8) w++;
            if (w == used.size()) used.add(0);
            shift[f] = used.get(w);
            storedField[f] = whole.size() + w;
            used.set(w, used.get(w) + width);
        }
        for (int w = 0; w < used.size(); w++) whole.add(Field.of("#word" + w, FieldType.UINT8));
        stored = new RecordSchema(whole);
    }

    public static RecordSchema of(Field... fields) {
        return new RecordSchema(List.of(fields));
    }

    public int fieldCount() {
        return fields.length;
    }

    public Field field(int f) {
        return fields[f];
    }

    public FieldType type(int f) {
        return types[f];
    }

    public boolean nullable(int f) {
        return nullIndex[f] >= 0;
    }

    /** Position of field {@code f} among the nullable fields, or -1. */
    public int nullIndex(int f) {
        return nullIndex[f];
    }
    /** Position of field {@code f} among the BIT fields, or -1. */
    public int bitIndex(int f) {
        return bitIndex[f];
    }
    /** Position of field {@code f} among the VARLEN fields, or -1. */
    public int varIndex(int f) {
        return varIndex[f];
    }

    public int nullableCount() {
        return nullableFields.length;
    }

    public int bitCount() {
        return bitFields.length;
    }

    public int varCount() {
        return varFields.length;
    }

    /** Field numbers of the nullable fields, in null-bitmap order. */
    public int nullableField(int i) {
        return nullableFields[i];
    }
    /** Field numbers of the BIT fields. */
    public int bitField(int i) {
        return bitFields[i];
    }
    /** Field numbers of the VARLEN fields. */
    public int varField(int i) {
        return varFields[i];
    }
    /** Field numbers of the whole-byte fixed fields, widest first. */
    public int[] byteFieldsWidestFirst() {
        return byteFields.clone();
    }

    /** Bytes of all whole-byte fixed fields of one record. */
    public int fixedByteWidth() {
        int w = 0;
        for (int f : byteFields) w += types[f].width;
        return w;
    }

    /** The schema the pages store records of: this one, or with the sub-byte fields packed into words (class comment). */
    public RecordSchema stored() {
        return stored;
    }

    /** True when some sub-byte field is packed, so that {@link #stored()} differs from this schema. */
    public boolean packs() {
        return stored != this;
    }

    /** Field {@code f}'s number in {@link #stored()}: its word's for a packed field. */
    public int storedField(int f) {
        return storedField[f];
    }

    /** True for a sub-byte field packed into a word of {@link #stored()}. */
    public boolean packed(int f) {
        return shift[f] >= 0;
    }

    /** A packed field's lowest bit in its word; -1 for a field stored whole. */
    public int shift(int f) {
        return shift[f];
    }

    /** A packed field's value mask before the shift ({@code 2^bits - 1}); -1 for a field stored whole. */
    public long mask(int f) {
        return shift[f] < 0 ? -1L : (1L << fields[f].bits()) - 1;
    }

    /** True when {@code value} fits field {@code f}: its type's range, or its bits ({@link Field#fits}). */
    public boolean fits(int f, long value) {
        return fields[f].fits(value);
    }

    /** Packed field {@code f}'s value in its stored word. */
    public long unpack(int f, long word) {
        return (word >>> shift[f]) & mask(f);
    }

    /** The stored word with packed field {@code f} set to {@code value} (which {@link #fits}). */
    public long pack(int f, long word, long value) {
        long m = mask(f) << shift[f];
        return (word & ~m) | (value << shift[f]);
    }

    @Override
    public String toString() {
        return Arrays.toString(fields);
    }
}

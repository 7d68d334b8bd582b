package dev.wastecheck.layouts;

import java.util.Arrays;
import java.util.List;

/**
 * The fields of a record, and the per-kind indexes every page format needs: which fields are
 * nullable (and their position in a null bitmap), which are bits, which are fixed-size and which
 * are variable-size. Immutable; shared by all pages of a table.
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

    @Override
    public String toString() {
        return Arrays.toString(fields);
    }
}

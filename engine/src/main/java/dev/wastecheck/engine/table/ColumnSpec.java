package dev.wastecheck.engine.table;

import dev.wastecheck.layouts.FieldType;

/**
 * One column as the engine stores it.
 *
 * @param type     the physical field type (the declared type's, or the analyzer's tight one)
 * @param nullable whether the column may hold NULL
 * @param overflow whether values may be too long for a page, so that each value carries a tag
 *                 byte and long ones live in the table's {@link OverflowStore}
 * @param codec    for a column whose values are text kept as integer codes (a dictionary, a
 *                 timestamp or date as a count), how they are encoded and printed back; null for
 *                 the others. Its field is {@code type}.
 * @param bits     0, or for a UINT8 column whose values (or dictionary codes) stay below 2^bits, 1 to
 *                 7: a sub-byte field the page formats pack with the record's others ("No Bits Left
 *                 Behind" §4.1, {@code layouts.Field#bits}); Arrow blocks store it as its UINT8
 */
public record ColumnSpec(String name, FieldType type, boolean nullable, boolean overflow, ColumnCodec codec, int bits) {
    public ColumnSpec {
        if (overflow && type != FieldType.VARLEN)
            throw new IllegalArgumentException(name + ": only variable-length columns overflow");
        if (codec != null && codec.field() != type)
            throw new IllegalArgumentException(name + ": codec stores " + codec.field() + ", not " + type);
        if (bits != 0 && (type != FieldType.UINT8 || bits < 1 || bits > 7))
            throw new IllegalArgumentException(name + ": a sub-byte column is a UINT8 of 1 to 7 bits");
    }

    public ColumnSpec(String name, FieldType type, boolean nullable, boolean overflow, ColumnCodec codec) {
        this(name, type, nullable, overflow, codec, codec instanceof ColumnCodec.Dictionary d ? d.bits() : 0);
    }

    public ColumnSpec(String name, FieldType type, boolean nullable, boolean overflow) {
        this(name, type, nullable, overflow, null);
    }
}

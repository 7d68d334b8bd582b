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
 */
public record ColumnSpec(String name, FieldType type, boolean nullable, boolean overflow, ColumnCodec codec) {
    public ColumnSpec {
        if (overflow && type != FieldType.VARLEN)
            throw new IllegalArgumentException(name + ": only variable-length columns overflow");
        if (codec != null && codec.field() != type)
            throw new IllegalArgumentException(name + ": codec stores " + codec.field() + ", not " + type);
    }

    public ColumnSpec(String name, FieldType type, boolean nullable, boolean overflow) {
        this(name, type, nullable, overflow, null);
    }
}

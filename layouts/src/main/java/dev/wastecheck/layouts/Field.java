package dev.wastecheck.layouts;

/**
 * One field of a record.
 *
 * @param name           the column it stores
 * @param type           its physical type
 * @param nullable       whether it may be NULL (a null bit or presence bit is kept only if so)
 * @param expectedLength for {@link FieldType#VARLEN}: the typical value size in bytes, which PAX
 *                       uses to size its V-minipages on an empty page; ignored otherwise
 * @param bits           0 for a field stored in its type's whole width; 1 to 7 for a sub-byte
 *                       unsigned integer ("No Bits Left Behind" §4.1: "int fields that store small
 *                       value ranges which can easily be encoded in 8, or even 4 bits"): its type is
 *                       {@link FieldType#UINT8}, its values 0 to 2^bits - 1, and {@link RecordSchema}
 *                       packs it with the record's other sub-byte fields into whole bytes (NOT NULL
 *                       ones; a nullable one is stored as its UINT8)
 */
public record Field(String name, FieldType type, boolean nullable, int expectedLength, int bits) {

    public Field {
        if (name == null || type == null) throw new IllegalArgumentException("name and type are required");
        if (expectedLength < 0) throw new IllegalArgumentException("expectedLength < 0");
        if (bits != 0 && (type != FieldType.UINT8 || bits < 1 || bits > 7))
            throw new IllegalArgumentException(
                    name + ": a sub-byte field is a UINT8 of 1 to 7 bits, not " + type + " of " + bits);
    }

    /** A field stored in its type's whole width. */
    public Field(String name, FieldType type, boolean nullable, int expectedLength) {
        this(name, type, nullable, expectedLength, 0);
    }

    public static Field of(String name, FieldType type) {
        return new Field(name, type, false, type.isVariable() ? 16 : 0);
    }

    public static Field nullable(String name, FieldType type) {
        return new Field(name, type, true, type.isVariable() ? 16 : 0);
    }

    public static Field varlen(String name, boolean nullable, int expectedLength) {
        return new Field(name, FieldType.VARLEN, nullable, expectedLength);
    }

    /** A NOT NULL unsigned integer of {@code bits} bits (1 to 7), packed with the record's other sub-byte fields. */
    public static Field bits(String name, int bits) {
        return new Field(name, FieldType.UINT8, false, 0, bits);
    }

    /** True for a sub-byte field ({@link #bits} 1 to 7). */
    public boolean isSubByte() {
        return bits != 0;
    }

    /** True when {@code value} is representable in this field: its type's range, or {@link #bits} bits. */
    public boolean fits(long value) {
        return bits == 0 ? type.fits(value) : (value & -(1L << bits)) == 0;
    }
}

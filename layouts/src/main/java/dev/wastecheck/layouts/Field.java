package dev.wastecheck.layouts;

/**
 * One field of a record.
 *
 * @param name           the column it stores
 * @param type           its physical type
 * @param nullable       whether it may be NULL (a null bit or presence bit is kept only if so)
 * @param expectedLength for {@link FieldType#VARLEN}: the typical value size in bytes, which PAX
 *                       uses to size its V-minipages on an empty page; ignored otherwise
 */
public record Field(String name, FieldType type, boolean nullable, int expectedLength) {

    public Field {
        if (name == null || type == null) throw new IllegalArgumentException("name and type are required");
        if (expectedLength < 0) throw new IllegalArgumentException("expectedLength < 0");
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
}

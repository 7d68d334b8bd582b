package dev.wastecheck.layouts;

import java.nio.ByteBuffer;

/**
 * The physical type of one field: a single bit, a fixed number of bytes, or a variable-length
 * byte string. These are the narrow targets the analyzer's tight types map onto (a boolean
 * becomes {@link #BIT}, an {@code INT} whose values stay below 100 becomes {@link #INT8}, a
 * {@code CHAR(35)} becomes {@link #VARLEN}).
 *
 * <p>Integer values travel as {@code long}s, sign-extended for INT8..INT64 and zero-extended for
 * the unsigned UINT8..UINT32 (a MySQL {@code INT UNSIGNED} takes 4 bytes as it does in InnoDB,
 * not the 8 a signed field would need); {@link #FLOAT64} travels as the raw bits of a
 * {@code double} ({@link Double#doubleToRawLongBits}); {@link #BIT} as 0 or 1.
 */
public enum FieldType {
    BIT(0),
    INT8(1),
    INT16(2),
    INT32(4),
    INT64(8),
    UINT8(1),
    UINT16(2),
    UINT32(4),
    FLOAT64(8),
    VARLEN(-1);

    /** Bytes the value takes in a fixed slot; 0 for {@link #BIT}, -1 for {@link #VARLEN}. */
    public final int width;

    FieldType(int width) {
        this.width = width;
    }

    public boolean isBit() {
        return this == BIT;
    }

    public boolean isVariable() {
        return this == VARLEN;
    }

    /** True for the types stored in a whole number of bytes (INT8..FLOAT64). */
    public boolean isFixedBytes() {
        return width > 0;
    }

    /** True for UINT8, UINT16 and UINT32. */
    public boolean isUnsigned() {
        return this == UINT8 || this == UINT16 || this == UINT32;
    }

    /** True when {@code value} is representable without loss in this type. */
    public boolean fits(long value) {
        switch (this) {
            case BIT:
                return value == 0 || value == 1;
            case INT8:
                return value == (byte) value;
            case INT16:
                return value == (short) value;
            case INT32:
                return value == (int) value;
            case UINT8:
                return (value & ~0xFFL) == 0;
            case UINT16:
                return (value & ~0xFFFFL) == 0;
            case UINT32:
                return (value & ~0xFFFF_FFFFL) == 0;
            case INT64:
            case FLOAT64:
                return true;
            default:
                return false;
        }
    }

    /** Reads a value of this type at absolute index {@code offset}; not for BIT or VARLEN. */
    long read(ByteBuffer buf, int offset) {
        switch (this) {
            case INT8:
                return buf.get(offset);
            case INT16:
                return buf.getShort(offset);
            case INT32:
                return buf.getInt(offset);
            case UINT8:
                return buf.get(offset) & 0xFFL;
            case UINT16:
                return buf.getShort(offset) & 0xFFFFL;
            case UINT32:
                return buf.getInt(offset) & 0xFFFF_FFFFL;
            case INT64:
            case FLOAT64:
                return buf.getLong(offset);
            default:
                throw new IllegalStateException(this + " has no byte representation");
        }
    }

    /** Writes a value of this type at absolute index {@code offset}; not for BIT or VARLEN. */
    void write(ByteBuffer buf, int offset, long value) {
        switch (this) {
            case INT8:
            case UINT8:
                buf.put(offset, (byte) value);
                break;
            case INT16:
            case UINT16:
                buf.putShort(offset, (short) value);
                break;
            case INT32:
            case UINT32:
                buf.putInt(offset, (int) value);
                break;
            case INT64:
            case FLOAT64:
                buf.putLong(offset, value);
                break;
            default:
                throw new IllegalStateException(this + " has no byte representation");
        }
    }
}

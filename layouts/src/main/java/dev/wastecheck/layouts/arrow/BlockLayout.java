package dev.wastecheck.layouts.arrow;

import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.RecordSchema;
import java.util.Arrays;

/**
 * Where everything lives in a block of one table: computed once per table from its record schema
 * and shared by all its blocks (Li et al., VLDB 2020, §3.2: "the block layout is computed once per
 * table"). The drawing of the bytes is on {@link ArrowBlock}.
 *
 * <p>The slot count is the largest multiple of 64 whose buffers fit the block: each slot costs one
 * allocation bit, one validity bit per column and its values (one bit for {@link FieldType#BIT}, the
 * type's width for fixed-size fields, {@link VarlenEntry#SIZE} bytes for {@link FieldType#VARLEN}).
 * A multiple of 64 makes every bitmap a whole number of 64-bit words, so that every buffer starts on
 * an 8-byte boundary with no padding (the Arrow format asks for 8-byte alignment) and a bitmap word
 * can be updated with one compare-and-swap.
 */
public final class BlockLayout {
    /** The paper's block: 1 MB. */
    public static final int DEFAULT_BLOCK_SIZE = 1 << 20;

    public static final int MIN_BLOCK_SIZE = 4 << 10;
    /** Every buffer starts on a multiple of this many bytes. */
    public static final int ALIGNMENT = 8;
    /** The largest slot count whose offsets fit a {@link TupleSlot} (a multiple of 64). */
    public static final int MAX_SLOTS = (TupleSlot.OFFSET_MASK + 1) - 64;

    private final RecordSchema schema;
    private final int blockSize;
    private final int headerSize;
    private final int slots;
    private final int allocationOffset;
    private final int[] validityOffset;
    private final int[] valuesOffset;
    private final int[] valuesBytes;
    private final int[] width;
    private final FieldType[] types;
    private final int[] varlenColumns;
    private final int tag;

    public BlockLayout(RecordSchema schema) {
        this(schema, DEFAULT_BLOCK_SIZE);
    }

    /** @param blockSize a power of two from 4 KB to 1 MB (tests use small blocks to get many of them) */
    public BlockLayout(RecordSchema schema, int blockSize) {
        if (Integer.bitCount(blockSize) != 1 || blockSize < MIN_BLOCK_SIZE || blockSize > DEFAULT_BLOCK_SIZE) {
            throw new IllegalArgumentException("block size must be a power of two from 4 KB to 1 MB: " + blockSize);
        }
        this.schema = schema;
        this.blockSize = blockSize;
        int columns = schema.fieldCount();
        types = new FieldType[columns];
        width = new int[columns];
        long bitsPerSlot = 1; // allocation bit
        int vars = 0;
        for (int c = 0; c < columns; c++) {
            types[c] = schema.type(c);
            width[c] = types[c].isBit() ? 0 : types[c].isVariable() ? VarlenEntry.SIZE : types[c].width;
            bitsPerSlot += 1 + (types[c].isBit() ? 1 : 8L * width[c]);
            if (types[c].isVariable()) vars++;
        }
        varlenColumns = new int[vars];
        for (int c = 0, v = 0; c < columns; c++) if (types[c].isVariable()) varlenColumns[v++] = c;
        headerSize = align(ArrowBlock.HDR_NULL_COUNTS + 4 * columns);
        long n = ((long) (blockSize - headerSize) * 8 / bitsPerSlot) & ~63L;
        slots = (int) Math.min(n, MAX_SLOTS);
        if (slots < 64)
            throw new IllegalArgumentException(
                    "a " + blockSize + "-byte block holds fewer than 64 records of " + schema);
        validityOffset = new int[columns];
        valuesOffset = new int[columns];
        valuesBytes = new int[columns];
        int at = headerSize;
        allocationOffset = at;
        at += bitmapBytes();
        for (int c = 0; c < columns; c++) {
            validityOffset[c] = at;
            at += bitmapBytes();
            valuesOffset[c] = at;
            valuesBytes[c] = types[c].isBit() ? bitmapBytes() : slots * width[c];
            at += valuesBytes[c];
        }
        if (at > blockSize) throw new AssertionError("layout overruns the block: " + at);
        tag = Arrays.hashCode(types) * 31 + slots;
    }

    private static int align(int n) {
        return (n + ALIGNMENT - 1) & -ALIGNMENT;
    }

    public RecordSchema schema() {
        return schema;
    }

    public int blockSize() {
        return blockSize;
    }

    public int headerSize() {
        return headerSize;
    }
    /** Tuple slots per block (a multiple of 64). */
    public int slots() {
        return slots;
    }

    public int columns() {
        return types.length;
    }

    public FieldType type(int column) {
        return types[column];
    }
    /** Bytes per value in the values buffer: 0 for BIT (one bit each), 16 for VARLEN entries. */
    public int width(int column) {
        return width[column];
    }

    public boolean isVarlen(int column) {
        return types[column].isVariable();
    }
    /** The VARLEN columns, in schema order. */
    public int[] varlenColumns() {
        return varlenColumns.clone();
    }
    /** Bytes of one bitmap: one bit per slot. */
    public int bitmapBytes() {
        return slots >>> 3;
    }

    public int allocationOffset() {
        return allocationOffset;
    }

    public int validityOffset(int column) {
        return validityOffset[column];
    }

    public int valuesOffset(int column) {
        return valuesOffset[column];
    }
    /** Bytes of a column's values buffer in the block (the 16-byte entries for VARLEN). */
    public int valuesBytes(int column) {
        return valuesBytes[column];
    }
    /** Bytes the header, bitmaps and buffers take; the rest of the block is unused slack. */
    public int usedBytes() {
        return valuesOffset[types.length - 1] + valuesBytes[types.length - 1];
    }
    /** A value that differs between layouts with different columns or slot counts; kept in every block's header. */
    int tag() {
        return tag;
    }

    @Override
    public String toString() {
        return "BlockLayout[" + slots + " slots of " + schema + " in " + blockSize + " B]";
    }
}

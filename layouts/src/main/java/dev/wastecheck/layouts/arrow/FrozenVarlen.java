package dev.wastecheck.layouts.arrow;

import java.nio.ByteBuffer;

/**
 * The canonical Arrow form of one variable-length column of a frozen block: built outside the 1 MB
 * block when it freezes, because the values of n records have no bound a block could reserve
 * (Li et al., VLDB 2020, §4.3). Either the values gathered into one contiguous buffer with Arrow
 * offsets, or (§4.4) a sorted dictionary of the distinct values with an index per record. One direct
 * buffer each, registered as a {@link VarlenHeap} chunk: the block's 16-byte entries are swung to
 * point into it, so transactional readers and Arrow readers read the same bytes.
 *
 * <pre>
 *  GATHERED (n records, V value bytes)              DICTIONARY (n records, d distinct values, D bytes)
 *  0               int32 offsets[n + 1]             0                int32 indices[n] (NULL: 0)
 *  valuesOffset    V bytes, record after record     dictOffsets      int32 offsets[d + 1]
 *                  (valuesOffset = align8(4(n+1)))  valuesOffset     D bytes, the values in byte order
 *  capacity        = valuesOffset + V               (dictOffsets = align8(4n),
 *                                                    valuesOffset = dictOffsets + align8(4(d+1)))
 * </pre>
 *
 * Offsets are little-endian int32s as Arrow's Binary and Utf8 types want (a frozen column therefore
 * holds under 2 GB, far above what 1 MB of records reference); a NULL record has an empty range.
 */
public final class FrozenVarlen {
    public enum Encoding {
        GATHERED,
        DICTIONARY
    }

    private final Encoding encoding;
    private final ByteBuffer buffer;
    private final int records;
    private final int dictionarySize;
    private final int offsetsOffset;
    private final int valuesOffset;
    private final int valueBytes;
    private int chunk;

    private FrozenVarlen(Encoding encoding, int records, int dictionarySize, long valueBytes) {
        if (valueBytes > Integer.MAX_VALUE - 64 - 8L * (records + dictionarySize + 2)) {
            throw new IllegalArgumentException("a frozen column holds less than 2 GB: " + valueBytes);
        }
        this.encoding = encoding;
        this.records = records;
        this.dictionarySize = dictionarySize;
        this.valueBytes = (int) valueBytes;
        if (encoding == Encoding.GATHERED) {
            offsetsOffset = 0;
            valuesOffset = align(4 * (records + 1));
        } else {
            offsetsOffset = align(4 * records);
            valuesOffset = offsetsOffset + align(4 * (dictionarySize + 1));
        }
        this.buffer = VarlenHeap.allocateAligned(Math.max(8, valuesOffset + this.valueBytes));
    }

    private static int align(int n) {
        return (n + 7) & -8;
    }

    /** An empty gathered column for {@code records} records of {@code valueBytes} bytes in all. */
    public static FrozenVarlen gathered(int records, long valueBytes) {
        return new FrozenVarlen(Encoding.GATHERED, records, 0, valueBytes);
    }

    /** An empty dictionary column: {@code records} indices into {@code distinct} values of {@code valueBytes} bytes in all. */
    public static FrozenVarlen dictionary(int records, int distinct, long valueBytes) {
        return new FrozenVarlen(Encoding.DICTIONARY, records, distinct, valueBytes);
    }

    public Encoding encoding() {
        return encoding;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int records() {
        return records;
    }
    /** Distinct values of a dictionary column; 0 when gathered. */
    public int dictionarySize() {
        return dictionarySize;
    }
    /** Where the int32 offsets start: of the records when gathered, of the dictionary's values otherwise. */
    public int offsetsOffset() {
        return offsetsOffset;
    }
    /** Bytes of the offsets buffer (n + 1 or d + 1 int32s). */
    public int offsetsBytes() {
        return 4 * ((encoding == Encoding.GATHERED ? records : dictionarySize) + 1);
    }

    public int valuesOffset() {
        return valuesOffset;
    }

    public int valueBytes() {
        return valueBytes;
    }
    /** Where the int32 dictionary indices start (0); only for a dictionary column. */
    public int indicesOffset() {
        return 0;
    }

    public int indicesBytes() {
        return 4 * records;
    }

    public int offset(int i) {
        return buffer.getInt(offsetsOffset + 4 * i);
    }

    public void setOffset(int i, int value) {
        buffer.putInt(offsetsOffset + 4 * i, value);
    }

    public int index(int record) {
        return buffer.getInt(4 * record);
    }

    public void setIndex(int record, int value) {
        buffer.putInt(4 * record, value);
    }

    /** The {@link VarlenHeap} chunk number the buffer is registered under (0 before). */
    public int chunk() {
        return chunk;
    }

    public void registered(int chunkNumber) {
        this.chunk = chunkNumber;
    }

    /** The heap handle of byte {@code valueOffset} of the values region. */
    public long handle(int valueOffset) {
        return ((long) chunk << 32) | (valuesOffset + valueOffset);
    }

    /** Bytes of memory this column holds. */
    public int capacity() {
        return buffer.capacity();
    }
}

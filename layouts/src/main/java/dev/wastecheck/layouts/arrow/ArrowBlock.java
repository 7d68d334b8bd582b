package dev.wastecheck.layouts.arrow;

import dev.wastecheck.layouts.FieldType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A block of one table in the Arrow-native storage of Li et al., "Mainlining Databases" (VLDB 2020,
 * NoisePage): a PAX-like arrangement where every column is an Arrow buffer pair, its validity bitmap
 * and its values, each starting on an 8-byte boundary (§3.2). Fixed-size columns are canonical Arrow
 * at all times; a variable-length column is a column of 16-byte {@link VarlenEntry}s while the block
 * is hot (the relaxed format of §4.1), and becomes an Arrow offsets and values buffer pair, built
 * outside the block, when it freezes ({@link FrozenVarlen}, §4.3).
 *
 * <pre>
 *  offset                                         one block: blockSize bytes (1 MB), 64-byte aligned
 *  0                       +-----------------------------------------------------------------+
 *  HDR_CONTROL          0  | long  state (high 32 bits: HOT 0, COOLING 1, FREEZING 2,          |
 *                          |       FROZEN 3) | in-place readers (low 32 bits), CASed together  |
 *  HDR_INSERT_HEAD      8  | int   slots handed out so far; an insert takes the next one      |
 *  HDR_LAYOUT_TAG      12  | int   the layout's tag (wrapping with another layout fails)       |
 *  HDR_NUM_RECORDS     16  | int   Arrow length once frozen: the records are slots [0, n)     |
 *  HDR_RESERVED        20  | int   0                                                          |
 *  HDR_NULL_COUNTS     24  | int[columns]  Arrow null count of each column, once frozen       |
 *  headerSize              +-----------------------------------------------------------------+  8-aligned
 *  allocationOffset        | allocation bitmap: bit s = 1 when slot s holds a tuple   n/8 B   |
 *  validityOffset(0)       | column 0 validity bitmap (Arrow: 1 = not NULL)           n/8 B   |
 *  valuesOffset(0)         | column 0 values, little-endian (Arrow):                         |
 *                          |   INT8..INT64, UINT8..UINT32, FLOAT64: n * width bytes           |
 *                          |   BIT: a bitmap of n bits (Arrow boolean)                 n/8 B   |
 *                          |   VARLEN: n entries of 16 bytes (relaxed, §4.1)          16n B   |
 *  validityOffset(1)       | column 1 validity bitmap                                         |
 *  valuesOffset(1)         | column 1 values                                                  |
 *  ...                     | ... every column in schema order                                 |
 *  usedBytes()             +-----------------------------------------------------------------+
 *                          | slack: less than 64 slots' worth                                 |
 *  blockSize               +-----------------------------------------------------------------+
 * </pre>
 *
 * <p>n = {@link BlockLayout#slots()}, a multiple of 64; bit s of any bitmap is bit {@code s % 8} of
 * byte {@code s / 8} (Arrow's least-significant-bit order), that is bit {@code s % 64} of the
 * little-endian word {@code s / 64}, and bits change by compare-and-swap on that word so that
 * concurrent writers of neighbouring slots never lose each other's bit. Version pointers (the
 * paper's reserved first column) are not in the block: Java cannot keep object references in native
 * memory, so the engine keeps them in an array beside it.
 *
 * <p>A view over one block's buffer: it holds no state but the buffer and the layout, so one view per
 * block is shared by every thread. Values are written with plain stores; the engine orders them
 * against its version chains with the compare-and-swaps on the bitmaps and chain heads.
 */
public final class ArrowBlock {
    public static final int HDR_CONTROL = 0;
    public static final int HDR_INSERT_HEAD = 8;
    public static final int HDR_LAYOUT_TAG = 12;
    public static final int HDR_NUM_RECORDS = 16;
    public static final int HDR_RESERVED = 20;
    public static final int HDR_NULL_COUNTS = 24;

    public static final int HOT = 0;
    public static final int COOLING = 1;
    public static final int FREEZING = 2;
    public static final int FROZEN = 3;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final BlockLayout layout;
    private final ByteBuffer buf;
    private final int slots;
    private final int allocation;
    private final int[] validity;
    private final int[] values;
    private final int[] width;
    private final FieldType[] types;

    private ArrowBlock(BlockLayout layout, ByteBuffer buffer) {
        if (buffer.capacity() != layout.blockSize())
            throw new IllegalArgumentException(
                    "buffer of " + buffer.capacity() + " B for a block of " + layout.blockSize());
        if (!buffer.isDirect() || buffer.alignmentOffset(0, BlockLayout.ALIGNMENT) != 0) {
            throw new IllegalArgumentException("a block needs a direct, 8-byte aligned buffer");
        }
        this.layout = layout;
        this.buf = buffer.order(ByteOrder.LITTLE_ENDIAN);
        this.slots = layout.slots();
        this.allocation = layout.allocationOffset();
        int n = layout.columns();
        validity = new int[n];
        values = new int[n];
        width = new int[n];
        types = new FieldType[n];
        for (int c = 0; c < n; c++) {
            validity[c] = layout.validityOffset(c);
            values[c] = layout.valuesOffset(c);
            width[c] = layout.width(c);
            types[c] = layout.type(c);
        }
    }

    /** A new, empty block in a fresh buffer (64-byte aligned, so that the Arrow buffers are too). */
    public static ArrowBlock allocate(BlockLayout layout) {
        return format(layout, VarlenHeap.allocateAligned(layout.blockSize()));
    }

    /** Initializes an empty hot block in {@code buffer} and returns its view. */
    public static ArrowBlock format(BlockLayout layout, ByteBuffer buffer) {
        ArrowBlock b = new ArrowBlock(layout, buffer);
        for (int i = 0; i < layout.headerSize(); i += 8) buffer.putLong(i, 0);
        buffer.putInt(HDR_LAYOUT_TAG, layout.tag());
        b.clearBitmap(b.allocation);
        for (int c = 0; c < layout.columns(); c++) b.clearBitmap(b.validity[c]);
        return b;
    }

    /** The view of a block formatted with {@code layout}. */
    public static ArrowBlock wrap(BlockLayout layout, ByteBuffer buffer) {
        ArrowBlock b = new ArrowBlock(layout, buffer);
        if (buffer.getInt(HDR_LAYOUT_TAG) != layout.tag())
            throw new IllegalArgumentException("block was formatted with another layout");
        return b;
    }

    private void clearBitmap(int offset) {
        for (int i = 0; i < layout.bitmapBytes(); i += 8) buf.putLong(offset + i, 0);
    }

    public BlockLayout layout() {
        return layout;
    }
    /** The block's memory: Arrow readers in place and exports wrap it. */
    public ByteBuffer buffer() {
        return buf;
    }

    public int slots() {
        return slots;
    }

    // ---- header --------------------------------------------------------------------------

    /** The control word: {@link #state(long)} and {@link #readers(long)} together. */
    public long control() {
        return (long) LONGS.getVolatile(buf, HDR_CONTROL);
    }

    public boolean compareAndSetControl(long expected, long update) {
        return LONGS.compareAndSet(buf, HDR_CONTROL, expected, update);
    }

    public static int state(long control) {
        return (int) (control >>> 32);
    }

    public static int readers(long control) {
        return (int) control;
    }

    public static long control(int state, int readers) {
        return ((long) state << 32) | (readers & 0xFFFF_FFFFL);
    }

    public int state() {
        return state(control());
    }

    public int insertHead() {
        return (int) INTS.getVolatile(buf, HDR_INSERT_HEAD);
    }

    /** Takes the next never-used slot; -1 when the block is full. */
    public int claimSlot() {
        while (true) {
            int head = insertHead();
            if (head >= slots) return -1;
            if (INTS.compareAndSet(buf, HDR_INSERT_HEAD, head, head + 1)) return head;
        }
    }

    /** Raises the insert head to at least {@code atLeast} (compaction filling a slot never handed out). */
    public void raiseInsertHead(int atLeast) {
        while (true) {
            int head = insertHead();
            if (head >= atLeast || INTS.compareAndSet(buf, HDR_INSERT_HEAD, head, atLeast)) return;
        }
    }

    /** Arrow length of a frozen block. */
    public int numRecords() {
        return buf.getInt(HDR_NUM_RECORDS);
    }

    public void setNumRecords(int n) {
        buf.putInt(HDR_NUM_RECORDS, n);
    }

    public int nullCount(int column) {
        return buf.getInt(HDR_NULL_COUNTS + 4 * column);
    }

    public void setNullCount(int column, int n) {
        buf.putInt(HDR_NULL_COUNTS + 4 * column, n);
    }

    // ---- bitmaps ---------------------------------------------------------------------------

    private boolean testBit(int bitmap, int slot) {
        long w = (long) LONGS.getAcquire(buf, bitmap + ((slot >>> 6) << 3));
        return (w & (1L << slot)) != 0;
    }

    private void setBit(int bitmap, int slot, boolean on) {
        int at = bitmap + ((slot >>> 6) << 3);
        long bit = 1L << slot;
        while (true) {
            long w = (long) LONGS.getVolatile(buf, at);
            long u = on ? w | bit : w & ~bit;
            if (u == w || LONGS.compareAndSet(buf, at, w, u)) return;
        }
    }

    public boolean isAllocated(int slot) {
        return testBit(allocation, slot);
    }

    public void setAllocated(int slot, boolean on) {
        setBit(allocation, slot, on);
    }
    /** Word {@code word} of the allocation bitmap (slots 64*word .. 64*word+63). */
    public long allocationWord(int word) {
        return buf.getLong(allocation + (word << 3));
    }

    public boolean isValid(int column, int slot) {
        return testBit(validity[column], slot);
    }

    public void setValid(int column, int slot, boolean on) {
        setBit(validity[column], slot, on);
    }

    public long validityWord(int column, int word) {
        return buf.getLong(validity[column] + (word << 3));
    }

    // ---- values ----------------------------------------------------------------------------

    /**
     * A BIT, integer or FLOAT64 (raw bits) value, sign- or zero-extended as {@link FieldType} says;
     * the validity bit is separate.
     */
    public long getFixed(int column, int slot) {
        int at = values[column];
        switch (types[column]) {
            case BIT:
                return (buf.getLong(at + ((slot >>> 6) << 3)) >>> slot) & 1;
            case INT8:
                return buf.get(at + slot);
            case UINT8:
                return buf.get(at + slot) & 0xFFL;
            case INT16:
                return buf.getShort(at + 2 * slot);
            case UINT16:
                return buf.getShort(at + 2 * slot) & 0xFFFFL;
            case INT32:
                return buf.getInt(at + 4 * slot);
            case UINT32:
                return buf.getInt(at + 4 * slot) & 0xFFFF_FFFFL;
            case INT64:
            case FLOAT64:
                return buf.getLong(at + 8 * slot);
            default:
                throw new IllegalStateException("column " + column + " is VARLEN");
        }
    }

    public void putFixed(int column, int slot, long value) {
        int at = values[column];
        switch (types[column]) {
            case BIT:
                setBit(at, slot, value != 0);
                break;
            case INT8:
            case UINT8:
                buf.put(at + slot, (byte) value);
                break;
            case INT16:
            case UINT16:
                buf.putShort(at + 2 * slot, (short) value);
                break;
            case INT32:
            case UINT32:
                buf.putInt(at + 4 * slot, (int) value);
                break;
            case INT64:
            case FLOAT64:
                buf.putLong(at + 8 * slot, value);
                break;
            default:
                throw new IllegalStateException("column " + column + " is VARLEN");
        }
    }

    /** The first word of slot {@code slot}'s {@link VarlenEntry} (size and prefix). */
    public long entryWord0(int column, int slot) {
        return buf.getLong(values[column] + 16 * slot);
    }

    /** The second word of the entry (pointer, or bytes 4..11 of an inline value). */
    public long entryWord1(int column, int slot) {
        return buf.getLong(values[column] + 16 * slot + 8);
    }

    public void putEntry(int column, int slot, long word0, long word1) {
        int at = values[column] + 16 * slot;
        buf.putLong(at, word0);
        buf.putLong(at + 8, word1);
    }

    /** Swings an entry's pointer alone (gathering, §4.3): one aligned 8-byte store, so a concurrent reader sees the old or the new pointer, both valid. */
    public void putEntryPointer(int column, int slot, long word1) {
        LONGS.setRelease(buf, values[column] + 16 * slot + 8, word1);
    }

    /** Sets an entry's second word with a plain store (gathering, after a release fence over the values it points to). */
    public void putEntryWord1(int column, int slot, long word1) {
        buf.putLong(values[column] + 16 * slot + 8, word1);
    }
}

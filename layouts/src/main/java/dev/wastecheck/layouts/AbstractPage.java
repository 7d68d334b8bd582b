package dev.wastecheck.layouts;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What the page formats share: wrapping, bit helpers, whole-record reads, and the page rewrite
 * ({@link #rebuild}) behind compaction, defragmentation and PAX reorganization.
 */
abstract class AbstractPage implements Page {
    protected final RecordSchema schema;
    protected ByteBuffer buf;
    /** Index in {@link #buf} of the page's first byte: every offset in a format drawing is relative to it. */
    protected int base;

    protected int pageSize;
    /** The heap buffer's array and the index in it of the buffer's byte 0, or null for a direct buffer. */
    protected byte[] array;

    protected int arrayOffset;
    /** True while this page is the target of a rebuild: inserts must then not rewrite it again. */
    protected boolean rebuilding;

    /** The predicates of a columnar {@link Page#scanAllBetween}, reused from call to call. */
    protected final RangeConjunction conjunction = new RangeConjunction();

    private ByteBuffer scratchBuffer;
    private AbstractPage scratchPage;
    private Record scratchRecord;
    private Record replacementRecord;

    /** Little-endian views of a heap buffer's array: a record read's loads without ByteBuffer's per-access checks. */
    protected static final VarHandle SHORTS =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    protected static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    protected static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Per field: bytes of a whole-byte fixed value (0 for BIT and VARLEN), and the mask that zero-extends an unsigned one. */
    private final int[] fixedWidth;

    private final long[] valueMask;

    AbstractPage(RecordSchema schema) {
        this.schema = schema;
        int n = schema.fieldCount();
        fixedWidth = new int[n];
        valueMask = new long[n];
        for (int f = 0; f < n; f++) {
            FieldType t = schema.type(f);
            fixedWidth[f] = t.isFixedBytes() ? t.width : 0;
            valueMask[f] = t == FieldType.UINT8
                    ? 0xFFL
                    : t == FieldType.UINT16 ? 0xFFFFL : t == FieldType.UINT32 ? 0xFFFF_FFFFL : -1L;
        }
    }

    /**
     * The value of whole-byte fixed field {@code field} at absolute index {@code at}. Four cases by
     * width (then zero-extended by a mask for the unsigned types) rather than FieldType.read's
     * nine: every format's point accessors inline this, and with nine ByteBuffer accesses inlined
     * they outgrew what C2 inlines into a caller (InlineSmallCode), which cost HPL and NSM an
     * out-of-line call per record operation (issue 15).
     */
    protected final long readFixed(int at, int field) {
        long v;
        switch (fixedWidth[field]) {
            case 1:
                v = buf.get(at);
                break;
            case 2:
                v = buf.getShort(at);
                break;
            case 4:
                v = buf.getInt(at);
                break;
            case 8:
                v = buf.getLong(at);
                break;
            default:
                throw new IllegalStateException("field " + field + " has no byte representation");
        }
        return v & valueMask[field];
    }

    /**
     * {@link #readFixed} straight from a heap buffer's array where the page has one: one bounds
     * check a value, and no load of the buffer's fields (the record reads' hot path).
     */
    protected final long readFixedFast(int at, int field) {
        byte[] a = array;
        if (a == null) return readFixed(at, field);
        int i = arrayOffset + at;
        long v;
        switch (fixedWidth[field]) {
            case 1:
                v = a[i];
                break;
            case 2:
                v = (short) SHORTS.get(a, i);
                break;
            case 4:
                v = (int) INTS.get(a, i);
                break;
            case 8:
                v = (long) LONGS.get(a, i);
                break;
            default:
                throw new IllegalStateException("field " + field + " has no byte representation");
        }
        return v & valueMask[field];
    }

    /** Writes a little-endian int at absolute index {@code at}, into the array where the page has one. */
    protected final void putIntAt(int at, int value) {
        byte[] a = array;
        if (a != null) INTS.set(a, arrayOffset + at, value);
        else buf.putInt(at, value);
    }

    /** {@link #writeFixed} straight into a heap buffer's array where the page has one. */
    protected final void writeFixedFast(int at, int field, long value) {
        byte[] a = array;
        if (a == null) {
            writeFixed(at, field, value);
            return;
        }
        int i = arrayOffset + at;
        switch (fixedWidth[field]) {
            case 1:
                a[i] = (byte) value;
                break;
            case 2:
                SHORTS.set(a, i, (short) value);
                break;
            case 4:
                INTS.set(a, i, (int) value);
                break;
            case 8:
                LONGS.set(a, i, value);
                break;
            default:
                throw new IllegalStateException("field " + field + " has no byte representation");
        }
    }

    /** The little-endian int at absolute index {@code at}, from the array where the page has one. */
    protected final int intAt(int at) {
        byte[] a = array;
        return a != null ? (int) INTS.get(a, arrayOffset + at) : buf.getInt(at);
    }

    /** Writes whole-byte fixed field {@code field} at absolute index {@code at} (a value the field's type holds). */
    protected final void writeFixed(int at, int field, long value) {
        switch (fixedWidth[field]) {
            case 1:
                buf.put(at, (byte) value);
                break;
            case 2:
                buf.putShort(at, (short) value);
                break;
            case 4:
                buf.putInt(at, (int) value);
                break;
            case 8:
                buf.putLong(at, value);
                break;
            default:
                throw new IllegalStateException("field " + field + " has no byte representation");
        }
    }

    @Override
    public RecordSchema schema() {
        return schema;
    }

    @Override
    public int pageSize() {
        return pageSize;
    }

    @Override
    public final Page format(ByteBuffer buffer, int offset, int pageSize) {
        bind(buffer, offset, pageSize);
        initialize();
        return this;
    }

    @Override
    public final Page wrap(ByteBuffer buffer, int offset, int pageSize) {
        bind(buffer, offset, pageSize);
        wrapped();
        return this;
    }

    private void bind(ByteBuffer buffer, int offset, int size) {
        if (size < MIN_PAGE_SIZE || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException(
                    "page size " + size + " outside [" + MIN_PAGE_SIZE + ", " + MAX_PAGE_SIZE + "]");
        }
        if (offset < 0 || offset + size > buffer.capacity()) throw new IndexOutOfBoundsException("page outside buffer");
        if (buffer.order() != ByteOrder.LITTLE_ENDIAN) buffer.order(ByteOrder.LITTLE_ENDIAN);
        this.buf = buffer;
        this.base = offset;
        this.pageSize = size;
        this.array = buffer.hasArray() ? buffer.array() : null;
        this.arrayOffset = buffer.hasArray() ? buffer.arrayOffset() : 0;
    }

    /** Writes the header of an empty page. */
    protected abstract void initialize();

    /** Called after wrapping an existing page (to read geometry from its header). */
    protected void wrapped() {}

    /** A new, unbound flyweight of the same class and parameters: the target of a rebuild. */
    protected abstract AbstractPage newSibling();

    protected abstract void setReorganizations(int count);

    /**
     * Prepares this (scratch) page to receive the records of {@code source}: by default an empty
     * page. PAX overrides it to size its mini-pages for exactly what is coming.
     * Returns false if they cannot fit.
     */
    protected boolean initializeFor(
            AbstractPage source, boolean dropGhosts, int replaceSlot, Record replacement, Record extra) {
        initialize();
        return true;
    }

    // ---------------------------------------------------------------- records

    @Override
    public void read(int slot, Record into) {
        for (int f = 0, n = schema.fieldCount(); f < n; f++) {
            if (isNull(slot, f)) {
                into.setNull(f);
            } else if (schema.type(f).isVariable()) {
                getBytes(slot, f, into.buffer(f, getLength(slot, f)), 0);
            } else {
                into.setLong(f, getLong(slot, f));
            }
        }
    }

    protected void checkSlot(int slot) {
        if (slot < 0 || slot >= slotCount()) throw new IndexOutOfBoundsException("slot " + slot + " of " + slotCount());
    }

    protected void checkNullable(int field) {
        if (!schema.nullable(field)) throw new IllegalArgumentException("field " + field + " is not nullable");
    }

    protected void checkScannable(int field) {
        FieldType t = schema.type(field);
        if (t.isVariable() || t == FieldType.FLOAT64)
            throw new IllegalArgumentException("scanBetween needs a BIT or integer field, not " + t);
    }

    protected void checkVarlen(int field) {
        if (!schema.type(field).isVariable()) throw new IllegalArgumentException("field " + field + " is not VARLEN");
    }

    /** Whether the bytes at absolute index {@code at} equal {@code key}. */
    protected final boolean bytesEqual(int at, byte[] key) {
        for (int i = 0; i < key.length; i++) if (buf.get(at + i) != key[i]) return false;
        return true;
    }

    // ---------------------------------------------------------------- bits

    /** Bit {@code i} of the bitmap at absolute {@code at} (little-endian, so byte- and word-wise agree). */
    protected final boolean bit(int at, int i) {
        return (buf.get(at + (i >>> 3)) & (1 << (i & 7))) != 0;
    }

    protected final void setBit(int at, int i, boolean value) {
        int p = at + (i >>> 3);
        int b = buf.get(p);
        buf.put(p, (byte) (value ? b | (1 << (i & 7)) : b & ~(1 << (i & 7))));
    }

    /** Bytes of a bitmap of {@code bits} bits, in whole 8-byte words (so scans read it by {@code long}). */
    protected static int bitmapBytes(int bits) {
        return ((bits + 63) >>> 6) << 3;
    }

    protected static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }

    /** Copies {@code length} bytes inside the buffer; regions may overlap (memmove). */
    protected final void move(int from, int to, int length) {
        if (length <= 0 || from == to) return;
        if (buf.hasArray()) {
            byte[] a = buf.array();
            int o = buf.arrayOffset();
            System.arraycopy(a, o + from, a, o + to, length);
        } else if (to < from) {
            for (int i = 0; i < length; i++) buf.put(to + i, buf.get(from + i));
        } else {
            for (int i = length - 1; i >= 0; i--) buf.put(to + i, buf.get(from + i));
        }
    }

    protected final void putBytes(int at, byte[] src, int offset, int length) {
        buf.put(at, src, offset, length);
    }

    /**
     * Copies {@code length} bytes from absolute index {@code at}: straight from a heap buffer's
     * array ({@code System.arraycopy}, one bounds check), which costs a VARLEN value of a record
     * read less than {@code ByteBuffer.get(int, byte[], int, int)}'s two range checks and
     * scoped-memory copy (every format's record construction goes through here).
     */
    protected final void getBytesAt(int at, byte[] dst, int offset, int length) {
        if (array != null) System.arraycopy(array, arrayOffset + at, dst, offset, length);
        else buf.get(at, dst, offset, length);
    }

    protected final void zero(int at, int length) {
        int end = at + length;
        for (; at + 8 <= end; at += 8) buf.putLong(at, 0L);
        for (; at < end; at++) buf.put(at, (byte) 0);
    }

    protected static void clearSelection(long[] selection, int slots) {
        Arrays.fill(selection, 0, (slots + 63) >>> 6, 0L);
    }

    // ---------------------------------------------------------------- rewriting the page

    /**
     * Rewrites the page: every record (ghosts too, as empty ghosts, unless {@code dropGhosts}) is
     * inserted in slot order into a fresh page of the same format, slot {@code replaceSlot}
     * taking {@code replacement}'s values; room for {@code extra} is planned if given. Returns
     * false and leaves the page unchanged if the records do not fit.
     */
    protected final boolean rebuild(
            boolean dropGhosts, int replaceSlot, Record replacement, Record extra, boolean counted) {
        if (scratchPage == null || scratchBuffer.capacity() < pageSize) {
            scratchBuffer = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
            scratchPage = newSibling();
            scratchRecord = new Record(schema);
        }
        AbstractPage target = scratchPage;
        target.bind(scratchBuffer, 0, pageSize);
        target.rebuilding = true;
        try {
            if (!target.initializeFor(this, dropGhosts, replaceSlot, replacement, extra)) return false;
            Record r = scratchRecord;
            for (int s = 0, n = slotCount(); s < n; s++) {
                boolean ghost = isGhost(s);
                if (ghost && dropGhosts) continue;
                Record rec;
                if (s == replaceSlot) {
                    rec = replacement;
                } else if (ghost) {
                    r.clearToEmpty();
                    rec = r;
                } else {
                    read(s, r);
                    rec = r;
                }
                int t = target.insert(rec);
                if (t < 0) return false;
                if (ghost) target.delete(t);
            }
        } finally {
            target.rebuilding = false;
        }
        int reorgs = reorganizations() + (counted ? 1 : 0);
        buf.put(base, scratchBuffer, 0, pageSize);
        wrapped();
        setReorganizations(reorgs);
        return true;
    }

    /** A Record to build a replacement in (distinct from the one {@link #rebuild} reads into). */
    protected final Record replacementRecord() {
        if (replacementRecord == null) replacementRecord = new Record(schema);
        return replacementRecord;
    }

    /** Rewrites the page with slot {@code slot}'s VARLEN {@code field} set to the given bytes. */
    protected final boolean rebuildWithValue(int slot, int field, byte[] src, int offset, int length) {
        if (rebuilding) return false;
        Record r = replacementRecord();
        read(slot, r);
        r.setBytes(field, src, offset, length);
        return rebuild(false, slot, r, null, true);
    }

    @Override
    public void compact() {
        rebuild(true, -1, null, null, false);
    }

    @Override
    public String toString() {
        return layout() + " page: " + slotCount() + " slots, " + ghostCount() + " ghosts, " + freeBytes() + " free, "
                + reclaimableBytes() + " reclaimable of " + pageSize;
    }
}

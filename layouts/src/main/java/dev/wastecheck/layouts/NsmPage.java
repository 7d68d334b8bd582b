package dev.wastecheck.layouts;

import java.util.stream.IntStream;

/**
 * N-ary storage model: whole records in a slotted page, the classic layout (SQLite's
 * {@code btreeInt.h}, PostgreSQL's heap page). The slot array grows up from the header and the
 * record area grows down from the end of the page, so the page has one pool of free space
 * between them.
 *
 * <pre>
 *  offset                                     page
 *  0                     +--------------------------------------------------+
 *  HDR_SLOT_COUNT    0   | int  slots in use, ghosts included               |
 *  HDR_GHOST_COUNT   4   | int  ghost slots                                  |
 *  HDR_CONTENT_START 8   | int  offset of the lowest record byte (= page size |
 *                        |      when empty)                                  |
 *  HDR_FRAGMENTED   12   | int  dead bytes in the record area (moved records, |
 *                        |      slack left by shrunk values)                 |
 *  HDR_REORGS       16   | int  page rewrites forced by inserts and updates  |
 *  HEADER_SIZE      20   +--------------------------------------------------+
 *                        | slot array: SLOT_SIZE = 4 bytes per slot, the     |
 *                        | record's offset from the page start               |
 *                        |   slot 0 | slot 1 | ... growing up  --&gt;           |
 *  HEADER_SIZE +         +--------------------------------------------------+
 *  SLOT_SIZE*slots       |                                                  |
 *                        |        free space (freeBytes)                    |
 *                        |                                                  |
 *  HDR_CONTENT_START     +--------------------------------------------------+
 *                        |  &lt;-- growing down  record | record | ... | record  |
 *  page size             +--------------------------------------------------+
 * </pre>
 *
 * One record, at the offset its slot holds:
 *
 * <pre>
 *  REC_SPACE      0   int   bytes allocated to the record (&gt;= the bytes it uses)
 *  REC_FLAGS      4   byte  FLAG_GHOST (1) = deleted; in the record, like InnoDB's delete
 *                           mark, so a delete touches the record (HPL keeps ghost bits
 *                           as a dense bit field instead, §4.3)
 *  REC_NULL_BITS  5   ceil(nullable/8) bytes: bit i set = i-th nullable field is NULL
 *  bitsOffset         ceil(bits/8) bytes: the BIT fields' values
 *  fixedOffset[f]     the whole-byte fixed fields, widest first, unaligned
 *  varEndsOffset      int per VARLEN field: end of its value, from the record start
 *  varDataOffset      the VARLEN values back to back (a NULL one is empty)
 *  REC_SPACE          slack (after a value shrank)
 * </pre>
 *
 * A value that grows within the record's space shifts the record's tail; one that does not
 * moves the whole record into free space (its old space becomes fragmented); if free space is
 * short the page is rewritten ({@link #rebuild}), keeping every slot.
 *
 * <p>Two ways to update a fixed-size field ({@link Update}): {@link Update#IN_PLACE} writes the
 * field's bytes in the record (the best a row store does); {@link Update#REPLACE_RECORD} is the
 * NSM of HPL-2012-240 §6, Shore-MT's, which "always replaces entire records (due to its prefix
 * truncation techniques)": the record is decoded whole and its whole image written back, every
 * byte of it, for a change of one field. The second is the baseline of the paper's claims that
 * single-field updates are about 5% faster on HPL (§6.2) and deletes about 15% (§6.3).
 */
public final class NsmPage extends AbstractPage {
    /** How a fixed-size field is updated (class comment). */
    public enum Update {
        /** The field's bytes are written in the record. */
        IN_PLACE,
        /** HPL-2012-240 §6's Shore-MT: the record is read whole and its whole image written back. */
        REPLACE_RECORD
    }

    static final int HDR_SLOT_COUNT = 0;
    static final int HDR_GHOST_COUNT = 4;
    static final int HDR_CONTENT_START = 8;
    static final int HDR_FRAGMENTED = 12;
    static final int HDR_REORGS = 16;
    static final int HEADER_SIZE = 20;
    static final int SLOT_SIZE = 4;

    static final int REC_SPACE = 0;
    static final int REC_FLAGS = 4;
    static final int FLAG_GHOST = 1;
    static final int REC_NULL_BITS = 5;

    private final int bitsOffset;
    private final int[] fixedOffset;
    private final int varEndsOffset;
    private final int varDataOffset;

    /** Whole-byte fixed, VARLEN, BIT and nullable fields, each in table order ({@link #read}). */
    private final int[] fixedFields, varFields, bitFields, nullableFields;

    /**
     * Per field: its index among the BIT fields (-1 if not BIT), among the nullable ones (-1 if
     * not nullable), and whether it is VARLEN: what a point access asked the schema for, field by
     * field, before (issue 25: the same answers from three arrays the page holds).
     */
    private final int[] bitOf, nullOf;

    private final boolean[] variable;

    private final Update update;
    /** The record being replaced ({@link Update#REPLACE_RECORD}). */
    private Record image;

    public NsmPage(RecordSchema schema) {
        this(schema, Update.IN_PLACE);
    }

    public NsmPage(RecordSchema schema, Update update) {
        super(schema);
        this.update = update;
        bitsOffset = REC_NULL_BITS + (schema.nullableCount() + 7) / 8;
        int at = bitsOffset + (schema.bitCount() + 7) / 8;
        fixedOffset = new int[schema.fieldCount()];
        for (int f : schema.byteFieldsWidestFirst()) {
            fixedOffset[f] = at;
            at += schema.type(f).width;
        }
        varEndsOffset = at;
        varDataOffset = at + 4 * schema.varCount();
        int n = schema.fieldCount();
        fixedFields =
                IntStream.range(0, n).filter(f -> schema.type(f).isFixedBytes()).toArray();
        varFields = IntStream.range(0, schema.varCount()).map(schema::varField).toArray();
        bitFields = IntStream.range(0, schema.bitCount()).map(schema::bitField).toArray();
        nullableFields = IntStream.range(0, schema.nullableCount())
                .map(schema::nullableField)
                .toArray();
        bitOf = IntStream.range(0, n).map(schema::bitIndex).toArray();
        nullOf = IntStream.range(0, n).map(schema::nullIndex).toArray();
        variable = new boolean[n];
        for (int f = 0; f < n; f++) variable[f] = schema.type(f).isVariable();
    }

    @Override
    public Layout layout() {
        return Layout.NSM;
    }

    @Override
    protected AbstractPage newSibling() {
        return new NsmPage(schema, update);
    }

    public Update update() {
        return update;
    }

    @Override
    protected void initialize() {
        buf.putInt(base + HDR_SLOT_COUNT, 0);
        buf.putInt(base + HDR_GHOST_COUNT, 0);
        buf.putInt(base + HDR_CONTENT_START, pageSize);
        buf.putInt(base + HDR_FRAGMENTED, 0);
        buf.putInt(base + HDR_REORGS, 0);
    }

    @Override
    public int slotCount() {
        return buf.getInt(base + HDR_SLOT_COUNT);
    }

    @Override
    public int ghostCount() {
        return buf.getInt(base + HDR_GHOST_COUNT);
    }

    @Override
    public int reorganizations() {
        return buf.getInt(base + HDR_REORGS);
    }

    @Override
    protected void setReorganizations(int count) {
        buf.putInt(base + HDR_REORGS, count);
    }

    private int contentStart() {
        return buf.getInt(base + HDR_CONTENT_START);
    }

    private int fragmented() {
        return buf.getInt(base + HDR_FRAGMENTED);
    }

    private void addFragmented(int delta) {
        buf.putInt(base + HDR_FRAGMENTED, fragmented() + delta);
    }

    private int slotAt(int slot) {
        return base + HEADER_SIZE + slot * SLOT_SIZE;
    }

    /**
     * Absolute index of the record in {@code slot}: the slot count and the slot read from the
     * page's array where it has one ({@link #intAt}), as the record's fields are, rather than
     * through the ByteBuffer's checked accessors (issue 25, TPC-B's account read).
     */
    private int record(int slot) {
        if (slot < 0 || slot >= intAt(base + HDR_SLOT_COUNT)) checkSlot(slot);
        return base + intAt(slotAt(slot));
    }

    @Override
    public boolean isGhost(int slot) {
        return (buf.get(record(slot) + REC_FLAGS) & FLAG_GHOST) != 0;
    }

    /** Bytes the record at {@code rec} uses (its length without slack). */
    private int used(int rec) {
        int vars = schema.varCount();
        return vars == 0 ? varDataOffset : buf.getInt(rec + varEndsOffset + 4 * (vars - 1));
    }

    private int varStart(int rec, int k) {
        return k == 0 ? varDataOffset : buf.getInt(rec + varEndsOffset + 4 * (k - 1));
    }

    private int varEnd(int rec, int k) {
        return buf.getInt(rec + varEndsOffset + 4 * k);
    }

    @Override
    public int insert(Record r) {
        int len = varDataOffset + r.varBytes();
        int need = len + SLOT_SIZE;
        if (freeBytes() < need) {
            if (rebuilding || freeBytes() + fragmented() + ghostVarBytes() < need) return -1;
            rebuild(false, -1, null, null, true);
            if (freeBytes() < need) return -1;
        }
        int n = slotCount();
        int off = contentStart() - len;
        int rec = base + off;
        buf.putInt(rec + REC_SPACE, len);
        buf.put(rec + REC_FLAGS, (byte) 0);
        encode(rec, r);
        buf.putInt(slotAt(n), off);
        buf.putInt(base + HDR_CONTENT_START, off);
        buf.putInt(base + HDR_SLOT_COUNT, n + 1);
        return n;
    }

    /** Writes record r's image at {@code rec} (its space and flags are the caller's): field by kind, as {@link #read}. */
    private void encode(int rec, Record r) {
        zero(rec + REC_NULL_BITS, bitsOffset - REC_NULL_BITS + (schema.bitCount() + 7) / 8);
        int[] fixed = fixedFields, offsets = fixedOffset;
        for (int i = 0, n = fixed.length; i < n; i++) {
            int f = fixed[i];
            writeFixedFast(rec + offsets[f], f, r.getLong(f));
        }
        int[] vars = varFields;
        int end = varDataOffset;
        for (int v = 0, n = vars.length; v < n; v++) {
            int f = vars[v];
            int l = r.length(f);
            putBytes(rec + end, r.bytes(f), 0, l);
            end += l;
            putIntAt(rec + varEndsOffset + 4 * v, end);
        }
        int[] bits = bitFields;
        for (int i = 0, n = bits.length; i < n; i++) if (r.getLong(bits[i]) != 0) setBit(rec + bitsOffset, i, true);
        int[] nullable = nullableFields;
        for (int i = 0, n = nullable.length; i < n; i++)
            if (r.isNull(nullable[i])) setBit(rec + REC_NULL_BITS, i, true);
    }

    /** {@link Update#REPLACE_RECORD}: the record decoded whole, one field changed, its whole image written back. */
    private void replace(int slot, int field, long value, boolean toNull) {
        if (image == null) image = new Record(schema);
        read(slot, image);
        if (toNull) image.setNullRaw(field);
        else image.setRaw(field, value);
        encode(record(slot), image);
    }

    /** VARLEN bytes held by ghosts: a rewrite that keeps the ghosts' slots frees them. */
    private int ghostVarBytes() {
        if (ghostCount() == 0) return 0;
        int total = 0;
        for (int s = 0, n = slotCount(); s < n; s++) {
            if (isGhost(s)) total += used(record(s)) - varDataOffset;
        }
        return total;
    }

    /**
     * The whole record from one place in the page: its address is computed once, then the fixed
     * fields at their offsets, the VARLEN values between consecutive end offsets, the BIT
     * fields, and last the NULL bits (which override what was read for a NULL field: its bytes
     * are zero or empty). Each loop walks a list of one kind of field computed with the schema,
     * so a read asks the schema nothing.
     */
    @Override
    public void read(int slot, Record into) {
        int rec = record(slot);
        int[] fixed = fixedFields, offsets = fixedOffset;
        for (int i = 0, n = fixed.length; i < n; i++) {
            int f = fixed[i];
            into.setRaw(f, readFixedFast(rec + offsets[f], f));
        }
        int[] vars = varFields;
        int start = varDataOffset;
        for (int v = 0, n = vars.length; v < n; v++) {
            int end = intAt(rec + varEndsOffset + 4 * v);
            int len = end - start;
            getBytesAt(rec + start, into.buffer(vars[v], len), 0, len);
            start = end;
        }
        int[] bits = bitFields;
        for (int i = 0, n = bits.length; i < n; i++) into.setRaw(bits[i], bit(rec + bitsOffset, i) ? 1 : 0);
        int[] nullable = nullableFields;
        for (int i = 0, n = nullable.length; i < n; i++) if (bit(rec + REC_NULL_BITS, i)) into.setNullRaw(nullable[i]);
    }

    /**
     * {@link Page#project}: the record's address computed once, then each field read where {@link #read} reads it,
     * a VARLEN value located once (the default asks its length, then its bytes, locating it twice).
     */
    @Override
    public void project(int slot, int[] fields, Record into) {
        int rec = record(slot);
        for (int f : fields) {
            int n = schema.nullIndex(f);
            if (n >= 0 && bit(rec + REC_NULL_BITS, n)) {
                into.setNullRaw(f);
                continue;
            }
            int b = bitOf[f];
            if (b >= 0) {
                into.setRaw(f, bit(rec + bitsOffset, b) ? 1 : 0);
            } else if (schema.type(f).isVariable()) {
                int k = schema.varIndex(f);
                int start = varStart(rec, k);
                int len = varEnd(rec, k) - start;
                getBytesAt(rec + start, into.buffer(f, len), 0, len);
            } else {
                into.setRaw(f, readFixedFast(rec + fixedOffset[f], f));
            }
        }
    }

    @Override
    public boolean isNull(int slot, int field) {
        int i = schema.nullIndex(field);
        return i >= 0 && bit(record(slot) + REC_NULL_BITS, i);
    }

    @Override
    public long getLong(int slot, int field) {
        int rec = record(slot);
        int b = bitOf[field];
        if (b >= 0) return bit(rec + bitsOffset, b) ? 1 : 0;
        return readFixedFast(rec + fixedOffset[field], field);
    }

    @Override
    public int getLength(int slot, int field) {
        checkVarlen(field);
        int rec = record(slot);
        int k = schema.varIndex(field);
        return varEnd(rec, k) - varStart(rec, k);
    }

    @Override
    public int getBytes(int slot, int field, byte[] dst, int dstOffset) {
        checkVarlen(field);
        int rec = record(slot);
        int k = schema.varIndex(field);
        int start = varStart(rec, k);
        int len = varEnd(rec, k) - start;
        getBytesAt(rec + start, dst, dstOffset, len);
        return len;
    }

    @Override
    public void setLong(int slot, int field, long value) {
        int rec = record(slot);
        if (variable[field]) throw new IllegalArgumentException("field " + field + " is VARLEN");
        if (update == Update.REPLACE_RECORD) {
            replace(slot, field, value, false);
            return;
        }
        int b = bitOf[field];
        if (b >= 0) setBit(rec + bitsOffset, b, value != 0);
        else writeFixedFast(rec + fixedOffset[field], field, value);
        int i = nullOf[field];
        if (i >= 0) setBit(rec + REC_NULL_BITS, i, false);
    }

    @Override
    public void setNull(int slot, int field) {
        checkNullable(field);
        if (schema.type(field).isVariable()) setBytes(slot, field, src0, 0, 0);
        else if (update == Update.REPLACE_RECORD) {
            replace(slot, field, 0, true);
            return;
        }
        setBit(record(slot) + REC_NULL_BITS, schema.nullIndex(field), true);
    }

    private static final byte[] src0 = new byte[0];

    @Override
    public boolean setBytes(int slot, int field, byte[] src, int offset, int length) {
        checkVarlen(field);
        int rec = record(slot);
        int k = schema.varIndex(field);
        int start = varStart(rec, k);
        int end = varEnd(rec, k);
        int delta = length - (end - start);
        int used = used(rec);
        int space = buf.getInt(rec + REC_SPACE);
        if (used + delta <= space) {
            // In place: shift the record's tail, then write the value.
            move(rec + end, rec + end + delta, used - end);
            putBytes(rec + start, src, offset, length);
            adjustEnds(rec, k, delta);
            addFragmented(-delta);
        } else if (freeBytes() >= used + delta) {
            // Move the whole record into free space; its old space becomes fragmented.
            int newOff = contentStart() - (used + delta);
            int nrec = base + newOff;
            move(rec, nrec, start);
            putBytes(nrec + start, src, offset, length);
            move(rec + end, nrec + start + length, used - end);
            buf.putInt(nrec + REC_SPACE, used + delta);
            adjustEnds(nrec, k, delta);
            buf.putInt(base + HDR_CONTENT_START, newOff);
            buf.putInt(slotAt(slot), newOff);
            addFragmented(used); // its slack (space - used) was counted already
            rec = nrec;
        } else {
            return rebuildWithValue(slot, field, src, offset, length);
        }
        int i = schema.nullIndex(field);
        if (i >= 0) setBit(rec + REC_NULL_BITS, i, false);
        return true;
    }

    private void adjustEnds(int rec, int k, int delta) {
        for (int j = k, vars = schema.varCount(); j < vars; j++) {
            int at = rec + varEndsOffset + 4 * j;
            buf.putInt(at, buf.getInt(at) + delta);
        }
    }

    @Override
    public void delete(int slot) {
        int flags = record(slot) + REC_FLAGS;
        int f = buf.get(flags);
        if ((f & FLAG_GHOST) != 0) return;
        buf.put(flags, (byte) (f | FLAG_GHOST));
        buf.putInt(base + HDR_GHOST_COUNT, ghostCount() + 1);
    }

    /**
     * One record per slot, 64 slots to a selection word, with ColumnScan's branch-free range test
     * (the sign bit of {@code uint(v - lo) - span}) for 1- to 4-byte integers: the same test as
     * PAX's and HPL's, so a ratio between them measures the layout, not the loop. A record
     * costs a slot read and a load from its own cache line, which is NSM's price for a scan.
     */
    @Override
    public int scanBetween(int field, long lo, long hi, long[] selection) {
        checkScannable(field);
        int n = slotCount();
        FieldType t = schema.type(field);
        boolean intRange = t.isFixedBytes() && t.width <= 4;
        if (intRange && ColumnScan.emptyRange(t, lo, hi)) {
            clearSelection(selection, n);
            return 0;
        }
        int lo32 = intRange ? ColumnScan.clampLo(t, lo) : 0;
        long span1 = intRange ? ColumnScan.span1(t, lo, hi) : 0;
        int nullBit = schema.nullIndex(field);
        boolean ghosts = ghostCount() > 0; // without ghosts the flags need not be read
        int slots = base + HEADER_SIZE;
        int matches = 0;
        boolean int32 = (t == FieldType.INT32 || t == FieldType.UINT32) && nullBit < 0;
        int fo = base + fixedOffset[field];
        for (int w = 0, words = (n + 63) >>> 6; w < words; w++) {
            int first = w << 6;
            int count = Math.min(64, n - first);
            long bits = 0;
            if (int32) {
                // The common case, written out: a slot read and one int per record.
                for (int j = 0; j < count; j++) {
                    bits |= ColumnScan.inRange(buf.getInt(fo + buf.getInt(slots + ((first + j) << 2))), lo32, span1)
                            << j;
                }
            } else {
                for (int j = 0; j < count; j++) {
                    int rec = base + buf.getInt(slots + ((first + j) << 2));
                    long match;
                    if (t.isBit()) {
                        long v = bit(rec + bitsOffset, schema.bitIndex(field)) ? 1 : 0;
                        match = v >= lo & v <= hi ? 1 : 0;
                    } else if (intRange) {
                        match = ColumnScan.inRange((int) readFixedFast(rec + fixedOffset[field], field), lo32, span1);
                    } else {
                        long v = readFixedFast(rec + fixedOffset[field], field);
                        match = v >= lo & v <= hi ? 1 : 0;
                    }
                    if (nullBit >= 0) match &= ~(buf.get(rec + REC_NULL_BITS + (nullBit >>> 3)) >>> (nullBit & 7)) & 1;
                    bits |= match << j;
                }
            }
            if (ghosts) {
                for (int j = 0; j < count; j++) {
                    bits &= ~(((long) buf.get(base + buf.getInt(slots + ((first + j) << 2)) + REC_FLAGS) & FLAG_GHOST)
                            << j);
                }
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    /** Only the selected records are read: one slot and one field load each. */
    @Override
    public int refineBetween(int field, long lo, long hi, long[] selection) {
        checkScannable(field);
        int n = slotCount();
        FieldType t = schema.type(field);
        int nullBit = schema.nullIndex(field);
        int fo = fixedOffset[field];
        int slots = base + HEADER_SIZE;
        int matches = 0;
        for (int w = 0, words = (n + 63) >>> 6; w < words; w++) {
            long bits = selection[w];
            if (bits == 0) continue;
            if ((w << 6) + 64 > n) bits &= (1L << (n - (w << 6))) - 1;
            long keep = 0;
            for (long b = bits; b != 0; b &= b - 1) {
                int j = Long.numberOfTrailingZeros(b);
                int rec = base + buf.getInt(slots + (((w << 6) + j) << 2));
                long v = t.isBit()
                        ? (bit(rec + bitsOffset, schema.bitIndex(field)) ? 1 : 0)
                        : readFixedFast(rec + fo, field);
                long match = v >= lo & v <= hi ? 1 : 0;
                match &= ~buf.get(rec + REC_FLAGS) & FLAG_GHOST;
                if (nullBit >= 0) match &= ~(buf.get(rec + REC_NULL_BITS + (nullBit >>> 3)) >>> (nullBit & 7)) & 1;
                keep |= match << j;
            }
            selection[w] = keep;
            matches += Long.bitCount(keep);
        }
        return matches;
    }

    /** Record by record: each selected record's address is read once and all its fields taken from it. */
    @Override
    public int gather(long[] selection, int[] fields, long[][] out) {
        int n = slotCount();
        for (int f : fields)
            if (schema.type(f).isVariable()) throw new IllegalArgumentException("field " + f + " is VARLEN");
        int slots = base + HEADER_SIZE;
        int i = 0;
        for (int w = 0, words = (n + 63) >>> 6; w < words; w++) {
            long bits = selection[w];
            if ((w << 6) + 64 > n) bits &= (1L << (n - (w << 6))) - 1;
            for (; bits != 0; bits &= bits - 1) {
                int rec = base + buf.getInt(slots + (((w << 6) + Long.numberOfTrailingZeros(bits)) << 2));
                for (int k = 0; k < fields.length; k++) {
                    int f = fields[k];
                    FieldType t = schema.type(f);
                    int ni = schema.nullIndex(f);
                    if (ni >= 0 && bit(rec + REC_NULL_BITS, ni)) out[k][i] = 0;
                    else if (t.isBit()) out[k][i] = bit(rec + bitsOffset, schema.bitIndex(f)) ? 1 : 0;
                    else out[k][i] = readFixedFast(rec + fixedOffset[f], f);
                }
                i++;
            }
        }
        return i;
    }

    @Override
    public int scanEquals(int field, byte[] key, long[] selection) {
        checkVarlen(field);
        int n = slotCount();
        clearSelection(selection, n);
        int nullBit = schema.nullIndex(field);
        int k = schema.varIndex(field);
        int matches = 0;
        for (int i = 0; i < n; i++) {
            int rec = base + buf.getInt(slotAt(i));
            if ((buf.get(rec + REC_FLAGS) & FLAG_GHOST) != 0) continue;
            if (nullBit >= 0 && bit(rec + REC_NULL_BITS, nullBit)) continue;
            int start = varStart(rec, k);
            if (varEnd(rec, k) - start == key.length && bytesEqual(rec + start, key)) {
                selection[i >>> 6] |= 1L << i;
                matches++;
            }
        }
        return matches;
    }

    @Override
    public int freeBytes() {
        return contentStart() - HEADER_SIZE - slotCount() * SLOT_SIZE;
    }

    @Override
    public int reclaimableBytes() {
        int total = fragmented();
        for (int s = 0, n = slotCount(); s < n; s++) {
            if (isGhost(s)) total += used(record(s)) + SLOT_SIZE; // slack is in fragmented already
        }
        return total;
    }
}

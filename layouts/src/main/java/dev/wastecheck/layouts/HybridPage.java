package dev.wastecheck.layouts;

/**
 * The hybrid page layout (Graefe et al., HPL-2012-240), incremental variant (§5): records are
 * grouped into <em>segments</em> of {@code R} consecutive slots, and inside a segment each
 * field is a column, as in PAX. Segments are allocated one at a time from the front of the
 * page, variable-size values from the back, so the page keeps a single pool of free space like
 * NSM: an insert takes a new segment only when the last one is full, and a value that grows
 * takes fresh bytes from the pool. Neither ever reorganizes the page (the PAX cost, §2).
 *
 * <pre>
 *  offset                                   page
 *  0                         +--------------------------------------------------+
 *  HDR_RECORD_COUNT       0  | int  records, ghosts included                     |
 *  HDR_GHOST_COUNT        4  | int  ghosts                                       |
 *  HDR_SEGMENT_COUNT      8  | int  segments allocated                           |
 *  HDR_HEAP_START        12  | int  lowest VARLEN value byte (= page size empty)  |
 *  HDR_FRAGMENTED        16  | int  dead VARLEN bytes (replaced or shrunk values) |
 *  HDR_REORGS            20  | int  page rewrites forced by inserts and updates  |
 *  HDR_RECORDS_PER_SEG   24  | int  R, records per segment (a multiple of 8)     |
 *  HEADER_SIZE           64  +--------------------------------------------------+  one cache line
 *  HEADER_SIZE               | segment 0   (segmentBytes, drawn below)           |
 *  + k*segmentBytes          | segment 1 ...  growing up --&gt;                     |
 *  HEADER_SIZE +             +--------------------------------------------------+
 *  segments*segmentBytes     |        free space (freeBytes): one pool            |
 *  HDR_HEAP_START            +--------------------------------------------------+
 *                            | &lt;-- growing down   VARLEN values, any order       |
 *  page size                 +--------------------------------------------------+
 * </pre>
 *
 * One segment (offsets from its start; every region rounded up to {@code regionAlign}: a
 * 64-byte cache line when R &gt;= 64, else 8 bytes):
 *
 * <pre>
 *  SEG_GHOST_BITS     0        ghost bits, 1 = deleted (§4.3)       R bits, in 8-byte words
 *  nullBitsOffset[f]           null bits of each nullable field, 1 = NULL (§4.4)
 *  bitValuesOffset[f]          values of each BIT field
 *  columnOffset[f]             each whole-byte fixed field, widest first: R * width bytes
 *  columnOffset[v]             each VARLEN field's fixed part (§4.2): R entries of
 *                              VREF_SIZE = 12 bytes:
 *                                VREF_OFFSET +0 int  value offset in the page (0 if empty)
 *                                VREF_LENGTH +4 int  value length
 *                                VREF_PNK    +8 int  poor man's normalized key: the first
 *                                                    4 bytes, big-endian, zero-padded
 * </pre>
 *
 * <p>R follows §4.1 (segments sized by blocks of cache lines, for read-ahead): the largest
 * power of two from 8 to 256 whose segment takes at most 1/8 of the page, so a 4-byte column
 * of a segment is 4 cache lines at R = 64 and the partly filled last segment wastes at most an
 * eighth of the page (the incremental variant's price, §5). A fixed R can be given instead.
 * The VARLEN fixed part lets an equality scan reject most values on length and normalized key
 * without touching the value bytes.
 */
public final class HybridPage extends AbstractPage {
    static final int HDR_RECORD_COUNT = 0;
    static final int HDR_GHOST_COUNT = 4;
    static final int HDR_SEGMENT_COUNT = 8;
    static final int HDR_HEAP_START = 12;
    static final int HDR_FRAGMENTED = 16;
    static final int HDR_REORGS = 20;
    static final int HDR_RECORDS_PER_SEG = 24;
    static final int HEADER_SIZE = 64;
    static final int CACHE_LINE = 64;
    static final int SEG_GHOST_BITS = 0;
    static final int VREF_SIZE = 12;
    static final int VREF_OFFSET = 0;
    static final int VREF_LENGTH = 4;
    static final int VREF_PNK = 8;
    static final int MIN_RECORDS_PER_SEGMENT = 8;
    static final int MAX_RECORDS_PER_SEGMENT = 256;

    /** 0 = choose R from the page size (§4.1); otherwise the R every page gets. */
    private final int fixedRecordsPerSegment;

    // Segment geometry for the current R (recomputed when R changes).
    private int recordsPerSegment;
    private int segmentShift;
    private int segmentBytes;
    private final int[] nullBitsOffset;
    private final int[] bitValuesOffset;
    private final int[] columnOffset;

    public HybridPage(RecordSchema schema) {
        this(schema, 0);
    }

    /** @param recordsPerSegment R, a power of two from 8 to 256, or 0 to choose it per page size */
    public HybridPage(RecordSchema schema, int recordsPerSegment) {
        super(schema);
        if (recordsPerSegment != 0 && (Integer.bitCount(recordsPerSegment) != 1
                || recordsPerSegment < MIN_RECORDS_PER_SEGMENT || recordsPerSegment > MAX_RECORDS_PER_SEGMENT)) {
            throw new IllegalArgumentException("records per segment must be a power of two in [8, 256]: " + recordsPerSegment);
        }
        this.fixedRecordsPerSegment = recordsPerSegment;
        nullBitsOffset = new int[schema.fieldCount()];
        bitValuesOffset = new int[schema.fieldCount()];
        columnOffset = new int[schema.fieldCount()];
    }

    @Override public Layout layout() { return Layout.HPL; }
    @Override protected AbstractPage newSibling() { return new HybridPage(schema, fixedRecordsPerSegment); }

    /** Bytes of one segment of R records (does not change the current geometry). */
    private int segmentBytesFor(int r) {
        int align = r >= 64 ? CACHE_LINE : 8;
        int bitRegion = roundUp(r, 64) / 8;
        int bits = 1 + schema.nullableCount() + schema.bitCount();
        int total = roundUp(bits * bitRegion, align);
        for (int f : schema.byteFieldsWidestFirst()) total += roundUp(r * schema.type(f).width, align);
        total += schema.varCount() * roundUp(r * VREF_SIZE, align);
        return total;
    }

    private void geometry(int r) {
        if (r == recordsPerSegment) return;
        recordsPerSegment = r;
        segmentShift = Integer.numberOfTrailingZeros(r);
        int align = r >= 64 ? CACHE_LINE : 8;
        int bitRegion = roundUp(r, 64) / 8;
        int at = SEG_GHOST_BITS + bitRegion;
        for (int i = 0; i < schema.nullableCount(); i++, at += bitRegion) nullBitsOffset[schema.nullableField(i)] = at;
        for (int i = 0; i < schema.bitCount(); i++, at += bitRegion) bitValuesOffset[schema.bitField(i)] = at;
        at = roundUp(at, align);
        for (int f : schema.byteFieldsWidestFirst()) {
            columnOffset[f] = at;
            at += roundUp(r * schema.type(f).width, align);
        }
        for (int v = 0; v < schema.varCount(); v++) {
            columnOffset[schema.varField(v)] = at;
            at += roundUp(r * VREF_SIZE, align);
        }
        segmentBytes = at;
    }

    /** R for a page of {@code size} bytes: the largest power of two in [8, 256] whose segment is at most size/8. */
    private int chooseRecordsPerSegment(int size) {
        if (fixedRecordsPerSegment != 0) return fixedRecordsPerSegment;
        int r = MAX_RECORDS_PER_SEGMENT;
        while (r > MIN_RECORDS_PER_SEGMENT && segmentBytesFor(r) > size / 8) r >>= 1;
        return r;
    }

    @Override
    protected void initialize() {
        int r = chooseRecordsPerSegment(pageSize);
        geometry(r);
        if (HEADER_SIZE + segmentBytes > pageSize) {
            throw new IllegalArgumentException("a segment of " + r + " " + schema + " records does not fit a " + pageSize + "-byte page");
        }
        buf.putInt(base + HDR_RECORD_COUNT, 0);
        buf.putInt(base + HDR_GHOST_COUNT, 0);
        buf.putInt(base + HDR_SEGMENT_COUNT, 0);
        buf.putInt(base + HDR_HEAP_START, pageSize);
        buf.putInt(base + HDR_FRAGMENTED, 0);
        buf.putInt(base + HDR_REORGS, 0);
        buf.putInt(base + HDR_RECORDS_PER_SEG, r);
    }

    @Override
    protected void wrapped() {
        geometry(buf.getInt(base + HDR_RECORDS_PER_SEG));
    }

    public int recordsPerSegment() { return recordsPerSegment; }
    @Override public int slotCount() { return buf.getInt(base + HDR_RECORD_COUNT); }
    @Override public int ghostCount() { return buf.getInt(base + HDR_GHOST_COUNT); }
    @Override public int reorganizations() { return buf.getInt(base + HDR_REORGS); }
    @Override protected void setReorganizations(int count) { buf.putInt(base + HDR_REORGS, count); }
    private int segmentCount() { return buf.getInt(base + HDR_SEGMENT_COUNT); }
    private int heapStart() { return buf.getInt(base + HDR_HEAP_START); }
    private int fragmented() { return buf.getInt(base + HDR_FRAGMENTED); }
    private void addFragmented(int delta) { buf.putInt(base + HDR_FRAGMENTED, fragmented() + delta); }

    /** Absolute index of the segment holding {@code slot}. */
    private int segment(int slot) {
        return base + HEADER_SIZE + (slot >>> segmentShift) * segmentBytes;
    }

    private int inSegment(int slot) {
        return slot & (recordsPerSegment - 1);
    }

    private int vref(int slot, int field) {
        return segment(slot) + columnOffset[field] + inSegment(slot) * VREF_SIZE;
    }

    @Override
    public boolean isGhost(int slot) {
        checkSlot(slot);
        return bit(segment(slot) + SEG_GHOST_BITS, inSegment(slot));
    }

    @Override
    public int insert(Record r) {
        int n = slotCount();
        int needSegment = n == segmentCount() * recordsPerSegment ? segmentBytes : 0;
        int need = needSegment + r.varBytes();
        if (freeBytes() < need) {
            if (rebuilding || freeBytes() + fragmented() + ghostVarBytes() < need) return -1;
            rebuild(false, -1, null, null, true);
            if (freeBytes() < need) return -1;
        }
        if (needSegment != 0) {
            int seg = segmentCount();
            // Values are written before they are read; only the bit regions must start clear.
            zero(base + HEADER_SIZE + seg * segmentBytes, roundUp(columnOffsetOfFirstColumn(), 8));
            buf.putInt(base + HDR_SEGMENT_COUNT, seg + 1);
        }
        int seg = segment(n);
        int j = inSegment(n);
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            if (r.isNull(f)) setBit(seg + nullBitsOffset[f], j, true);
            if (t.isBit()) {
                setBit(seg + bitValuesOffset[f], j, r.getLong(f) != 0);
            } else if (t.isVariable()) {
                int ref = seg + columnOffset[f] + j * VREF_SIZE;
                int len = r.length(f);
                int off = 0;
                if (len > 0) {
                    off = heapStart() - len;
                    putBytes(base + off, r.bytes(f), 0, len);
                    buf.putInt(base + HDR_HEAP_START, off);
                }
                buf.putInt(ref + VREF_OFFSET, off);
                buf.putInt(ref + VREF_LENGTH, len);
                buf.putInt(ref + VREF_PNK, normalizedKey(r.bytes(f), 0, len));
            } else {
                t.write(buf, seg + columnOffset[f] + j * t.width, r.getLong(f));
            }
        }
        buf.putInt(base + HDR_RECORD_COUNT, n + 1);
        return n;
    }

    /** Where the first value column starts: everything before it is bit regions. */
    private int columnOffsetOfFirstColumn() {
        int at = segmentBytes;
        for (int f = 0; f < columnOffset.length; f++) {
            if (!schema.type(f).isBit()) at = Math.min(at, columnOffset[f]);
        }
        return at;
    }

    /** §4.2: the first 4 bytes of a value, big-endian and zero-padded, so that comparing keys compares prefixes. */
    static int normalizedKey(byte[] b, int off, int len) {
        int k = 0;
        for (int i = 0; i < 4; i++) k = (k << 8) | (i < len ? b[off + i] & 0xff : 0);
        return k;
    }

    private int ghostVarBytes() {
        if (ghostCount() == 0 || schema.varCount() == 0) return 0;
        int total = 0;
        for (int s = 0, n = slotCount(); s < n; s++) {
            if (!isGhost(s)) continue;
            for (int v = 0; v < schema.varCount(); v++) total += buf.getInt(vref(s, schema.varField(v)) + VREF_LENGTH);
        }
        return total;
    }

    /** The whole record: one column entry per field of one segment, its address computed once. */
    @Override
    public void read(int slot, Record into) {
        checkSlot(slot);
        int seg = segment(slot);
        int j = inSegment(slot);
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            if (schema.nullable(f) && bit(seg + nullBitsOffset[f], j)) {
                into.setNull(f);
            } else if (t.isVariable()) {
                int ref = seg + columnOffset[f] + j * VREF_SIZE;
                int len = buf.getInt(ref + VREF_LENGTH);
                getBytesAt(base + buf.getInt(ref + VREF_OFFSET), into.buffer(f, len), 0, len);
            } else if (t.isBit()) {
                into.setLong(f, bit(seg + bitValuesOffset[f], j) ? 1 : 0);
            } else {
                into.setLong(f, t.read(buf, seg + columnOffset[f] + j * t.width));
            }
        }
    }

    @Override
    public boolean isNull(int slot, int field) {
        checkSlot(slot);
        return schema.nullable(field) && bit(segment(slot) + nullBitsOffset[field], inSegment(slot));
    }

    @Override
    public long getLong(int slot, int field) {
        checkSlot(slot);
        FieldType t = schema.type(field);
        if (t.isBit()) return bit(segment(slot) + bitValuesOffset[field], inSegment(slot)) ? 1 : 0;
        if (t.isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        return t.read(buf, segment(slot) + columnOffset[field] + inSegment(slot) * t.width);
    }

    @Override
    public int getLength(int slot, int field) {
        checkSlot(slot);
        checkVarlen(field);
        return buf.getInt(vref(slot, field) + VREF_LENGTH);
    }

    @Override
    public int getBytes(int slot, int field, byte[] dst, int dstOffset) {
        checkSlot(slot);
        checkVarlen(field);
        int ref = vref(slot, field);
        int len = buf.getInt(ref + VREF_LENGTH);
        getBytesAt(base + buf.getInt(ref + VREF_OFFSET), dst, dstOffset, len);
        return len;
    }

    @Override
    public void setLong(int slot, int field, long value) {
        checkSlot(slot);
        FieldType t = schema.type(field);
        int seg = segment(slot);
        int j = inSegment(slot);
        if (t.isBit()) setBit(seg + bitValuesOffset[field], j, value != 0);
        else if (t.isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        else t.write(buf, seg + columnOffset[field] + j * t.width, value);
        if (schema.nullable(field)) setBit(seg + nullBitsOffset[field], j, false);
    }

    @Override
    public void setNull(int slot, int field) {
        checkSlot(slot);
        checkNullable(field);
        if (schema.type(field).isVariable()) setBytes(slot, field, EMPTY, 0, 0);
        setBit(segment(slot) + nullBitsOffset[field], inSegment(slot), true);
    }

    private static final byte[] EMPTY = new byte[0];

    @Override
    public boolean setBytes(int slot, int field, byte[] src, int offset, int length) {
        checkSlot(slot);
        checkVarlen(field);
        int ref = vref(slot, field);
        int oldLen = buf.getInt(ref + VREF_LENGTH);
        int off;
        if (length <= oldLen) {
            off = length == 0 ? 0 : buf.getInt(ref + VREF_OFFSET);      // in place
            addFragmented(oldLen - length);
        } else if (freeBytes() >= length) {
            off = heapStart() - length;                                  // from the free pool
            buf.putInt(base + HDR_HEAP_START, off);
            addFragmented(oldLen);
        } else {
            return rebuildWithValue(slot, field, src, offset, length);
        }
        if (length > 0) putBytes(base + off, src, offset, length);
        buf.putInt(ref + VREF_OFFSET, off);
        buf.putInt(ref + VREF_LENGTH, length);
        buf.putInt(ref + VREF_PNK, normalizedKey(src, offset, length));
        if (schema.nullable(field)) setBit(segment(slot) + nullBitsOffset[field], inSegment(slot), false);
        return true;
    }

    @Override
    public void delete(int slot) {
        checkSlot(slot);
        int ghosts = segment(slot) + SEG_GHOST_BITS;
        if (bit(ghosts, inSegment(slot))) return;
        setBit(ghosts, inSegment(slot), true);
        buf.putInt(base + HDR_GHOST_COUNT, ghostCount() + 1);
    }

    @Override
    public int scanBetween(int field, long lo, long hi, long[] selection) {
        checkScannable(field);
        int n = slotCount();
        int r = recordsPerSegment;
        if (r < 64) clearSelection(selection, n);
        FieldType t = schema.type(field);
        int width = t.width;
        int nulls = schema.nullable(field) ? nullBitsOffset[field] : -1;
        int column = t.isBit() ? bitValuesOffset[field] : columnOffset[field];
        int matches = 0;
        int columnBytes = t.isBit() ? r / 8 : r * width;
        // §4.1 read-ahead: touch every cache line of the field's column, and the ghost bits, in
        // all segments first. The misses then overlap one another (memory-level parallelism)
        // instead of costing one full latency per segment when the scan reaches it: segments are
        // kilobytes apart and hardware prefetchers do not follow that stride across 4 KB pages.
        // Java has no prefetch instruction; a load whose value is only summed is the nearest.
        long touched = 0;
        int segments = (n + r - 1) / r;
        boolean ghosts = ghostCount() > 0;  // without ghosts the ghost bits need not be read at all
        for (int k = 0, at = base + HEADER_SIZE; k < segments; k++, at += segmentBytes) {
            if (ghosts) touched += buf.get(at + SEG_GHOST_BITS);
            for (int line = 0; line < columnBytes; line += CACHE_LINE) touched += buf.get(at + column + line);
        }
        int seg = base + HEADER_SIZE;
        for (int first = 0; first < n; first += r, seg += segmentBytes) {
            int inSeg = Math.min(r, n - first);
            for (int c = 0; c < inSeg; c += 64) {
                int count = Math.min(64, inSeg - c);
                // Ghost and null bits first: their loads then miss together with the column's.
                long keep = ghosts ? ~buf.getLong(seg + SEG_GHOST_BITS + (c >>> 3)) : -1L;
                if (nulls >= 0) keep &= ~buf.getLong(seg + nulls + (c >>> 3));
                long bits = t.isBit()
                        ? ColumnScan.matchBits(buf.getLong(seg + column + (c >>> 3)), count, lo, hi)
                        : t == FieldType.INT32 ? ColumnScan.matchInt32(buf, seg + column + (c << 2), count, lo, hi)
                        : ColumnScan.matchWord(buf, seg + column + c * width, t, count, lo, hi);
                bits &= keep;
                int slot = first + c;
                if (r >= 64) selection[slot >>> 6] = bits;
                else selection[slot >>> 6] |= bits << (slot & 63);
                matches += Long.bitCount(bits);
            }
        }
        readAheadSink += touched;
        return matches;
    }

    /** Where touched bytes go, so the JIT cannot drop the loads. */
    private long readAheadSink;

    @Override
    public int scanEquals(int field, byte[] key, long[] selection) {
        checkVarlen(field);
        int n = slotCount();
        clearSelection(selection, n);
        int pnk = normalizedKey(key, 0, key.length);
        int matches = 0;
        for (int i = 0; i < n; i++) {
            int ref = vref(i, field);
            // §4.2: length and normalized key decide most comparisons without touching the value.
            if (buf.getInt(ref + VREF_PNK) != pnk || buf.getInt(ref + VREF_LENGTH) != key.length) continue;
            if (isGhost(i) || isNull(i, field)) continue;
            if (key.length <= 4 || bytesEqual(base + buf.getInt(ref + VREF_OFFSET), key)) {
                selection[i >>> 6] |= 1L << i;
                matches++;
            }
        }
        return matches;
    }

    @Override
    public int freeBytes() {
        return heapStart() - HEADER_SIZE - segmentCount() * segmentBytes;
    }

    @Override
    public int reclaimableBytes() {
        // A ghost's column entries come back only as whole segments, once compaction packs the live records.
        int live = liveCount();
        int segmentsFreed = segmentCount() - (live + recordsPerSegment - 1) / recordsPerSegment;
        return fragmented() + ghostVarBytes() + segmentsFreed * segmentBytes;
    }
}

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
 *  HDR_SEGMENT_COUNT      8  | int  segments allocated, the tail included        |
 *  HDR_HEAP_START        12  | int  lowest VARLEN value byte (= page size empty)  |
 *  HDR_FRAGMENTED        16  | int  dead VARLEN bytes (replaced or shrunk values) |
 *  HDR_REORGS            20  | int  page rewrites forced by inserts and updates  |
 *  HDR_RECORDS_PER_SEG   24  | int  R, records per segment (a power of two)      |
 *  HDR_TAIL_RECORDS      28  | int  records the last segment holds: R, or R' &lt; R |
 *                            |      for a partial tail; 0 before the first one   |
 *  HEADER_SIZE           64  +--------------------------------------------------+  one cache line
 *  HEADER_SIZE               | segment 0   (segmentBytes(R), drawn below)        |
 *  + k*segmentBytes(R)       | segment 1 ...  growing up --&gt;                     |
 *                            | last segment: R records, or a partial tail of R'  |
 *                            |   records (segmentBytes(R'), the same drawing)    |
 *  HEADER_SIZE + full *      +--------------------------------------------------+
 *  segmentBytes(R) + tail    |        free space (freeBytes): one pool            |
 *  HDR_HEAP_START            +--------------------------------------------------+
 *                            | &lt;-- growing down   VARLEN values, any order       |
 *  page size                 +--------------------------------------------------+
 * </pre>
 *
 * One segment of {@code r} records (r = R, or R' for a partial tail; offsets from its start;
 * every region rounded up to {@code regionAlign}: a 64-byte cache line when R &gt;= 64, else 8
 * bytes):
 *
 * <pre>
 *  SEG_GHOST_BITS     0        ghost bits, 1 = deleted (§4.3)       r bits, in 8-byte words
 *  nullBitsOffset[f]           null bits of each nullable field, 1 = NULL (§4.4)
 *  bitValuesOffset[f]          values of each BIT field
 *  columnOffset[f]             each whole-byte fixed field, widest first: r * width bytes
 *  columnOffset[v]             each VARLEN field's fixed part (§4.2): r entries of
 *                              vrefSize bytes; pages up to 64 KB (NARROW_VREF_SIZE = 8):
 *                                VREF_OFFSET        +0 u16  value offset in the page (0 if empty)
 *                                NARROW_VREF_LENGTH +2 u16  value length
 *                                NARROW_VREF_PNK    +4 int  poor man's normalized key
 *                              larger pages (WIDE_VREF_SIZE = 12):
 *                                VREF_OFFSET        +0 int  value offset in the page (0 if empty)
 *                                WIDE_VREF_LENGTH   +4 int  value length
 *                                WIDE_VREF_PNK      +8 int  poor man's normalized key
 *                              (the key: the value's first 4 bytes, big-endian, zero-padded)
 * </pre>
 *
 * <p>R follows §4.1 (segments sized by blocks of cache lines, for read-ahead): the largest
 * power of two from 8 to 256 whose segment, with its records' expected VARLEN values, takes at
 * most 1/{@value #SEGMENT_SHARE} of the page (R = 256 for ~100-byte records in 64 KB pages: a
 * 4-byte column is a run of 16 cache lines). A fixed R can be given instead. The last segment may be a partial <em>tail</em> (the §5 trade-off): when a
 * whole segment no longer fits, the page takes one last segment of R' &lt; R records (a
 * multiple of 8, sized so that its records' VARLEN values, estimated from the page's average,
 * still fit), laid out by the same drawing for R'. After the tail no segment follows; the tail
 * is why a page loses at most a few records' worth of space to the segment structure instead of
 * up to a whole segment. The VARLEN fixed part lets an equality scan reject most values on
 * length and normalized key without touching the value bytes; its offset and length take two
 * bytes each where the page size allows (SQLite's cell pointers do the same).
 */
public final class HybridPage extends AbstractPage {
    static final int HDR_RECORD_COUNT = 0;
    static final int HDR_GHOST_COUNT = 4;
    static final int HDR_SEGMENT_COUNT = 8;
    static final int HDR_HEAP_START = 12;
    static final int HDR_FRAGMENTED = 16;
    static final int HDR_REORGS = 20;
    static final int HDR_RECORDS_PER_SEG = 24;
    static final int HDR_TAIL_RECORDS = 28;
    static final int HEADER_SIZE = 64;
    static final int CACHE_LINE = 64;
    static final int SEG_GHOST_BITS = 0;
    static final int VREF_OFFSET = 0;
    static final int NARROW_VREF_SIZE = 8;
    static final int NARROW_VREF_LENGTH = 2;
    static final int NARROW_VREF_PNK = 4;
    static final int WIDE_VREF_SIZE = 12;
    static final int WIDE_VREF_LENGTH = 4;
    static final int WIDE_VREF_PNK = 8;
    /** The largest page whose offsets and lengths fit two unsigned bytes. */
    static final int NARROW_PAGE_LIMIT = 1 << 16;
    static final int MIN_RECORDS_PER_SEGMENT = 8;
    static final int MAX_RECORDS_PER_SEGMENT = 256;
    /** A segment and its records' expected VARLEN values take at most 1/SEGMENT_SHARE of the page. */
    static final int SEGMENT_SHARE = 2;
    /** Granularity of a partial tail's R'. */
    static final int TAIL_STEP = 8;
    private static final int NO_TAIL = Integer.MAX_VALUE;

    /** 0 = choose R from the page size (§4.1); otherwise the R every page gets. */
    private final int fixedRecordsPerSegment;
    private final int[] byteFields;
    /** VARLEN bytes a record is expected to have (the fields' expected lengths): sizes the first segment. */
    private final int expectedVarBytes;

    // Geometry of a whole segment (R records) and of the partial tail (R' records), recomputed on wrap.
    private int recordsPerSegment;
    private int segmentShift;
    private int segmentBytes;
    private int vrefSize;
    private int vrefLength;
    private int vrefPnk;
    private final int[] nullBitsOffset;
    private final int[] bitValuesOffset;
    private final int[] columnOffset;
    /** First slot of a partial tail, or NO_TAIL. */
    private int tailFirstSlot = NO_TAIL;
    private int tailRecords;
    private int tailBytes;
    private int[] tailNullBitsOffset;
    private int[] tailBitValuesOffset;
    private int[] tailColumnOffset;
    /** Tail layouts by R' / TAIL_STEP: null-bit, bit-value and column offsets; and their bytes. */
    private int[][][] tailLayouts;
    private int[] tailLayoutBytes;
    /**
     * While this page is the target of a rebuild: the source's slot capacity, so that the rebuilt
     * page takes the same segments (which are known to fit) and never more segment bytes than the
     * source (what {@link #reclaimableBytes()} promises). Else NO_TAIL.
     */
    private int slotLimit = NO_TAIL;

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
        byteFields = schema.byteFieldsWidestFirst();
        int expected = 0;
        for (int v = 0; v < schema.varCount(); v++) expected += schema.field(schema.varField(v)).expectedLength();
        expectedVarBytes = expected;
        int n = schema.fieldCount();
        nullBitsOffset = new int[n];
        bitValuesOffset = new int[n];
        columnOffset = new int[n];
    }

    @Override public Layout layout() { return Layout.HPL; }
    @Override protected AbstractPage newSibling() { return new HybridPage(schema, fixedRecordsPerSegment); }

    // ---------------------------------------------------------------- geometry

    private static int vrefSizeFor(int pageSize) {
        return pageSize <= NARROW_PAGE_LIMIT ? NARROW_VREF_SIZE : WIDE_VREF_SIZE;
    }

    /**
     * Lays out a segment of {@code r} records whose regions align as for R = {@code big} into the
     * given offset arrays (null: only measure); returns its bytes.
     */
    private int layOut(int r, int big, int vref, int[] nulls, int[] bitValues, int[] columns) {
        int align = big >= 64 ? CACHE_LINE : 8;
        int bitRegion = roundUp(r, 64) / 8;
        int at = SEG_GHOST_BITS + bitRegion;
        for (int i = 0; i < schema.nullableCount(); i++, at += bitRegion) if (nulls != null) nulls[schema.nullableField(i)] = at;
        for (int i = 0; i < schema.bitCount(); i++, at += bitRegion) if (bitValues != null) bitValues[schema.bitField(i)] = at;
        at = roundUp(at, align);
        for (int f : byteFields) {
            if (columns != null) columns[f] = at;
            at += roundUp(r * schema.type(f).width, align);
        }
        for (int v = 0; v < schema.varCount(); v++) {
            if (columns != null) columns[schema.varField(v)] = at;
            at += roundUp(r * vref, align);
        }
        return at;
    }

    /** Bytes of a segment of {@code r} records on this page (does not change the geometry). */
    private int segmentBytesFor(int r) {
        return layOut(r, recordsPerSegment, vrefSize, null, null, null);
    }

    /** Sets the whole-segment geometry for R = r on a page of the bound size, and the tail's from the header. */
    private void geometry(int r) {
        int vref = vrefSizeFor(pageSize);
        if (r != recordsPerSegment || vref != vrefSize) {
            recordsPerSegment = r;
            segmentShift = Integer.numberOfTrailingZeros(r);
            vrefSize = vref;
            vrefLength = vref == NARROW_VREF_SIZE ? NARROW_VREF_LENGTH : WIDE_VREF_LENGTH;
            vrefPnk = vref == NARROW_VREF_SIZE ? NARROW_VREF_PNK : WIDE_VREF_PNK;
            segmentBytes = layOut(r, r, vref, nullBitsOffset, bitValuesOffset, columnOffset);
            tailRecords = 0;                                           // the tail's layout depends on R and vrefSize too
            tailLayouts = new int[r / TAIL_STEP][][];
            tailLayoutBytes = new int[r / TAIL_STEP];
        }
        tailGeometry();
    }

    /** Reads the tail's size from the header and lays it out if it is partial. */
    private void tailGeometry() {
        int tail = buf.getInt(base + HDR_TAIL_RECORDS);
        int segments = segmentCount();
        if (segments == 0 || tail == recordsPerSegment) {
            tailFirstSlot = NO_TAIL;
            tailRecords = 0;
            tailBytes = 0;
        } else {
            tailFirstSlot = (segments - 1) * recordsPerSegment;
            if (tail != tailRecords) {
                // Pages differ in R', so a scan over many pages would lay the tail out once a page:
                // the layouts are kept per R' (at most R / TAIL_STEP of them).
                int k = tail / TAIL_STEP;
                if (tailLayouts[k] == null) {
                    int[][] l = new int[3][schema.fieldCount()];
                    tailLayoutBytes[k] = layOut(tail, recordsPerSegment, vrefSize, l[0], l[1], l[2]);
                    tailLayouts[k] = l;
                }
                tailRecords = tail;
                tailBytes = tailLayoutBytes[k];
                tailNullBitsOffset = tailLayouts[k][0];
                tailBitValuesOffset = tailLayouts[k][1];
                tailColumnOffset = tailLayouts[k][2];
            }
        }
    }

    /**
     * R for a page of {@code size} bytes: the largest power of two in [8, 256] whose segment and
     * its records' expected VARLEN values take at most size/SEGMENT_SHARE.
     */
    private int chooseRecordsPerSegment(int size) {
        if (fixedRecordsPerSegment != 0) return fixedRecordsPerSegment;
        int vref = vrefSizeFor(size);
        int r = MAX_RECORDS_PER_SEGMENT;
        while (r > MIN_RECORDS_PER_SEGMENT && layOut(r, r, vref, null, null, null) + (long) r * expectedVarBytes > size / SEGMENT_SHARE) r >>= 1;
        return r;
    }

    @Override
    protected void initialize() {
        int r = chooseRecordsPerSegment(pageSize);
        buf.putInt(base + HDR_RECORD_COUNT, 0);
        buf.putInt(base + HDR_GHOST_COUNT, 0);
        buf.putInt(base + HDR_SEGMENT_COUNT, 0);
        buf.putInt(base + HDR_HEAP_START, pageSize);
        buf.putInt(base + HDR_FRAGMENTED, 0);
        buf.putInt(base + HDR_REORGS, 0);
        buf.putInt(base + HDR_RECORDS_PER_SEG, r);
        buf.putInt(base + HDR_TAIL_RECORDS, 0);
        geometry(r);
        slotLimit = NO_TAIL;
        if (HEADER_SIZE + segmentBytesFor(Math.min(r, TAIL_STEP)) > pageSize) {
            throw new IllegalArgumentException("a segment of " + schema + " records does not fit a " + pageSize + "-byte page");
        }
    }

    @Override
    protected boolean initializeFor(AbstractPage source, boolean dropGhosts, int replaceSlot, Record replacement, Record extra) {
        initialize();
        slotLimit = ((HybridPage) source).allocatedSlots();
        return true;
    }

    @Override
    protected void wrapped() {
        geometry(buf.getInt(base + HDR_RECORDS_PER_SEG));
    }

    public int recordsPerSegment() { return recordsPerSegment; }
    /** Records the last segment holds when it is a partial tail, else 0. */
    public int tailRecords() { return tailFirstSlot == NO_TAIL ? 0 : tailRecords; }
    @Override public int slotCount() { return buf.getInt(base + HDR_RECORD_COUNT); }
    @Override public int ghostCount() { return buf.getInt(base + HDR_GHOST_COUNT); }
    @Override public int reorganizations() { return buf.getInt(base + HDR_REORGS); }
    @Override protected void setReorganizations(int count) { buf.putInt(base + HDR_REORGS, count); }
    private int segmentCount() { return buf.getInt(base + HDR_SEGMENT_COUNT); }
    private int heapStart() { return buf.getInt(base + HDR_HEAP_START); }
    private int fragmented() { return buf.getInt(base + HDR_FRAGMENTED); }
    private void addFragmented(int delta) { buf.putInt(base + HDR_FRAGMENTED, fragmented() + delta); }

    /** Slots the allocated segments hold. */
    private int allocatedSlots() {
        int segments = segmentCount();
        return tailFirstSlot == NO_TAIL ? segments * recordsPerSegment : tailFirstSlot + tailRecords;
    }

    /** Bytes the allocated segments take. */
    private int allocatedSegmentBytes() {
        int segments = segmentCount();
        return tailFirstSlot == NO_TAIL ? segments * segmentBytes : (segments - 1) * segmentBytes + tailBytes;
    }

    /** Absolute index of the segment holding {@code slot}. */
    private int segment(int slot) {
        return base + HEADER_SIZE + (slot >>> segmentShift) * segmentBytes;
    }

    private int inSegment(int slot) {
        return slot & (recordsPerSegment - 1);
    }

    private int[] columns(int slot) { return slot >= tailFirstSlot ? tailColumnOffset : columnOffset; }
    private int[] nullBits(int slot) { return slot >= tailFirstSlot ? tailNullBitsOffset : nullBitsOffset; }
    private int[] bitValues(int slot) { return slot >= tailFirstSlot ? tailBitValuesOffset : bitValuesOffset; }

    // ---------------------------------------------------------------- VARLEN references

    private int vref(int slot, int field) {
        return segment(slot) + columns(slot)[field] + inSegment(slot) * vrefSize;
    }

    private int refOffset(int ref) {
        return vrefSize == NARROW_VREF_SIZE ? buf.getShort(ref + VREF_OFFSET) & 0xffff : buf.getInt(ref + VREF_OFFSET);
    }

    private int refLength(int ref) {
        return vrefSize == NARROW_VREF_SIZE ? buf.getShort(ref + vrefLength) & 0xffff : buf.getInt(ref + vrefLength);
    }

    private int refKey(int ref) {
        return buf.getInt(ref + vrefPnk);
    }

    private void putRef(int ref, int offset, int length, int key) {
        if (vrefSize == NARROW_VREF_SIZE) {
            buf.putShort(ref + VREF_OFFSET, (short) offset);
            buf.putShort(ref + vrefLength, (short) length);
        } else {
            buf.putInt(ref + VREF_OFFSET, offset);
            buf.putInt(ref + vrefLength, length);
        }
        buf.putInt(ref + vrefPnk, key);
    }

    // ---------------------------------------------------------------- records

    @Override
    public boolean isGhost(int slot) {
        checkSlot(slot);
        return bit(segment(slot) + SEG_GHOST_BITS, inSegment(slot));
    }

    @Override
    public int insert(Record r) {
        int n = slotCount();
        int var = r.varBytes();
        if (n == allocatedSlots()) {                                   // the record needs a new segment
            if (tailFirstSlot != NO_TAIL) return -1;                   // the partial tail is full: no segment follows it
            int records = segmentRecordsFor(freeBytes(), var, n);
            if (records < recordsPerSegment && !rebuilding) {
                int reclaim = fragmented() + ghostVarBytes();
                if (reclaim > 0 && segmentRecordsFor(freeBytes() + reclaim, var, n) > records) {
                    rebuild(false, -1, null, null, true);              // reclaim dead VARLEN bytes first; slots stay
                    records = segmentRecordsFor(freeBytes(), var, n);
                }
            }
            if (records <= 0) return -1;
            allocateSegment(records);
        } else if (freeBytes() < var) {
            if (rebuilding || freeBytes() + fragmented() + ghostVarBytes() < var) return -1;
            rebuild(false, -1, null, null, true);
            if (freeBytes() < var) return -1;
        }
        int seg = segment(n);
        int j = inSegment(n);
        int[] columns = columns(n), nulls = nullBits(n), bitValues = bitValues(n);
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            if (r.isNull(f)) setBit(seg + nulls[f], j, true);
            if (t.isBit()) {
                setBit(seg + bitValues[f], j, r.getLong(f) != 0);
            } else if (t.isVariable()) {
                int len = r.length(f);
                int off = 0;
                if (len > 0) {
                    off = heapStart() - len;
                    putBytes(base + off, r.bytes(f), 0, len);
                    buf.putInt(base + HDR_HEAP_START, off);
                }
                putRef(seg + columns[f] + j * vrefSize, off, len, normalizedKey(r.bytes(f), 0, len));
            } else {
                t.write(buf, seg + columns[f] + j * t.width, r.getLong(f));
            }
        }
        buf.putInt(base + HDR_RECORD_COUNT, n + 1);
        return n;
    }

    /**
     * Records the next segment gets when a record with {@code var} VARLEN bytes opens it in
     * {@code free} bytes: R when a whole segment and the VARLEN values of R records like the
     * page's average (the schema's expected lengths on an empty page) fit; else a partial tail of
     * the largest multiple of {@value #TAIL_STEP} records that fit so; else a tail of
     * {@value #TAIL_STEP} if this record fits it; else -1. A rebuild target instead takes the
     * segments of its source ({@link #slotLimit}), which are known to fit.
     */
    private int segmentRecordsFor(int free, int var, int n) {
        int r = recordsPerSegment;
        if (slotLimit != NO_TAIL) {
            int records = Math.min(r, slotLimit - n);
            return records > 0 && segmentBytesFor(records) + var <= free ? records : -1;
        }
        long perRecord = n == 0 ? expectedVarBytes : (long) (pageSize - heapStart() - fragmented()) / n;
        if (segmentBytes + var + (r - 1) * perRecord <= free) return r;
        for (int t = (r - 1) / TAIL_STEP * TAIL_STEP; t >= TAIL_STEP; t -= TAIL_STEP) {
            if (segmentBytesFor(t) + var + (t - 1) * perRecord <= free) return t;
        }
        return segmentBytesFor(TAIL_STEP) + var <= free ? TAIL_STEP : -1;
    }

    /** Appends a segment of {@code records} records: whole (R), or a partial tail. */
    private void allocateSegment(int records) {
        int tail = records < recordsPerSegment ? records : 0;
        int k = segmentCount();
        int at = base + HEADER_SIZE + k * segmentBytes;
        buf.putInt(base + HDR_SEGMENT_COUNT, k + 1);
        buf.putInt(base + HDR_TAIL_RECORDS, tail > 0 ? tail : recordsPerSegment);
        tailGeometry();
        // Values are written before they are read; only the bit regions must start clear.
        zero(at, roundUp(firstValueColumn(tail > 0 ? tailColumnOffset : columnOffset, tail > 0 ? tailBytes : segmentBytes), 8));
    }

    /** Where the first value column of a segment starts: everything before it is bit regions. */
    private int firstValueColumn(int[] columns, int bytes) {
        int at = bytes;
        for (int f = 0; f < columns.length; f++) {
            if (!schema.type(f).isBit()) at = Math.min(at, columns[f]);
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
            for (int v = 0; v < schema.varCount(); v++) total += refLength(vref(s, schema.varField(v)));
        }
        return total;
    }

    /** The whole record: one column entry per field of one segment, its address computed once. */
    @Override
    public void read(int slot, Record into) {
        checkSlot(slot);
        int seg = segment(slot);
        int j = inSegment(slot);
        int[] columns = columns(slot), nulls = nullBits(slot), bitValues = bitValues(slot);
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            if (schema.nullable(f) && bit(seg + nulls[f], j)) {
                into.setNull(f);
            } else if (t.isVariable()) {
                int ref = seg + columns[f] + j * vrefSize;
                int len = refLength(ref);
                getBytesAt(base + refOffset(ref), into.buffer(f, len), 0, len);
            } else if (t.isBit()) {
                into.setLong(f, bit(seg + bitValues[f], j) ? 1 : 0);
            } else {
                into.setLong(f, t.read(buf, seg + columns[f] + j * t.width));
            }
        }
    }

    @Override
    public boolean isNull(int slot, int field) {
        checkSlot(slot);
        return schema.nullable(field) && bit(segment(slot) + nullBits(slot)[field], inSegment(slot));
    }

    @Override
    public long getLong(int slot, int field) {
        checkSlot(slot);
        FieldType t = schema.type(field);
        if (t.isBit()) return bit(segment(slot) + bitValues(slot)[field], inSegment(slot)) ? 1 : 0;
        if (t.isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        return t.read(buf, segment(slot) + columns(slot)[field] + inSegment(slot) * t.width);
    }

    @Override
    public int getLength(int slot, int field) {
        checkSlot(slot);
        checkVarlen(field);
        return refLength(vref(slot, field));
    }

    @Override
    public int getBytes(int slot, int field, byte[] dst, int dstOffset) {
        checkSlot(slot);
        checkVarlen(field);
        int ref = vref(slot, field);
        int len = refLength(ref);
        getBytesAt(base + refOffset(ref), dst, dstOffset, len);
        return len;
    }

    @Override
    public void setLong(int slot, int field, long value) {
        checkSlot(slot);
        FieldType t = schema.type(field);
        int seg = segment(slot);
        int j = inSegment(slot);
        if (t.isBit()) setBit(seg + bitValues(slot)[field], j, value != 0);
        else if (t.isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        else t.write(buf, seg + columns(slot)[field] + j * t.width, value);
        if (schema.nullable(field)) setBit(seg + nullBits(slot)[field], j, false);
    }

    @Override
    public void setNull(int slot, int field) {
        checkSlot(slot);
        checkNullable(field);
        if (schema.type(field).isVariable()) setBytes(slot, field, EMPTY, 0, 0);
        setBit(segment(slot) + nullBits(slot)[field], inSegment(slot), true);
    }

    private static final byte[] EMPTY = new byte[0];

    @Override
    public boolean setBytes(int slot, int field, byte[] src, int offset, int length) {
        checkSlot(slot);
        checkVarlen(field);
        int ref = vref(slot, field);
        int oldLen = refLength(ref);
        int off;
        if (length <= oldLen) {
            off = length == 0 ? 0 : refOffset(ref);                   // in place
            addFragmented(oldLen - length);
        } else if (freeBytes() >= length) {
            off = heapStart() - length;                                  // from the free pool
            buf.putInt(base + HDR_HEAP_START, off);
            addFragmented(oldLen);
        } else {
            return rebuildWithValue(slot, field, src, offset, length);
        }
        if (length > 0) putBytes(base + off, src, offset, length);
        putRef(ref, off, length, normalizedKey(src, offset, length));
        if (schema.nullable(field)) setBit(segment(slot) + nullBits(slot)[field], inSegment(slot), false);
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

    // ---------------------------------------------------------------- scans

    @Override
    public int scanBetween(int field, long lo, long hi, long[] selection) {
        checkScannable(field);
        int n = slotCount();
        int r = recordsPerSegment;
        FieldType t = schema.type(field);
        boolean intRange = t.isFixedBytes() && t.width <= 4;     // INT8..INT32, UINT8..UINT32: ColumnScan's unsigned test
        boolean empty = intRange && ColumnScan.emptyRange(t, lo, hi);
        if (r < 64 || empty) clearSelection(selection, n);
        if (empty) return 0;
        int lo32 = intRange ? ColumnScan.clampLo(t, lo) : 0;
        long span1 = intRange ? ColumnScan.span1(t, lo, hi) : 0;
        int width = t.width;
        boolean nullable = schema.nullable(field);
        boolean ghosts = ghostCount() > 0;  // without ghosts the ghost bits need not be read at all
        // An INT32 column in a heap buffer takes ColumnScan's constant-trip-count loop.
        byte[] array = (t == FieldType.INT32 || t == FieldType.UINT32) && buf.hasArray() ? buf.array() : null;
        int arrayBase = array != null ? buf.arrayOffset() : 0;
        int matches = 0;
        int seg = base + HEADER_SIZE;
        for (int first = 0; first < n; first += r, seg += segmentBytes) {
            int inSeg = Math.min(r, n - first);
            boolean tail = first >= tailFirstSlot;
            int column = t.isBit() ? (tail ? tailBitValuesOffset : bitValuesOffset)[field] : (tail ? tailColumnOffset : columnOffset)[field];
            int nulls = nullable ? (tail ? tailNullBitsOffset : nullBitsOffset)[field] : -1;
            for (int c = 0; c < inSeg; c += 64) {
                int count = Math.min(64, inSeg - c);
                long bits;
                if (array != null) bits = ColumnScan.matchInt32(array, arrayBase + seg + column + (c << 2), count, lo32, span1);
                else if (intRange) bits = ColumnScan.matchInt(buf, seg + column + c * width, t, count, lo32, span1);
                else if (t.isBit()) bits = ColumnScan.matchBits(buf.getLong(seg + column + (c >>> 3)), count, lo, hi);
                else bits = ColumnScan.matchInt64(buf, seg + column + (c << 3), count, lo, hi);
                if (ghosts) bits &= ~buf.getLong(seg + SEG_GHOST_BITS + (c >>> 3));
                if (nulls >= 0) bits &= ~buf.getLong(seg + nulls + (c >>> 3));
                int slot = first + c;
                if (r >= 64) selection[slot >>> 6] = bits;
                else selection[slot >>> 6] |= bits << (slot & 63);
                matches += Long.bitCount(bits);
            }
        }
        return matches;
    }

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
            if (refKey(ref) != pnk || refLength(ref) != key.length) continue;
            if (isGhost(i) || isNull(i, field)) continue;
            if (key.length <= 4 || bytesEqual(base + refOffset(ref), key)) {
                selection[i >>> 6] |= 1L << i;
                matches++;
            }
        }
        return matches;
    }

    @Override
    public int freeBytes() {
        return heapStart() - HEADER_SIZE - allocatedSegmentBytes();
    }

    @Override
    public int reclaimableBytes() {
        // A ghost's column entries come back only as whole segments, once compaction packs the
        // live records (into at most as many segment bytes as now: a rebuild follows the tail).
        int live = liveCount();
        int packed = (live + recordsPerSegment - 1) / recordsPerSegment * segmentBytes;
        return fragmented() + ghostVarBytes() + Math.max(0, allocatedSegmentBytes() - packed);
    }
}

package dev.wastecheck.layouts;

/**
 * The hybrid page layout (Graefe et al., HPL-2012-240): records are grouped into
 * <em>segments</em> of {@code R} consecutive slots, and inside a segment each field is a column,
 * as in PAX. Segments are allocated from the front of the page, variable-size values from the
 * back, so the page keeps a single pool of free space like NSM and never reorganizes on an
 * insert or a growing value (the PAX cost, §2). Three variants of that idea, parameters of this
 * one class ({@link Variant}), differ in R and in how a segment takes its space:
 *
 * <ul>
 *   <li>{@link Variant#SIMPLISTIC} (§3): R of at most 64 records, each segment allocated whole
 *       when the one before it is full.</li>
 *   <li>{@link Variant#RIGID} (§4): R sized by blocks of cache lines for read-ahead (§4.1), up to
 *       256 records, each segment allocated whole: a page is full when the next whole segment
 *       does not fit, however small the record.</li>
 *   <li>{@link Variant#INCREMENTAL} (§5, the default): the last segment is <em>open</em>: each
 *       of its columns grows by one cache-line block when it fills, taken from the single free
 *       pool, so a full page wastes at most a block per column instead of up to a whole segment.
 *       When the open segment reaches R records (or the page refuses an insert) its blocks are
 *       <em>sealed</em>: moved, inside the bytes the segment already has, into one contiguous run
 *       per column, the layout a scan reads fastest. Since a large R costs no space here, R is
 *       the records a page holds: a full page is one sealed segment.</li>
 * </ul>
 *
 * The paper's text for §3-§5 was not available offline (docs/benchmarks.md, issue 15): the
 * variants follow the paper's section structure as issue 15 describes it, and the details
 * (R's limits, sealing) are this implementation's.
 *
 * <pre>
 *  offset                                   page
 *  0                         +--------------------------------------------------+
 *  HDR_RECORD_COUNT       0  | int  records, ghosts included                     |
 *  HDR_GHOST_COUNT        4  | int  ghosts                                       |
 *  HDR_SEGMENT_COUNT      8  | int  segments allocated, the open one included    |
 *  HDR_HEAP_START        12  | int  lowest VARLEN value byte (= page size empty)  |
 *  HDR_FRAGMENTED        16  | int  dead VARLEN bytes (replaced or shrunk values) |
 *  HDR_REORGS            20  | int  page rewrites forced by inserts and updates  |
 *  HDR_RECORDS_PER_SEG   24  | int  R, records per segment (a power of two)      |
 *  HDR_VARIANT           28  | int  Variant ordinal                              |
 *  HDR_OPEN              32  | int  the last segment: OPEN_NONE (whole, or no    |
 *                            |      segment), OPEN_GROWING, OPEN_SEALED          |
 *  HDR_KEYS              36  | int  1 = VARLEN references carry the normalized   |
 *                            |      key (the default), 0 = they do not           |
 *  HEADER_SIZE           64  +--------------------------------------------------+  one cache line
 *  HEADER_SIZE               | segment 0: segmentBytes (drawn below)            |
 *  + k*segmentBytes          | segment 1 ...  growing up --&gt;                     |
 *                            | [INCREMENTAL: the open segment, openBytes(j) for  |
 *                            |  its j &lt; R records]                             |
 *                            +--------------------------------------------------+
 *                            |        free space (freeBytes): one pool            |
 *  HDR_HEAP_START            +--------------------------------------------------+
 *                            | &lt;-- growing down   VARLEN values, any order       |
 *  page size                 +--------------------------------------------------+
 * </pre>
 *
 * A whole segment of R records (offsets from its start; every region rounded up to
 * {@code align}: a 64-byte cache line when R &gt;= 64, else 8 bytes):
 *
 * <pre>
 *  SEG_GHOST_BITS     0        ghost bits, 1 = deleted (§4.3)       R bits, in 8-byte words
 *  nullOffset[f]               null bits of each nullable field, 1 = NULL (§4.4)
 *  bitOffset[f]                values of each BIT field
 *  headBytes                   (the bit regions above, rounded up to align: the "head")
 *  columnOffset[f]             each whole-byte fixed field, widest first: R * width bytes
 *  columnOffset[v]             each VARLEN field's fixed part (§4.2): R entries of
 *                              vrefSize bytes; pages up to 64 KB (NARROW_VREF_SIZE = 8):
 *                                VREF_OFFSET        +0 u16  value offset in the page (0 if empty)
 *                                NARROW_VREF_LENGTH +2 u16  value length
 *                                NARROW_VREF_PNK    +4 int  poor man's normalized key
 *                              larger pages (WIDE_VREF_SIZE = 12):
 *                                VREF_OFFSET        +0 int  value offset in the page (0 if empty)
 *                                WIDE_VREF_LENGTH   +4 int  value length
 *                                WIDE_VREF_PNK      +8 int  poor man's normalized key
 *                              (the key: the value's first 4 bytes, big-endian, zero-padded)
 *                              Without keys (HDR_KEYS = 0) a reference is 4 or 8 bytes: offset
 *                              and length only, PAX's 4 bytes a value on pages up to 64 KB.
 * </pre>
 *
 * The open segment of INCREMENTAL (R &gt;= 64) has the same head, sized for R records. A column
 * of width w grows in <em>blocks</em> of {@code blockBytes = w * 64 / gcd(w, 64)} bytes (one
 * cache line of 64/w values; three lines of 16 values for a 12-byte reference); inserting the
 * j-th record of the segment appends, in column order, a block to every column whose last block
 * is full ({@code j % valuesPerBlock == 0}). While OPEN_GROWING, block k of field f is at
 * {@code growBlock[f][k]}; the segment takes {@code openBytes[j]} bytes for j records. Sealing
 * permutes the same blocks into one run per column ({@code sealedOffset[f]}, each column
 * {@code ceil(j / valuesPerBlock) * blockBytes}): the same bytes, so sealing and unsealing (the
 * next insert into a sealed open segment) need no free space. At j = R the sealed layout is the
 * whole segment's.
 *
 * <pre>
 *  open segment, OPEN_GROWING, schema (INT64 a, INT32 b, INT8 c), R = 64, all 64 records:
 *  head | a0 b0 c0 | a1 | a2 b1 | a3 | a4 b2 | a5 | a6 b3 | a7 |     one block = one cache line
 *         record 0   8    16      24   32      40   48      56     (the record that took them)
 *  (a block of a holds 8 values, of b 16, of c 64: block k of a holds records 8k .. 8k+7)
 *  sealed: head | a0 a1 a2 a3 a4 a5 a6 a7 | b0 b1 b2 b3 | c0 |
 * </pre>
 *
 * <p>R: SIMPLISTIC and RIGID follow §4.1 (segments sized by blocks of cache lines, for
 * read-ahead): the largest power of two up to 64 or 256 whose segment, with its records'
 * expected VARLEN values, takes at most 1/{@value #SEGMENT_SHARE} of the page (R = 256 for
 * ~100-byte records in 64 KB pages: a 4-byte column is a run of 16 cache lines), at least 8.
 * INCREMENTAL: the smallest power of two from 64 to {@value #MAX_RECORDS_PER_SEGMENT} at or above
 * the records the page is expected to hold (1,024 for TPC-H lineitem in 64 KB pages), because
 * each segment's runs cost a scan a miss that no prefetcher anticipates (docs/benchmarks.md,
 * issue 15) and its open segment makes a large R free in space. A fixed R can be given instead. The VARLEN fixed part lets an equality scan reject most
 * values on length and normalized key without touching the value bytes; its offset and length
 * take two bytes each where the page size allows (SQLite's cell pointers do the same).
 */
public final class HybridPage extends AbstractPage {
    /** HPL's designs (§3-§5): how large a segment is and how it takes its space (class comment). */
    public enum Variant {
        /** §3: segments of at most 64 records, allocated whole. */
        SIMPLISTIC(64),
        /** §4: segments sized by blocks of cache lines for read-ahead (§4.1), allocated whole. */
        RIGID(256),
        /** §5: the last segment grows by cache-line blocks per column, sealed when full; R = a page's records. */
        INCREMENTAL(MAX_RECORDS_PER_SEGMENT);

        /** The largest R the page-size rule chooses. */
        final int maxChosenR;

        Variant(int maxChosenR) {
            this.maxChosenR = maxChosenR;
        }
    }

    static final int HDR_RECORD_COUNT = 0;
    static final int HDR_GHOST_COUNT = 4;
    static final int HDR_SEGMENT_COUNT = 8;
    static final int HDR_HEAP_START = 12;
    static final int HDR_FRAGMENTED = 16;
    static final int HDR_REORGS = 20;
    static final int HDR_RECORDS_PER_SEG = 24;
    static final int HDR_VARIANT = 28;
    static final int HDR_OPEN = 32;
    static final int HDR_KEYS = 36;
    static final int HEADER_SIZE = 64;
    static final int OPEN_NONE = 0;
    static final int OPEN_GROWING = 1;
    static final int OPEN_SEALED = 2;
    static final int CACHE_LINE = 64;
    static final int SEG_GHOST_BITS = 0;
    static final int VREF_OFFSET = 0;
    static final int NARROW_VREF_SIZE = 8;
    static final int NARROW_VREF_LENGTH = 2;
    static final int NARROW_VREF_PNK = 4;
    static final int WIDE_VREF_SIZE = 12;
    static final int WIDE_VREF_LENGTH = 4;
    static final int WIDE_VREF_PNK = 8;
    /** Bytes of the normalized key in a reference; a page without keys has references this much shorter. */
    static final int PNK_SIZE = 4;
    /** The largest page whose offsets and lengths fit two unsigned bytes. */
    static final int NARROW_PAGE_LIMIT = 1 << 16;

    static final int MIN_RECORDS_PER_SEGMENT = 8;
    static final int MAX_RECORDS_PER_SEGMENT = 4096;
    /** A segment and its records' expected VARLEN values take at most 1/SEGMENT_SHARE of the page. */
    static final int SEGMENT_SHARE = 2;

    private static final int NO_OPEN = Integer.MAX_VALUE;

    /** The variant {@link #format} gives a page; a wrapped page keeps its own (from its header). */
    private final Variant formatVariant;
    /** 0 = choose R from the page size (§4.1); otherwise the R every formatted page gets. */
    private final int fixedRecordsPerSegment;
    /** Whether formatted pages keep a normalized key in each VARLEN reference (§4.2). */
    private final boolean formatKeys;
    /** Columns in segment order: whole-byte fixed fields widest first, then VARLEN references. */
    private final int[] columns;
    /** VARLEN bytes a record is expected to have (the fields' expected lengths): sizes R. */
    private final int expectedVarBytes;

    // Geometry of the wrapped page (variant, R, reference size), recomputed only when they change.
    private Variant variant;
    private int recordsPerSegment;
    private int segmentShift;
    private int segmentMask;
    private int segmentBytes;
    private int headBytes;
    private int vrefSize;
    private boolean narrow;
    private boolean keys;
    private int vrefLength;
    private int vrefPnk;
    /** Bytes a value of field f takes in its column: the type's width, vrefSize for VARLEN, 0 for BIT. */
    private final int[] width;

    private final int[] nullOffset;
    private final int[] bitOffset;
    private final int[] columnOffset;
    /** INCREMENTAL: log2 of the values a block of field f holds; a block's bytes; block k's offset while growing. */
    private final int[] blockShift;

    private final int[] blockBytes;
    private int[][] growBlock;
    /** INCREMENTAL: bytes the open segment takes for j records (0 for j = 0). */
    private int[] openBytes;

    // The open segment of the wrapped page (INCREMENTAL only).
    /** First slot of the open segment, or NO_OPEN. */
    private int openFirst = NO_OPEN;

    private boolean openSealed;
    /** Column offsets of a sealed open segment of {@link #sealedFor} records. */
    private final int[] sealedOffset;

    private int sealedFor = -1;
    private byte[] sealScratch;

    public HybridPage(RecordSchema schema) {
        this(schema, Variant.INCREMENTAL, 0);
    }

    /** @param recordsPerSegment R for the INCREMENTAL variant, a power of two from 64 to 4096, or 0 to choose it per page size */
    public HybridPage(RecordSchema schema, int recordsPerSegment) {
        this(schema, Variant.INCREMENTAL, recordsPerSegment);
    }

    public HybridPage(RecordSchema schema, Variant variant) {
        this(schema, variant, 0);
    }

    /**
     * @param recordsPerSegment R, a power of two from 8 (64 for INCREMENTAL) to 4096, or 0 to
     *                          choose it per page size (§4.1)
     */
    public HybridPage(RecordSchema schema, Variant variant, int recordsPerSegment) {
        this(schema, variant, recordsPerSegment, true);
    }

    /**
     * @param normalizedKeys whether each VARLEN reference keeps the value's first four bytes
     *                       (§4.2: equality scans decide most values on the reference alone), at 4
     *                       bytes a value; without them a reference is as long as PAX's end offset
     */
    public HybridPage(RecordSchema schema, Variant variant, int recordsPerSegment, boolean normalizedKeys) {
        super(schema);
        int min = variant == Variant.INCREMENTAL ? CACHE_LINE : MIN_RECORDS_PER_SEGMENT;
        if (recordsPerSegment != 0
                && (Integer.bitCount(recordsPerSegment) != 1
                        || recordsPerSegment < min
                        || recordsPerSegment > MAX_RECORDS_PER_SEGMENT)) {
            throw new IllegalArgumentException("records per segment of " + variant + " must be a power of two in ["
                    + min + ", " + MAX_RECORDS_PER_SEGMENT + "]: " + recordsPerSegment);
        }
        this.formatVariant = variant;
        this.fixedRecordsPerSegment = recordsPerSegment;
        this.formatKeys = normalizedKeys;
        int[] bytes = schema.byteFieldsWidestFirst();
        columns = new int[bytes.length + schema.varCount()];
        System.arraycopy(bytes, 0, columns, 0, bytes.length);
        for (int v = 0; v < schema.varCount(); v++) columns[bytes.length + v] = schema.varField(v);
        int expected = 0;
        for (int v = 0; v < schema.varCount(); v++)
            expected += schema.field(schema.varField(v)).expectedLength();
        expectedVarBytes = expected;
        int n = schema.fieldCount();
        width = new int[n];
        nullOffset = new int[n];
        bitOffset = new int[n];
        columnOffset = new int[n];
        blockShift = new int[n];
        blockBytes = new int[n];
        sealedOffset = new int[n];
    }

    @Override
    public Layout layout() {
        return Layout.HPL;
    }

    @Override
    protected AbstractPage newSibling() {
        return new HybridPage(schema, variant, recordsPerSegment, keys);
    }

    // ---------------------------------------------------------------- geometry

    private static int vrefSizeFor(int pageSize, boolean keys) {
        return (pageSize <= NARROW_PAGE_LIMIT ? NARROW_VREF_SIZE : WIDE_VREF_SIZE) - (keys ? 0 : PNK_SIZE);
    }

    /** Bytes of a whole segment of r records of {@code v} on a page of {@code size} bytes (geometry unchanged). */
    private int segmentBytesFor(Variant v, int r, int size) {
        int align = r >= CACHE_LINE ? CACHE_LINE : 8;
        int vref = vrefSizeFor(size, formatKeys);
        int at = roundUp((1 + schema.nullableCount() + schema.bitCount()) * (roundUp(r, 64) / 8), align);
        for (int f : columns) at += roundUp(r * (schema.type(f).isVariable() ? vref : schema.type(f).width), align);
        return at;
    }

    /** Sets the geometry for a page of variant v, R = r and keys or not at the bound page size; cheap when unchanged. */
    private void geometry(Variant v, int r, boolean withKeys) {
        int vref = vrefSizeFor(pageSize, withKeys);
        if (v == variant && r == recordsPerSegment && vref == vrefSize && withKeys == keys) return;
        variant = v;
        recordsPerSegment = r;
        segmentShift = Integer.numberOfTrailingZeros(r);
        segmentMask = r - 1;
        vrefSize = vref;
        keys = withKeys;
        narrow = pageSize <= NARROW_PAGE_LIMIT;
        vrefLength = narrow ? NARROW_VREF_LENGTH : WIDE_VREF_LENGTH;
        vrefPnk = narrow ? NARROW_VREF_PNK : WIDE_VREF_PNK;
        int align = r >= CACHE_LINE ? CACHE_LINE : 8;
        int bitRegion = roundUp(r, 64) / 8;
        int at = SEG_GHOST_BITS + bitRegion;
        for (int i = 0; i < schema.nullableCount(); i++, at += bitRegion) nullOffset[schema.nullableField(i)] = at;
        for (int i = 0; i < schema.bitCount(); i++, at += bitRegion) bitOffset[schema.bitField(i)] = at;
        headBytes = roundUp(at, align);
        at = headBytes;
        for (int f : columns) {
            width[f] = schema.type(f).isVariable() ? vref : schema.type(f).width;
            columnOffset[f] = at;
            at += roundUp(r * width[f], align);
        }
        segmentBytes = at;
        sealedFor = -1;
        if (v == Variant.INCREMENTAL) schedule(r);
    }

    /** INCREMENTAL: the order in which an open segment's columns take their blocks (class comment). */
    private void schedule(int r) {
        growBlock = new int[schema.fieldCount()][];
        openBytes = new int[r + 1];
        for (int f : columns) {
            int w = width[f];
            int values = CACHE_LINE / gcd(w, CACHE_LINE);
            blockShift[f] = Integer.numberOfTrailingZeros(values);
            blockBytes[f] = values * w;
            growBlock[f] = new int[r >>> blockShift[f]];
        }
        int at = headBytes;
        for (int j = 0; j < r; j++) {
            for (int f : columns) {
                if ((j & ((1 << blockShift[f]) - 1)) == 0) {
                    growBlock[f][j >>> blockShift[f]] = at;
                    at += blockBytes[f];
                }
            }
            openBytes[j + 1] = at;
        }
        if (at != segmentBytes)
            throw new AssertionError(
                    "open segment of " + r + " records takes " + at + " bytes, a whole one " + segmentBytes);
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Column offsets of a sealed open segment of j records: each column ceil(j / values per block) blocks. */
    private void sealedGeometry(int j) {
        if (j == sealedFor) return;
        int at = headBytes;
        for (int f : columns) {
            sealedOffset[f] = at;
            at += ((j + (1 << blockShift[f]) - 1) >>> blockShift[f]) * blockBytes[f];
        }
        sealedFor = j;
    }

    /** Reads the open segment's state from the header. */
    private void openState() {
        int state = variant == Variant.INCREMENTAL ? buf.getInt(base + HDR_OPEN) : OPEN_NONE;
        if (state == OPEN_NONE) {
            openFirst = NO_OPEN;
            return;
        }
        openFirst = (segmentCount() - 1) << segmentShift;
        openSealed = state == OPEN_SEALED;
        if (openSealed) sealedGeometry(slotCount() - openFirst);
    }

    /**
     * R for a page of {@code size} bytes. SIMPLISTIC and RIGID: the largest power of two up to the
     * variant's limit whose segment and its records' expected VARLEN values take at most
     * size/SEGMENT_SHARE, at least 8. INCREMENTAL: the smallest power of two (64 to 4096) at or
     * above the records the page is expected to hold, so that a full page is one sealed segment:
     * one run per column, as in PAX. A segment's runs cost a scan a miss each that no prefetcher
     * anticipates (docs/benchmarks.md, issue 15), and INCREMENTAL, unlike RIGID, pays no space
     * for a large R: its open segment takes its blocks as it fills.
     */
    private int chooseRecordsPerSegment(int size) {
        if (fixedRecordsPerSegment != 0) return fixedRecordsPerSegment;
        if (formatVariant == Variant.INCREMENTAL) {
            long bits = 1 + schema.nullableCount() + schema.bitCount() + 8L * expectedVarBytes;
            for (int f : columns)
                bits += 8L * (schema.type(f).isVariable() ? vrefSizeFor(size, formatKeys) : schema.type(f).width);
            long records = 8L * (size - HEADER_SIZE) / bits;
            int r = CACHE_LINE;
            while (r < records && r < MAX_RECORDS_PER_SEGMENT) r <<= 1;
            return r;
        }
        int min = MIN_RECORDS_PER_SEGMENT;
        int r = formatVariant.maxChosenR;
        while (r > min && segmentBytesFor(formatVariant, r, size) + (long) r * expectedVarBytes > size / SEGMENT_SHARE)
            r >>= 1;
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
        buf.putInt(base + HDR_VARIANT, formatVariant.ordinal());
        buf.putInt(base + HDR_OPEN, OPEN_NONE);
        buf.putInt(base + HDR_KEYS, formatKeys ? 1 : 0);
        geometry(formatVariant, r, formatKeys);
        openFirst = NO_OPEN;
        int first = formatVariant == Variant.INCREMENTAL ? openBytes[1] : segmentBytes;
        if (HEADER_SIZE + first > pageSize) {
            throw new IllegalArgumentException("a " + formatVariant + " segment of " + r + " " + schema
                    + " records does not fit a " + pageSize + "-byte page");
        }
    }

    @Override
    protected void wrapped() {
        geometry(
                Variant.values()[buf.getInt(base + HDR_VARIANT)],
                buf.getInt(base + HDR_RECORDS_PER_SEG),
                buf.getInt(base + HDR_KEYS) != 0);
        openState();
    }

    public Variant variant() {
        return variant;
    }

    public int recordsPerSegment() {
        return recordsPerSegment;
    }
    /** Whether VARLEN references carry normalized keys. */
    public boolean normalizedKeys() {
        return keys;
    }
    /** Records of the open (last, partly filled) segment of an INCREMENTAL page, else 0. */
    public int openRecords() {
        return openFirst == NO_OPEN ? 0 : slotCount() - openFirst;
    }
    /** Whether the open segment's blocks are sealed into one run per column. */
    public boolean openSegmentSealed() {
        return openFirst != NO_OPEN && openSealed;
    }

    @Override
    public int slotCount() {
        return buf.getInt(base + HDR_RECORD_COUNT);
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

    private int segmentCount() {
        return buf.getInt(base + HDR_SEGMENT_COUNT);
    }

    private int heapStart() {
        return buf.getInt(base + HDR_HEAP_START);
    }

    private int fragmented() {
        return buf.getInt(base + HDR_FRAGMENTED);
    }

    private void addFragmented(int delta) {
        buf.putInt(base + HDR_FRAGMENTED, fragmented() + delta);
    }

    /** Bytes the allocated segments take. */
    private int allocatedSegmentBytes() {
        int segments = segmentCount();
        if (openFirst == NO_OPEN) return segments * segmentBytes;
        return (segments - 1) * segmentBytes + openBytes[slotCount() - openFirst];
    }

    /** Segment bytes {@code m} records take when packed from slot 0 (what a compaction to m records needs). */
    private int packedSegmentBytes(int m) {
        if (variant == Variant.INCREMENTAL) return (m >>> segmentShift) * segmentBytes + openBytes[m & segmentMask];
        return ((m + segmentMask) >>> segmentShift) * segmentBytes;
    }

    /** Absolute index of the segment holding {@code slot}. */
    private int segment(int slot) {
        return base + HEADER_SIZE + (slot >>> segmentShift) * segmentBytes;
    }

    /** Absolute index of the value (or VARLEN reference) of field {@code f} of {@code slot}, in segment {@code seg}. */
    private int valueAt(int seg, int slot, int f) {
        int j = slot & segmentMask;
        if (slot < openFirst) return seg + columnOffset[f] + j * width[f];
        if (openSealed) return seg + sealedOffset[f] + j * width[f];
        return growingValueAt(seg, j, f);
    }

    /** A value in a growing open segment: in block j / (values a block holds) of its column (out of the accessors' fast path). */
    private int growingValueAt(int seg, int j, int f) {
        return seg + growBlock[f][j >>> blockShift[f]] + (j & ((1 << blockShift[f]) - 1)) * width[f];
    }

    // ---------------------------------------------------------------- VARLEN references

    private int vref(int slot, int field) {
        return valueAt(segment(slot), slot, field);
    }

    private int refOffset(int ref) {
        return narrow ? buf.getShort(ref + VREF_OFFSET) & 0xffff : buf.getInt(ref + VREF_OFFSET);
    }

    private int refLength(int ref) {
        return narrow ? buf.getShort(ref + vrefLength) & 0xffff : buf.getInt(ref + vrefLength);
    }

    private int refKey(int ref) {
        return buf.getInt(ref + vrefPnk);
    }

    private void putRef(int ref, int offset, int length, int key) {
        if (narrow) {
            buf.putShort(ref + VREF_OFFSET, (short) offset);
            buf.putShort(ref + vrefLength, (short) length);
        } else {
            buf.putInt(ref + VREF_OFFSET, offset);
            buf.putInt(ref + vrefLength, length);
        }
        if (keys) buf.putInt(ref + vrefPnk, key);
    }

    // ---------------------------------------------------------------- records

    @Override
    public boolean isGhost(int slot) {
        checkSlot(slot);
        return bit(segment(slot) + SEG_GHOST_BITS, slot & segmentMask);
    }

    @Override
    public int insert(Record r) {
        int var = r.varBytes();
        int need = segmentBytesNeeded(slotCount());
        if (freeBytes() < need + var) {
            int reclaim = rebuilding ? 0 : fragmented() + ghostVarBytes();
            if (reclaim > 0 && freeBytes() + reclaim >= need + var) {
                rebuild(false, -1, null, null, true); // reclaim dead VARLEN bytes; slots stay
                need = segmentBytesNeeded(slotCount());
            }
            if (freeBytes() < need + var) {
                // The page is full: seal the open segment for the scans that follow (the same bytes).
                if (!rebuilding && openFirst != NO_OPEN && !openSealed) seal();
                return -1;
            }
        }
        int n = slotCount();
        if (variant == Variant.INCREMENTAL) {
            if (openFirst == NO_OPEN) {
                openSegment(n);
            } else if (openSealed) {
                unseal();
            }
        } else if ((n & segmentMask) == 0) {
            allocateWholeSegment();
        }
        int seg = segment(n);
        int j = n & segmentMask;
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            if (r.isNull(f)) setBit(seg + nullOffset[f], j, true);
            if (t.isBit()) {
                setBit(seg + bitOffset[f], j, r.getLong(f) != 0);
            } else if (t.isVariable()) {
                int len = r.length(f);
                int off = 0;
                if (len > 0) {
                    off = heapStart() - len;
                    putBytes(base + off, r.bytes(f), 0, len);
                    buf.putInt(base + HDR_HEAP_START, off);
                }
                putRef(valueAt(seg, n, f), off, len, normalizedKey(r.bytes(f), 0, len));
            } else {
                writeFixed(valueAt(seg, n, f), f, r.getLong(f));
            }
        }
        buf.putInt(base + HDR_RECORD_COUNT, n + 1);
        if (openFirst != NO_OPEN && j == segmentMask) {
            seal(); // R records: the open segment becomes whole
            buf.putInt(base + HDR_OPEN, OPEN_NONE);
            openFirst = NO_OPEN;
        }
        return n;
    }

    /** Segment bytes the record in slot n needs before it can be written: a new segment or new blocks. */
    private int segmentBytesNeeded(int n) {
        int j = n & segmentMask;
        if (variant == Variant.INCREMENTAL) return openBytes[j + 1] - openBytes[j];
        return j == 0 ? segmentBytes : 0;
    }

    private void allocateWholeSegment() {
        int k = segmentCount();
        buf.putInt(base + HDR_SEGMENT_COUNT, k + 1);
        // Values are written before they are read; only the bit regions must start clear.
        zero(base + HEADER_SIZE + k * segmentBytes, headBytes);
    }

    /** INCREMENTAL: opens a segment for slot n, with the head only (its blocks come record by record). */
    private void openSegment(int n) {
        int k = segmentCount();
        buf.putInt(base + HDR_SEGMENT_COUNT, k + 1);
        buf.putInt(base + HDR_OPEN, OPEN_GROWING);
        openFirst = n;
        openSealed = false;
        zero(base + HEADER_SIZE + k * segmentBytes, headBytes);
    }

    /** Moves the open segment's blocks into one run per column (class comment); no free space needed. */
    private void seal() {
        int j = slotCount() - openFirst;
        sealedGeometry(j);
        permute(j, true);
        openSealed = true;
        buf.putInt(base + HDR_OPEN, OPEN_SEALED);
    }

    /** The inverse of {@link #seal}, before a sealed open segment takes another record. */
    private void unseal() {
        int j = slotCount() - openFirst;
        sealedGeometry(j);
        permute(j, false);
        openSealed = false;
        buf.putInt(base + HDR_OPEN, OPEN_GROWING);
    }

    /** Copies each column block of the j-record open segment from its growing place to its sealed one, or back. */
    private void permute(int j, boolean toSealed) {
        int seg = segment(openFirst);
        int bytes = openBytes[j] - headBytes;
        if (sealScratch == null || sealScratch.length < bytes) sealScratch = new byte[segmentBytes];
        getBytesAt(seg + headBytes, sealScratch, 0, bytes);
        for (int f : columns) {
            int bb = blockBytes[f];
            for (int k = 0, blocks = (j + (1 << blockShift[f]) - 1) >>> blockShift[f]; k < blocks; k++) {
                int grown = growBlock[f][k], sealed = sealedOffset[f] + k * bb;
                if (toSealed) putBytes(seg + sealed, sealScratch, grown - headBytes, bb);
                else putBytes(seg + grown, sealScratch, sealed - headBytes, bb);
            }
        }
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

    /**
     * The whole record: one column entry per field of one segment. Where the segment's columns
     * are (whole, sealed or growing) is decided once per record, not per field.
     */
    @Override
    public void read(int slot, Record into) {
        checkSlot(slot);
        int seg = segment(slot);
        int j = slot & segmentMask;
        int[] columns = slot < openFirst ? columnOffset : openSealed ? sealedOffset : null;
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            if (schema.nullable(f) && bit(seg + nullOffset[f], j)) {
                into.setNullRaw(f);
            } else if (t.isBit()) {
                into.setRaw(f, bit(seg + bitOffset[f], j) ? 1 : 0);
            } else {
                int at = columns != null ? seg + columns[f] + j * width[f] : growingValueAt(seg, j, f);
                if (t.isVariable()) {
                    int len = refLength(at);
                    getBytesAt(base + refOffset(at), into.buffer(f, len), 0, len);
                } else {
                    into.setRaw(f, readFixed(at, f));
                }
            }
        }
    }

    @Override
    public boolean isNull(int slot, int field) {
        checkSlot(slot);
        return schema.nullable(field) && bit(segment(slot) + nullOffset[field], slot & segmentMask);
    }

    @Override
    public long getLong(int slot, int field) {
        checkSlot(slot);
        int seg = segment(slot);
        if (!schema.type(field).isFixedBytes()) return bitValue(seg, slot, field);
        return readFixed(valueAt(seg, slot, field), field);
    }

    private long bitValue(int seg, int slot, int field) {
        if (schema.type(field).isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        return bit(seg + bitOffset[field], slot & segmentMask) ? 1 : 0;
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
        int seg = segment(slot);
        if (schema.type(field).isFixedBytes()) writeFixed(valueAt(seg, slot, field), field, value);
        else setBitValue(seg, slot, field, value);
        if (schema.nullable(field)) setBit(seg + nullOffset[field], slot & segmentMask, false);
    }

    private void setBitValue(int seg, int slot, int field, long value) {
        if (schema.type(field).isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        setBit(seg + bitOffset[field], slot & segmentMask, value != 0);
    }

    @Override
    public void setNull(int slot, int field) {
        checkSlot(slot);
        checkNullable(field);
        if (schema.type(field).isVariable()) setBytes(slot, field, EMPTY, 0, 0);
        setBit(segment(slot) + nullOffset[field], slot & segmentMask, true);
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
            off = length == 0 ? 0 : refOffset(ref); // in place
            addFragmented(oldLen - length);
        } else if (freeBytes() >= length) {
            off = heapStart() - length; // from the free pool
            buf.putInt(base + HDR_HEAP_START, off);
            addFragmented(oldLen);
        } else {
            return rebuildWithValue(slot, field, src, offset, length);
        }
        if (length > 0) putBytes(base + off, src, offset, length);
        putRef(ref, off, length, normalizedKey(src, offset, length));
        if (schema.nullable(field)) setBit(segment(slot) + nullOffset[field], slot & segmentMask, false);
        return true;
    }

    @Override
    public void delete(int slot) {
        checkSlot(slot);
        int ghosts = segment(slot) + SEG_GHOST_BITS;
        int j = slot & segmentMask;
        if (bit(ghosts, j)) return;
        setBit(ghosts, j, true);
        buf.putInt(base + HDR_GHOST_COUNT, ghostCount() + 1);
    }

    // ---------------------------------------------------------------- scans

    @Override
    public int scanBetween(int field, long lo, long hi, long[] selection) {
        return filter(field, lo, hi, selection, false);
    }

    @Override
    public int refineBetween(int field, long lo, long hi, long[] selection) {
        return filter(field, lo, hi, selection, true);
    }

    /**
     * The scan of one column: a run per whole segment (and one for a sealed open segment), 64
     * values to a selection word through ColumnScan's kernels; a growing open segment block by
     * block. {@code refine}: only words with a selected slot are read, and the result is ANDed.
     */
    private int filter(int field, long lo, long hi, long[] selection, boolean refine) {
        checkScannable(field);
        int n = slotCount();
        FieldType t = schema.type(field);
        boolean intRange = t.isFixedBytes() && t.width <= 4; // INT8..INT32, UINT8..UINT32: ColumnScan's unsigned test
        if (intRange && ColumnScan.emptyRange(t, lo, hi)) {
            clearSelection(selection, n);
            return 0;
        }
        int r = recordsPerSegment;
        if (r < 64 && !refine) clearSelection(selection, n);
        int lo32 = intRange ? ColumnScan.clampLo(t, lo) : 0;
        long span1 = intRange ? ColumnScan.span1(t, lo, hi) : 0;
        boolean ghosts = ghostCount() > 0; // without ghosts the ghost bits need not be read at all
        int nulls = schema.nullable(field) ? nullOffset[field] : -1;
        boolean isBit = t.isBit();
        int w = width[field];
        int kernel = ColumnScan.kernel(t, buf);
        byte[] array = buf.hasArray() ? buf.array() : null;
        int arrayBase = array != null ? buf.arrayOffset() : 0;
        int matches = 0;
        int whole = Math.min(n, openFirst);
        int seg = base + HEADER_SIZE;
        int column = isBit ? bitOffset[field] : columnOffset[field];
        for (int first = 0; first < n; first += r, seg += segmentBytes) {
            int inSeg = Math.min(r, n - first);
            boolean growing = false;
            if (first >= whole) { // the open segment
                if (!isBit) column = openSealed ? sealedOffset[field] : -1;
                growing = !isBit && !openSealed;
            }
            for (int c = 0; c < inSeg; c += 64) {
                int slot = first + c;
                int word = slot >>> 6;
                int shift = slot & 63;
                int count = Math.min(64, inSeg - c);
                long keep = count == 64 ? -1L : (1L << count) - 1;
                long current = 0;
                if (refine) {
                    current = (selection[word] >>> shift) & keep;
                    if (current == 0) continue;
                }
                long bits;
                if (growing) {
                    bits = growingWord(seg, c, count, field, t, lo, hi, lo32, span1, kernel, array, arrayBase);
                } else {
                    int at = seg + column + (isBit ? c >>> 3 : c * w);
                    bits = ColumnScan.match(kernel, buf, array, arrayBase, at, t, count, lo32, span1, lo, hi);
                }
                if (ghosts) bits &= ~buf.getLong(seg + SEG_GHOST_BITS + (c >>> 3));
                if (nulls >= 0) bits &= ~buf.getLong(seg + nulls + (c >>> 3));
                bits &= keep;
                if (refine) {
                    bits &= current;
                    selection[word] = (selection[word] & ~(keep << shift)) | (bits << shift);
                } else if (r >= 64) {
                    selection[word] = bits;
                } else {
                    selection[word] |= bits << shift;
                }
                matches += Long.bitCount(bits);
            }
        }
        return matches;
    }

    /**
     * The conjunction 64 slots of a segment at a time (fewer when a segment is shorter): the
     * first field's values from the segment's column, the next field's only while a slot is
     * still selected, so a segment's columns are read side by side. As in PAX, the first three
     * predicates live in locals; a growing open segment goes block by block
     * ({@link #conjunctionWord}).
     */
    @Override
    public int scanAllBetween(int[] fields, long[] lo, long[] hi, long[] selection) {
        if (fields.length == 0) throw new IllegalArgumentException("scanAllBetween needs one or more fields");
        int n = slotCount();
        RangeConjunction c = conjunction;
        if (!c.prepare(this, buf, fields, lo, hi)) {
            clearSelection(selection, n);
            return 0;
        }
        int m = c.size;
        int r = recordsPerSegment;
        if (r < 64) clearSelection(selection, n);
        for (int k = 0; k < m; k++) {
            int f = c.field[k];
            c.at[k] = c.type[k].isBit() ? bitOffset[f] : columnOffset[f];
            c.nulls[k] = schema.nullable(f) ? nullOffset[f] : -1;
            c.stride[k] = c.type[k].isBit() ? 8 : 64 * c.type[k].width; // bytes from one 64-slot word to the next
        }
        boolean ghosts = ghostCount() > 0;
        byte[] array = buf.hasArray() ? buf.array() : null;
        int arrayBase = array != null ? buf.arrayOffset() : 0;
        FieldType t0 = c.type[0], t1 = m > 1 ? c.type[1] : null, t2 = m > 2 ? c.type[2] : null;
        int k0 = c.kernel[0], k1 = c.kernel[1], k2 = c.kernel[2];
        int at0 = c.at[0], at1 = c.at[1], at2 = c.at[2];
        int st0 = c.stride[0], st1 = c.stride[1], st2 = c.stride[2];
        int nl0 = c.nulls[0], nl1 = c.nulls[1], nl2 = c.nulls[2];
        int l0 = c.lo32[0], l1 = c.lo32[1], l2 = c.lo32[2];
        long s0 = c.span1[0], s1 = c.span1[1], s2 = c.span1[2];
        long lo0 = c.lo[0], lo1 = c.lo[1], lo2 = c.lo[2], hi0 = c.hi[0], hi1 = c.hi[1], hi2 = c.hi[2];
        int matches = 0;
        int whole = Math.min(n, openFirst);
        int seg = base + HEADER_SIZE;
        // Whole segments and a sealed open one (an INCREMENTAL page that filled is one sealed
        // segment): each column a run at a fixed offset in the segment. A growing open segment
        // goes block by block.
        for (int first = 0; first < n; first += r, seg += segmentBytes) {
            int inSeg = Math.min(r, n - first);
            boolean growing = false;
            if (first >= whole) {
                growing = !openSealed;
                if (openSealed) {
                    for (int k = 0; k < m; k++) if (!c.type[k].isBit()) c.at[k] = sealedOffset[c.field[k]];
                    at0 = c.at[0];
                    at1 = c.at[1];
                    at2 = c.at[2];
                }
            }
            for (int cc = 0, w = 0; cc < inSeg; cc += 64, w++) {
                int count = Math.min(64, inSeg - cc);
                long bits;
                if (growing) {
                    bits = conjunctionWord(c, 0, seg, cc, w, count, true, array, arrayBase);
                } else {
                    int nullAt = seg + (cc >>> 3);
                    bits = ColumnScan.match(
                            k0, buf, array, arrayBase, seg + at0 + w * st0, t0, count, l0, s0, lo0, hi0);
                    if (nl0 >= 0) bits &= ~buf.getLong(nullAt + nl0);
                    if (m > 1 && bits != 0) {
                        bits &= ColumnScan.match(
                                k1, buf, array, arrayBase, seg + at1 + w * st1, t1, count, l1, s1, lo1, hi1);
                        if (nl1 >= 0) bits &= ~buf.getLong(nullAt + nl1);
                        if (m > 2 && bits != 0) {
                            bits &= ColumnScan.match(
                                    k2, buf, array, arrayBase, seg + at2 + w * st2, t2, count, l2, s2, lo2, hi2);
                            if (nl2 >= 0) bits &= ~buf.getLong(nullAt + nl2);
                            if (m > 3 && bits != 0)
                                bits &= conjunctionWord(c, 3, seg, cc, w, count, false, array, arrayBase);
                        }
                    }
                }
                if (ghosts) bits &= ~buf.getLong(seg + SEG_GHOST_BITS + (cc >>> 3));
                matches += store(selection, first + cc, count, bits, r);
            }
        }
        return matches;
    }

    /** Predicates {@code from..} of a conjunction on one word ({@code count} slots from {@code cc}) of the segment at {@code seg}. */
    private long conjunctionWord(
            RangeConjunction c,
            int from,
            int seg,
            int cc,
            int w,
            int count,
            boolean growing,
            byte[] array,
            int arrayBase) {
        long bits = -1L;
        for (int k = from; k < c.size && bits != 0; k++) {
            FieldType t = c.type[k];
            if (growing && !t.isBit()) {
                bits &= growingWord(
                        seg,
                        cc,
                        count,
                        c.field[k],
                        t,
                        c.lo[k],
                        c.hi[k],
                        c.lo32[k],
                        c.span1[k],
                        c.kernel[k],
                        array,
                        arrayBase);
            } else {
                int at = seg + c.at[k] + w * c.stride[k];
                bits &= ColumnScan.match(
                        c.kernel[k], buf, array, arrayBase, at, t, count, c.lo32[k], c.span1[k], c.lo[k], c.hi[k]);
            }
            if (c.nulls[k] >= 0) bits &= ~buf.getLong(seg + c.nulls[k] + (cc >>> 3));
        }
        return bits;
    }

    /** Puts a word's matches for the {@code count} slots from {@code slot} into the selection; returns how many. */
    private static int store(long[] selection, int slot, int count, long bits, int recordsPerSegment) {
        if (count < 64) bits &= (1L << count) - 1;
        if (recordsPerSegment >= 64) selection[slot >>> 6] = bits;
        else selection[slot >>> 6] |= bits << (slot & 63);
        return Long.bitCount(bits);
    }

    /** One selection word of a growing open segment: block by block (a block holds 8 to 64 values). */
    private long growingWord(
            int seg,
            int c,
            int count,
            int field,
            FieldType t,
            long lo,
            long hi,
            int lo32,
            long span1,
            int kernel,
            byte[] array,
            int arrayBase) {
        int perBlock = 1 << blockShift[field];
        int[] blocks = growBlock[field];
        long bits = 0;
        for (int got = 0; got < count; got += perBlock) {
            int at = seg + blocks[(c + got) >>> blockShift[field]];
            int m = Math.min(perBlock, count - got);
            // The array kernels read up to 64 values from at and keep the first m: a block's
            // neighbours in the page are read and masked off, never selected.
            bits |= ColumnScan.match(kernel, buf, array, arrayBase, at, t, m, lo32, span1, lo, hi) << got;
        }
        return bits;
    }

    @Override
    public int gather(long[] selection, int[] fields, long[][] out) {
        int n = slotCount();
        int words = (n + 63) >>> 6;
        int count = 0;
        for (int k = 0; k < fields.length; k++) {
            int f = fields[k];
            FieldType t = schema.type(f);
            if (t.isVariable()) throw new IllegalArgumentException("field " + f + " is VARLEN");
            long[] o = out[k];
            boolean nullable = schema.nullable(f);
            int i = 0;
            for (int w = 0; w < words; w++) {
                long bits = selection[w];
                if (bits == 0) continue;
                int first = w << 6;
                if (first + 64 > n) bits &= (1L << (n - first)) - 1;
                int seg = segment(first);
                if (t.isBit() || nullable) {
                    // Per value: the bit regions are per segment, and a segment may be shorter than a word.
                    for (; bits != 0; bits &= bits - 1) {
                        int slot = first + Long.numberOfTrailingZeros(bits);
                        int s = segment(slot), j = slot & segmentMask;
                        if (nullable && bit(s + nullOffset[f], j)) o[i++] = 0;
                        else
                            o[i++] = t.isBit() ? (bit(s + bitOffset[f], j) ? 1 : 0) : readFixed(valueAt(s, slot, f), f);
                    }
                } else if (recordsPerSegment >= 64 && (first < openFirst || openSealed)) {
                    // The word's 64 slots are one run of one segment: values at a fixed stride.
                    int run = valueAt(seg, first, f);
                    i = ColumnScan.gatherRun(buf, run, t, bits, o, i);
                } else {
                    for (; bits != 0; bits &= bits - 1) {
                        int slot = first + Long.numberOfTrailingZeros(bits);
                        o[i++] = readFixed(valueAt(segment(slot), slot, f), f);
                    }
                }
            }
            count = i;
        }
        return count;
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
            if ((keys && refKey(ref) != pnk) || refLength(ref) != key.length) continue;
            if (isGhost(i) || isNull(i, field)) continue;
            if ((keys && key.length <= 4) || bytesEqual(base + refOffset(ref), key)) {
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
        // A ghost's column entries come back only once compaction packs the live records: whole
        // segments, and for INCREMENTAL the blocks of the open segment.
        return fragmented() + ghostVarBytes() + Math.max(0, allocatedSegmentBytes() - packedSegmentBytes(liveCount()));
    }
}

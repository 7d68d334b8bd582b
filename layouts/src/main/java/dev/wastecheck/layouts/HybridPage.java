package dev.wastecheck.layouts;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The hybrid page layout of Graefe, Petrov, Ivanov, Marinov (HPL-2012-240), its three variants
 * as §3-§5 define them. As in PAX, an aligned cache line holds values of one field only; as in
 * NSM, the page has two allocation spaces growing towards each other, one pool of free space
 * between them (§3.1): <em>segments</em> of fixed-size values grow up from the header, variable-
 * size values grow down from the page's end, in any order (§3.1, "without regard to the record
 * or the field"). A segment holds the fixed-size values of R consecutive records, each field a
 * column of R values. The unit of space is {@code U} bytes: a cache line (64, the line of both
 * machines of §6), or a block of lines for read-ahead (§4.1: 4 x 64 = 256); 8 draws Figure 6.
 *
 * <ul>
 *   <li>{@link Variant#SIMPLISTIC} (§3): R = U, "the number of records per segment is equal to
 *       the number of bytes per cache line" (§3.1), so a field of w bytes takes w units of each
 *       segment. No ghost bits, no null bits, no bit fields: §3.1 "assumes that each field is at
 *       least one byte" and "ignores null values and ghost records". A segment is allocated
 *       whole when the one before it is full (§3.1: space grows "one segment at a time").</li>
 *   <li>{@link Variant#RIGID} (§4): R = 8U, the bits of a unit: 512 records at U = 64, 2,048 at
 *       U = 256 (§4.3), because each segment starts with a unit of ghost bits (§4.3) and each
 *       bit-size field (null bits §4.4, BIT fields) takes a unit of R bits. Allocated whole; a
 *       page that cannot hold one segment cannot be formatted (§4.5: "a single page could not
 *       even hold a single segment").</li>
 *   <li>{@link Variant#INCREMENTAL} (§5, the default): a full segment is a rigid one (same R,
 *       same size, §5), but the last segment of a page grows: each field's column takes one
 *       block of {@code lcm(width, U)} bytes at a time (a unit, or the few contiguous units a
 *       12-byte reference needs, §5.1 "contiguous cache lines are allocated to the fields one at
 *       a time"), from the page's one pool of free space, when a record needs it. Opening a
 *       segment takes a unit for every bit-size field and a block for every column, which holds
 *       U / (largest width) records (§5.1); each further block is taken when the first record
 *       that needs it is inserted. So a page wastes at most a block per column (§5.1: "never
 *       more than a cache line per fixed-size field") and uses a full segment only "where the
 *       space is available" (§5.4).</li>
 * </ul>
 *
 * <p>Where the text leaves a choice open, this implementation takes:
 * <ol>
 *   <li>A VARLEN field's offset and size are one fixed-size field (§3.1 allows "pairs of offset
 *       and size ... as a single fixed-size field"), followed by a poor man's normalized key of
 *       4 bytes (§4.2; §5.2: "our implementation adds a third fixed-size field"): 8 bytes on
 *       pages up to 64 KB. So the record of §3's running example (a 4-byte identifier, a 1-byte
 *       age, a name) has 4 + 1 + 8 = 13 bytes of fixed-size fields, the paper's count, and a
 *       page without keys has 9, Figure 6's (4 + 1 + 2 + 2).</li>
 *   <li>Null bits are a bitmap per nullable field, a unit of R bits at the head of the segment,
 *       in RIGID as in INCREMENTAL. Figure 6 and §5.1 draw them so ("bitmaps for Null values";
 *       the allocation "starting with the ghost bits and the null bits"); §4.4 pursues a bitmap
 *       per record as a fixed-size field instead. One head for both variants keeps §5's "each
 *       full segment has the same size as a rigid segment" literal, and lets a scan drop 64
 *       records' NULLs with one load.</li>
 *   <li>Columns in table order (Figure 6: "ordered as in the table definition"); BIT fields are
 *       bit-size fields in the head.</li>
 *   <li>A full INCREMENTAL segment keeps its blocks where they grew: §5 moves nothing, and the
 *       next segment starts right after it. So a column's blocks are not adjacent (at U = 256 a
 *       lineitem INT32 column is a block every 64 records, 13 blocks of other columns between):
 *       making them adjacent would take either reserving several blocks of a column ahead of
 *       its records, which breaks §5.1's bound ("never more than a cache line per fixed-size
 *       field" wasted) on a page that fills before they are used, or moving blocks as the
 *       segment grows, the reorganization §5.1 counts against PAX ("PAX ... might require
 *       multiple reorganization operations").</li>
 *   <li>SIMPLISTIC refuses a schema with BIT or nullable fields, and deletes (its records have
 *       no ghost bit to set); {@link #compact} still reclaims dead VARLEN bytes.</li>
 * </ol>
 *
 * <pre>
 *  offset                                   page
 *  0                         +--------------------------------------------------+
 *  HDR_RECORD_COUNT       0  | int  records, ghosts included                     |
 *  HDR_GHOST_COUNT        4  | int  ghosts (0 in SIMPLISTIC)                      |
 *  HDR_HEAP_START         8  | int  lowest VARLEN value byte (= page size empty)  |
 *  HDR_FRAGMENTED        12  | int  dead VARLEN bytes (replaced or shrunk values) |
 *  HDR_REORGS            16  | int  page rewrites forced by inserts and updates  |
 *  HDR_RECORDS_PER_SEG   20  | int  R                                            |
 *  HDR_VARIANT           24  | int  Variant ordinal                              |
 *  HDR_UNIT              28  | int  U, bytes of the unit of space                 |
 *  HDR_KEYS              32  | int  1 = VARLEN references carry the normalized   |
 *                            |      key (the default), 0 = they do not           |
 *  HEADER_SIZE           64  +--------------------------------------------------+  one cache line
 *  HEADER_SIZE               | segment 0: segmentBytes (drawn below)            |
 *  + k*segmentBytes          | segment 1 ...  growing up --&gt;                     |
 *                            | [INCREMENTAL: the last segment takes openBytes[j] |
 *                            |  for its j &lt; R records]                          |
 *                            +--------------------------------------------------+
 *                            |        free space (freeBytes): one pool (§3.1)     |
 *  HDR_HEAP_START            +--------------------------------------------------+
 *                            | &lt;-- growing down   VARLEN values, any order       |
 *  page size                 +--------------------------------------------------+
 * </pre>
 *
 * A segment of R records, offsets from its start:
 *
 * <pre>
 *  SIMPLISTIC (§3.1), R = U:
 *  columnOffset[f]             each non-BIT field in table order: R * width bytes (width units)
 *                              §3.1's example, U = 64 (id INT32, age INT8, name VARLEN):
 *                              id 0 (4 lines), age 256 (1), name's reference 320 (8):
 *                              segmentBytes = 13 lines = 832; record 145 in segment 2 at 1,664,
 *                              position 145 % 64 = 17, its id at 1,664 + 17 * 4 = 1,732
 *
 *  RIGID (§4), R = 8U:
 *  SEG_GHOST_BITS     0        ghost bits, 1 = deleted (§4.3)        R bits = one unit
 *  nullOffset[f]               null bits of each nullable field (§4.4), one unit each
 *  bitOffset[f]                values of each BIT field, one unit each
 *  headBytes                   = (1 + nullable fields + BIT fields) * U
 *  columnOffset[f]             each non-BIT field in table order: R * width bytes
 *                              §4.3's example: U = 64: 512 / 8 + 512 * 13 = 6,720 bytes;
 *                              U = 256: 2,048 / 8 + 2,048 * 13 = 26,880 bytes
 *
 *  INCREMENTAL (§5), R = 8U: the same head, then the columns' blocks in the order the records
 *  need them: inserting record j of the segment appends, in column order, a block to every
 *  column f with j % valuesPerBlock[f] == 0. Block k of f is at growBlock[f][k].
 *  (INT64 a, INT32 b, INT8 c), U = 64, R = 512, no NULLs: the head is one unit of ghost bits;
 *  head | a0 b0 c0 | a1 | a2 b1 | a3 | a4 b2 | a5 | a6 b3 | a7 | a8 b4 c1 | ...  one block = one line
 *         record 0   8    16      24   32      40   48      56   64
 *  (a block of a holds 8 values, of b 16, of c 64: block k of a holds records 8k .. 8k+7)
 *
 *  A VARLEN field's entry in its column (§3.1, §4.2); pages up to 64 KB (NARROW_VREF_SIZE = 8):
 *    VREF_OFFSET        +0 u16  value offset in the page (0 if empty)
 *    NARROW_VREF_LENGTH +2 u16  value length
 *    NARROW_VREF_PNK    +4 int  poor man's normalized key
 *  larger pages (WIDE_VREF_SIZE = 12):
 *    VREF_OFFSET        +0 int  value offset in the page (0 if empty)
 *    WIDE_VREF_LENGTH   +4 int  value length
 *    WIDE_VREF_PNK      +8 int  poor man's normalized key
 *  (the key: the value's first 4 bytes, big-endian, zero-padded.) Without keys (HDR_KEYS = 0)
 *  an entry is 4 or 8 bytes, offset and length only.
 * </pre>
 *
 * The VARLEN entry lets an equality scan reject most values on length and normalized key without
 * touching the value bytes (§4.2).
 *
 * <p>What the layout costs, and how the code keeps it to the layout's share. A whole record
 * (§6's "record construction") is one entry in each of its columns, each in a line of its own,
 * plus its VARLEN values: a TPC-C stock record is 17 column lines and ~5 value lines where NSM
 * reads 6 or 7 contiguous lines. {@link #read} therefore issues every column load before it
 * uses any (references, then fixed values in table order, then the value copies), so that
 * those lines are fetched together rather than one after another. A column of an INCREMENTAL
 * segment is not one run but blocks spread over the segment (§5.1); its scans first load every
 * line of the blocks they will read ({@link #touchBlocks}), for the same reason. (Loading a
 * few blocks ahead inside the kernels' pass instead was measured slower: docs/benchmarks.md,
 * issue 25's run 6.)
 */
public final class HybridPage extends AbstractPage {
    /** HPL's designs (§3-§5): how many records a segment holds and how it takes its space (class comment). */
    public enum Variant {
        /** §3: R = U records a segment, no ghost or null bits, segments allocated whole. */
        SIMPLISTIC,
        /** §4: R = 8U records a segment (the bits of a unit), ghost and null bits, allocated whole. */
        RIGID,
        /** §5: a rigid segment that grows a block per column at a time from the page's free pool. */
        INCREMENTAL
    }

    private static final Variant[] VARIANTS = Variant.values();

    static final int HDR_RECORD_COUNT = 0;
    static final int HDR_GHOST_COUNT = 4;
    static final int HDR_HEAP_START = 8;
    static final int HDR_FRAGMENTED = 12;
    static final int HDR_REORGS = 16;
    static final int HDR_RECORDS_PER_SEG = 20;
    static final int HDR_VARIANT = 24;
    static final int HDR_UNIT = 28;
    static final int HDR_KEYS = 32;
    static final int HEADER_SIZE = 64;
    /** The unit of space by default: a cache line of both machines of §6. */
    public static final int CACHE_LINE = 64;
    /** §4.1's block of four cache lines, for read-ahead. */
    public static final int READ_AHEAD_BLOCK = 4 * CACHE_LINE;

    /**
     * U chosen when a page is formatted: §4.1's block ({@link #READ_AHEAD_BLOCK}, R = 2,048: §5.1
     * and §5.3 work the incremental layout with "2K bits at a time") where a segment's first
     * allocation (a unit for every bit-size field and every column) takes at most a quarter of
     * the page, else a cache line. The quarter is this implementation's choice: with it a 32 KB
     * page of TPC-H lineitem (16 columns, 4.3 KB opened) and a 64 KB page of TPC-C customer (21
     * columns) take the block, a 4 KB page of either the line.
     */
    public static final int CHOOSE_UNIT = 0;

    static final int MIN_UNIT = 8;
    static final int MAX_UNIT = READ_AHEAD_BLOCK;
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

    /**
     * {@link #read}'s load of a fixed field, by width and signedness. {@link #fixedFields} is
     * sorted by it, so {@link #read} loads a record's fixed fields in one loop a code, each loop's
     * load fixed: no branch a field (a switch a field on this code was slower: docs/benchmarks.md,
     * "Record construction without a branch a field").
     */
    private static final int C_LONG = 0, C_INT = 1, C_UINT = 2, C_SHORT = 3, C_USHORT = 4, C_BYTE = 5, C_UBYTE = 6;

    private static int codeOf(FieldType t) {
        switch (t) {
            case INT64:
            case FLOAT64:
                return C_LONG;
            case INT32:
                return C_INT;
            case UINT32:
                return C_UINT;
            case INT16:
                return C_SHORT;
            case UINT16:
                return C_USHORT;
            case INT8:
                return C_BYTE;
            case UINT8:
                return C_UBYTE;
            default:
                throw new AssertionError("not a whole-byte fixed type: " + t);
        }
    }

    /** Kinds of field, precomputed so a record's fields are read without asking the schema. */
    private static final int K_FIXED = 0, K_VAR = 1, K_BIT = 2;

    /** The variant, unit and keys {@link #format} gives a page; a wrapped page keeps its own (from its header). */
    private final Variant formatVariant;

    private final int formatUnit;
    private final boolean formatKeys;
    /** Non-BIT fields in table order: the segment's columns. */
    private final int[] columns;
    /**
     * VARLEN, whole-byte fixed, BIT and nullable fields, each in table order (what {@link #read}
     * walks), except the fixed fields: by load code ({@link #codeOf}), in table order within one.
     */
    private final int[] varFields, fixedFields, bitFields, nullableFields;
    /** {@link #read}'s scratch: each VARLEN field's value offset and length. */
    private final int[] refOffsets, refLengths;

    private final int[] kind;

    // Geometry of the wrapped page, recomputed only when variant, unit, keys or page size change.
    private Variant variant;
    private int unit;
    private boolean runs;
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
    private int geometryPageSize = -1;
    /** Bytes a value of field f takes in its column: the type's width, vrefSize for VARLEN, 0 for BIT. */
    private final int[] width;
    /** Offset in a segment of field f's null bitmap, or -1 if f is not nullable. */
    private final int[] nullOffset;

    private final int[] bitOffset;
    /** SIMPLISTIC and RIGID: offset in a segment of field f's column. */
    private final int[] columnOffset;
    /** INCREMENTAL: log2 of the values a block of field f holds, that count - 1, a block's bytes, block k's offset. */
    private final int[] blockShift;

    private final int[] blockMask;
    private final int[] blockBytes;
    private int[][] growBlock;
    /**
     * Every variant's address of field f's value of segment position j as one formula:
     * {@code addrBlock[addrBase[f] + (j >>> addrShift[f])] + (j & addrMask[f]) * width[f]} bytes
     * into the segment. INCREMENTAL: the blocks of f (growBlock) flattened; SIMPLISTIC and RIGID:
     * one "block", the column, with a shift of 31 and a mask of all ones (j < R < 2^31).
     */
    private final int[] addrBase, addrShift, addrMask;
    /** Each fixed field's log2 of its width, in {@link #fixedFields}' order. */
    private final int[] fixedWidthShift;
    /** For each load code c, the index in {@link #fixedFields} past its last field of code c or lower. */
    private final int[] codeEnd;
    /**
     * {@link #read}'s addresses by group: a group is G consecutive positions of a segment, G the
     * fewest values any column's block holds (a power of two, so no column's block boundary falls
     * inside a group; G = R when each column is one run). {@code groupAddr[q * (nv + nf) + i]} is
     * the offset in a segment of position q * G of the i-th VARLEN reference (i < nv) or of the
     * (i - nv)-th fixed field, so position j's entry of that field is at that offset plus
     * {@code (j & groupMask) * width}: one array, one index a record, nothing looked up per field.
     */
    private int[] groupAddr;

    private int groupShift, groupMask;

    private int[] addrBlock;
    /** INCREMENTAL: bytes a segment takes for j records (0 for j = 0; segmentBytes for j = R). */
    private int[] openBytes;

    /** INCREMENTAL with U chosen per page ({@link #CHOOSE_UNIT}). */
    public HybridPage(RecordSchema schema) {
        this(schema, Variant.INCREMENTAL, CHOOSE_UNIT, true);
    }

    /** U chosen per page for INCREMENTAL ({@link #CHOOSE_UNIT}), a cache line for the others. */
    public HybridPage(RecordSchema schema, Variant variant) {
        this(schema, variant, variant == Variant.INCREMENTAL ? CHOOSE_UNIT : CACHE_LINE, true);
    }

    /**
     * @param unitBytes U, the unit of space: a power of two from 8 to 256 (64: a cache line; 256:
     *                  §4.1's read-ahead block), or {@link #CHOOSE_UNIT} (INCREMENTAL only)
     */
    public HybridPage(RecordSchema schema, Variant variant, int unitBytes) {
        this(schema, variant, unitBytes, true);
    }

    /**
     * @param normalizedKeys whether each VARLEN reference keeps the value's first four bytes
     *                       (§4.2: equality scans decide most values on the reference alone), at 4
     *                       bytes a value; without them a reference is as long as PAX's end offset
     */
    public HybridPage(RecordSchema schema, Variant variant, int unitBytes, boolean normalizedKeys) {
        super(schema);
        if (unitBytes == CHOOSE_UNIT && variant != Variant.INCREMENTAL)
            throw new IllegalArgumentException("only the incremental variant chooses its unit per page");
        if (unitBytes != CHOOSE_UNIT
                && (Integer.bitCount(unitBytes) != 1 || unitBytes < MIN_UNIT || unitBytes > MAX_UNIT)) {
            throw new IllegalArgumentException(
                    "the unit of space must be a power of two in [" + MIN_UNIT + ", " + MAX_UNIT + "]: " + unitBytes);
        }
        if (variant == Variant.SIMPLISTIC && (schema.nullableCount() > 0 || schema.bitCount() > 0)) {
            throw new IllegalArgumentException("the simplistic hybrid layout (§3.1) has no null values and no bit"
                    + " fields; " + schema + " has " + schema.nullableCount() + " nullable and " + schema.bitCount()
                    + " BIT fields");
        }
        this.formatVariant = variant;
        this.formatUnit = unitBytes;
        this.formatKeys = normalizedKeys;
        int n = schema.fieldCount();
        kind = new int[n];
        int c = 0;
        for (int f = 0; f < n; f++) {
            FieldType t = schema.type(f);
            kind[f] = t.isBit() ? K_BIT : t.isVariable() ? K_VAR : K_FIXED;
            if (!t.isBit()) c++;
        }
        columns = new int[c];
        for (int f = 0, i = 0; f < n; f++) if (!schema.type(f).isBit()) columns[i++] = f;
        varFields = new int[schema.varCount()];
        for (int i = 0; i < varFields.length; i++) varFields[i] = schema.varField(i);
        fixedFields = IntStream.range(0, n)
                .filter(f -> kind[f] == K_FIXED)
                .boxed()
                .sorted(Comparator.comparingInt(f -> codeOf(schema.type(f)))) // stable: table order within a code
                .mapToInt(Integer::intValue)
                .toArray();
        bitFields = new int[schema.bitCount()];
        for (int i = 0; i < bitFields.length; i++) bitFields[i] = schema.bitField(i);
        nullableFields = new int[schema.nullableCount()];
        for (int i = 0; i < nullableFields.length; i++) nullableFields[i] = schema.nullableField(i);
        codeEnd = new int[C_UBYTE + 1];
        for (int f : fixedFields) for (int k = codeOf(schema.type(f)); k <= C_UBYTE; k++) codeEnd[k]++;
        fixedWidthShift = new int[fixedFields.length];
        for (int i = 0; i < fixedFields.length; i++)
            fixedWidthShift[i] = Integer.numberOfTrailingZeros(schema.type(fixedFields[i]).width);
        addrBase = new int[n];
        addrShift = new int[n];
        addrMask = new int[n];
        refOffsets = new int[varFields.length];
        refLengths = new int[varFields.length];
        width = new int[n];
        nullOffset = new int[n];
        bitOffset = new int[n];
        columnOffset = new int[n];
        blockShift = new int[n];
        blockMask = new int[n];
        blockBytes = new int[n];
    }

    @Override
    public Layout layout() {
        return Layout.HPL;
    }

    @Override
    protected AbstractPage newSibling() {
        return new HybridPage(schema, variant, unit, keys); // the rewritten page keeps this page's U
    }

    // ---------------------------------------------------------------- geometry

    private static int vrefSizeFor(int pageSize, boolean keys) {
        return (pageSize <= NARROW_PAGE_LIMIT ? NARROW_VREF_SIZE : WIDE_VREF_SIZE) - (keys ? 0 : PNK_SIZE);
    }

    /** R of a variant at unit U: §3.1 a record per byte of the unit, §4.3 and §5 a record per bit. */
    static int recordsPerSegment(Variant v, int unit) {
        return v == Variant.SIMPLISTIC ? unit : 8 * unit;
    }

    /** Sets the geometry for a page of variant v, unit u and keys or not at the bound page size; cheap when unchanged. */
    private void geometry(Variant v, int u, boolean withKeys) {
        if (v == variant && u == unit && withKeys == keys && pageSize == geometryPageSize) return;
        variant = v;
        unit = u;
        keys = withKeys;
        geometryPageSize = pageSize;
        runs = v != Variant.INCREMENTAL;
        int r = recordsPerSegment(v, u);
        recordsPerSegment = r;
        segmentShift = Integer.numberOfTrailingZeros(r);
        segmentMask = r - 1;
        vrefSize = vrefSizeFor(pageSize, withKeys);
        narrow = pageSize <= NARROW_PAGE_LIMIT;
        vrefLength = narrow ? NARROW_VREF_LENGTH : WIDE_VREF_LENGTH;
        vrefPnk = narrow ? NARROW_VREF_PNK : WIDE_VREF_PNK;
        // The head (§4.3, §4.4): a unit of R bits for the ghosts, each nullable field, each BIT field.
        int at = v == Variant.SIMPLISTIC ? 0 : SEG_GHOST_BITS + u;
        Arrays.fill(nullOffset, -1);
        for (int i = 0; i < schema.nullableCount(); i++, at += u) nullOffset[schema.nullableField(i)] = at;
        for (int i = 0; i < schema.bitCount(); i++, at += u) bitOffset[schema.bitField(i)] = at;
        headBytes = at;
        for (int f : columns) {
            width[f] = kind[f] == K_VAR ? vrefSize : schema.type(f).width;
            columnOffset[f] = at;
            at += r * width[f]; // a multiple of U: R is U or 8U
        }
        segmentBytes = at;
        if (!runs) schedule(r);
        flattenAddresses();
    }

    /** Fills {@link #addrBlock} and its indexes from columnOffset (whole columns) or growBlock (INCREMENTAL). */
    private void flattenAddresses() {
        int total = 0;
        for (int f : columns) total += runs ? 1 : growBlock[f].length;
        addrBlock = new int[total];
        int at = 0;
        for (int f : columns) {
            addrBase[f] = at;
            if (runs) {
                addrShift[f] = 31;
                addrMask[f] = -1;
                addrBlock[at++] = columnOffset[f];
            } else {
                addrShift[f] = blockShift[f];
                addrMask[f] = blockMask[f];
                System.arraycopy(growBlock[f], 0, addrBlock, at, growBlock[f].length);
                at += growBlock[f].length;
            }
        }
        // G: the fewest values a block of any column holds (§5.1: U / gcd(width, U), a power of two).
        int g = recordsPerSegment;
        if (!runs) for (int f : columns) g = Math.min(g, blockMask[f] + 1);
        groupShift = Integer.numberOfTrailingZeros(g);
        groupMask = g - 1;
        int nv = varFields.length, nf = fixedFields.length, groups = recordsPerSegment >>> groupShift;
        groupAddr = new int[groups * (nv + nf)];
        for (int q = 0, i = 0; q < groups; q++) {
            int j = q << groupShift;
            for (int f : varFields) groupAddr[i++] = offsetIn(f, j);
            for (int f : fixedFields) groupAddr[i++] = offsetIn(f, j);
        }
    }

    /** Offset in a segment of field f's entry for position j (the one formula of {@link #addrBase}). */
    private int offsetIn(int f, int j) {
        return addrBlock[addrBase[f] + (j >>> addrShift[f])] + (j & addrMask[f]) * width[f];
    }

    /** INCREMENTAL: where each column's blocks go as the records of a segment need them (§5.1; class comment). */
    private void schedule(int r) {
        growBlock = new int[schema.fieldCount()][];
        openBytes = new int[r + 1];
        for (int f : columns) {
            int w = width[f];
            int values = unit / gcd(w, unit);
            blockShift[f] = Integer.numberOfTrailingZeros(values);
            blockMask[f] = values - 1;
            blockBytes[f] = values * w;
            growBlock[f] = new int[r >>> blockShift[f]];
        }
        int at = headBytes;
        for (int j = 0; j < r; j++) {
            for (int f : columns) {
                if ((j & blockMask[f]) == 0) {
                    growBlock[f][j >>> blockShift[f]] = at;
                    at += blockBytes[f];
                }
            }
            openBytes[j + 1] = at;
        }
        if (at != segmentBytes)
            throw new AssertionError("a grown segment of " + r + " records takes " + at + " bytes, a rigid one "
                    + segmentBytes + " (§5: they must be equal)");
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** U for a page of this schema and size ({@link #CHOOSE_UNIT}). */
    private int unitFor(int size) {
        if (formatUnit != CHOOSE_UNIT) return formatUnit;
        int opened = (1 + schema.nullableCount() + schema.bitCount()) * READ_AHEAD_BLOCK;
        int vref = vrefSizeFor(size, formatKeys);
        for (int f : columns) {
            int w = kind[f] == K_VAR ? vref : schema.type(f).width;
            opened += READ_AHEAD_BLOCK / gcd(w, READ_AHEAD_BLOCK) * w;
        }
        return opened <= size / 4 ? READ_AHEAD_BLOCK : CACHE_LINE;
    }

    @Override
    protected void initialize() {
        int u = unitFor(pageSize);
        buf.putInt(base + HDR_RECORD_COUNT, 0);
        buf.putInt(base + HDR_GHOST_COUNT, 0);
        buf.putInt(base + HDR_HEAP_START, pageSize);
        buf.putInt(base + HDR_FRAGMENTED, 0);
        buf.putInt(base + HDR_REORGS, 0);
        buf.putInt(base + HDR_RECORDS_PER_SEG, recordsPerSegment(formatVariant, u));
        buf.putInt(base + HDR_VARIANT, formatVariant.ordinal());
        buf.putInt(base + HDR_UNIT, u);
        buf.putInt(base + HDR_KEYS, formatKeys ? 1 : 0);
        geometry(formatVariant, u, formatKeys);
        if (HEADER_SIZE + allocatedFor(1) > pageSize) {
            throw new IllegalArgumentException("a " + formatVariant + " segment of " + recordsPerSegment + " " + schema
                    + " records (" + allocatedFor(1) + " bytes at U = " + u + ") does not fit a " + pageSize
                    + "-byte page (§4.5)");
        }
    }

    @Override
    protected void wrapped() {
        geometry(
                VARIANTS[buf.getInt(base + HDR_VARIANT)],
                buf.getInt(base + HDR_UNIT),
                buf.getInt(base + HDR_KEYS) != 0);
    }

    public Variant variant() {
        return variant;
    }

    /** R, the records a (full) segment holds. */
    public int recordsPerSegment() {
        return recordsPerSegment;
    }

    /** U, the unit of space in bytes. */
    public int unitBytes() {
        return unit;
    }

    /** Bytes of a full segment (the same for RIGID and INCREMENTAL at the same U, §5). */
    public int segmentBytes() {
        return segmentBytes;
    }

    /** Bytes of a segment's bit-size fields: ghost bits, null bitmaps, BIT fields (0 in SIMPLISTIC). */
    public int headBytes() {
        return headBytes;
    }

    /** Segment bytes the first {@code m} records take (what a page of m records allocates, §3.1, §5.3). */
    public int segmentBytesFor(int m) {
        return allocatedFor(m);
    }

    /** Whether VARLEN references carry normalized keys. */
    public boolean normalizedKeys() {
        return keys;
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

    private int heapStart() {
        return buf.getInt(base + HDR_HEAP_START);
    }

    private int fragmented() {
        return buf.getInt(base + HDR_FRAGMENTED);
    }

    private void addFragmented(int delta) {
        buf.putInt(base + HDR_FRAGMENTED, fragmented() + delta);
    }

    /**
     * Segment bytes m records take, from slot 0: whole segments (§3.1, §4), or for INCREMENTAL
     * the full segments and the blocks the last one's records need (§5.3's record count to size).
     */
    private int allocatedFor(int m) {
        if (runs) return ((m + segmentMask) >>> segmentShift) * segmentBytes;
        return (m >>> segmentShift) * segmentBytes + openBytes[m & segmentMask];
    }

    /** Absolute index of the segment holding {@code slot}: §3.1's integer division and multiplication. */
    private int segment(int slot) {
        return base + HEADER_SIZE + (slot >>> segmentShift) * segmentBytes;
    }

    /** Absolute index of the value (or VARLEN reference) of field {@code f} of {@code slot}, in segment {@code seg}. */
    private int valueAt(int seg, int slot, int f) {
        int j = slot & segmentMask; // §3.1: the position in the segment, slot % R
        if (runs) return seg + columnOffset[f] + j * width[f];
        return seg + growBlock[f][j >>> blockShift[f]] + (j & blockMask[f]) * width[f];
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
            putIntAt(ref + VREF_OFFSET, offset | length << 16); // u16 offset, u16 length at NARROW_VREF_LENGTH = 2
        } else {
            putIntAt(ref + VREF_OFFSET, offset);
            putIntAt(ref + vrefLength, length);
        }
        if (keys) putIntAt(ref + vrefPnk, key);
    }

    // ---------------------------------------------------------------- records

    @Override
    public boolean isGhost(int slot) {
        checkSlot(slot);
        return variant != Variant.SIMPLISTIC && bit(segment(slot) + SEG_GHOST_BITS, slot & segmentMask);
    }

    @Override
    public int insert(Record r) {
        int var = r.varBytes();
        int n = slotCount();
        int need = allocatedFor(n + 1) - allocatedFor(n);
        if (freeBytes() < need + var) {
            int reclaim = rebuilding ? 0 : fragmented() + ghostVarBytes();
            if (reclaim > 0 && freeBytes() + reclaim >= need + var) {
                rebuild(false, -1, null, null, true); // reclaim dead VARLEN bytes; slots stay
            }
            if (freeBytes() < need + var) return -1;
        }
        int seg = segment(n);
        int j = n & segmentMask;
        // A new segment's head starts clear (§4.3: no ghosts, no NULLs); values are written before they are read.
        if (j == 0 && headBytes > 0) zero(seg, headBytes);
        // Field by kind, each kind a list computed once, every address its group's entry (as read does).
        int[] ga = groupAddr, fixed = fixedFields, shift = fixedWidthShift, vars = varFields;
        int nv = vars.length, nf = fixed.length;
        int g = (j >>> groupShift) * (nv + nf), jj = j & groupMask;
        for (int i = 0; i < nf; i++) {
            int f = fixed[i];
            writeFixedFast(seg + ga[g + nv + i] + (jj << shift[i]), f, r.getLong(f));
        }
        int heap = heapStart();
        for (int v = 0; v < nv; v++) {
            int f = vars[v];
            int len = r.length(f);
            int off = 0;
            if (len > 0) {
                off = heap -= len;
                putBytes(base + off, r.bytes(f), 0, len);
            }
            putRef(seg + ga[g + v] + jj * vrefSize, off, len, normalizedKey(r.bytes(f), 0, len));
        }
        buf.putInt(base + HDR_HEAP_START, heap);
        for (int i = 0, m = bitFields.length; i < m; i++) {
            int f = bitFields[i];
            setBit(seg + bitOffset[f], j, r.getLong(f) != 0);
        }
        for (int i = 0, m = nullableFields.length; i < m; i++) {
            int f = nullableFields[i];
            if (r.isNull(f)) setBit(seg + nullOffset[f], j, true);
        }
        buf.putInt(base + HDR_RECORD_COUNT, n + 1);
        return n;
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
     * The whole record: one entry per field, each from its own column of one segment (§6's
     * "scattered reads": a record's fields lie in as many lines as it has columns, plus its
     * VARLEN values). The loads are ordered so that those lines are fetched side by side rather
     * than one after another: first every VARLEN reference (the values' addresses, which the
     * last pass needs), then every fixed value, one loop a load code; no load of the two passes
     * depends on another's value, and each field's address is one entry of its group's row in
     * {@link #groupAddr} plus the record's position in the group (no branch on the variant or on
     * the field's type, no per-field block lookup), so a record's column lines are in flight
     * together. Then the VARLEN
     * values are copied, again independent of one another; NULLs and BIT fields, which live in
     * the segment's head (§4.3, §4.4), come last and override what the passes read for them.
     */
    @Override
    public void read(int slot, Record into) {
        byte[] a = array;
        if (a == null) {
            checkSlot(slot);
            readThroughBuffer(slot, into);
            return;
        }
        // checkSlot's test on the record count, loaded from the array as the fields are.
        if (slot < 0 || slot >= (int) INTS.get(a, arrayOffset + base + HDR_RECORD_COUNT)) checkSlot(slot);
        int seg = segment(slot);
        int j = slot & segmentMask;
        int s0 = arrayOffset + seg; // the segment's index in the array
        int[] vars = varFields, offs = refOffsets, lens = refLengths;
        int[] fixed = fixedFields, ga = groupAddr;
        int nv = vars.length, nf = fixed.length;
        int g = (j >>> groupShift) * (nv + nf), jj = j & groupMask;
        long[] values = into.values();
        if (nv > 0) {
            int o = s0 + jj * vrefSize;
            if (narrow) {
                for (int v = 0; v < nv; v++) {
                    int ref = (int)
                            INTS.get(a, ga[g + v] + o); // u16 offset, u16 length (VREF_OFFSET 0, NARROW_VREF_LENGTH 2)
                    offs[v] = ref & 0xFFFF;
                    lens[v] = ref >>> 16;
                }
            } else {
                for (int v = 0; v < nv; v++) {
                    int at = ga[g + v] + o;
                    offs[v] = (int) INTS.get(a, at + VREF_OFFSET);
                    lens[v] = (int) INTS.get(a, at + WIDE_VREF_LENGTH);
                }
            }
        }
        // The fixed fields, each at its group's offset plus its position in the group, in one loop
        // a load code (fixedFields is sorted by it): the load and the position's scaling are the
        // loop's, so a field costs its address, its load and its store, with no branch on its type.
        // Each value goes straight into the record's array: a field that is not nullable has no
        // NULL flag to clear (headFields clears a nullable one's).
        g += nv;
        int[] end = codeEnd;
        int i = 0;
        for (int o = s0 + (jj << 3), e = end[C_LONG]; i < e; i++) values[fixed[i]] = (long) LONGS.get(a, o + ga[g + i]);
        for (int o = s0 + (jj << 2), e2 = end[C_INT]; i < e2; i++) values[fixed[i]] = (int) INTS.get(a, o + ga[g + i]);
        for (int o = s0 + (jj << 2), e2 = end[C_UINT]; i < e2; i++)
            values[fixed[i]] = Integer.toUnsignedLong((int) INTS.get(a, o + ga[g + i]));
        for (int o = s0 + (jj << 1), e2 = end[C_SHORT]; i < e2; i++)
            values[fixed[i]] = (short) SHORTS.get(a, o + ga[g + i]);
        for (int o = s0 + (jj << 1), e2 = end[C_USHORT]; i < e2; i++)
            values[fixed[i]] = Short.toUnsignedLong((short) SHORTS.get(a, o + ga[g + i]));
        for (int o = s0 + jj, e2 = end[C_BYTE]; i < e2; i++) values[fixed[i]] = a[o + ga[g + i]];
        for (int o = s0 + jj; i < nf; i++) values[fixed[i]] = a[o + ga[g + i]] & 0xFF;
        for (int v = 0; v < nv; v++) {
            int len = lens[v];
            System.arraycopy(a, arrayOffset + base + offs[v], into.buffer(vars[v], len), 0, len);
        }
        headFields(seg, j, into);
    }

    /** BIT fields and NULLs from the segment's head (§4.3, §4.4), after the passes that read their (zero) entries. */
    private void headFields(int seg, int j, Record into) {
        for (int i = 0, n = bitFields.length; i < n; i++) {
            int f = bitFields[i];
            into.setRaw(f, bit(seg + bitOffset[f], j) ? 1 : 0);
        }
        for (int i = 0, n = nullableFields.length; i < n; i++) {
            int f = nullableFields[i];
            if (bit(seg + nullOffset[f], j)) into.setNullRaw(f);
            else into.setNotNull(f);
        }
    }

    /** {@link #read} of a page in a direct buffer: the same passes through the ByteBuffer. */
    private void readThroughBuffer(int slot, Record into) {
        int seg = segment(slot);
        int j = slot & segmentMask;
        int[] vars = varFields, offs = refOffsets, lens = refLengths;
        for (int v = 0; v < vars.length; v++) {
            int at = valueAt(seg, slot, vars[v]);
            offs[v] = refOffset(at);
            lens[v] = refLength(at);
        }
        for (int f : fixedFields) into.setRaw(f, readFixed(valueAt(seg, slot, f), f));
        for (int v = 0; v < vars.length; v++) getBytesAt(base + offs[v], into.buffer(vars[v], lens[v]), 0, lens[v]);
        headFields(seg, j, into);
    }

    @Override
    public boolean isNull(int slot, int field) {
        checkSlot(slot);
        int no = nullOffset[field];
        return no >= 0 && bit(segment(slot) + no, slot & segmentMask);
    }

    @Override
    public long getLong(int slot, int field) {
        checkSlot(slot);
        int seg = segment(slot);
        if (kind[field] != K_FIXED) return bitValue(seg, slot, field);
        return readFixedFast(valueAt(seg, slot, field), field);
    }

    private long bitValue(int seg, int slot, int field) {
        if (kind[field] == K_VAR) throw new IllegalArgumentException("field " + field + " is VARLEN");
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

    /** In place (§6: a single-field update writes one value in its column; nothing else moves). */
    @Override
    public void setLong(int slot, int field, long value) {
        checkSlot(slot);
        int seg = segment(slot);
        if (kind[field] == K_FIXED) writeFixedFast(valueAt(seg, slot, field), field, value);
        else setBitValue(seg, slot, field, value);
        int no = nullOffset[field];
        if (no >= 0) setBit(seg + no, slot & segmentMask, false);
    }

    private void setBitValue(int seg, int slot, int field, long value) {
        if (kind[field] == K_VAR) throw new IllegalArgumentException("field " + field + " is VARLEN");
        setBit(seg + bitOffset[field], slot & segmentMask, value != 0);
    }

    @Override
    public void setNull(int slot, int field) {
        checkSlot(slot);
        checkNullable(field);
        if (kind[field] == K_VAR) setBytes(slot, field, EMPTY, 0, 0);
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
        int no = nullOffset[field];
        if (no >= 0) setBit(segment(slot) + no, slot & segmentMask, false);
        return true;
    }

    /** §4.3: a ghost bit in the segment's first unit. SIMPLISTIC has none (§3.1 ignores ghost records). */
    @Override
    public void delete(int slot) {
        checkSlot(slot);
        if (variant == Variant.SIMPLISTIC)
            throw new UnsupportedOperationException("the simplistic hybrid layout (§3.1) has no ghost records");
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
     * The scan of one column (§3.3: each line read holds values of this field only): in
     * SIMPLISTIC and RIGID a run per segment, 64 values to a selection word through ColumnScan's
     * kernels; in INCREMENTAL the column's blocks in one pass ({@link #columnPass}). {@code
     * refine}: only words with a selected slot are read, and the result is ANDed.
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
        int nulls = nullOffset[field];
        boolean isBit = t.isBit();
        int w = width[field];
        int kernel = ColumnScan.kernel(t, buf);
        byte[] array = buf.hasArray() ? buf.array() : null;
        int arrayBase = array != null ? buf.arrayOffset() : 0;
        int matches = 0;
        int seg = base + HEADER_SIZE;
        int column = isBit ? bitOffset[field] : runs ? columnOffset[field] : -1;
        if (!runs) {
            // INCREMENTAL: the column of each segment in one pass over its blocks (columnPass).
            if (!isBit && !refine) touchBlocks(field, n);
            for (int first = 0; first < n; first += r, seg += segmentBytes) {
                int inSeg = Math.min(r, n - first);
                columnPass(field, t, kernel, lo32, span1, lo, hi, seg, inSeg, selection, first >>> 6, refine, array);
                matches += finishSegment(seg, inSeg, selection, first >>> 6, ghosts);
            }
            return matches;
        }
        for (int first = 0; first < n; first += r, seg += segmentBytes) {
            int inSeg = Math.min(r, n - first);
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
                int at = seg + column + (isBit ? c >>> 3 : c * w);
                long bits = ColumnScan.match(kernel, buf, array, arrayBase, at, t, count, lo32, span1, lo, hi);
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
     * predicates live in locals (SIMPLISTIC and RIGID, whose columns are runs). INCREMENTAL
     * goes predicate by predicate instead, each one call over its column's blocks as they lie in
     * the segment ({@link #columnPass}): a word-at-a-time walk would look up three blocks a word
     * and dispatch three kernels a word, where the column walk looks up one block a word and
     * dispatches once a column.
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
            c.at[k] = c.type[k].isBit() ? bitOffset[f] : runs ? columnOffset[f] : -1;
            c.nulls[k] = nullOffset[f];
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
        int seg = base + HEADER_SIZE;
        if (!runs) {
            // INCREMENTAL: predicate by predicate, each a pass over its column's blocks in the
            // segment (columnPass); a later predicate reads only the words still selected.
            for (int k = 0; k < m; k++) touchBlocks(c.field[k], n);
            for (int first = 0; first < n; first += r, seg += segmentBytes) {
                int inSeg = Math.min(r, n - first), w0 = first >>> 6;
                for (int k = 0; k < m; k++) {
                    columnPass(
                            c.field[k],
                            c.type[k],
                            c.kernel[k],
                            c.lo32[k],
                            c.span1[k],
                            c.lo[k],
                            c.hi[k],
                            seg,
                            inSeg,
                            selection,
                            w0,
                            k > 0,
                            array);
                }
                matches += finishSegment(seg, inSeg, selection, w0, ghosts);
            }
            return matches;
        }
        for (int first = 0; first < n; first += r, seg += segmentBytes) {
            int inSeg = Math.min(r, n - first);
            for (int cc = 0, w = 0; cc < inSeg; cc += 64, w++) {
                int count = Math.min(64, inSeg - cc);
                int nullAt = seg + (cc >>> 3);
                long bits =
                        ColumnScan.match(k0, buf, array, arrayBase, seg + at0 + w * st0, t0, count, l0, s0, lo0, hi0);
                if (nl0 >= 0) bits &= ~buf.getLong(nullAt + nl0);
                if (m > 1 && bits != 0) {
                    bits &= ColumnScan.match(
                            k1, buf, array, arrayBase, seg + at1 + w * st1, t1, count, l1, s1, lo1, hi1);
                    if (nl1 >= 0) bits &= ~buf.getLong(nullAt + nl1);
                    if (m > 2 && bits != 0) {
                        bits &= ColumnScan.match(
                                k2, buf, array, arrayBase, seg + at2 + w * st2, t2, count, l2, s2, lo2, hi2);
                        if (nl2 >= 0) bits &= ~buf.getLong(nullAt + nl2);
                        if (m > 3 && bits != 0) bits &= conjunctionWord(c, 3, seg, cc, w, count, array, arrayBase);
                    }
                }
                if (ghosts) bits &= ~buf.getLong(seg + SEG_GHOST_BITS + (cc >>> 3));
                matches += store(selection, first + cc, count, bits, r);
            }
        }
        return matches;
    }

    /**
     * INCREMENTAL (R = 8U >= 64, so a segment starts on a selection word, {@code w0}): one
     * predicate over field f's column in the segment at {@code seg}, the whole column in one
     * call. Blocks of 64 values or more (U = 256 and a width up to 4 bytes: §4.1's read-ahead
     * block) go to {@link ColumnScan#matchColumn}, which walks the field's blocks as §5.1 lays
     * them out ({@link #growBlock}: block k of f holds the segment's values k * perBlock ..);
     * smaller blocks a word of several blocks at a time ({@link #blockWord}); a BIT field's
     * values are one bitmap in the head. NULLs drop out here (§4.4's bitmap, a word at a time).
     */
    private void columnPass(
            int f,
            FieldType t,
            int kernel,
            int lo32,
            long span1,
            long lo,
            long hi,
            int seg,
            int inSeg,
            long[] sel,
            int w0,
            boolean refine,
            byte[] array) {
        int words = (inSeg + 63) >>> 6;
        int arrayBase = array != null ? buf.arrayOffset() : 0;
        if (t.isBit()) {
            int at = seg + bitOffset[f];
            for (int w = 0; w < words; w++) {
                long keep = refine ? sel[w0 + w] : -1L;
                if (keep != 0) sel[w0 + w] = keep & ColumnScan.matchBits(buf.getLong(at + (w << 3)), 64, lo, hi);
            }
        } else if (blockShift[f] >= 6) {
            ColumnScan.matchColumn(
                    kernel,
                    buf,
                    array,
                    arrayBase,
                    seg,
                    growBlock[f],
                    0,
                    blockShift[f],
                    blockMask[f],
                    width[f],
                    t,
                    words,
                    lo32,
                    span1,
                    lo,
                    hi,
                    sel,
                    w0,
                    refine);
        } else {
            for (int w = 0; w < words; w++) {
                long keep = refine ? sel[w0 + w] : -1L;
                if (keep == 0) continue;
                int count = Math.min(64, inSeg - (w << 6));
                sel[w0 + w] = keep & blockWord(seg, w << 6, count, f, t, lo, hi, lo32, span1, kernel, array, arrayBase);
            }
        }
        int nulls = nullOffset[f];
        if (nulls >= 0) for (int w = 0; w < words; w++) sel[w0 + w] &= ~buf.getLong(seg + nulls + (w << 3));
    }

    /** Drops the segment's ghosts and the slots past its records from its selection words; returns the matches. */
    private int finishSegment(int seg, int inSeg, long[] sel, int w0, boolean ghosts) {
        int words = (inSeg + 63) >>> 6, matches = 0;
        if ((inSeg & 63) != 0) sel[w0 + words - 1] &= (1L << (inSeg & 63)) - 1;
        for (int w = 0; w < words; w++) {
            if (ghosts) sel[w0 + w] &= ~buf.getLong(seg + SEG_GHOST_BITS + (w << 3));
            matches += Long.bitCount(sel[w0 + w]);
        }
        return matches;
    }

    /**
     * INCREMENTAL: loads a byte of every cache line of field f's blocks that hold the page's
     * records, before a scan reads them. A column's blocks are spread over the segment (§5.1: a
     * block per field in turn as the records need them; at U = 256 a lineitem INT32 column is a
     * 256-byte block every 64 records, 3.3 KB apart), so a scan that reads them in order waits
     * for each block's first line in turn, which the hardware's stream prefetcher does not
     * fetch ahead across the gaps (PAX's mini-page is one run it does). These loads have no
     * dependence on one another: the core keeps a page's block misses in flight together. Java
     * has no prefetch instruction; the loads' sum goes to a field so they are not removed.
     */
    private void touchBlocks(int f, int n) {
        byte[] a = array;
        if (a == null || runs || kind[f] == K_BIT || n == 0) return;
        int[] blocks = growBlock[f];
        int shift = blockShift[f], bytes = blockBytes[f], w = width[f];
        int sum = 0;
        int seg = arrayOffset + base + HEADER_SIZE;
        for (int first = 0; first < n; first += recordsPerSegment, seg += segmentBytes) {
            int inSeg = Math.min(recordsPerSegment, n - first);
            for (int k = 0, nb = ((inSeg - 1) >>> shift) + 1; k < nb; k++) {
                int at = seg + blocks[k];
                // The last block up to the last 64-value word the kernels read in it, not whole.
                int end = k < nb - 1 ? bytes : Math.min(bytes, (((inSeg - (k << shift)) + 63) & ~63) * w);
                for (int line = 0; line < end; line += CACHE_LINE) sum += a[at + line];
            }
        }
        touched += sum;
    }

    /** Where {@link #touchBlocks}' loads go. */
    private int touched;

    /** Predicates {@code from..} of a conjunction on one word ({@code count} slots from {@code cc}) of the segment at {@code seg}. */
    private long conjunctionWord(
            RangeConjunction c, int from, int seg, int cc, int w, int count, byte[] array, int arrayBase) {
        long bits = -1L;
        for (int k = from; k < c.size && bits != 0; k++) {
            FieldType t = c.type[k];
            int at = seg + c.at[k] + w * c.stride[k];
            bits &= ColumnScan.match(
                    c.kernel[k], buf, array, arrayBase, at, t, count, c.lo32[k], c.span1[k], c.lo[k], c.hi[k]);
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

    /** INCREMENTAL: one selection word, block by block (a block holds 8 to 256 values, §5.1). */
    private long blockWord(
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
        int shift = blockShift[field];
        int perBlock = 1 << shift;
        int[] blocks = growBlock[field];
        if (perBlock >= 64) {
            // The word's 64 values lie in one block.
            int at = seg + blocks[c >>> shift] + (c & blockMask[field]) * width[field];
            return ColumnScan.matchBlock(kernel, buf, array, arrayBase, at, t, count, lo32, span1, lo, hi);
        }
        long bits = 0;
        for (int got = 0; got < count; got += perBlock) {
            int at = seg + blocks[(c + got) >>> shift];
            int m = Math.min(perBlock, count - got);
            bits |= ColumnScan.matchBlock(kernel, buf, array, arrayBase, at, t, m, lo32, span1, lo, hi) << got;
        }
        return bits;
    }

    @Override
    public int gather(long[] selection, int[] fields, long[][] out) {
        int n = slotCount();
        int words = (n + 63) >>> 6;
        int count = 0;
        if (!runs) {
            // A dense selection (Q1's 98%) reads every block of each field: load them all first. A
            // sparse one (Q6's 2%, Q14's 1%) reads a few values a block; loading whole blocks ahead
            // would fetch lines it does not need, so its (independent) loads go as they come.
            int selected = 0;
            for (int w = 0; w < words; w++) selected += Long.bitCount(selection[w]);
            if (4 * selected >= n) for (int f : fields) touchBlocks(f, n);
        }
        for (int k = 0; k < fields.length; k++) {
            int f = fields[k];
            FieldType t = schema.type(f);
            if (t.isVariable()) throw new IllegalArgumentException("field " + f + " is VARLEN");
            long[] o = out[k];
            boolean nullable = nullOffset[f] >= 0;
            if (!runs && !nullable && !t.isBit() && blockShift[f] >= 6 && array != null) {
                count = gatherBlocks(f, t, selection, n, o);
                continue;
            }
            int i = 0;
            for (int w = 0; w < words; w++) {
                long bits = selection[w];
                if (bits == 0) continue;
                int first = w << 6;
                if (first + 64 > n) bits &= (1L << (n - first)) - 1;
                if (t.isBit() || nullable || recordsPerSegment < 64) {
                    // Per value: the bit regions are per segment, and a segment may be shorter than a word.
                    for (; bits != 0; bits &= bits - 1) {
                        int slot = first + Long.numberOfTrailingZeros(bits);
                        int s = segment(slot), j = slot & segmentMask;
                        if (nullable && bit(s + nullOffset[f], j)) o[i++] = 0;
                        else
                            o[i++] = t.isBit()
                                    ? (bit(s + bitOffset[f], j) ? 1 : 0)
                                    : readFixedFast(valueAt(s, slot, f), f);
                    }
                } else if (runs) {
                    // The word's 64 slots are one run of one segment: values at a fixed stride.
                    i = ColumnScan.gatherRun(buf, valueAt(segment(first), first, f), t, bits, o, i);
                } else {
                    // Block by block: each block's values at a fixed stride.
                    int seg = segment(first), j = first & segmentMask;
                    int shift = blockShift[f], per = 1 << shift;
                    if (per >= 64) {
                        i = ColumnScan.gatherRun(buf, valueAt(seg, first, f), t, bits, o, i);
                    } else {
                        long blockBits = (1L << per) - 1;
                        for (int got = 0; got < 64 && (bits >>> got) != 0; got += per) {
                            long b = (bits >>> got) & blockBits;
                            if (b != 0)
                                i = ColumnScan.gatherRun(buf, seg + growBlock[f][(j + got) >>> shift], t, b, o, i);
                        }
                    }
                }
            }
            count = i;
        }
        return count;
    }

    /**
     * INCREMENTAL, field f's blocks of 64 values or more (U = 256, widths up to 4 bytes): the
     * selected values block by block, each block's address looked up once and its words gathered
     * from it at a fixed stride (§5.1: block k of f holds the segment's values k * perBlock ..,
     * perBlock a multiple of 64, so a selection word never straddles two blocks). The word loop
     * of {@link #gather} looked up the segment and the block for every word. Returns the count.
     */
    private int gatherBlocks(int f, FieldType t, long[] selection, int n, long[] o) {
        byte[] a = array;
        int[] blocks = growBlock[f];
        int s = blockShift[f] - 6, perBlock = 1 << s, stride = 64 * width[f];
        int i = 0;
        int seg = arrayOffset + base + HEADER_SIZE;
        for (int first = 0; first < n; first += recordsPerSegment, seg += segmentBytes) {
            int inSeg = Math.min(recordsPerSegment, n - first), w0 = first >>> 6;
            int words = (inSeg + 63) >>> 6;
            for (int b = 0, w = 0; w < words; b++) {
                int at = seg + blocks[b];
                for (int to = Math.min(words, w + perBlock); w < to; w++, at += stride) {
                    long bits = selection[w0 + w];
                    if (bits == 0) continue;
                    int left = inSeg - (w << 6);
                    if (left < 64) bits &= (1L << left) - 1;
                    i = ColumnScan.gatherRun(a, at, t, bits, o, i);
                }
            }
        }
        return i;
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
        return heapStart() - HEADER_SIZE - allocatedFor(slotCount());
    }

    @Override
    public int reclaimableBytes() {
        // A ghost's column entries come back only once compaction packs the live records: whole
        // segments, and for INCREMENTAL the blocks of the last one.
        return fragmented() + ghostVarBytes() + Math.max(0, allocatedFor(slotCount()) - allocatedFor(liveCount()));
    }
}

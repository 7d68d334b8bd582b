package dev.wastecheck.layouts;

/**
 * PAX (Ailamaki et al., VLDB 2001), as HPL-2012-240 §2 describes it: the page is partitioned
 * into one mini-page per field, all sized for the same number of records, {@code capacity}.
 * A scan of one field reads one contiguous mini-page; an insert writes into every mini-page.
 *
 * <pre>
 *  offset                                   page
 *  0                     +------------------------------------------------------+
 *  HDR_RECORD_COUNT   0  | int  records, ghosts included                         |
 *  HDR_GHOST_COUNT    4  | int  ghosts                                           |
 *  HDR_CAPACITY       8  | int  records every F-minipage holds                   |
 *  HDR_REORGS        12  | int  reorganizations forced by inserts and updates    |
 *  HDR_GHOST_BITS    16  | int  offset of the ghost bitmap                       |
 *  HDR_FIELDS        20  | per field f, FIELD_DESC_SIZE = 12 bytes at           |
 *                        |   HDR_FIELDS + 12*f:                                  |
 *                        |   MP_START +0 int  offset of f's mini-page            |
 *                        |   MP_SIZE  +4 int  its bytes                          |
 *                        |   MP_USED  +8 int  V-minipage: value bytes in use     |
 *  headerSize            +------------------------------------------------------+
 *  = roundUp(20+12*fields, 8)
 *  HDR_GHOST_BITS        | ghost bitmap: bitmapBytes(capacity)                  |
 *                        +------------------------------------------------------+
 *  MP_START(f)           | F-minipage, fixed field of width w:                  |
 *                        |   values  v0 v1 v2 ... : roundUp(capacity*w, 8)       |
 *                        |   presence bits (nullable only; 1 = not NULL)        |
 *                        +------------------------------------------------------+
 *  MP_START(b)           | F-minipage of a BIT field: value bits, presence bits |
 *                        +------------------------------------------------------+
 *  MP_START(v)           | V-minipage, VARLEN field:                            |
 *                        |   values back to back in slot order --&gt;  free       |
 *                        |   presence bits (nullable only)                      |
 *                        |   end offsets: int per record (capacity*4), from     |
 *                        |   MP_START, of the end of each value                 |
 *  page size             +------------------------------------------------------+
 * </pre>
 *
 * where {@code bitmapBytes(n)} is n bits in whole 8-byte words. Fixed mini-pages come first,
 * widest first, then BIT mini-pages, then V-minipages (so only V-minipages are unaligned).
 *
 * <p>The price of PAX: when the records stop fitting the partition (the F-minipages are at
 * capacity, or a V-minipage has no room for a value) the page is <em>reorganized</em>: re-planned
 * from the records it holds and rewritten (HPL-2012-240: "'borrowing' space from one mini-page
 * for another requires moving an entire mini-page"). Each is
 * counted in {@code HDR_REORGS}. A grown VARLEN value also shifts every later value of its
 * V-minipage and every later end offset. HPL avoids both (see {@link HybridPage}).
 */
public final class PaxPage extends AbstractPage {
    static final int HDR_RECORD_COUNT = 0;
    static final int HDR_GHOST_COUNT = 4;
    static final int HDR_CAPACITY = 8;
    static final int HDR_REORGS = 12;
    static final int HDR_GHOST_BITS = 16;
    static final int HDR_FIELDS = 20;
    static final int FIELD_DESC_SIZE = 12;
    static final int MP_START = 0;
    static final int MP_SIZE = 4;
    static final int MP_USED = 8;
    static final int OFFSET_SIZE = 4;

    private final int headerSize;
    /** Field numbers in mini-page order: byte fields widest first, BIT fields, VARLEN fields. */
    private final int[] order;

    private final long[] planUsed;
    private final int[] planCaps;

    public PaxPage(RecordSchema schema) {
        super(schema);
        headerSize = roundUp(HDR_FIELDS + FIELD_DESC_SIZE * schema.fieldCount(), 8);
        int[] bytes = schema.byteFieldsWidestFirst();
        order = new int[schema.fieldCount()];
        int i = 0;
        for (int f : bytes) order[i++] = f;
        for (int b = 0; b < schema.bitCount(); b++) order[i++] = schema.bitField(b);
        for (int v = 0; v < schema.varCount(); v++) order[i++] = schema.varField(v);
        planUsed = new long[schema.varCount()];
        planCaps = new int[schema.varCount()];
    }

    @Override
    public Layout layout() {
        return Layout.PAX;
    }

    @Override
    protected AbstractPage newSibling() {
        return new PaxPage(schema);
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
    /** Records each F-minipage holds before the page must be reorganized. */
    public int capacity() {
        return buf.getInt(base + HDR_CAPACITY);
    }

    private int desc(int field) {
        return base + HDR_FIELDS + FIELD_DESC_SIZE * field;
    }
    /** Absolute index of field {@code f}'s mini-page. */
    private int miniPage(int field) {
        return base + buf.getInt(desc(field) + MP_START);
    }

    private int miniPageSize(int field) {
        return buf.getInt(desc(field) + MP_SIZE);
    }

    private int varUsed(int field) {
        return buf.getInt(desc(field) + MP_USED);
    }

    private int ghostBits() {
        return base + buf.getInt(base + HDR_GHOST_BITS);
    }

    private int valuesBytes(int field, int cap) {
        FieldType t = schema.type(field);
        return t.isBit() ? bitmapBytes(cap) : roundUp(cap * t.width, 8);
    }

    private int presenceBytes(int field, int cap) {
        return schema.nullable(field) ? bitmapBytes(cap) : 0;
    }

    /** Absolute index of the presence bitmap of nullable field {@code f}. */
    private int presence(int field, int cap) {
        if (schema.type(field).isVariable())
            return miniPage(field) + miniPageSize(field) - cap * OFFSET_SIZE - presenceBytes(field, cap);
        return miniPage(field) + valuesBytes(field, cap);
    }

    /** Absolute index of the end-offset array of VARLEN field {@code f}. */
    private int ends(int field, int cap) {
        return miniPage(field) + miniPageSize(field) - cap * OFFSET_SIZE;
    }

    private int valueCapacity(int field, int cap) {
        return miniPageSize(field) - cap * OFFSET_SIZE - presenceBytes(field, cap);
    }

    // ---------------------------------------------------------------- planning the partition

    /** Bytes of everything but the VARLEN values for {@code cap} records. */
    private long fixedBytes(int cap) {
        long total = headerSize + bitmapBytes(cap);
        for (int f : order) {
            if (schema.type(f).isVariable()) total += (long) cap * OFFSET_SIZE + presenceBytes(f, cap);
            else total += valuesBytes(f, cap) + presenceBytes(f, cap);
        }
        return total;
    }

    /**
     * Plans a partition for {@code n} records whose VARLEN values take {@code planUsed} bytes:
     * the largest capacity whose mini-pages fit, new records expected to be like the average
     * present one ({@link Field#expectedLength} on an empty page). Leftover bytes go to the
     * V-minipages. Returns the capacity and fills {@code planCaps}, or -1 if n records do not fit.
     */
    private int plan(int n) {
        int vars = schema.varCount();
        long[] avg = new long[vars];
        long used = 0;
        for (int v = 0; v < vars; v++) {
            avg[v] = n == 0 ? schema.field(schema.varField(v)).expectedLength() : (planUsed[v] + n - 1) / n;
            used += planUsed[v];
        }
        long avgTotal = 0;
        for (long a : avg) avgTotal += a;
        if (fixedBytes(n) + used > pageSize) return -1;
        int lo = n, hi = pageSize * 8;
        while (lo < hi) {
            int mid = (int) (((long) lo + hi + 1) >>> 1);
            if (fixedBytes(mid) + used + (mid - n) * avgTotal <= pageSize) lo = mid;
            else hi = mid - 1;
        }
        int cap = lo;
        long leftover = pageSize - fixedBytes(cap) - used - (cap - n) * avgTotal;
        for (int v = 0; v < vars; v++) {
            long share = leftover / vars + (v == 0 ? leftover % vars : 0);
            planCaps[v] = (int) (planUsed[v] + (cap - n) * avg[v] + share);
        }
        return cap;
    }

    /** Writes an empty page partitioned for {@code cap} records and {@code planCaps} value bytes. */
    private void apply(int cap) {
        buf.putInt(base + HDR_RECORD_COUNT, 0);
        buf.putInt(base + HDR_GHOST_COUNT, 0);
        buf.putInt(base + HDR_CAPACITY, cap);
        buf.putInt(base + HDR_REORGS, 0);
        buf.putInt(base + HDR_GHOST_BITS, headerSize);
        zero(base + headerSize, bitmapBytes(cap));
        int at = headerSize + bitmapBytes(cap);
        for (int f : order) {
            int size;
            if (schema.type(f).isVariable()) {
                size = planCaps[schema.varIndex(f)] + presenceBytes(f, cap) + cap * OFFSET_SIZE;
            } else {
                size = valuesBytes(f, cap) + presenceBytes(f, cap);
            }
            int d = desc(f);
            buf.putInt(d + MP_START, at);
            buf.putInt(d + MP_SIZE, size);
            buf.putInt(d + MP_USED, 0);
            if (schema.nullable(f)) zero(presence(f, cap), presenceBytes(f, cap));
            if (schema.type(f).isBit()) zero(miniPage(f), valuesBytes(f, cap));
            at += size;
        }
    }

    @Override
    protected void initialize() {
        java.util.Arrays.fill(planUsed, 0);
        int cap = plan(0);
        if (cap < 1)
            throw new IllegalArgumentException("a " + schema + " record does not fit a " + pageSize + "-byte PAX page");
        apply(cap);
    }

    @Override
    protected boolean initializeFor(
            AbstractPage source, boolean dropGhosts, int replaceSlot, Record replacement, Record extra) {
        java.util.Arrays.fill(planUsed, 0);
        int n = 0;
        int vars = schema.varCount();
        for (int s = 0, count = source.slotCount(); s < count; s++) {
            boolean ghost = source.isGhost(s);
            if (ghost && dropGhosts) continue;
            n++;
            if (ghost) continue;
            for (int v = 0; v < vars; v++) {
                int f = schema.varField(v);
                planUsed[v] += s == replaceSlot ? replacement.length(f) : source.getLength(s, f);
            }
        }
        if (extra != null) {
            n++;
            for (int v = 0; v < vars; v++) planUsed[v] += extra.length(schema.varField(v));
        }
        int cap = plan(n);
        if (cap < 0) return false;
        apply(cap);
        return true;
    }

    // ---------------------------------------------------------------- records

    /**
     * An insert reorganizes the page only if the new partition has room for at least
     * 1/{@value #MIN_GAIN_FRACTION} more records (at least one); otherwise the page counts as
     * full. Without this, a nearly full page would reorganize on every insert.
     */
    private boolean worthReorganizing(Record r) {
        int n = slotCount();
        java.util.Arrays.fill(planUsed, 0);
        for (int v = 0; v < schema.varCount(); v++)
            planUsed[v] = varUsed(schema.varField(v)) + r.length(schema.varField(v));
        int cap = plan(n + 1);
        return cap >= n + 1 + n / MIN_GAIN_FRACTION;
    }

    static final int MIN_GAIN_FRACTION = 32;

    @Override
    public boolean isGhost(int slot) {
        checkSlot(slot);
        return bit(ghostBits(), slot);
    }

    private boolean fits(Record r) {
        int cap = capacity();
        if (slotCount() >= cap) return false;
        for (int v = 0; v < schema.varCount(); v++) {
            int f = schema.varField(v);
            if (varUsed(f) + r.length(f) > valueCapacity(f, cap)) return false;
        }
        return true;
    }

    @Override
    public int insert(Record r) {
        if (!fits(r)) {
            if (rebuilding || !worthReorganizing(r) || !rebuild(false, -1, null, r, true)) return -1;
        }
        int n = slotCount();
        int cap = capacity();
        setBit(ghostBits(), n, false);
        for (int f : order) {
            FieldType t = schema.type(f);
            boolean isNull = r.isNull(f);
            if (schema.nullable(f)) setBit(presence(f, cap), n, !isNull);
            int mp = miniPage(f);
            if (t.isBit()) {
                setBit(mp, n, r.getLong(f) != 0);
            } else if (t.isVariable()) {
                int used = varUsed(f);
                int len = r.length(f);
                putBytes(mp + used, r.bytes(f), 0, len);
                buf.putInt(ends(f, cap) + n * OFFSET_SIZE, used + len);
                buf.putInt(desc(f) + MP_USED, used + len);
            } else {
                writeFixedFast(mp + n * t.width, f, r.getLong(f));
            }
        }
        buf.putInt(base + HDR_RECORD_COUNT, n + 1);
        return n;
    }

    /** The whole record: one value from each mini-page. */
    @Override
    public void read(int slot, Record into) {
        checkSlot(slot);
        int cap = capacity();
        for (int f = 0, nf = schema.fieldCount(); f < nf; f++) {
            FieldType t = schema.type(f);
            int mp = miniPage(f);
            if (schema.nullable(f) && !bit(presence(f, cap), slot)) {
                into.setNullRaw(f);
            } else if (t.isVariable()) {
                int ends = ends(f, cap);
                int start = slot == 0 ? 0 : buf.getInt(ends + (slot - 1) * OFFSET_SIZE);
                int len = buf.getInt(ends + slot * OFFSET_SIZE) - start;
                getBytesAt(mp + start, into.buffer(f, len), 0, len);
            } else if (t.isBit()) {
                into.setRaw(f, bit(mp, slot) ? 1 : 0);
            } else {
                into.setRaw(f, readFixedFast(mp + slot * t.width, f));
            }
        }
    }

    /** {@link Page#project}: the slot checked and the capacity read once, each field read from its minipage. */
    @Override
    public void project(int slot, int[] fields, Record into) {
        checkSlot(slot);
        int cap = capacity();
        for (int f : fields) {
            FieldType t = schema.type(f);
            if (schema.nullable(f) && !bit(presence(f, cap), slot)) {
                into.setNullRaw(f);
            } else if (t.isVariable()) {
                int ends = ends(f, cap);
                int start = slot == 0 ? 0 : buf.getInt(ends + (slot - 1) * OFFSET_SIZE);
                int len = buf.getInt(ends + slot * OFFSET_SIZE) - start;
                getBytesAt(miniPage(f) + start, into.buffer(f, len), 0, len);
            } else if (t.isBit()) {
                into.setRaw(f, bit(miniPage(f), slot) ? 1 : 0);
            } else {
                into.setRaw(f, readFixedFast(miniPage(f) + slot * t.width, f));
            }
        }
    }

    @Override
    public boolean isNull(int slot, int field) {
        checkSlot(slot);
        return schema.nullable(field) && !bit(presence(field, capacity()), slot);
    }

    @Override
    public long getLong(int slot, int field) {
        checkSlot(slot);
        FieldType t = schema.type(field);
        if (t.isBit()) return bit(miniPage(field), slot) ? 1 : 0;
        if (t.isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        return readFixedFast(miniPage(field) + slot * t.width, field);
    }

    private int varStart(int field, int cap, int slot) {
        return slot == 0 ? 0 : buf.getInt(ends(field, cap) + (slot - 1) * OFFSET_SIZE);
    }

    @Override
    public int getLength(int slot, int field) {
        checkSlot(slot);
        checkVarlen(field);
        int cap = capacity();
        return buf.getInt(ends(field, cap) + slot * OFFSET_SIZE) - varStart(field, cap, slot);
    }

    @Override
    public int getBytes(int slot, int field, byte[] dst, int dstOffset) {
        checkSlot(slot);
        checkVarlen(field);
        int cap = capacity();
        int start = varStart(field, cap, slot);
        int len = buf.getInt(ends(field, cap) + slot * OFFSET_SIZE) - start;
        getBytesAt(miniPage(field) + start, dst, dstOffset, len);
        return len;
    }

    @Override
    public void setLong(int slot, int field, long value) {
        checkSlot(slot);
        FieldType t = schema.type(field);
        if (t.isVariable()) throw new IllegalArgumentException("field " + field + " is VARLEN");
        if (t.isBit()) setBit(miniPage(field), slot, value != 0);
        else writeFixedFast(miniPage(field) + slot * t.width, field, value);
        if (schema.nullable(field)) setBit(presence(field, capacity()), slot, true);
    }

    @Override
    public void setNull(int slot, int field) {
        checkSlot(slot);
        checkNullable(field);
        if (schema.type(field).isVariable()) setBytes(slot, field, EMPTY, 0, 0);
        setBit(presence(field, capacity()), slot, false);
    }

    private static final byte[] EMPTY = new byte[0];

    @Override
    public boolean setBytes(int slot, int field, byte[] src, int offset, int length) {
        checkSlot(slot);
        checkVarlen(field);
        int cap = capacity();
        int n = slotCount();
        int ends = ends(field, cap);
        int start = varStart(field, cap, slot);
        int end = buf.getInt(ends + slot * OFFSET_SIZE);
        int delta = length - (end - start);
        int used = varUsed(field);
        if (used + delta > valueCapacity(field, cap)) {
            // The V-minipage is full: reorganize the page (the cost HPL avoids).
            return rebuildWithValue(slot, field, src, offset, length);
        }
        int mp = miniPage(field);
        // Values are kept in slot order: every later value moves, every later end offset changes.
        move(mp + end, mp + end + delta, used - end);
        putBytes(mp + start, src, offset, length);
        if (delta != 0) {
            for (int j = slot; j < n; j++) {
                int at = ends + j * OFFSET_SIZE;
                buf.putInt(at, buf.getInt(at) + delta);
            }
            buf.putInt(desc(field) + MP_USED, used + delta);
        }
        if (schema.nullable(field)) setBit(presence(field, cap), slot, true);
        return true;
    }

    @Override
    public void delete(int slot) {
        checkSlot(slot);
        if (bit(ghostBits(), slot)) return;
        setBit(ghostBits(), slot, true);
        buf.putInt(base + HDR_GHOST_COUNT, ghostCount() + 1);
    }

    @Override
    public int scanBetween(int field, long lo, long hi, long[] selection) {
        return filter(field, lo, hi, selection, false);
    }

    @Override
    public int refineBetween(int field, long lo, long hi, long[] selection) {
        return filter(field, lo, hi, selection, true);
    }

    /** One run over the field's mini-page, 64 values to a word; {@code refine} reads only words with a selected slot and ANDs. */
    private int filter(int field, long lo, long hi, long[] selection, boolean refine) {
        checkScannable(field);
        int n = slotCount();
        FieldType t = schema.type(field);
        boolean intRange = t.isFixedBytes() && t.width <= 4; // INT8..INT32, UINT8..UINT32: ColumnScan's unsigned test
        if (intRange && ColumnScan.emptyRange(t, lo, hi)) {
            clearSelection(selection, n);
            return 0;
        }
        int lo32 = intRange ? ColumnScan.clampLo(t, lo) : 0;
        long span1 = intRange ? ColumnScan.span1(t, lo, hi) : 0;
        int cap = capacity();
        int column = miniPage(field);
        int ghosts = ghostBits();
        boolean anyGhost = ghostCount() > 0; // without ghosts the ghost bitmap need not be read
        int present = schema.nullable(field) ? presence(field, cap) : -1;
        int width = t.width;
        int kernel = ColumnScan.kernel(t, buf);
        byte[] array = buf.hasArray() ? buf.array() : null;
        int arrayBase = array != null ? buf.arrayOffset() : 0;
        boolean isBit = t.isBit();
        int matches = 0;
        for (int w = 0, words = (n + 63) >>> 6; w < words; w++) {
            long current = refine ? selection[w] : -1L;
            if (current == 0) continue;
            int count = Math.min(64, n - (w << 6));
            int at = column + (isBit ? w << 3 : (w << 6) * width);
            long bits = ColumnScan.match(kernel, buf, array, arrayBase, at, t, count, lo32, span1, lo, hi);
            if (anyGhost) bits &= ~buf.getLong(ghosts + (w << 3));
            if (present >= 0) bits &= buf.getLong(present + (w << 3));
            bits &= current;
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    /**
     * The conjunction a word at a time: the first field's 64 values from its mini-page, then the
     * next field's only while a slot of the word is still selected. The mini-pages are read side
     * by side, so their runs stream together as a plain array's columns do. The first three
     * predicates live in locals (what a query's filter usually has), so that the word loop keeps
     * their bounds and run addresses in registers; any further ones are read from the
     * conjunction's arrays.
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
        int cap = capacity();
        int m = c.size;
        for (int k = 0; k < m; k++) {
            c.at[k] = miniPage(c.field[k]);
            c.nulls[k] = schema.nullable(c.field[k]) ? presence(c.field[k], cap) : -1;
            c.stride[k] = c.type[k].isBit() ? 8 : 64 * c.type[k].width;
        }
        int ghosts = ghostCount() > 0 ? ghostBits() : -1; // without ghosts their bitmap is not read
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
        for (int w = 0, words = (n + 63) >>> 6; w < words; w++) {
            int count = Math.min(64, n - (w << 6));
            long bits = ColumnScan.match(k0, buf, array, arrayBase, at0 + w * st0, t0, count, l0, s0, lo0, hi0);
            if (count < 64) bits &= (1L << count) - 1;
            if (nl0 >= 0) bits &= buf.getLong(nl0 + (w << 3));
            if (m > 1 && bits != 0) {
                bits &= ColumnScan.match(k1, buf, array, arrayBase, at1 + w * st1, t1, count, l1, s1, lo1, hi1);
                if (nl1 >= 0) bits &= buf.getLong(nl1 + (w << 3));
                if (m > 2 && bits != 0) {
                    bits &= ColumnScan.match(k2, buf, array, arrayBase, at2 + w * st2, t2, count, l2, s2, lo2, hi2);
                    if (nl2 >= 0) bits &= buf.getLong(nl2 + (w << 3));
                    for (int k = 3; k < m && bits != 0; k++) {
                        bits &= ColumnScan.match(
                                c.kernel[k],
                                buf,
                                array,
                                arrayBase,
                                c.at[k] + w * c.stride[k],
                                c.type[k],
                                count,
                                c.lo32[k],
                                c.span1[k],
                                c.lo[k],
                                c.hi[k]);
                        if (c.nulls[k] >= 0) bits &= buf.getLong(c.nulls[k] + (w << 3));
                    }
                }
            }
            if (ghosts >= 0) bits &= ~buf.getLong(ghosts + (w << 3));
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    /** Field by field: each field's selected values from its mini-page, a word (64 slots) at a time. */
    @Override
    public int gather(long[] selection, int[] fields, long[][] out) {
        int n = slotCount();
        int words = (n + 63) >>> 6;
        int cap = capacity();
        int count = 0;
        for (int k = 0; k < fields.length; k++) {
            int f = fields[k];
            FieldType t = schema.type(f);
            if (t.isVariable()) throw new IllegalArgumentException("field " + f + " is VARLEN");
            int mp = miniPage(f);
            int present = schema.nullable(f) ? presence(f, cap) : -1;
            long[] o = out[k];
            int i = 0;
            for (int w = 0; w < words; w++) {
                long bits = selection[w];
                if (bits == 0) continue;
                if ((w << 6) + 64 > n) bits &= (1L << (n - (w << 6))) - 1;
                if (t.isBit() || present >= 0) {
                    long values = t.isBit() ? buf.getLong(mp + (w << 3)) : 0;
                    long nonNull = present >= 0 ? buf.getLong(present + (w << 3)) : -1L;
                    for (; bits != 0; bits &= bits - 1) {
                        int j = Long.numberOfTrailingZeros(bits);
                        if ((nonNull >>> j & 1) == 0) o[i++] = 0;
                        else o[i++] = t.isBit() ? values >>> j & 1 : readFixedFast(mp + ((w << 6) + j) * t.width, f);
                    }
                } else {
                    i = ColumnScan.gatherRun(buf, mp + (w << 6) * t.width, t, bits, o, i);
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
        int cap = capacity();
        int mp = miniPage(field);
        int ends = ends(field, cap);
        int matches = 0;
        int start = 0;
        for (int i = 0; i < n; i++) {
            int end = buf.getInt(ends + i * OFFSET_SIZE);
            if (end - start == key.length && !isGhost(i) && !isNull(i, field) && bytesEqual(mp + start, key)) {
                selection[i >>> 6] |= 1L << i;
                matches++;
            }
            start = end;
        }
        return matches;
    }

    /** Bytes holding no record data, spread over the mini-pages; an insert may need a reorganization to use them. */
    @Override
    public int freeBytes() {
        long used = 0;
        for (int v = 0; v < schema.varCount(); v++) used += varUsed(schema.varField(v));
        return (int) Math.max(0, pageSize - fixedBytes(slotCount()) - used);
    }

    @Override
    public int reclaimableBytes() {
        int ghosts = ghostCount();
        if (ghosts == 0) return 0;
        int perRecord = schema.fixedByteWidth() + OFFSET_SIZE * schema.varCount();
        int total = ghosts * perRecord;
        for (int s = 0, n = slotCount(); s < n; s++) {
            if (!isGhost(s)) continue;
            for (int v = 0; v < schema.varCount(); v++) total += getLength(s, schema.varField(v));
        }
        return total;
    }
}

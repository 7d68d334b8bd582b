package dev.wastecheck.layouts;

import java.nio.ByteBuffer;

/**
 * One API over every page format: a flyweight that wraps {@code pageSize} bytes of a
 * {@link ByteBuffer} at an offset and reads and writes records there, allocating nothing per
 * record (Agrona style; STYLE.md). Re-wrap the same object to move to another page.
 *
 * <p>Records are numbered by slot, 0 .. {@link #slotCount()}-1, in insertion order. Deleting a
 * record leaves a ghost (its slot keeps its number; HPL §4.3); {@link #compact()} removes the
 * ghosts, renumbers the remaining records in their order, and reclaims fragmented space.
 * Nothing else renumbers slots: an insert or update that needs space rewrites the page but keeps
 * every slot, ghosts included.
 *
 * <p>Page sizes from {@link #MIN_PAGE_SIZE} (4 KB) to {@link #MAX_PAGE_SIZE} (1 MB). The buffer's
 * byte order is set to little-endian on wrap.
 */
public interface Page {
    int MIN_PAGE_SIZE = 4 << 10;
    int MAX_PAGE_SIZE = 1 << 20;

    Layout layout();

    RecordSchema schema();

    int pageSize();

    /** Initializes an empty page in {@code buffer[offset, offset+pageSize)} and wraps it. */
    Page format(ByteBuffer buffer, int offset, int pageSize);

    /** Wraps a page previously formatted by this layout and schema. */
    Page wrap(ByteBuffer buffer, int offset, int pageSize);

    /** Slots in use, ghosts included. */
    int slotCount();

    /** Ghost (deleted, not yet compacted) slots. */
    int ghostCount();

    default int liveCount() {
        return slotCount() - ghostCount();
    }

    boolean isGhost(int slot);

    /** Appends a record; returns its slot, or -1 when it does not fit (the page is unchanged). */
    int insert(Record record);

    boolean isNull(int slot, int field);

    /** A BIT, integer or FLOAT64 (raw bits) field; 0 if NULL. */
    long getLong(int slot, int field);

    default double getDouble(int slot, int field) {
        return Double.longBitsToDouble(getLong(slot, field));
    }

    /** Length in bytes of a VARLEN value; 0 if NULL. */
    int getLength(int slot, int field);

    /** Copies a VARLEN value into {@code dst} at {@code dstOffset}; returns its length. */
    int getBytes(int slot, int field, byte[] dst, int dstOffset);

    /** Reads the whole record into {@code into} (whose buffers are reused). */
    void read(int slot, Record into);

    /**
     * Reads {@code fields} of a record into {@code into}, the other fields left as they were: a
     * lookup's projection. Each VARLEN value is copied once, into the record's buffer for it, and
     * each fixed value is stored without {@link Record#setLong}'s checks, as {@link #read} does (a
     * page's values fit their fields by construction). A format overrides it to check the slot
     * and find its regions once for all the fields.
     */
    default void project(int slot, int[] fields, Record into) {
        RecordSchema schema = schema();
        for (int f : fields) {
            if (isNull(slot, f)) into.setNullRaw(f);
            else if (schema.type(f).isVariable()) getBytes(slot, f, into.buffer(f, getLength(slot, f)), 0);
            else into.setRaw(f, getLong(slot, f));
        }
    }

    /** Sets a BIT, integer or FLOAT64 field in place (always fits), clearing its null bit. */
    void setLong(int slot, int field, long value);

    default void setDouble(int slot, int field, double value) {
        setLong(slot, field, Double.doubleToRawLongBits(value));
    }

    /**
     * Sets a VARLEN field: in place when the new value is no longer than the old one, else into
     * free space, rewriting the page if that is what it takes. Returns false, with the page
     * unchanged, when the page cannot hold the new value.
     */
    boolean setBytes(int slot, int field, byte[] src, int offset, int length);

    /** Sets a nullable field to NULL (a VARLEN value's bytes become reclaimable). */
    void setNull(int slot, int field);

    /** Marks the record a ghost. Deleting a ghost again does nothing. */
    void delete(int slot);

    /**
     * Sets bit {@code slot} of {@code selection} (bit {@code slot & 63} of word {@code slot >>> 6})
     * for every live record whose BIT or integer field is non-null and within [lo, hi], clears
     * the others below {@link #slotCount()}, and returns the number of matches.
     * {@code selection} needs {@code (slotCount() + 63) / 64} words.
     */
    int scanBetween(int field, long lo, long hi, long[] selection);

    /**
     * Narrows a selection (as {@link #scanBetween} fills it) to the slots whose BIT or integer
     * field is non-null and within [lo, hi]: bit {@code slot} stays set only if it was set, the
     * slot is live and its value matches. Returns the slots still selected. A vectorized query
     * evaluates a conjunction this way, reading the field of selected slots only; the formats
     * override it with their best loop (a column's 64 values at a time, or one record each).
     */
    default int refineBetween(int field, long lo, long hi, long[] selection) {
        int matches = 0;
        for (int w = 0, n = slotCount(), words = (n + 63) >>> 6; w < words; w++) {
            long bits = selection[w];
            for (long b = bits; b != 0; b &= b - 1) {
                int slot = (w << 6) + Long.numberOfTrailingZeros(b);
                boolean keep = slot < n && !isGhost(slot) && !isNull(slot, field);
                if (keep) {
                    long v = getLong(slot, field);
                    keep = v >= lo && v <= hi;
                }
                if (!keep) bits &= ~(1L << slot);
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    /**
     * A conjunction of range predicates: sets bit {@code slot} of {@code selection} for every live
     * record whose fields {@code fields[k]} are all non-null and within [{@code lo[k]},
     * {@code hi[k]}], clears the others below {@link #slotCount()}, and returns the number of
     * matches; what {@link #scanBetween} on the first field followed by {@link #refineBetween} on
     * each other gives. The columnar formats override it to evaluate the whole conjunction a
     * word (64 slots) at a time, reading the next field's 64 values only while some slot is
     * still selected: one pass over the page's runs side by side, as a query engine's fused
     * filter over plain arrays does, instead of one pass per predicate through the selection.
     * NSM keeps this default, which is already its best loop: its refinements read only the
     * selected records.
     */
    default int scanAllBetween(int[] fields, long[] lo, long[] hi, long[] selection) {
        if (fields.length == 0 || fields.length != lo.length || fields.length != hi.length)
            throw new IllegalArgumentException("scanAllBetween needs one or more fields, each with its lo and hi");
        int matches = scanBetween(fields[0], lo[0], hi[0], selection);
        for (int k = 1; k < fields.length && matches > 0; k++)
            matches = refineBetween(fields[k], lo[k], hi[k], selection);
        return matches;
    }

    /**
     * Reads fixed-size fields of the selected slots (bits below {@link #slotCount()}), in slot
     * order: value i of field {@code fields[k]} goes to {@code out[k][i]} (a NULL as 0, a BIT as
     * 0 or 1, a FLOAT64 as its raw bits). Returns the number of slots read; each {@code out[k]}
     * needs that many entries. The vectorized counterpart of {@link #getLong}: NSM reads each
     * record's fields together, PAX and HPL each field's column in turn.
     */
    default int gather(long[] selection, int[] fields, long[][] out) {
        int i = 0;
        for (int w = 0, n = slotCount(), words = (n + 63) >>> 6; w < words; w++) {
            for (long b = selection[w]; b != 0; b &= b - 1) {
                int slot = (w << 6) + Long.numberOfTrailingZeros(b);
                if (slot >= n) break;
                for (int k = 0; k < fields.length; k++)
                    out[k][i] = isNull(slot, fields[k]) ? 0 : getLong(slot, fields[k]);
                i++;
            }
        }
        return i;
    }

    /** Like {@link #scanBetween} for a VARLEN field equal to {@code key}. */
    int scanEquals(int field, byte[] key, long[] selection);

    /** Removes ghosts (renumbering the remaining slots in order) and reclaims fragmented space. */
    void compact();

    /** Bytes a new record could use right now without moving anything. */
    int freeBytes();

    /** Bytes {@link #compact()} would add to {@link #freeBytes()}: ghosts, dead and slack space. */
    int reclaimableBytes();

    /** Share of the page holding live records and their bookkeeping: 1 - (free + reclaimable) / size. */
    default double fill() {
        return 1.0 - (double) (freeBytes() + reclaimableBytes()) / pageSize();
    }

    /**
     * Whole-page rewrites an insert or update forced (not those {@link #compact()} was asked
     * for). For PAX this counts the reorganizations when a mini-page fills (the cost HPL avoids).
     */
    int reorganizations();
}

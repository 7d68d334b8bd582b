package dev.wastecheck.layouts;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A page of any format whose records have sub-byte fields ({@link Field#bits}): the format's page
 * holds records of the {@link RecordSchema#stored()} schema, where the sub-byte fields are packed
 * into one-byte words (the drawing is in {@link RecordSchema}), and this view speaks the schema with
 * the sub-byte fields, field numbers and values as the caller knows them. The bytes on the page are
 * the format's own (NSM, PAX, HPL), with the words as UINT8 fields; nothing here writes a byte the
 * format does not.
 *
 * <p>A packed field is read as {@code (word >>> shift) & mask}, written by rewriting its word, and
 * scanned by the format's kernel over its word (every live slot) refined by the field's bits. A
 * packed field is never NULL.
 */
public final class PackedPage implements Page {
    private final RecordSchema schema;
    private final Page inner;
    private final Record image;
    private final int[] storedFields;

    /**
     * A view over {@code inner}, a page of {@code schema.stored()}.
     *
     * @throws IllegalArgumentException when {@code inner}'s schema is not {@code schema}'s stored one
     */
    public PackedPage(RecordSchema schema, Page inner) {
        if (inner.schema() != schema.stored())
            throw new IllegalArgumentException("the page's records must be of the schema's stored() schema");
        this.schema = schema;
        this.inner = inner;
        this.image = new Record(schema.stored());
        this.storedFields = new int[schema.fieldCount()];
        for (int f = 0; f < storedFields.length; f++) storedFields[f] = schema.storedField(f);
    }

    /** A page of {@code layout} for records of {@code schema}: the format's own when nothing packs, else a view. */
    public static Page of(Layout layout, RecordSchema schema) {
        return schema.packs() ? new PackedPage(schema, layout.newPage(schema.stored())) : layout.newPage(schema);
    }

    /** The format's page, holding records of the stored schema. */
    public Page inner() {
        return inner;
    }

    @Override
    public Layout layout() {
        return inner.layout();
    }

    @Override
    public RecordSchema schema() {
        return schema;
    }

    @Override
    public int pageSize() {
        return inner.pageSize();
    }

    @Override
    public Page format(ByteBuffer buffer, int offset, int pageSize) {
        inner.format(buffer, offset, pageSize);
        return this;
    }

    @Override
    public Page wrap(ByteBuffer buffer, int offset, int pageSize) {
        inner.wrap(buffer, offset, pageSize);
        return this;
    }

    @Override
    public int slotCount() {
        return inner.slotCount();
    }

    @Override
    public int ghostCount() {
        return inner.ghostCount();
    }

    @Override
    public boolean isGhost(int slot) {
        return inner.isGhost(slot);
    }

    @Override
    public int insert(Record record) {
        record.packInto(image);
        return inner.insert(image);
    }

    @Override
    public boolean isNull(int slot, int field) {
        return !schema.packed(field) && inner.isNull(slot, storedFields[field]);
    }

    @Override
    public long getLong(int slot, int field) {
        long v = inner.getLong(slot, storedFields[field]);
        return schema.packed(field) ? schema.unpack(field, v) : v;
    }

    @Override
    public int getLength(int slot, int field) {
        return inner.getLength(slot, storedFields[field]);
    }

    @Override
    public int getBytes(int slot, int field, byte[] dst, int dstOffset) {
        return inner.getBytes(slot, storedFields[field], dst, dstOffset);
    }

    @Override
    public void read(int slot, Record into) {
        inner.read(slot, image);
        into.unpackFrom(image);
    }

    /** The fields of the last {@link #project} and the stored fields of its fixed and packed ones. */
    private int[] projected = new int[0], projectedWords = new int[0];

    /**
     * {@link Page#project}: the fixed fields and the words of the packed ones in one projection of the format's page
     * (into this view's record of the stored schema), each VARLEN value straight into {@code into}'s buffer.
     */
    @Override
    public void project(int slot, int[] fields, Record into) {
        if (!Arrays.equals(fields, projected)) {
            projected = fields.clone();
            projectedWords = Arrays.stream(fields)
                    .filter(f -> !schema.type(f).isVariable())
                    .map(f -> storedFields[f])
                    .distinct()
                    .toArray();
        }
        if (projectedWords.length > 0) inner.project(slot, projectedWords, image);
        for (int f : fields) {
            int sf = storedFields[f];
            if (schema.packed(f)) into.setRaw(f, schema.unpack(f, image.getLong(sf)));
            else if (schema.type(f).isVariable()) {
                if (inner.isNull(slot, sf)) into.setNullRaw(f);
                else inner.getBytes(slot, sf, into.buffer(f, inner.getLength(slot, sf)), 0);
            } else if (image.isNull(sf)) into.setNullRaw(f);
            else into.setRaw(f, image.getLong(sf));
        }
    }

    @Override
    public void setLong(int slot, int field, long value) {
        int word = storedFields[field];
        if (!schema.packed(field)) {
            inner.setLong(slot, word, value);
            return;
        }
        if (!schema.fits(field, value))
            throw new IllegalArgumentException(
                    value + " does not fit " + schema.field(field).bits() + " bits");
        inner.setLong(slot, word, schema.pack(field, inner.getLong(slot, word), value));
    }

    @Override
    public boolean setBytes(int slot, int field, byte[] src, int offset, int length) {
        return inner.setBytes(slot, storedFields[field], src, offset, length);
    }

    @Override
    public void setNull(int slot, int field) {
        if (schema.packed(field)) throw new IllegalArgumentException("field " + field + " is not nullable");
        inner.setNull(slot, storedFields[field]);
    }

    @Override
    public void delete(int slot) {
        inner.delete(slot);
    }

    @Override
    public int scanBetween(int field, long lo, long hi, long[] selection) {
        if (!schema.packed(field)) return inner.scanBetween(storedFields[field], lo, hi, selection);
        int live = inner.scanBetween(storedFields[field], 0, 0xFF, selection); // a word is never NULL: every live slot
        return lo <= 0 && hi >= schema.mask(field) ? live : refineBetween(field, lo, hi, selection);
    }

    @Override
    public int refineBetween(int field, long lo, long hi, long[] selection) {
        if (!schema.packed(field)) return inner.refineBetween(storedFields[field], lo, hi, selection);
        int matches = 0, word = storedFields[field];
        for (int w = 0, n = slotCount(), words = (n + 63) >>> 6; w < words; w++) {
            long bits = selection[w];
            for (long b = bits; b != 0; b &= b - 1) {
                int slot = (w << 6) + Long.numberOfTrailingZeros(b);
                boolean keep = slot < n && !isGhost(slot);
                if (keep) {
                    long v = schema.unpack(field, inner.getLong(slot, word));
                    keep = v >= lo && v <= hi;
                }
                if (!keep) bits &= ~(1L << slot);
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    @Override
    public int scanAllBetween(int[] fields, long[] lo, long[] hi, long[] selection) {
        boolean anyPacked = false;
        for (int f : fields) anyPacked |= schema.packed(f);
        if (!anyPacked && fields.length > 0) {
            int[] mapped = new int[fields.length];
            for (int k = 0; k < fields.length; k++) mapped[k] = storedFields[fields[k]];
            return inner.scanAllBetween(mapped, lo, hi, selection);
        }
        return Page.super.scanAllBetween(fields, lo, hi, selection);
    }

    @Override
    public int gather(long[] selection, int[] fields, long[][] out) {
        int[] mapped = new int[fields.length];
        for (int k = 0; k < fields.length; k++) mapped[k] = storedFields[fields[k]];
        int n = inner.gather(selection, mapped, out);
        for (int k = 0; k < fields.length; k++) {
            if (!schema.packed(fields[k])) continue;
            long[] o = out[k];
            for (int i = 0; i < n; i++) o[i] = schema.unpack(fields[k], o[i]);
        }
        return n;
    }

    @Override
    public int scanEquals(int field, byte[] key, long[] selection) {
        return inner.scanEquals(storedFields[field], key, selection);
    }

    @Override
    public void compact() {
        inner.compact();
    }

    @Override
    public int freeBytes() {
        return inner.freeBytes();
    }

    @Override
    public int reclaimableBytes() {
        return inner.reclaimableBytes();
    }

    @Override
    public double fill() {
        return inner.fill();
    }

    @Override
    public int reorganizations() {
        return inner.reorganizations();
    }
}

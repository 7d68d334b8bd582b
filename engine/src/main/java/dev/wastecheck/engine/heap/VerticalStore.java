package dev.wastecheck.engine.heap;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * A table's tuples split vertically over two heaps, "No Bits Left Behind" §3.2: the columns that
 * lookups read stay together in the <em>near</em> heap, and the others (columns no training event
 * read, or columns updated far more often than the rest) live in the <em>apart</em> heap, so that
 * a page of the near heap holds many more of the tuples lookups want, and an update of an apart
 * column dirties a page no lookup reads.
 *
 * <pre>
 *   near heap (the tuple id the indexes store)          apart heap
 *   +-----------------------------------------+         +-------------------------------+
 *   | near columns ...      | apart_ref (8 B) | ------> | apart columns ...             |
 *   +-----------------------------------------+         +-------------------------------+
 *   pages of the table's layout (NSM, PAX, HPL)          pages of the same layout
 * </pre>
 *
 * The near record carries an 8-byte reference, the apart tuple's id; reading an apart column
 * costs one more page. Callers see one record of the table's whole schema, field numbers as the
 * table numbers them; this class maps them to the two heaps.
 */
public final class VerticalStore implements TupleStore {
    private final RecordSchema schema;
    private final HeapFile near, apart;
    /** Per table field: true when it lives in the apart heap. */
    private final boolean[] isApart;
    /** Per table field: its field number in its heap. */
    private final int[] position;
    /** The near heap's field holding the apart tuple's id. */
    private final int ref;

    private final Record nearRecord, apartRecord;

    /**
     * @param apartFields table fields to store apart (at least one, not all)
     */
    public VerticalStore(BufferPool pool, Layout layout, RecordSchema schema, boolean[] apartFields) {
        this.schema = schema;
        int n = schema.fieldCount();
        this.isApart = apartFields.clone();
        this.position = new int[n];
        List<Field> nearFields = new ArrayList<>(), apartList = new ArrayList<>();
        for (int f = 0; f < n; f++) {
            if (isApart[f]) {
                position[f] = apartList.size();
                apartList.add(schema.field(f));
            } else {
                position[f] = nearFields.size();
                nearFields.add(schema.field(f));
            }
        }
        if (apartList.isEmpty() || nearFields.isEmpty())
            throw new IllegalArgumentException("a vertical split needs columns on both sides");
        ref = nearFields.size();
        nearFields.add(Field.of("apart_ref", FieldType.INT64));
        RecordSchema nearSchema = new RecordSchema(nearFields), apartSchema = new RecordSchema(apartList);
        this.near = new HeapFile(pool, layout, nearSchema);
        this.apart = new HeapFile(pool, layout, apartSchema);
        this.nearRecord = new Record(nearSchema);
        this.apartRecord = new Record(apartSchema);
    }

    public HeapFile near() {
        return near;
    }

    public HeapFile apart() {
        return apart;
    }

    public boolean isApart(int field) {
        return isApart[field];
    }
    /** The field's number in its own heap. */
    public int position(int field) {
        return position[field];
    }

    @Override
    public long rows() {
        return near.rows();
    }

    @Override
    public synchronized long insert(Record r) {
        for (int f = 0; f < isApart.length; f++) copy(r, f, isApart[f] ? apartRecord : nearRecord, position[f]);
        long apartTid = apart.insert(apartRecord);
        nearRecord.setLong(ref, apartTid);
        return near.insert(nearRecord);
    }

    @Override
    public synchronized void read(long tid, Record into) {
        near.read(tid, nearRecord);
        apart.read(nearRecord.getLong(ref), apartRecord);
        for (int f = 0; f < isApart.length; f++) copy(isApart[f] ? apartRecord : nearRecord, position[f], into, f);
    }

    @Override
    public synchronized void project(long tid, int[] fields, Record into, byte[] scratch) {
        int nNear = 0, nApart = 0;
        for (int f : fields)
            if (isApart[f]) nApart++;
            else nNear++;
        int[] nearFields = new int[nNear + (nApart > 0 ? 1 : 0)], apartFields = new int[nApart];
        nNear = 0;
        nApart = 0;
        for (int f : fields) {
            if (isApart[f]) apartFields[nApart++] = position[f];
            else nearFields[nNear++] = position[f];
        }
        if (nApart > 0) nearFields[nNear] = ref;
        near.project(tid, nearFields, nearRecord, scratch);
        if (nApart > 0) apart.project(nearRecord.getLong(ref), apartFields, apartRecord, scratch);
        for (int f : fields) copy(isApart[f] ? apartRecord : nearRecord, position[f], into, f);
    }

    @Override
    public synchronized void delete(long tid) {
        long apartTid = near.getLong(tid, ref);
        apart.delete(apartTid);
        near.delete(tid);
    }

    @Override
    public synchronized void setLongs(long tid, int[] fields, long[] values) {
        List<Integer> a = new ArrayList<>(), b = new ArrayList<>();
        for (int i = 0; i < fields.length; i++) (isApart[fields[i]] ? b : a).add(i);
        if (!a.isEmpty()) near.setLongs(tid, pick(fields, a), pickValues(values, a));
        if (!b.isEmpty()) apart.setLongs(near.getLong(tid, ref), pick(fields, b), pickValues(values, b));
    }

    @Override
    public synchronized void setNull(long tid, int field) {
        if (isApart[field]) apart.setNull(near.getLong(tid, ref), position[field]);
        else near.setNull(tid, position[field]);
    }

    @Override
    public int fieldBytes(int... fields) {
        return HeapFile.fieldBytes(schema, fields);
    }

    /** Cached fields come from the near heap alone (the table caches no apart field: see {@code Table}). */
    @Override
    public FieldSource fieldSource(int... fields) {
        int[] mapped = new int[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (isApart[fields[i]])
                throw new IllegalArgumentException(schema.field(fields[i]).name() + " is stored apart: not cacheable");
            mapped[i] = position[fields[i]];
        }
        return near.fieldSource(mapped);
    }

    @Override
    public long bytes() {
        return near.bytes() + apart.bytes();
    }

    @Override
    public long[] pageNumbers() {
        long[] a = near.pageNumbers(), b = apart.pageNumbers();
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * {@link HeapFile#scan} over the near heap when the filter's field lives there (with the
     * kernel of its layout); when it lives apart, every near tuple is visited and the caller
     * filters.
     */
    public void scan(int field, long lo, long hi, byte[] equal, LongPredicate visitor) {
        if (field >= 0 && !isApart[field]) near.scan(position[field], lo, hi, equal, visitor);
        else near.scan(-1, 0, 0, null, visitor);
    }

    /** The heap field numbers of {@code fields[i]} for each i in {@code idx}. */
    private int[] pick(int[] fields, List<Integer> idx) {
        int[] out = new int[idx.size()];
        for (int i = 0; i < out.length; i++) out[i] = position[fields[idx.get(i)]];
        return out;
    }

    private long[] pickValues(long[] values, List<Integer> idx) {
        long[] out = new long[idx.size()];
        for (int i = 0; i < out.length; i++) out[i] = values[idx.get(i)];
        return out;
    }

    private static void copy(Record from, int f, Record to, int g) {
        if (from.isNull(f)) {
            to.setNull(g);
            return;
        }
        if (from.schema().type(f).isVariable()) to.setBytes(g, from.bytes(f), 0, from.length(f));
        else to.setLong(g, from.getLong(f));
    }
}

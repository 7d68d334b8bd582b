package dev.wastecheck.engine.heap;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.engine.index.KeyEncoder;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * A heap whose records leave out the table's integer id: "No Bits Left Behind" §4.2, "ID fields
 * representing uniqueness can be eliminated and the tuple's physical address can be used as a
 * proxy. Column stores already infer the id using the tuple offset". The table's primary index
 * still maps id to tuple address (the application names tuples by the ids it already holds, so a
 * map in that direction cannot go); this store answers the other direction, address to id, which
 * every read of the column needs, without the column:
 *
 * <pre>
 *   tuple id (page, slot) --> address map of the page:
 *                             +-------------------------------+------------------+
 *                             | RUNS x (start 2 B, base 8 B)  | FOLLOWS: 1 bit a |
 *                             +-------------------------------+ slot             |
 *                                                             +------------------+
 *     slot's FOLLOWS bit set --> id = base of the last run starting at or before slot + slot
 *     bit clear              --> EXCEPTIONS B+tree in the pool: key tid (8 B) -> id
 * </pre>
 *
 * A tuple appended to a page whose id is the last run's {@code base + slot} sets its bit; one
 * whose id does not follow (a gap in the ids, a tuple moved in from elsewhere) starts a run
 * ({@code base = id - slot}). Rows loaded in id order with dense (auto-increment) ids fill whole
 * pages with one run: the column's 4 to 8 bytes a tuple become 10 bytes plus one bit a slot per
 * page. A tuple placed below the page's last derived slot (a slot reused after a delete) is an
 * exception: its id goes to a B+tree in the buffer pool keyed by its address, the
 * forwarding-table cost the paper names for §3.1's moves. Tuples moved one by one (a hot
 * partition filled by §3.1, a tuple rewritten at the heap's end) start a run each when their ids
 * are not consecutive: 10 bytes, more than the id they replace. The paper leaves open
 * how the address stands in for the id when the application already holds ids; this is the choice
 * taken: the ids stay the application's, the address derives them.
 *
 * <p>The address map's bytes count per heap page the replay touched (a page's base and bits are
 * needed only to name that page's tuples); the exceptions' tree counts as index pages.
 * Field numbers stay the table's: field {@code idField} has no place in the inner store, and the
 * fields after it sit one lower there.
 */
public final class ImplicitIdStore implements TupleStore {
    private final BufferPool pool;
    private final TupleStore inner;
    private final RecordSchema outer;
    private final int idField;
    private final ThreadLocal<Record> innerRecords;
    /** Per buffer-pool page number: the address map of a heap page, or null. */
    private PageIds[] pages = new PageIds[64];
    /** The ids that do not follow their page's base, by tuple id; created at the first one. */
    private BTree exceptions;

    private long exceptionCount;

    /**
     * A heap page's address map: runs of slots whose ids follow a base ({@code id = base + slot}),
     * a new run where an appended tuple's id does not follow the last run (a gap in the ids, a
     * tuple moved in), and a bit per slot saying whether the slot's id is derived.
     */
    private static final class PageIds {
        int[] starts = new int[1];
        long[] bases = new long[1];
        int runs;
        final BitSet follows = new BitSet();

        /** The id of {@code slot} if derived, else NONE. */
        long id(int slot) {
            if (!follows.get(slot)) return TupleId.NONE;
            int lo = 0, hi = runs - 1;
            while (lo < hi) { // the last run starting at or before slot
                int mid = (lo + hi + 1) >>> 1;
                if (starts[mid] <= slot) lo = mid;
                else hi = mid - 1;
            }
            return bases[lo] + slot;
        }

        /** Derives {@code id} for {@code slot} when it can (appended after every run); false for an exception. */
        boolean note(int slot, long id) {
            // a slot reused below the last derived one or the last run's start: an exception
            if (runs > 0 && (slot < follows.length() || slot < starts[runs - 1])) return false;
            if (runs > 0 && bases[runs - 1] + slot == id) {
                follows.set(slot);
                return true;
            }
            if (runs == starts.length) {
                starts = Arrays.copyOf(starts, runs * 2);
                bases = Arrays.copyOf(bases, runs * 2);
            }
            starts[runs] = slot;
            bases[runs++] = id - slot;
            follows.set(slot);
            return true;
        }

        /** Bytes a page format would spend: the runs (2-byte start, 8-byte base) and the bits. */
        long bytes() {
            return runs * 10L + (follows.length() + 7) / 8;
        }
    }

    /**
     * @param schema the table's record schema, the id field included
     * @param idField the id's field: an integer, NOT NULL
     * @param apart per table field, stored apart (a vertical split, §3.2), or null for one heap
     */
    public ImplicitIdStore(BufferPool pool, Layout layout, RecordSchema schema, int idField, boolean[] apart) {
        if (schema.type(idField).isVariable() || schema.type(idField).isBit() || schema.nullable(idField))
            throw new IllegalArgumentException(
                    "implicit id " + schema.field(idField).name() + ": needs a NOT NULL integer column");
        this.pool = pool;
        this.outer = schema;
        this.idField = idField;
        List<Field> fields = new ArrayList<>();
        boolean[] innerApart = new boolean[schema.fieldCount() - 1];
        int apartCount = 0;
        for (int f = 0; f < schema.fieldCount(); f++) {
            if (f == idField) continue;
            fields.add(schema.field(f));
            if (apart != null && apart[f]) {
                innerApart[inner(f)] = true;
                apartCount++;
            }
        }
        RecordSchema stored = new RecordSchema(fields);
        this.inner = apartCount > 0 && apartCount < innerApart.length
                ? new VerticalStore(pool, layout, stored, innerApart)
                : new HeapFile(pool, layout, stored);
        this.innerRecords = ThreadLocal.withInitial(() -> new Record(stored));
    }

    /** The store that holds the records without the id. */
    public TupleStore inner() {
        return inner;
    }

    public int idField() {
        return idField;
    }

    private int inner(int f) {
        return f < idField ? f : f - 1;
    }

    // ---- the address map ----------------------------------------------------------------

    private static byte[] key(long tid) {
        return KeyEncoder.ofLong(tid);
    }

    /** Records the id of a tuple just placed at {@code tid} (package-private for the slot-reuse test). */
    synchronized void note(long tid, long id) {
        int page = (int) TupleId.page(tid);
        int slot = TupleId.slot(tid);
        if (page >= pages.length) pages = Arrays.copyOf(pages, Math.max(page + 1, pages.length * 2));
        PageIds p = pages[page];
        if (p == null) p = pages[page] = new PageIds();
        if (!p.note(slot, id)) {
            if (exceptions == null) exceptions = new BTree(pool, true);
            exceptions.insert(key(tid), id);
            exceptionCount++;
        }
    }

    synchronized void forget(long tid) {
        int page = (int) TupleId.page(tid);
        int slot = TupleId.slot(tid);
        PageIds p = page < pages.length ? pages[page] : null;
        if (p != null && p.follows.get(slot)) {
            p.follows.clear(slot);
            return;
        }
        byte[] k = key(tid);
        long id = exceptions == null ? TupleId.NONE : exceptions.lookup(k);
        if (id == TupleId.NONE)
            throw new IllegalStateException("implicit id: no id for tuple " + TupleId.toString(tid));
        exceptions.delete(k, id);
        exceptionCount--;
    }

    /** The id of tuple {@code tid}: derived from its address, or its exception entry. */
    public synchronized long idOf(long tid) {
        int page = (int) TupleId.page(tid);
        int slot = TupleId.slot(tid);
        PageIds p = page < pages.length ? pages[page] : null;
        long derived = p == null ? TupleId.NONE : p.id(slot);
        if (derived != TupleId.NONE) return derived;
        long id = exceptions == null ? TupleId.NONE : exceptions.lookup(key(tid));
        if (id == TupleId.NONE)
            throw new IllegalStateException("implicit id: no id for tuple " + TupleId.toString(tid));
        return id;
    }

    /** Tuples whose id is kept in the exceptions' tree rather than derived from the address. */
    public synchronized long exceptions() {
        return exceptionCount;
    }

    /** The exceptions' B+tree pages (none before the first exception). */
    public synchronized long[] exceptionPages() {
        return exceptions == null ? new long[0] : exceptions.pageNumbers();
    }

    /**
     * Bytes of the address map for the heap pages {@code pageNos}: per page 10 bytes a run and a
     * bit per slot up to its last derived one.
     */
    public synchronized long mapBytes(long[] pageNos) {
        long b = 0;
        for (long pg : pageNos) {
            PageIds p = pg < pages.length ? pages[(int) pg] : null;
            if (p != null) b += p.bytes();
        }
        return b;
    }

    /**
     * The address map's bytes for the heap pages the pool saw touched: memory outside the pool that
     * the measured reads needed (the working set counts it beside the pages).
     */
    @Override
    public long touchedBytes() {
        long[] touched =
                Arrays.stream(inner.pageNumbers()).filter(pool::touched).toArray();
        return mapBytes(touched);
    }

    /** The heap pages of the inner store (not the exceptions' tree). */
    public long[] heapPageNumbers() {
        return inner.pageNumbers();
    }

    // ---- records ----------------------------------------------------------------------

    /** Copies field {@code f} of {@code from} to field {@code t} of {@code to} (same type). */
    private static void copy(Record from, int f, Record to, int t) {
        if (from.isNull(f)) to.setNull(t);
        else if (from.schema().type(f).isVariable()) to.setBytes(t, from.bytes(f), 0, from.length(f));
        else to.setLong(t, from.getLong(f));
    }

    @Override
    public long rows() {
        return inner.rows();
    }

    @Override
    public long insert(Record r) {
        Record in = innerRecords.get();
        for (int f = 0; f < outer.fieldCount(); f++) if (f != idField) copy(r, f, in, inner(f));
        long tid = inner.insert(in);
        note(tid, r.getLong(idField));
        return tid;
    }

    @Override
    public void read(long tid, Record into) {
        Record in = innerRecords.get();
        inner.read(tid, in);
        for (int f = 0; f < outer.fieldCount(); f++) if (f != idField) copy(in, inner(f), into, f);
        into.setLong(idField, idOf(tid));
    }

    @Override
    public void project(long tid, int[] fields, Record into, byte[] scratch) {
        int n = 0;
        boolean id = false;
        for (int f : fields) {
            if (f == idField) id = true;
            else n++;
        }
        if (n > 0) {
            int[] mapped = new int[n];
            n = 0;
            for (int f : fields) if (f != idField) mapped[n++] = inner(f);
            Record in = innerRecords.get();
            inner.project(tid, mapped, in, scratch);
            for (int f : fields) if (f != idField) copy(in, inner(f), into, f);
        }
        if (id) into.setLong(idField, idOf(tid));
    }

    @Override
    public void delete(long tid) {
        forget(tid);
        inner.delete(tid);
    }

    /** Sets fields in place; the id is not stored, and a caller changes it only by rewriting the tuple. */
    @Override
    public void setLongs(long tid, int[] fields, long[] values) {
        int n = 0;
        for (int f : fields) if (f != idField) n++;
        int[] mf = new int[n];
        long[] mv = new long[n];
        n = 0;
        for (int k = 0; k < fields.length; k++) {
            if (fields[k] == idField) {
                if (values[k] != idOf(tid))
                    throw new IllegalStateException("implicit id: changed in place; rewrite the tuple instead");
                continue;
            }
            mf[n] = inner(fields[k]);
            mv[n++] = values[k];
        }
        if (n > 0) inner.setLongs(tid, mf, mv);
    }

    @Override
    public void setNull(long tid, int field) {
        if (field == idField) throw new IllegalArgumentException("implicit id: the id is NOT NULL");
        inner.setNull(tid, inner(field));
    }

    @Override
    public int fieldBytes(int... fields) {
        return inner.fieldBytes(mapped(fields));
    }

    @Override
    public FieldSource fieldSource(int... fields) {
        return inner.fieldSource(mapped(fields));
    }

    /** Fields of the inner store; the index cache never caches the id (the table leaves it out). */
    private int[] mapped(int[] fields) {
        int[] out = new int[fields.length];
        for (int k = 0; k < fields.length; k++) {
            if (fields[k] == idField) throw new IllegalArgumentException("implicit id: not a stored field");
            out[k] = inner(fields[k]);
        }
        return out;
    }

    /** The inner heap's pages, the exceptions' tree, and the whole address map. */
    @Override
    public synchronized long bytes() {
        long[] heap = inner.pageNumbers();
        return inner.bytes() + (long) exceptionPages().length * pool.pageSize() + mapBytes(heap);
    }

    @Override
    public long[] pageNumbers() {
        long[] heap = inner.pageNumbers();
        long[] ex = exceptionPages();
        long[] out = Arrays.copyOf(heap, heap.length + ex.length);
        System.arraycopy(ex, 0, out, heap.length, ex.length);
        return out;
    }

    /**
     * A scan by field {@code field} with the inner store's kernel; by the id (not stored) it
     * visits every tuple and the caller's condition check filters, as for a store without pages.
     */
    public void scan(int field, long lo, long hi, byte[] equal, LongPredicate visitor) {
        int f = field < 0 || field == idField ? -1 : inner(field);
        if (inner instanceof HeapFile h) h.scan(f, lo, hi, equal, visitor);
        else ((VerticalStore) inner).scan(f, lo, hi, equal, visitor);
    }
}

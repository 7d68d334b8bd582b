package dev.wastecheck.engine.block;

import dev.wastecheck.engine.heap.TupleStore;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.TupleSlot;

/**
 * An {@link ArrowTable} as a replay table's tuple store ({@code layout=arrow}): tuple ids are
 * {@link TupleSlot}s, every operation runs in a transaction of its own (the replay is one thread),
 * and a variable-length update is a fixed-size write in place (§4.1), so the tuple keeps its id.
 * Compaction moves tuples; the table's indexes learn of each move through {@link #onMove}.
 */
public final class ArrowStore implements TupleStore {
    private final ArrowTable table;
    private final TransactionManager tm;
    private final RecordSchema schema;
    private final Record scratch;
    /** The copy a read rolls back along the version chain; the replay is one thread. */
    private final RawRow raw;
    /** Every field, for whole-tuple reads. */
    private final int[] all;
    /** Every operation's commit callback with logging on (its result is released after the force, §3.4), else null. */
    private final Runnable release;
    /** The read-only transaction each read begins again (the replay is one thread): no object per read. */
    private Transaction reader;

    ArrowStore(ArrowTable table) {
        this(table, null);
    }

    ArrowStore(ArrowTable table, Runnable release) {
        this.table = table;
        this.release = release;
        this.tm = table.transactions();
        this.schema = table.schema();
        this.scratch = new Record(schema);
        this.raw = new RawRow(schema.fieldCount());
        this.all = new int[schema.fieldCount()];
        for (int i = 0; i < all.length; i++) all[i] = i;
    }

    public ArrowTable table() {
        return table;
    }

    /** Tells {@code listener} of every tuple compaction moves (called inside the moving transaction). */
    public void onMove(TupleMoveListener listener) {
        table.setMoveListener(listener);
    }

    /** Starts recording the 4 KB pages of blocks and values operations touch (the working set of the measured events). */
    public void trackTouched() {
        table.trackWorkingSet();
    }

    private void touch(long tid) {
        table.touchTuple(tid);
    }

    @Override
    public long rows() {
        return table.liveTuples();
    }

    @Override
    public long insert(Record r) {
        Transaction t = tm.begin();
        long slot = table.insert(t, r);
        tm.commit(t, release);
        touch(slot);
        return slot;
    }

    @Override
    public void read(long tid, Record into) {
        project(tid, all, into, null);
    }

    /** Reads only {@code fields}, as the page formats' projection does: no copy of the other columns. */
    @Override
    public void project(long tid, int[] fields, Record into, byte[] scratchBytes) {
        Transaction t = reader = tm.beginReadOnly(reader);
        boolean found = table.select(t, tid, fields, into, raw);
        tm.commit(t, release);
        if (!found) throw new IllegalStateException(table.name() + ": no tuple at " + TupleSlot.toString(tid));
        table.touchFields(tid, fields);
    }

    @Override
    public void delete(long tid) {
        Transaction t = tm.begin();
        boolean done = table.delete(t, tid);
        if (!tm.commit(t, release) || !done)
            throw new IllegalStateException(table.name() + ": could not delete " + TupleSlot.toString(tid));
        touch(tid);
    }

    @Override
    public void setLongs(long tid, int[] fields, long[] values) {
        for (int i = 0; i < fields.length; i++) scratch.setLong(fields[i], values[i]);
        update(tid, fields, scratch);
    }

    @Override
    public void setNull(long tid, int field) {
        scratch.setNull(field);
        update(tid, new int[] {field}, scratch);
    }

    @Override
    public boolean updateInPlace(long tid, int[] fields, Record values) {
        update(tid, fields, values);
        return true;
    }

    private void update(long tid, int[] fields, Record values) {
        Transaction t = tm.begin();
        boolean done = table.update(t, tid, fields, values);
        if (!tm.commit(t, release) || !done)
            throw new IllegalStateException(table.name() + ": could not update " + TupleSlot.toString(tid));
        touch(tid);
    }

    @Override
    public int fieldBytes(int... fields) {
        int n = 0;
        for (int f : fields) {
            FieldType t = schema.type(f);
            if (!t.isFixedBytes())
                throw new IllegalArgumentException("only fixed-width fields are cacheable: "
                        + schema.field(f).name());
            n += t.width;
        }
        return n;
    }

    @Override
    public FieldSource fieldSource(int... fields) {
        fieldBytes(fields);
        Record r = new Record(schema);
        return (tid, out) -> {
            read(tid, r);
            int o = 0;
            for (int f : fields) {
                long v = r.getLong(f);
                for (int k = 0; k < schema.type(f).width; k++) out[o++] = (byte) (v >>> (8 * k));
            }
        };
    }

    @Override
    public long bytes() {
        return table.memoryBytes();
    }

    @Override
    public long[] pageNumbers() {
        return new long[0];
    }

    @Override
    public long touchedBytes() {
        return table.workingSetBytes();
    }
}

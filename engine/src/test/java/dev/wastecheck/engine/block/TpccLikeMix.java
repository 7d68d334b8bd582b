package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The TPC-C-like mix ({@link TpccLikeWorkload}) on {@link ArrowTable}s, for the transformation's and
 * the log's overhead on OLTP throughput (Li et al., VLDB 2020, §6.1 runs TPC-C with the
 * transformation in the background, logging on). Each transaction of the mix is one MVCC {@link
 * Transaction} (snapshot isolation, first writer wins, rollback in place); with an {@link
 * ArrowDatabase} opened with logging on, its writes go to its redo buffer and its commit callback
 * runs after the log manager's force (§3.4).
 *
 * <p>Indexes are hash maps from a packed key to the tuple slot, updated on commit; compaction's
 * moves reach them through the table's move listener. {@link NsmTpccLikeMix} runs the same mix on the
 * page engine's NSM tables.
 */
final class TpccLikeMix extends TpccLikeWorkload<Transaction> {
    /** The nine tables, for an {@link ArrowDatabase} (the order is their identifier in the log). */
    static List<ArrowDatabase.TableDef> tableDefs() {
        List<ArrowDatabase.TableDef> defs = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) defs.add(new ArrowDatabase.TableDef(NAMES.get(i), SCHEMAS.get(i)));
        return defs;
    }

    /** Learns each write a transaction makes, by key (the crash test's record of what it committed). */
    interface Effects {
        void inserted(Indexed t, Record r);

        void updated(Indexed t, long key, int[] columns, Record values);

        void deleted(Indexed t, long key);
    }

    /** Column {@code c} of {@code r} as text: ~ for NULL, the long (raw bits of a double) or hex bytes. */
    static String render(Record r, int c) {
        if (r.isNull(c)) return "~";
        if (!r.schema().type(c).isVariable()) return Long.toString(r.getLong(c));
        StringBuilder sb = new StringBuilder(2 * r.length(c) + 1).append('x');
        for (int i = 0; i < r.length(c); i++) sb.append(String.format("%02x", r.bytes(c)[i] & 0xFF));
        return sb.toString();
    }

    /** Every column of {@code r}, comma-separated. */
    static String render(Record r) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < r.schema().fieldCount(); c++)
            sb.append(c == 0 ? "" : ",").append(render(r, c));
        return sb.toString();
    }

    volatile Effects effects;

    /** One table and its primary-key index. */
    final class Indexed implements Rows<Transaction> {
        final ArrowTable table;
        final Map<Long, Long> index = new ConcurrentHashMap<>();

        Indexed(ArrowTable table) {
            this.table = table;
            table.setMoveListener((txn, from, to) -> {
                Record r = new Record(table.schema());
                if (table.select(txn, to, r)) {
                    long key = r.getLong(0);
                    txn.onCommit(() -> index.replace(spread(key), from, to));
                }
            });
        }

        @Override
        public String name() {
            return table.name();
        }

        /** Fills the index from the table (after recovery: indexes are not logged, they are rebuilt). */
        void rebuildIndex() {
            index.clear();
            Transaction t = tm.begin();
            table.scan(t, (slot, r) -> {
                if (index.put(spread(r.getLong(0)), slot) != null)
                    throw new IllegalStateException(name() + ": key " + r.getLong(0) + " twice");
                return true;
            });
            tm.commit(t);
        }

        @Override
        public void insert(Transaction t, Record r) {
            long slot = table.insert(t, r);
            long key = spread(r.getLong(0));
            t.onCommit(() -> index.put(key, slot));
            Effects e = effects;
            if (e != null) e.inserted(this, r);
        }

        /** An insert into a table without a key index (HISTORY). */
        @Override
        public void append(Transaction t, Record r) {
            table.insert(t, r);
            Effects e = effects;
            if (e != null) e.inserted(this, r);
        }

        /** Reads the row with {@code key} into {@code into}; false if absent from the index or the snapshot. */
        @Override
        public boolean get(Transaction t, long key, Record into) {
            Long slot = index.get(spread(key));
            return slot != null && table.select(t, slot, into);
        }

        @Override
        public boolean update(Transaction t, long key, int[] columns, Record values) {
            Long slot = index.get(spread(key));
            if (slot == null || !table.update(t, slot, columns, values)) return false;
            Effects e = effects;
            if (e != null) e.updated(this, key, columns, values);
            return true;
        }

        @Override
        public boolean delete(Transaction t, long key) {
            long k = spread(key);
            Long slot = index.get(k);
            if (slot == null || !table.delete(t, slot)) return false;
            t.onCommit(() -> index.remove(k, slot));
            Effects e = effects;
            if (e != null) e.deleted(this, key);
            return true;
        }
    }

    final TransactionManager tm;
    final GarbageCollector gc;
    /** The durable database the tables live in, or null (in memory, no log). */
    final ArrowDatabase db;

    private final List<Indexed> tables = new ArrayList<>();
    final List<BlockTransformer> transformers = new ArrayList<>();

    TpccLikeMix(int warehouses, int items, int customers) {
        this(warehouses, items, customers, null);
    }

    /** The mix on the tables of {@code db} (opened with {@link #tableDefs()}); in memory if null. */
    TpccLikeMix(int warehouses, int items, int customers, ArrowDatabase db) {
        super(warehouses, items, customers);
        this.db = db;
        this.tm = db == null ? new TransactionManager() : db.transactions();
        this.gc = db == null ? new GarbageCollector(tm) : db.gc();
        for (int i = 0; i < NAMES.size(); i++) tables.add(table(NAMES.get(i), SCHEMAS.get(i)));
        bind(tables);
    }

    private Indexed table(String name, RecordSchema s) {
        return new Indexed(db == null ? new ArrowTable(name, s, tm) : db.table(name));
    }

    List<Indexed> tables() {
        return tables;
    }

    /** Watches every table for cold blocks (the transformation in the background). */
    void enableTransformation(long coldAfterEpochs, int groupSize) {
        for (Indexed t : tables()) transformers.add(new BlockTransformer(t.table, gc, coldAfterEpochs, groupSize));
    }

    @Override
    Transaction begin() {
        return tm.begin();
    }

    @Override
    boolean commit(Transaction t, Runnable durable) {
        return tm.commit(t, durable);
    }

    @Override
    void abort(Transaction t) {
        tm.abort(t);
    }

    @Override
    boolean mustAbort(Transaction t) {
        return t.mustAbort();
    }

    @Override
    void onCommit(Transaction t, Runnable action) {
        t.onCommit(action);
    }

    @Override
    void onAbort(Transaction t, Runnable action) {
        t.onAbort(action);
    }

    @Override
    void afterLoadBatch() {
        gc.run();
    }
}

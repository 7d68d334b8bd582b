package dev.wastecheck.engine.block;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The TPC-C-like mix ({@link TpccLikeWorkload}: the same transactions and the same data as {@link
 * TpccLikeMix}) on the page engine's tables ({@code engine/table}): NSM heap pages in the buffer pool
 * and, for the eight keyed tables, a unique B+tree primary-key index in the same pool. The baseline
 * of "OLTP on Arrow-native blocks at a row store's speed" (Li et al., VLDB 2020, §6.1).
 *
 * <p>What the page engine has, and therefore what this run has, for concurrency: page latches (a
 * frame's monitor around each page access), one read-write lock per B+tree, the buffer pool's pin
 * path; a {@link Table} keeps scratch buffers of its own, so each operation on a table holds that
 * table's monitor. It has <em>no transactions</em>: no isolation, no undo, no rollback, no log. The
 * mix needs none of them to compute the same results here, because each worker owns its warehouse
 * (no two workers write the same row) and no transaction of the mix aborts on this storage (a read or
 * write that fails throws: it would be a bug, and the run counts 0 aborts on the Arrow side too).
 * The Arrow side pays for MVCC (undo records, version chains, a transaction manager, the collector)
 * and, with logging on, for redo buffers and a forced log; none of that exists here.
 *
 * <p>{@code hashIndex}: the keys are kept in the same kind of hash map the Arrow mix uses (key to tuple
 * id) instead of the B+trees, so that a comparison with it differs in the storage alone.
 */
final class NsmTpccLikeMix extends TpccLikeWorkload<NsmTpccLikeMix.Txn> implements AutoCloseable {
    /** What the page engine has of a transaction: the actions to run at its end. Nothing is undone. */
    static final class Txn {
        private final List<Runnable> onCommit = new ArrayList<>(4);
    }

    final Database db;
    final boolean hashIndex;

    /**
     * @param pageSize    bytes of a page (8 KB as a row store's)
     * @param memoryBytes the buffer pool: large enough that no page is ever evicted (the paper's
     *                    in-memory setting; Arrow blocks are in memory too)
     */
    NsmTpccLikeMix(int warehouses, int items, int customers, int pageSize, long memoryBytes, boolean hashIndex) {
        super(warehouses, items, customers);
        this.hashIndex = hashIndex;
        List<TableSpec> specs = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            RecordSchema s = SCHEMAS.get(i);
            List<ColumnSpec> columns = new ArrayList<>();
            for (int f = 0; f < s.fieldCount(); f++)
                columns.add(new ColumnSpec(s.field(f).name(), s.type(f), s.nullable(f), false));
            boolean keyed = !hashIndex && !NAMES.get(i).equals("history");
            List<IndexSpec> indexes = keyed
                    ? List.of(
                            new IndexSpec(IndexSpec.PRIMARY, List.of(s.field(0).name()), true))
                    : List.of();
            specs.add(new TableSpec(NAMES.get(i), columns, indexes));
        }
        db = new Database(specs, Layout.NSM, CachePolicy.OFF, 0, pageSize, memoryBytes, DeviceModel.MEMORY);
        List<Rows<Txn>> rows = new ArrayList<>();
        for (String n : NAMES) rows.add(new PageRows(db.table(n)));
        bind(rows);
    }

    /** One table on pages, by primary key. */
    final class PageRows implements Rows<Txn> {
        final Table table;
        final Table.Part part;
        /** With {@code hashIndex}: key to tuple id, as the Arrow mix's index. */
        final Map<Long, Long> index = new ConcurrentHashMap<>();
        /** The key's record, for encoding it into a B+tree key (under the table's monitor). */
        private final Record keyRecord;
        /** The old values an update reads (the table's own scratch, under its monitor). */
        private final Record scratch;

        PageRows(Table table) {
            this.table = table;
            this.part = table.main();
            this.keyRecord = new Record(table.schema());
            this.scratch = new Record(table.schema());
        }

        @Override
        public String name() {
            return table.name();
        }

        /** The tuple id of {@code key}, or NONE; under the table's monitor. */
        private long lookup(long key) {
            if (hashIndex) {
                Long tid = index.get(spread(key));
                return tid == null ? TupleId.NONE : tid;
            }
            return part.tree(0).lookup(table.key(0, keyRecord.setLong(0, key)));
        }

        @Override
        public boolean get(Txn t, long key, Record into) {
            synchronized (table) {
                long tid = lookup(key);
                if (tid == TupleId.NONE) return false;
                table.read(part, tid, into);
                return true;
            }
        }

        @Override
        public boolean update(Txn t, long key, int[] columns, Record values) {
            synchronized (table) {
                long tid = lookup(key);
                if (tid == TupleId.NONE) return false;
                long moved = table.update(part, tid, columns, values, scratch);
                if (moved == TupleId.NONE) throw new IllegalStateException(name() + ": update of " + key + " failed");
                if (hashIndex && moved != tid) index.put(spread(key), moved);
                return true;
            }
        }

        @Override
        public void insert(Txn t, Record r) {
            synchronized (table) {
                long tid = table.insert(part, r);
                if (tid == TupleId.NONE) throw new IllegalStateException(name() + ": key " + r.getLong(0) + " twice");
                if (hashIndex) index.put(spread(r.getLong(0)), tid);
            }
        }

        @Override
        public void append(Txn t, Record r) {
            synchronized (table) {
                table.insert(part, r);
            }
        }

        @Override
        public boolean delete(Txn t, long key) {
            synchronized (table) {
                long tid = lookup(key);
                if (tid == TupleId.NONE) return false;
                table.delete(part, tid, scratch);
                if (hashIndex) index.remove(spread(key));
                return true;
            }
        }
    }

    /** Pages the heaps and indexes hold now. */
    long bytes() {
        return db.heapBytes() + db.indexBytes();
    }

    @Override
    Txn begin() {
        return new Txn();
    }

    @Override
    boolean commit(Txn t, Runnable durable) {
        for (Runnable a : t.onCommit) a.run();
        if (durable != null) durable.run();
        return true;
    }

    @Override
    void abort(Txn t) {
        throw new IllegalStateException(
                "the page engine cannot roll a transaction back, and none of the mix should abort");
    }

    @Override
    boolean mustAbort(Txn t) {
        return false;
    }

    @Override
    void onCommit(Txn t, Runnable action) {
        t.onCommit.add(action);
    }

    @Override
    void onAbort(Txn t, Runnable action) {
        // nothing aborts (see abort)
    }

    @Override
    public void close() {
        db.close();
    }
}

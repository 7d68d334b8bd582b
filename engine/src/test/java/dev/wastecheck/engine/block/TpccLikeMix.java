package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TPC-C-like write-heavy mix on {@link ArrowTable}s, for the transformation's overhead on OLTP
 * throughput (Li et al., VLDB 2020, §6.1 runs TPC-C with the transformation in the background).
 * The nine TPC-C tables with their hot columns (a variable-length column in each table that has
 * one in TPC-C), the standard mix of NewOrder 45%, Payment 43%, OrderStatus 4%, Delivery 4%,
 * StockLevel 4%, one worker per warehouse (its home warehouse, as TPC-C terminals have). Scaled
 * down: {@code items} items and stock per warehouse, {@code customers} customers per district.
 *
 * <p>What makes it TPC-C-like rather than TPC-C: no think times, no remote warehouses, no 1%
 * rolled-back NewOrders, no customer lookup by name, no secondary indexes; the access pattern the
 * transformation sees is the same: ORDERS, ORDER_LINE, NEW_ORDER and HISTORY grow by appends and
 * their blocks go cold once their orders are delivered; CUSTOMER, STOCK and DISTRICT stay hot.
 *
 * <p>Indexes are hash maps from a packed key to the tuple slot, updated on commit; compaction's
 * moves reach them through the table's move listener.
 */
final class TpccLikeMix {
    static final RecordSchema WAREHOUSE = schema("w_id:INT32", "w_ytd:FLOAT64", "w_tax:FLOAT64", "w_name:VARLEN");
    static final RecordSchema DISTRICT =
            schema("d_key:INT64", "d_next_o_id:INT32", "d_ytd:FLOAT64", "d_tax:FLOAT64", "d_name:VARLEN");
    static final RecordSchema CUSTOMER = schema(
            "c_key:INT64",
            "c_balance:FLOAT64",
            "c_ytd_payment:FLOAT64",
            "c_payment_cnt:INT32",
            "c_delivery_cnt:INT32",
            "c_last:VARLEN",
            "c_data:VARLEN");
    static final RecordSchema ITEM = schema("i_id:INT32", "i_price:FLOAT64", "i_name:VARLEN");
    static final RecordSchema STOCK = schema(
            "s_key:INT64", "s_quantity:INT32", "s_ytd:INT32", "s_order_cnt:INT32", "s_dist:VARLEN", "s_data:VARLEN");
    static final RecordSchema ORDERS =
            schema("o_key:INT64", "o_c_id:INT32", "o_entry_d:INT64", "o_carrier_id:INT32?", "o_ol_cnt:INT32");
    static final RecordSchema NEW_ORDER = schema("no_key:INT64");
    static final RecordSchema ORDER_LINE = schema(
            "ol_key:INT64",
            "ol_i_id:INT32",
            "ol_quantity:INT32",
            "ol_amount:FLOAT64",
            "ol_delivery_d:INT64?",
            "ol_dist_info:VARLEN");
    static final RecordSchema HISTORY = schema("h_c_key:INT64", "h_date:INT64", "h_amount:FLOAT64", "h_data:VARLEN");

    static RecordSchema schema(String... columns) {
        List<Field> fields = new ArrayList<>();
        for (String c : columns) {
            boolean nullable = c.endsWith("?");
            String[] p = (nullable ? c.substring(0, c.length() - 1) : c).split(":");
            FieldType t = FieldType.valueOf(p[1]);
            fields.add(t.isVariable() ? Field.varlen(p[0], nullable, 24) : new Field(p[0], t, nullable, 0));
        }
        return new RecordSchema(fields);
    }

    /** The nine tables, for an {@link ArrowDatabase} (the order is their identifier in the log). */
    static List<ArrowDatabase.TableDef> tableDefs() {
        return List.of(
                new ArrowDatabase.TableDef("warehouse", WAREHOUSE),
                new ArrowDatabase.TableDef("district", DISTRICT),
                new ArrowDatabase.TableDef("customer", CUSTOMER),
                new ArrowDatabase.TableDef("item", ITEM),
                new ArrowDatabase.TableDef("stock", STOCK),
                new ArrowDatabase.TableDef("orders", ORDERS),
                new ArrowDatabase.TableDef("new_order", NEW_ORDER),
                new ArrowDatabase.TableDef("order_line", ORDER_LINE),
                new ArrowDatabase.TableDef("history", HISTORY));
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
    final class Indexed {
        final ArrowTable table;
        final Map<Long, Long> index = new ConcurrentHashMap<>();

        Indexed(ArrowTable table) {
            this.table = table;
            table.setMoveListener((txn, from, to) -> {
                Record r = new Record(table.schema());
                if (table.select(txn, to, r)) {
                    long key = r.getLong(0);
                    txn.onCommit(() -> index.replace(key, from, to));
                }
            });
        }

        String name() {
            return table.name();
        }

        /** Fills the index from the table (after recovery: indexes are not logged, they are rebuilt). */
        void rebuildIndex() {
            index.clear();
            Transaction t = tm.begin();
            table.scan(t, (slot, r) -> {
                if (index.put(r.getLong(0), slot) != null)
                    throw new IllegalStateException(name() + ": key " + r.getLong(0) + " twice");
                return true;
            });
            tm.commit(t);
        }

        long insert(Transaction t, Record r) {
            long slot = table.insert(t, r);
            long key = r.getLong(0);
            t.onCommit(() -> index.put(key, slot));
            Effects e = effects;
            if (e != null) e.inserted(this, r);
            return slot;
        }

        /** An insert into a table without a key index (HISTORY). */
        void append(Transaction t, Record r) {
            table.insert(t, r);
            Effects e = effects;
            if (e != null) e.inserted(this, r);
        }

        /** Reads the row with {@code key} into {@code into}; false if absent from the index or the snapshot. */
        boolean get(Transaction t, long key, Record into) {
            Long slot = index.get(key);
            return slot != null && table.select(t, slot, into);
        }

        boolean update(Transaction t, long key, int[] columns, Record values) {
            Long slot = index.get(key);
            if (slot == null || !table.update(t, slot, columns, values)) return false;
            Effects e = effects;
            if (e != null) e.updated(this, key, columns, values);
            return true;
        }

        boolean delete(Transaction t, long key) {
            Long slot = index.get(key);
            if (slot == null || !table.delete(t, slot)) return false;
            t.onCommit(() -> index.remove(key, slot));
            Effects e = effects;
            if (e != null) e.deleted(this, key);
            return true;
        }
    }

    final TransactionManager tm;
    final GarbageCollector gc;
    /** The durable database the tables live in, or null (in memory, no log). */
    final ArrowDatabase db;

    final int warehouses, items, customers;
    final Indexed warehouse, district, customer, item, stock, orders, newOrder, orderLine, history;
    final List<BlockTransformer> transformers = new ArrayList<>();
    final AtomicLong historyKeys = new AtomicLong();
    /** Commit callbacks fired: a client told its transaction is durable (§3.4; at once without a log). */
    final AtomicLong durable = new AtomicLong();
    /** Per district: the orders not yet delivered, oldest first (the home worker's own). */
    final ArrayDeque<Integer>[] undelivered;
    /** Per customer: the last order it placed. */
    final Map<Long, Integer> lastOrder = new ConcurrentHashMap<>();

    TpccLikeMix(int warehouses, int items, int customers) {
        this(warehouses, items, customers, null);
    }

    /** The mix on the tables of {@code db} (opened with {@link #tableDefs()}); in memory if null. */
    @SuppressWarnings("unchecked")
    TpccLikeMix(int warehouses, int items, int customers, ArrowDatabase db) {
        this.db = db;
        this.tm = db == null ? new TransactionManager() : db.transactions();
        this.gc = db == null ? new GarbageCollector(tm) : db.gc();
        this.warehouses = warehouses;
        this.items = items;
        this.customers = customers;
        warehouse = table("warehouse", WAREHOUSE);
        district = table("district", DISTRICT);
        customer = table("customer", CUSTOMER);
        item = table("item", ITEM);
        stock = table("stock", STOCK);
        orders = table("orders", ORDERS);
        newOrder = table("new_order", NEW_ORDER);
        orderLine = table("order_line", ORDER_LINE);
        history = table("history", HISTORY);
        undelivered = new ArrayDeque[(warehouses + 1) * 16];
        for (int i = 0; i < undelivered.length; i++) undelivered[i] = new ArrayDeque<>();
    }

    private Indexed table(String name, RecordSchema s) {
        return new Indexed(db == null ? new ArrowTable(name, s, tm) : db.table(name));
    }

    List<Indexed> tables() {
        return List.of(warehouse, district, customer, item, stock, orders, newOrder, orderLine, history);
    }

    /** Watches every table for cold blocks (the transformation in the background). */
    void enableTransformation(long coldAfterEpochs, int groupSize) {
        for (Indexed t : tables()) transformers.add(new BlockTransformer(t.table, gc, coldAfterEpochs, groupSize));
    }

    static long dKey(int w, int d) {
        return w * 16L + d;
    }

    static long cKey(int w, int d, int c) {
        return (dKey(w, d) << 20) | c;
    }

    static long sKey(int w, int i) {
        return ((long) w << 24) | i;
    }

    static long oKey(int w, int d, int o) {
        return (dKey(w, d) << 32) | o;
    }

    static long olKey(int w, int d, int o, int n) {
        return (oKey(w, d, o) << 4) | n;
    }

    static String text(SplittableRandom r, int min, int max) {
        int n = min + r.nextInt(max - min + 1);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) c[i] = (char) ('a' + r.nextInt(26));
        return new String(c);
    }

    void load(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Transaction t = tm.begin();
        Record it = new Record(ITEM);
        for (int i = 1; i <= items; i++)
            item.insert(
                    t,
                    it.setLong(0, i).setDouble(1, 1 + r.nextInt(10000) / 100.0).setString(2, text(r, 14, 24)));
        t = commitAndBegin(t);
        for (int w = 1; w <= warehouses; w++) {
            warehouse.insert(
                    t,
                    new Record(WAREHOUSE)
                            .setLong(0, w)
                            .setDouble(1, 300000)
                            .setDouble(2, r.nextInt(2000) / 10000.0)
                            .setString(3, text(r, 6, 10)));
            Record s = new Record(STOCK);
            for (int i = 1; i <= items; i++) {
                stock.insert(
                        t,
                        s.setLong(0, sKey(w, i))
                                .setLong(1, 10 + r.nextInt(91))
                                .setLong(2, 0)
                                .setLong(3, 0)
                                .setString(4, text(r, 24, 24))
                                .setString(5, text(r, 26, 50)));
                if (i % 10_000 == 0) t = commitAndBegin(t);
            }
            for (int d = 1; d <= 10; d++) {
                district.insert(
                        t,
                        new Record(DISTRICT)
                                .setLong(0, dKey(w, d))
                                .setLong(1, 1)
                                .setDouble(2, 30000)
                                .setDouble(3, r.nextInt(2000) / 10000.0)
                                .setString(4, text(r, 6, 10)));
                Record c = new Record(CUSTOMER);
                for (int i = 1; i <= customers; i++) {
                    customer.insert(
                            t,
                            c.setLong(0, cKey(w, d, i))
                                    .setDouble(1, -10)
                                    .setDouble(2, 10)
                                    .setLong(3, 1)
                                    .setLong(4, 0)
                                    .setString(5, text(r, 8, 16))
                                    .setString(6, text(r, 100, 300)));
                }
                t = commitAndBegin(t);
            }
        }
        tm.commit(t);
        for (int i = 0; i < 3; i++) gc.run();
    }

    private Transaction commitAndBegin(Transaction t) {
        tm.commit(t);
        gc.run();
        return tm.begin();
    }

    /**
     * Runs the mix on {@code threads} workers (warehouse i+1 each) for {@code millis}; returns
     * committed transactions, aborted ones, and the workers' CPU nanoseconds.
     */
    long[] run(int threads, long millis, long seed) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong committed = new AtomicLong(), aborted = new AtomicLong(), cpu = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int w = 1 + i % warehouses;
            SplittableRandom r = new SplittableRandom(seed * 31 + i);
            workers.add(new Thread(
                    () -> {
                        Worker k = new Worker(w, r);
                        long cpu0 = java.lang.management.ManagementFactory.getThreadMXBean()
                                .getCurrentThreadCpuTime();
                        while (!stop.get()) {
                            if (k.next()) committed.incrementAndGet();
                            else aborted.incrementAndGet();
                        }
                        cpu.addAndGet(java.lang.management.ManagementFactory.getThreadMXBean()
                                        .getCurrentThreadCpuTime()
                                - cpu0);
                    },
                    "tpcc-" + i));
        }
        workers.forEach(Thread::start);
        Thread.sleep(millis);
        stop.set(true);
        for (Thread t : workers) t.join();
        return new long[] {committed.get(), aborted.get(), cpu.get()};
    }

    /** One terminal: the transactions of the mix on its home warehouse. */
    final class Worker {
        final int w;
        final SplittableRandom r;
        final Record wh = new Record(WAREHOUSE),
                di = new Record(DISTRICT),
                cu = new Record(CUSTOMER),
                itr = new Record(ITEM),
                st = new Record(STOCK),
                or = new Record(ORDERS),
                no = new Record(NEW_ORDER),
                ol = new Record(ORDER_LINE),
                hi = new Record(HISTORY);

        Worker(int w, SplittableRandom r) {
            this.w = w;
            this.r = r;
        }

        /** One transaction of the mix; true when it committed. */
        boolean next() {
            Transaction t = tm.begin();
            boolean ok = step(t);
            if (!ok || t.mustAbort()) {
                tm.abort(t);
                return false;
            }
            return tm.commit(t, durable::incrementAndGet);
        }

        /** The body of one transaction of the mix, chosen at random, inside {@code t}; false if it must abort. */
        boolean step(Transaction t) {
            int k = r.nextInt(100);
            if (k < 45) return newOrder(t);
            if (k < 88) return payment(t);
            if (k < 92) return orderStatus(t);
            if (k < 96) return delivery(t);
            return stockLevel(t);
        }

        boolean newOrder(Transaction t) {
            int d = 1 + r.nextInt(10), c = 1 + r.nextInt(customers);
            if (!warehouse.get(t, w, wh) || !district.get(t, dKey(w, d), di) || !customer.get(t, cKey(w, d, c), cu))
                return false;
            int o = (int) di.getLong(1);
            if (!district.update(t, dKey(w, d), new int[] {1}, di.setLong(1, o + 1))) return false;
            int lines = 5 + r.nextInt(11);
            orders.insert(
                    t,
                    or.setLong(0, oKey(w, d, o))
                            .setLong(1, c)
                            .setLong(2, System.nanoTime())
                            .setNull(3)
                            .setLong(4, lines));
            newOrder.insert(t, no.setLong(0, oKey(w, d, o)));
            for (int n = 1; n <= lines; n++) {
                int i = 1 + r.nextInt(items), qty = 1 + r.nextInt(10);
                if (!item.get(t, i, itr) || !stock.get(t, sKey(w, i), st)) return false;
                long q = st.getLong(1);
                st.setLong(1, q >= qty + 10 ? q - qty : q - qty + 91)
                        .setLong(2, st.getLong(2) + qty)
                        .setLong(3, st.getLong(3) + 1);
                if (!stock.update(t, sKey(w, i), new int[] {1, 2, 3}, st)) return false;
                orderLine.insert(
                        t,
                        ol.setLong(0, olKey(w, d, o, n))
                                .setLong(1, i)
                                .setLong(2, qty)
                                .setDouble(3, qty * itr.getDouble(1))
                                .setNull(4)
                                .setBytes(5, st.bytes(4), 0, st.length(4)));
            }
            long ck = cKey(w, d, c);
            t.onCommit(() -> {
                synchronized (undelivered[(int) dKey(w, d)]) {
                    undelivered[(int) dKey(w, d)].add(o);
                }
                lastOrder.put(ck, o);
            });
            return true;
        }

        boolean payment(Transaction t) {
            int d = 1 + r.nextInt(10), c = 1 + r.nextInt(customers);
            double amount = 1 + r.nextInt(500000) / 100.0;
            if (!warehouse.get(t, w, wh)
                    || !warehouse.update(t, w, new int[] {1}, wh.setDouble(1, wh.getDouble(1) + amount))) return false;
            if (!district.get(t, dKey(w, d), di)
                    || !district.update(t, dKey(w, d), new int[] {2}, di.setDouble(2, di.getDouble(2) + amount)))
                return false;
            long ck = cKey(w, d, c);
            if (!customer.get(t, ck, cu)) return false;
            cu.setDouble(1, cu.getDouble(1) - amount)
                    .setDouble(2, cu.getDouble(2) + amount)
                    .setLong(3, cu.getLong(3) + 1);
            int[] cols = {1, 2, 3};
            if (r.nextInt(10) == 0) { // bad credit: the customer's data grows at the front (a variable-size update)
                String data = ck + " " + amount + " " + cu.getString(6);
                cu.setString(6, data.substring(0, Math.min(500, data.length())));
                cols = new int[] {1, 2, 3, 6};
            }
            if (!customer.update(t, ck, cols, cu)) return false;
            history.append(
                    t,
                    hi.setLong(0, ck)
                            .setLong(1, historyKeys.incrementAndGet())
                            .setDouble(2, amount)
                            .setString(3, text(r, 12, 24)));
            return true;
        }

        boolean orderStatus(Transaction t) {
            int d = 1 + r.nextInt(10), c = 1 + r.nextInt(customers);
            long ck = cKey(w, d, c);
            if (!customer.get(t, ck, cu)) return false;
            Integer o = lastOrder.get(ck);
            if (o == null || !orders.get(t, oKey(w, d, o), or)) return true;
            for (int n = 1; n <= or.getLong(4); n++) orderLine.get(t, olKey(w, d, o, n), ol);
            return true;
        }

        boolean delivery(Transaction t) {
            long now = System.nanoTime();
            for (int d = 1; d <= 10; d++) {
                ArrayDeque<Integer> q = undelivered[(int) dKey(w, d)];
                Integer o;
                synchronized (q) {
                    o = q.poll();
                }
                if (o == null) continue;
                int oo = o, dd = d;
                t.onAbort(() -> {
                    synchronized (q) {
                        q.addFirst(oo);
                    }
                });
                if (!newOrder.delete(t, oKey(w, d, o)) || !orders.get(t, oKey(w, d, o), or)) return false;
                if (!orders.update(t, oKey(w, d, o), new int[] {3}, or.setLong(3, 1 + r.nextInt(10)))) return false;
                double total = 0;
                for (int n = 1; n <= or.getLong(4); n++) {
                    if (!orderLine.get(t, olKey(w, d, o, n), ol)) return false;
                    total += ol.getDouble(3);
                    if (!orderLine.update(t, olKey(w, d, o, n), new int[] {4}, ol.setLong(4, now))) return false;
                }
                long ck = cKey(w, dd, (int) or.getLong(1));
                if (!customer.get(t, ck, cu)) return false;
                if (!customer.update(
                        t,
                        ck,
                        new int[] {1, 4},
                        cu.setDouble(1, cu.getDouble(1) + total).setLong(4, cu.getLong(4) + 1))) return false;
            }
            return true;
        }

        boolean stockLevel(Transaction t) {
            int d = 1 + r.nextInt(10);
            if (!district.get(t, dKey(w, d), di)) return false;
            int next = (int) di.getLong(1), low = 0;
            for (int o = Math.max(1, next - 20); o < next; o++) {
                for (int n = 1; n <= 15; n++) {
                    if (!orderLine.get(t, olKey(w, d, o, n), ol)) break;
                    if (stock.get(t, sKey(w, (int) ol.getLong(1)), st) && st.getLong(1) < 15) low++;
                }
            }
            return low >= 0;
        }
    }
}

package dev.wastecheck.engine.block;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The TPC-C-like mix itself, its data and its five transactions, on any storage that reads, updates,
 * inserts and deletes rows by primary key inside a transaction of type {@code T}: Arrow tables under
 * MVCC ({@link TpccLikeMix}) or the page engine's NSM tables ({@link NsmTpccLikeMix}). Both run the
 * same code below on the same data (the same seed gives the same rows and the same choices), so a
 * throughput ratio between them is a ratio between storages, not between workloads.
 *
 * <p>The nine TPC-C tables with their hot columns (a variable-length column in each table that has
 * one in TPC-C), the standard mix of NewOrder 45%, Payment 43%, OrderStatus 4%, Delivery 4%,
 * StockLevel 4%, one worker per warehouse (its home warehouse, as TPC-C terminals have). Scaled down:
 * {@code items} items and stock per warehouse, {@code customers} customers per district.
 *
 * <p>What makes it TPC-C-like rather than TPC-C: no think times, no remote warehouses, no 1%
 * rolled-back NewOrders, no customer lookup by name, no secondary indexes; the access pattern the
 * transformation sees is the same: ORDERS, ORDER_LINE, NEW_ORDER and HISTORY grow by appends and
 * their blocks go cold once their orders are delivered; CUSTOMER, STOCK and DISTRICT stay hot.
 */
abstract class TpccLikeWorkload<T> {
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

    /** The tables by name, in their order (an {@link ArrowDatabase}'s log identifiers). */
    static final List<String> NAMES = List.of(
            "warehouse", "district", "customer", "item", "stock", "orders", "new_order", "order_line", "history");

    static final List<RecordSchema> SCHEMAS =
            List.of(WAREHOUSE, DISTRICT, CUSTOMER, ITEM, STOCK, ORDERS, NEW_ORDER, ORDER_LINE, HISTORY);

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

    /**
     * One table's rows by primary key (column 0) inside transactions of type {@code T}. False from a
     * read or a write means the row is not there for {@code t}, or (MVCC) a write-write conflict.
     */
    interface Rows<T> {
        String name();

        boolean get(T t, long key, Record into);

        boolean update(T t, long key, int[] columns, Record values);

        /** Inserts a row under its key (column 0). */
        void insert(T t, Record r);

        /** Inserts a row no index finds (HISTORY). */
        void append(T t, Record r);

        boolean delete(T t, long key);
    }

    // ---- what a storage provides ----------------------------------------------------------------

    abstract T begin();

    /** Commits {@code t}; {@code durable} runs once its result may be released. False if it aborted instead. */
    abstract boolean commit(T t, Runnable durable);

    abstract void abort(T t);

    /** Whether a write of {@code t} failed, so that it cannot commit. */
    abstract boolean mustAbort(T t);

    /** Runs {@code action} when {@code t} commits (index and queue changes other workers may see). */
    abstract void onCommit(T t, Runnable action);

    /** Runs {@code action} if {@code t} aborts. */
    abstract void onAbort(T t, Runnable action);

    /** Called between the load's transactions (the Arrow side collects garbage there). */
    void afterLoadBatch() {}

    // ---- the mix ----------------------------------------------------------------------------------

    final int warehouses, items, customers;
    Rows<T> warehouse, district, customer, item, stock, orders, newOrder, orderLine, history;
    final AtomicLong historyKeys = new AtomicLong();
    /** Commit callbacks fired: a client told its transaction is durable (§3.4; at once without a log). */
    final AtomicLong durable = new AtomicLong();
    /** Per district: the orders not yet delivered, oldest first (the home worker's own). */
    final ArrayDeque<Integer>[] undelivered;
    /** Where the workers' time went in the last {@link #run}, summed over them (Linux's accounting). */
    volatile ThreadClock lastRunClock = ThreadClock.ZERO;
    /** Per customer: the last order it placed. */
    final Map<Long, Integer> lastOrder = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    TpccLikeWorkload(int warehouses, int items, int customers) {
        this.warehouses = warehouses;
        this.items = items;
        this.customers = customers;
        undelivered = new ArrayDeque[(warehouses + 1) * 16];
        for (int i = 0; i < undelivered.length; i++) undelivered[i] = new ArrayDeque<>();
    }

    /** Sets the nine tables, in {@link #NAMES}' order (from the subclass's constructor). */
    final void bind(List<? extends Rows<T>> rows) {
        List<Rows<T>> r = new ArrayList<>();
        for (Rows<T> x : rows) r.add(COUNT ? new Counted<>(x, operations) : x);
        warehouse = r.get(0);
        district = r.get(1);
        customer = r.get(2);
        item = r.get(3);
        stock = r.get(4);
        orders = r.get(5);
        newOrder = r.get(6);
        orderLine = r.get(7);
        history = r.get(8);
    }

    /** With {@code -Dmix.count=true}: every operation is counted by kind (for per-operation costs from a profile). */
    static final boolean COUNT = Boolean.getBoolean("mix.count");

    /** Operations run while counting: gets, updates, inserts (appends included), deletes. */
    final LongAdder[] operations = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

    /** Counts each operation of {@code rows} by kind, then does it. */
    private record Counted<T>(Rows<T> rows, LongAdder[] ops) implements Rows<T> {
        @Override
        public String name() {
            return rows.name();
        }

        @Override
        public boolean get(T t, long key, Record into) {
            ops[0].increment();
            return rows.get(t, key, into);
        }

        @Override
        public boolean update(T t, long key, int[] columns, Record values) {
            ops[1].increment();
            return rows.update(t, key, columns, values);
        }

        @Override
        public void insert(T t, Record r) {
            ops[2].increment();
            rows.insert(t, r);
        }

        @Override
        public void append(T t, Record r) {
            ops[2].increment();
            rows.append(t, r);
        }

        @Override
        public boolean delete(T t, long key) {
            ops[3].increment();
            return rows.delete(t, key);
        }
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

    /**
     * A key as the hash-map indexes keep it: splitmix64's finalizer, a bijection, so distinct keys stay
     * distinct. The packed keys themselves hash badly ({@code Long.hashCode} folds the district into
     * the order number), which had the maps' bins turn into trees and took a quarter of the mix's CPU
     * in a profile of either storage.
     */
    static long spread(long key) {
        long z = key;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static String text(SplittableRandom r, int min, int max) {
        int n = min + r.nextInt(max - min + 1);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) c[i] = (char) ('a' + r.nextInt(26));
        return new String(c);
    }

    /** Loads items, warehouses, stock, districts and customers; the same seed gives the same rows. */
    void load(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        T t = begin();
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
        commit(t, null);
        for (int i = 0; i < 3; i++) afterLoadBatch();
    }

    private T commitAndBegin(T t) {
        commit(t, null);
        afterLoadBatch();
        return begin();
    }

    /**
     * Runs the mix on {@code threads} workers (warehouse i+1 each) for {@code millis}; returns
     * committed transactions, aborted ones, and the workers' CPU nanoseconds.
     */
    long[] run(int threads, long millis, long seed) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<ThreadClock> clocks = new AtomicReference<>(ThreadClock.ZERO);
        AtomicLong committed = new AtomicLong(), aborted = new AtomicLong(), cpu = new AtomicLong();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            int w = 1 + i % warehouses;
            SplittableRandom r = new SplittableRandom(seed * 31 + i);
            workers.add(new Thread(
                    () -> {
                        Worker k = new Worker(w, r);
                        ThreadClock clock0 = ThreadClock.now();
                        long cpu0 = mx.getCurrentThreadCpuTime();
                        while (!stop.get()) {
                            if (k.next()) committed.incrementAndGet();
                            else aborted.incrementAndGet();
                        }
                        cpu.addAndGet(mx.getCurrentThreadCpuTime() - cpu0);
                        ThreadClock spent = ThreadClock.now().minus(clock0);
                        clocks.accumulateAndGet(spent, ThreadClock::plus);
                    },
                    "tpcc-" + i));
        }
        workers.forEach(Thread::start);
        Thread.sleep(millis);
        stop.set(true);
        for (Thread t : workers) t.join();
        lastRunClock = clocks.get();
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

        /**
         * The commit callback (a client told its result is durable): one object for every transaction of
         * this worker. A method reference made at each commit was an object per transaction that the
         * log manager holds until its force, so a logged run allocated it and an unlogged one did not.
         */
        final Runnable released = durable::incrementAndGet;

        Worker(int w, SplittableRandom r) {
            this.w = w;
            this.r = r;
        }

        /** One transaction of the mix; true when it committed. */
        boolean next() {
            T t = begin();
            boolean ok = step(t);
            if (!ok || mustAbort(t)) {
                abort(t);
                return false;
            }
            return commit(t, released);
        }

        /** The body of one transaction of the mix, chosen at random, inside {@code t}; false if it must abort. */
        boolean step(T t) {
            int k = r.nextInt(100);
            if (k < 45) return newOrder(t);
            if (k < 88) return payment(t);
            if (k < 92) return orderStatus(t);
            if (k < 96) return delivery(t);
            return stockLevel(t);
        }

        boolean newOrder(T t) {
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
            onCommit(t, () -> {
                synchronized (undelivered[(int) dKey(w, d)]) {
                    undelivered[(int) dKey(w, d)].add(o);
                }
                lastOrder.put(ck, o);
            });
            return true;
        }

        boolean payment(T t) {
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

        boolean orderStatus(T t) {
            int d = 1 + r.nextInt(10), c = 1 + r.nextInt(customers);
            long ck = cKey(w, d, c);
            if (!customer.get(t, ck, cu)) return false;
            Integer o = lastOrder.get(ck);
            if (o == null || !orders.get(t, oKey(w, d, o), or)) return true;
            for (int n = 1; n <= or.getLong(4); n++) orderLine.get(t, olKey(w, d, o, n), ol);
            return true;
        }

        boolean delivery(T t) {
            long now = System.nanoTime();
            for (int d = 1; d <= 10; d++) {
                ArrayDeque<Integer> q = undelivered[(int) dKey(w, d)];
                Integer o;
                synchronized (q) {
                    o = q.poll();
                }
                if (o == null) continue;
                int oo = o, dd = d;
                onAbort(t, () -> {
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

        boolean stockLevel(T t) {
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

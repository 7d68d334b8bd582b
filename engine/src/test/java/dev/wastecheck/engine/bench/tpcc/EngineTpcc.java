package dev.wastecheck.engine.bench.tpcc;

import static dev.wastecheck.layouts.bench.tpc.Tpcc.CUSTOMERS;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_BALANCE;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_CREDIT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_DATA;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_DELIVERY_CNT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_DISCOUNT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_FIRST;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_LAST;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_PAYMENT_CNT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.C_YTD_PAYMENT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.DISTRICTS;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.D_NAME;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.D_NEXT_O_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.D_TAX;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.D_YTD;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.I_PRICE;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.OL_AMOUNT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.OL_DELIVERY_D;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.OL_D_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.OL_I_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.OL_O_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.O_CARRIER_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.O_C_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.O_D_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.O_ID;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.S_ORDER_CNT;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.S_QUANTITY;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.S_YTD;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.W_NAME;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.W_TAX;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.W_YTD;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.lastName;
import static dev.wastecheck.layouts.bench.tpc.Tpcc.nurand;

import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.KeyEncoder;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.bench.tpc.PageHeap;
import dev.wastecheck.layouts.bench.tpc.Tpcc;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * TPC-C inside the engine: the layouts module's {@link Tpcc} (one warehouse, the same rows, the
 * same inputs drawn in the same order, the same five transactions) with every table a
 * {@link HeapFile} of one layout's pages in a buffer pool ({@link EngineTables}), and every record found through a
 * B+tree ({@link BTree}) on its primary key, or on a secondary key where TPC-C asks for one:
 * customers by (district, last name, first name), orders by (district, customer, order id) for
 * Order-Status, new-order rows by (district, order id) for Delivery's oldest, order lines by
 * (district, order id, line number) for Order-Status, Delivery and Stock-Level's range.
 *
 * <p>This is HPL-2012-240 §6's setup as far as our engine goes: a statement finds its record
 * through a B-tree whose nodes live in the buffer pool, pins and latches the heap page (the
 * frame's monitor) and then does the page operation of the layout. What the engine does not have
 * for heap tables, and so this run does not do: locks, a transaction manager and a write-ahead
 * log (the engine's log and MVCC are the Arrow blocks'); one thread; one warehouse. Every layout
 * runs exactly this code: {@link HeapFile}'s read, getLong, setLongs, setBytes, insert and delete.
 *
 * <p>Statements as a record-level engine runs them: a record read whole, then its fields updated
 * from the values read (one latch for the update), so the stock update of New-Order and the
 * customer update of Payment read the record once. A c_data that its page cannot hold moves the
 * customer to another page (delete, insert, both indexes updated), as a slotted heap forwards a
 * grown record.
 */
public final class EngineTpcc extends EngineTables {
    public final HeapFile warehouse, district, customer, history, newOrder, orders, orderLine, item, stock;
    private final BTree warehousePk, districtPk, customerPk, customerByName, itemPk, stockPk;
    private final BTree orderPk, orderByCustomer, newOrderPk, orderLinePk;
    private final int nurandCLast, nurandCId, nurandItem;
    private SplittableRandom random;
    private long clock = 1L << 40;
    /** Customers moved to another page because their grown c_data did not fit theirs. */
    public long moved;

    private final Record customerRow = new Record(Tpcc.CUSTOMER), stockRow = new Record(Tpcc.STOCK);
    private final Record itemRow = new Record(Tpcc.ITEM), warehouseRow = new Record(Tpcc.WAREHOUSE);
    private final Record districtRow = new Record(Tpcc.DISTRICT), orderRow = new Record(Tpcc.ORDER);
    private final Record lineRow = new Record(Tpcc.ORDER_LINE), newOrderRow = new Record(Tpcc.NEW_ORDER);
    private final Record historyRow = new Record(Tpcc.HISTORY);
    private final byte[] bytes = new byte[600];
    private final Tpcc.NewOrderInput input = new Tpcc.NewOrderInput();
    private final int[] distinct = new int[20 * 15];
    /** Tuple ids a scan collected. */
    private long[] found = new long[64];
    /** Their keys, back to back: key l is {@code foundKeys[foundEnds[l - 1] .. foundEnds[l])} (from 0 for l = 0). */
    private byte[] foundKeys = new byte[64 * 32];

    private int[] foundEnds = new int[64];

    private int foundCount;
    /** The customer tuple {@link #pickCustomer} found through the name index, or NONE. */
    private long pickedTid;

    private static final int[] ONE_CARRIER = {O_CARRIER_ID}, DELIVERY_D = {OL_DELIVERY_D};
    private static final int[] STOCK_UPDATE = {S_QUANTITY, S_YTD, S_ORDER_CNT};
    private static final int[] CUSTOMER_PAYMENT = {C_BALANCE, C_YTD_PAYMENT, C_PAYMENT_CNT};
    private static final int[] CUSTOMER_DELIVERY = {C_BALANCE, C_DELIVERY_CNT};
    private static final int[] W_YTD_ONLY = {W_YTD}, D_YTD_ONLY = {D_YTD}, D_NEXT = {D_NEXT_O_ID};
    private final long[] values = new long[3];

    /**
     * Loads the rows of {@code source} (a freshly built {@link Tpcc}, before it ran anything) into
     * heap files of {@code layout} in a pool of {@code poolBytes} over {@code pageSize}-byte pages,
     * table by table in the source's order, and draws inputs as the source's {@code reset} does
     * for {@code seed}.
     */
    public EngineTpcc(Tpcc source, long seed, Layout layout, int pageSize, long poolBytes) {
        super(layout, pageSize, poolBytes);
        warehouse = table(Tpcc.WAREHOUSE);
        district = table(Tpcc.DISTRICT);
        customer = table(Tpcc.CUSTOMER);
        history = table(Tpcc.HISTORY);
        newOrder = table(Tpcc.NEW_ORDER);
        orders = table(Tpcc.ORDER);
        orderLine = table(Tpcc.ORDER_LINE);
        item = table(Tpcc.ITEM);
        stock = table(Tpcc.STOCK);
        warehousePk = index();
        districtPk = index();
        customerPk = index();
        customerByName = index();
        itemPk = index();
        stockPk = index();
        orderPk = index();
        orderByCustomer = index();
        newOrderPk = index();
        orderLinePk = index();
        load(source.warehouse, Tpcc.WAREHOUSE, r -> warehousePk.insert(key(1), warehouse.insert(r)));
        load(source.district, Tpcc.DISTRICT, r -> districtPk.insert(key(1, (int) r.getLong(0)), district.insert(r)));
        load(source.customer, Tpcc.CUSTOMER, r -> indexCustomer(r, customer.insert(r)));
        load(source.history, Tpcc.HISTORY, history::insert);
        load(
                source.newOrder,
                Tpcc.NEW_ORDER,
                r -> newOrderPk.insert(key(1, (int) r.getLong(1), (int) r.getLong(0)), newOrder.insert(r)));
        load(source.orders, Tpcc.ORDER, r -> indexOrder(r, orders.insert(r)));
        load(
                source.orderLine,
                Tpcc.ORDER_LINE,
                r -> orderLinePk.insert(
                        key(1, (int) r.getLong(OL_D_ID), (int) r.getLong(OL_O_ID), (int) r.getLong(3)),
                        orderLine.insert(r)));
        load(source.item, Tpcc.ITEM, r -> itemPk.insert(key((int) r.getLong(0)), item.insert(r)));
        load(source.stock, Tpcc.STOCK, r -> stockPk.insert(key(1, (int) r.getLong(0)), stock.insert(r)));
        SplittableRandom r = new SplittableRandom(seed); // Tpcc's constructor: C for NURand first
        nurandCLast = r.nextInt(256);
        nurandCId = r.nextInt(1024);
        nurandItem = r.nextInt(8192);
        random = new SplittableRandom(seed * 7 + 1); // Tpcc.reset()
    }

    private interface RowSink {
        void accept(Record r);
    }

    private static void load(PageHeap from, RecordSchema schema, RowSink to) {
        Record r = new Record(schema);
        for (int p = 0; p < from.pageCount(); p++) {
            Page page = from.page(p);
            int slots = page.slotCount();
            for (int s = 0; s < slots; s++) {
                if (page.isGhost(s)) continue;
                page.read(s, r);
                to.accept(r);
            }
        }
    }

    private void indexCustomer(Record r, long tid) {
        int d = (int) r.getLong(1), c = (int) r.getLong(0);
        customerPk.insert(key(1, d, c), tid);
        customerByName.insert(nameKey(d, r, c), tid);
    }

    /** (w, d, c_last, first name's order, c_id): Tpcc orders a last name's customers by their first name's hash. */
    private byte[] nameKey(int d, Record r, int c) {
        return keys.reset()
                .appendInt(1)
                .appendInt(d)
                .appendString(r.getString(C_LAST))
                .appendInt(Arrays.hashCode(r.bytes(C_FIRST)))
                .appendInt(c)
                .toBytes();
    }

    private void indexOrder(Record r, long tid) {
        int d = (int) r.getLong(O_D_ID), o = (int) r.getLong(O_ID);
        orderPk.insert(key(1, d, o), tid);
        orderByCustomer.insert(key(1, d, (int) r.getLong(O_C_ID), o), tid);
    }

    /**
     * Collects the tuple ids of keys in [lo, hi) and their keys into {@link #found} and
     * {@link #foundKeys}, at most {@code limit}: the keys copied from the B+tree's nodes into one
     * reused array ({@link BTree.KeyRefVisitor}), so a range allocates nothing.
     */
    private void collect(BTree tree, byte[] lo, byte[] hi, int limit) {
        foundCount = 0;
        tree.scan(lo, hi, false, collector.limit(limit));
    }

    private final Collector collector = new Collector();

    /** {@link #collect}'s visitor, one object reused (a capturing lambda would be a new one each scan). */
    private final class Collector implements BTree.KeyRefVisitor {
        private int limit;

        Collector limit(int limit) {
            this.limit = limit;
            return this;
        }

        @Override
        public boolean visit(byte[] bytes, int offset, int length, long tid) {
            if (foundCount == found.length) {
                found = Arrays.copyOf(found, 2 * found.length);
                foundEnds = Arrays.copyOf(foundEnds, 2 * foundEnds.length);
            }
            int start = foundCount == 0 ? 0 : foundEnds[foundCount - 1];
            if (start + length > foundKeys.length)
                foundKeys = Arrays.copyOf(foundKeys, Math.max(2 * foundKeys.length, start + length));
            System.arraycopy(bytes, offset, foundKeys, start, length);
            foundEnds[foundCount] = start + length;
            found[foundCount++] = tid;
            return foundCount < limit;
        }
    }

    /** The int that ends collected key {@code l}. */
    private int lastIntOf(int l) {
        return KeyEncoder.decodeInt(foundKeys, foundEnds[l] - 4);
    }

    // ---------------------------------------------------------------- transactions (Tpcc's, same draws)

    /** Runs {@code count} transactions of one type, or of the standard mix when type is null; returns Tpcc's checksum. */
    public long run(Tpcc.Transaction type, int count) {
        long sum = 0;
        for (int i = 0; i < count; i++) {
            Tpcc.Transaction t = type;
            if (t == null) t = Tpcc.drawMix(random); // clause 5.2.3, as Tpcc.run draws it
            sum += switch (t) {
                case NEW_ORDER -> newOrder();
                case PAYMENT -> payment();
                case ORDER_STATUS -> orderStatus();
                case DELIVERY -> delivery();
                case STOCK_LEVEL -> stockLevel();
            };
        }
        return sum;
    }

    /** Clause 2.4: the district's next order id by its key, each item and stock record by theirs. */
    long newOrder() {
        input.draw(random, nurandCId, nurandItem);
        int d = input.district, c = input.customer, lines = input.lines;
        long sum = warehouse.getLong(lookup(warehousePk, key(1)), W_TAX);
        long dTid = lookup(districtPk, key(1, d));
        int o = (int) district.getLong(dTid, D_NEXT_O_ID);
        sum += district.getLong(dTid, D_TAX) + o;
        customer.read(lookup(customerPk, key(1, d, c)), customerRow);
        sum += customerRow.getLong(C_DISCOUNT);
        values[0] = o + 1;
        district.setLongs(dTid, D_NEXT, values);
        long now = clock++;
        Tpcc.orderRecord(orderRow, o, d, c, now, lines);
        indexOrder(orderRow, orders.insert(orderRow));
        newOrderPk.insert(
                key(1, d, o),
                newOrder.insert(newOrderRow.setLong(0, o).setLong(1, d).setLong(2, 1)));
        for (int l = 0; l < lines; l++) {
            int i = input.items[l], q = input.quantities[l];
            item.read(lookup(itemPk, key(i)), itemRow);
            long sTid = lookup(stockPk, key(1, i));
            stock.read(sTid, stockRow);
            sum += itemRow.getLong(I_PRICE) + stockRow.length(2 + d);
            long have = stockRow.getLong(S_QUANTITY);
            values[0] = have >= q + 10 ? have - q : have - q + 91;
            values[1] = stockRow.getLong(S_YTD) + q;
            values[2] = stockRow.getLong(S_ORDER_CNT) + 1;
            stock.setLongs(sTid, STOCK_UPDATE, values);
            Tpcc.lineRecord(lineRow, o, d, l, i, q, q * itemRow.getLong(I_PRICE), bytes);
            orderLinePk.insert(key(1, d, o, l + 1), orderLine.insert(lineRow));
        }
        return sum + o;
    }

    /** Clause 2.5.1.2: 60% by last name, the middle of its customers by first name; else by id (Tpcc's draws). */
    private int pickCustomer(int d) {
        pickedTid = TupleId.NONE;
        if (random.nextInt(100) < 60) {
            keys.reset().appendInt(1).appendInt(d).appendString(lastName(nurand(255, 0, 999, nurandCLast, random)));
            byte[] prefix = encoded();
            collect(customerByName, prefix, after(prefix), Integer.MAX_VALUE);
            if (foundCount > 0) {
                int m = (foundCount - 1) / 2;
                pickedTid = found[m];
                return lastIntOf(m); // (w, d, c_last, first name's order, c_id)
            }
        }
        return nurand(1023, 1, CUSTOMERS, nurandCId, random);
    }

    private long customerTid(int d, int c) {
        return pickedTid != TupleId.NONE ? pickedTid : lookup(customerPk, key(1, d, c));
    }

    /** Clause 2.5: the customer by name (the secondary index) or by id. */
    long payment() {
        int d = 1 + random.nextInt(DISTRICTS);
        int c = pickCustomer(d);
        int amount = 100 + random.nextInt(499_901);
        long wTid = lookup(warehousePk, key(1)), dTid = lookup(districtPk, key(1, d));
        warehouse.read(wTid, warehouseRow);
        values[0] = warehouseRow.getLong(W_YTD) + amount;
        warehouse.setLongs(wTid, W_YTD_ONLY, values);
        district.read(dTid, districtRow);
        values[0] = districtRow.getLong(D_YTD) + amount;
        district.setLongs(dTid, D_YTD_ONLY, values);
        long cTid = customerTid(d, c);
        customer.read(cTid, customerRow);
        long sum = warehouseRow.length(W_NAME) + districtRow.length(D_NAME) + customerRow.getLong(C_BALANCE);
        values[0] = customerRow.getLong(C_BALANCE) - amount;
        values[1] = customerRow.getLong(C_YTD_PAYMENT) + amount;
        values[2] = customerRow.getLong(C_PAYMENT_CNT) + 1;
        customer.setLongs(cTid, CUSTOMER_PAYMENT, values);
        byte[] credit = customerRow.bytes(C_CREDIT); // "BC" without a String a payment
        if (customerRow.length(C_CREDIT) == 2 && credit[0] == 'B' && credit[1] == 'C') {
            // c_data = "c_id d_id w_id amount " + c_data, kept to its first 500 characters
            byte[] head = (c + " " + d + " 1 " + d + " 1 " + amount + " ").getBytes(StandardCharsets.US_ASCII);
            int old = customerRow.length(C_DATA);
            System.arraycopy(customerRow.bytes(C_DATA), 0, bytes, head.length, old);
            System.arraycopy(head, 0, bytes, 0, head.length);
            int n = Math.min(500, head.length + old);
            if (!customer.setBytes(cTid, C_DATA, bytes, 0, n)) move(cTid, d, c, n);
        }
        history.insert(Tpcc.historyRecord(historyRow, c, d, clock, amount, bytes));
        clock++;
        return sum + amount;
    }

    /** A customer whose c_data outgrew its page: its updated record to another page, both indexes to it. */
    private void move(long tid, int d, int c, int dataLength) {
        customer.read(tid, customerRow);
        customerRow.setBytes(C_DATA, bytes, 0, dataLength);
        customer.delete(tid);
        long moved = customer.insert(customerRow);
        customerPk.delete(key(1, d, c), TupleId.NONE);
        customerByName.delete(nameKey(d, customerRow, c), TupleId.NONE);
        indexCustomer(customerRow, moved);
        this.moved++;
    }

    /** Clause 2.6: the customer's newest order by the (district, customer, order) index, its lines by range. */
    long orderStatus() {
        int d = 1 + random.nextInt(DISTRICTS);
        int c = pickCustomer(d);
        customer.read(customerTid(d, c), customerRow);
        long sum = customerRow.getLong(C_BALANCE);
        byte[] prefix = key(1, d, c);
        collect(orderByCustomer, prefix, after(prefix), Integer.MAX_VALUE); // the last is the newest
        if (foundCount == 0) return sum;
        orders.read(found[foundCount - 1], orderRow);
        sum += orderRow.getLong(4);
        prefix = key(1, d, (int) orderRow.getLong(O_ID));
        collect(orderLinePk, prefix, after(prefix), Integer.MAX_VALUE);
        for (int l = 0; l < foundCount; l++) {
            orderLine.read(found[l], lineRow);
            sum += lineRow.getLong(OL_AMOUNT) + lineRow.getLong(OL_I_ID);
        }
        return sum;
    }

    /** Clause 2.7: each district's oldest new-order row is the first of its index range. */
    long delivery() {
        long sum = 0, now;
        int carrier = 1 + random.nextInt(10);
        now = clock++;
        for (int d = 1; d <= DISTRICTS; d++) {
            byte[] prefix = key(1, d);
            collect(newOrderPk, prefix, after(prefix), 1);
            if (foundCount == 0) continue;
            int o = lastIntOf(0); // (w, d, o)
            newOrder.delete(found[0]);
            newOrderPk.delete(key(1, d, o), TupleId.NONE);
            long oTid = lookup(orderPk, key(1, d, o));
            int c = (int) orders.getLong(oTid, O_C_ID);
            sum += c;
            values[0] = carrier;
            orders.setLongs(oTid, ONE_CARRIER, values);
            byte[] lines = key(1, d, o);
            collect(orderLinePk, lines, after(lines), Integer.MAX_VALUE);
            long total = 0;
            values[0] = now;
            for (int l = 0; l < foundCount; l++) {
                total += orderLine.getLong(found[l], OL_AMOUNT);
                orderLine.setLongs(found[l], DELIVERY_D, values);
            }
            long cTid = lookup(customerPk, key(1, d, c));
            values[0] = customer.getLong(cTid, C_BALANCE) + total;
            values[1] = customer.getLong(cTid, C_DELIVERY_CNT) + 1;
            customer.setLongs(cTid, CUSTOMER_DELIVERY, values);
            sum += total;
        }
        return sum;
    }

    /** Clause 2.8: the lines of the district's last 20 orders, one range of the order-line index. */
    long stockLevel() {
        int d = 1 + random.nextInt(DISTRICTS);
        int threshold = 10 + random.nextInt(11);
        int next = (int) district.getLong(lookup(districtPk, key(1, d)), D_NEXT_O_ID);
        collect(orderLinePk, key(1, d, Math.max(1, next - 20)), key(1, d, next), Integer.MAX_VALUE);
        int n = 0;
        for (int l = 0; l < foundCount; l++) distinct[n++] = (int) orderLine.getLong(found[l], OL_I_ID);
        Arrays.sort(distinct, 0, n);
        int low = 0;
        for (int k = 0; k < n; k++) {
            if (k > 0 && distinct[k] == distinct[k - 1]) continue;
            if (stock.getLong(lookup(stockPk, key(1, distinct[k])), S_QUANTITY) < threshold) low++;
        }
        return low;
    }

    @Override
    protected String more() {
        return "; " + moved + " customers moved";
    }
}

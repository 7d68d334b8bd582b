package dev.wastecheck.layouts.bench.tpc;

import static dev.wastecheck.layouts.FieldType.INT16;
import static dev.wastecheck.layouts.FieldType.INT32;
import static dev.wastecheck.layouts.FieldType.INT64;
import static dev.wastecheck.layouts.FieldType.INT8;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * TPC-C (revision 5.11) on tables of pages, one warehouse: the nine tables populated as clause
 * 4.3.3.1 prescribes and the five transactions of clause 2 (HPL-2012-240's Table 3), each
 * statement a page operation: a field or a record read ({@link Statements#CONSTRUCT}), an
 * update of fields in place ({@link Statements#UPDATE}), an insert, a delete (Delivery's
 * new-order rows). Columns carry tight types (ids in the narrowest integer, money in cents,
 * rates in hundredths of a percent, CHAR and VARCHAR as VARLEN).
 *
 * <p>Indexes are Java structures the same for every format: dense RID arrays by key, customers
 * by last name (sorted by first name, as Payment and Order-Status pick the middle one), each
 * district's orders and their lines by order id, a FIFO of undelivered orders, each customer's
 * last order. The transactions' own logic keeps what later statements need (the next order id,
 * RIDs of inserted rows, a bad-credit flag) in those structures, so each kind of statement can
 * run alone ({@link #mode}) for the per-statement breakdown.
 *
 * <p>Left out, the same for every format: the 1% of New-Order transactions that roll back
 * (there is no undo here), remote warehouses (one warehouse), think and keying times.
 */
public final class Tpcc {
    public static final int DISTRICTS = 10, CUSTOMERS = 3000, ITEMS = 100_000, ORDERS = 3000, FIRST_NEW_ORDER = 2101;

    public static final RecordSchema WAREHOUSE = RecordSchema.of(
            Field.of("w_id", INT16),
            Field.varlen("w_name", false, 8),
            Field.varlen("w_street_1", false, 15),
            Field.varlen("w_street_2", false, 15),
            Field.varlen("w_city", false, 15),
            Field.varlen("w_state", false, 2),
            Field.varlen("w_zip", false, 9),
            Field.of("w_tax", INT16),
            Field.of("w_ytd", INT64));
    public static final int W_NAME = 1, W_TAX = 7, W_YTD = 8;
    public static final RecordSchema DISTRICT = RecordSchema.of(
            Field.of("d_id", INT8),
            Field.of("d_w_id", INT16),
            Field.varlen("d_name", false, 8),
            Field.varlen("d_street_1", false, 15),
            Field.varlen("d_street_2", false, 15),
            Field.varlen("d_city", false, 15),
            Field.varlen("d_state", false, 2),
            Field.varlen("d_zip", false, 9),
            Field.of("d_tax", INT16),
            Field.of("d_ytd", INT64),
            Field.of("d_next_o_id", INT32));
    public static final int D_NAME = 2, D_TAX = 8, D_YTD = 9, D_NEXT_O_ID = 10;
    public static final RecordSchema CUSTOMER = RecordSchema.of(
            Field.of("c_id", INT16),
            Field.of("c_d_id", INT8),
            Field.of("c_w_id", INT16),
            Field.varlen("c_first", false, 12),
            Field.varlen("c_middle", false, 2),
            Field.varlen("c_last", false, 12),
            Field.varlen("c_street_1", false, 15),
            Field.varlen("c_street_2", false, 15),
            Field.varlen("c_city", false, 15),
            Field.varlen("c_state", false, 2),
            Field.varlen("c_zip", false, 9),
            Field.varlen("c_phone", false, 16),
            Field.of("c_since", INT64),
            Field.varlen("c_credit", false, 2),
            Field.of("c_credit_lim", INT32),
            Field.of("c_discount", INT16),
            Field.of("c_balance", INT64),
            Field.of("c_ytd_payment", INT64),
            Field.of("c_payment_cnt", INT32),
            Field.of("c_delivery_cnt", INT32),
            Field.varlen("c_data", false, 400));
    public static final int C_FIRST = 3,
            C_LAST = 5,
            C_CREDIT = 13,
            C_DISCOUNT = 15,
            C_BALANCE = 16,
            C_YTD_PAYMENT = 17,
            C_PAYMENT_CNT = 18,
            C_DELIVERY_CNT = 19,
            C_DATA = 20;
    public static final RecordSchema HISTORY = RecordSchema.of(
            Field.of("h_c_id", INT16),
            Field.of("h_c_d_id", INT8),
            Field.of("h_c_w_id", INT16),
            Field.of("h_d_id", INT8),
            Field.of("h_w_id", INT16),
            Field.of("h_date", INT64),
            Field.of("h_amount", INT32),
            Field.varlen("h_data", false, 18));
    public static final RecordSchema NEW_ORDER =
            RecordSchema.of(Field.of("no_o_id", INT32), Field.of("no_d_id", INT8), Field.of("no_w_id", INT16));
    public static final RecordSchema ORDER = RecordSchema.of(
            Field.of("o_id", INT32),
            Field.of("o_d_id", INT8),
            Field.of("o_w_id", INT16),
            Field.of("o_c_id", INT16),
            Field.of("o_entry_d", INT64),
            Field.nullable("o_carrier_id", INT8),
            Field.of("o_ol_cnt", INT8),
            Field.of("o_all_local", INT8));
    public static final int O_ID = 0, O_D_ID = 1, O_C_ID = 3, O_CARRIER_ID = 5, O_OL_CNT = 6;
    public static final RecordSchema ORDER_LINE = RecordSchema.of(
            Field.of("ol_o_id", INT32),
            Field.of("ol_d_id", INT8),
            Field.of("ol_w_id", INT16),
            Field.of("ol_number", INT8),
            Field.of("ol_i_id", INT32),
            Field.of("ol_supply_w_id", INT16),
            Field.nullable("ol_delivery_d", INT64),
            Field.of("ol_quantity", INT8),
            Field.of("ol_amount", INT32),
            Field.varlen("ol_dist_info", false, 24));
    public static final int OL_O_ID = 0, OL_D_ID = 1, OL_I_ID = 4, OL_DELIVERY_D = 6, OL_AMOUNT = 8;
    public static final RecordSchema ITEM = RecordSchema.of(
            Field.of("i_id", INT32),
            Field.of("i_im_id", INT32),
            Field.varlen("i_name", false, 19),
            Field.of("i_price", INT32),
            Field.varlen("i_data", false, 38));
    public static final int I_PRICE = 3;
    public static final RecordSchema STOCK = RecordSchema.of(
            Field.of("s_i_id", INT32),
            Field.of("s_w_id", INT16),
            Field.of("s_quantity", INT16),
            Field.varlen("s_dist_01", false, 24),
            Field.varlen("s_dist_02", false, 24),
            Field.varlen("s_dist_03", false, 24),
            Field.varlen("s_dist_04", false, 24),
            Field.varlen("s_dist_05", false, 24),
            Field.varlen("s_dist_06", false, 24),
            Field.varlen("s_dist_07", false, 24),
            Field.varlen("s_dist_08", false, 24),
            Field.varlen("s_dist_09", false, 24),
            Field.varlen("s_dist_10", false, 24),
            Field.of("s_ytd", INT32),
            Field.of("s_order_cnt", INT32),
            Field.of("s_remote_cnt", INT32),
            Field.varlen("s_data", false, 38));
    public static final int S_QUANTITY = 2, S_YTD = 13, S_ORDER_CNT = 14;

    static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};

    public enum Transaction {
        NEW_ORDER,
        PAYMENT,
        ORDER_STATUS,
        DELIVERY,
        STOCK_LEVEL
    }

    public final PageHeap warehouse, district, customer, history, newOrder, orders, orderLine, item, stock;
    public final List<PageHeap> tables;
    private final long warehouseRid;
    private final long[] districtRid = new long[DISTRICTS + 1];
    private final long[][] customerRid = new long[DISTRICTS + 1][CUSTOMERS + 1];
    private final long[] itemRid = new long[ITEMS + 1];
    private final long[] stockRid = new long[ITEMS + 1];
    private final int[] itemPrice = new int[ITEMS + 1];
    private final boolean[][] badCredit = new boolean[DISTRICTS + 1][CUSTOMERS + 1];
    /** Per district: customer ids by last name, sorted by first name. */
    private final List<Map<String, int[]>> byLastName = new ArrayList<>();
    /** Per district, by order id: the order's RID (-1 if its insert did not run) and its lines' RIDs. */
    private long[][] orderRid = new long[DISTRICTS + 1][];

    private int[][] orderCustomer = new int[DISTRICTS + 1][];
    private long[][][] lineRids = new long[DISTRICTS + 1][][];
    /** Per district: order ids not yet delivered, oldest at newOrderHead, and their new-order RIDs. */
    private final int[][] newOrderIds = new int[DISTRICTS + 1][];

    private final long[][] newOrderRids = new long[DISTRICTS + 1][];
    private final int[] newOrderHead = new int[DISTRICTS + 1], newOrderTail = new int[DISTRICTS + 1];
    private final int[] nextOrderId = new int[DISTRICTS + 1];
    private final int[][] lastOrder = new int[DISTRICTS + 1][CUSTOMERS + 1];
    private final int nurandCLast, nurandCId, nurandItem;

    // What reset() restores.
    private final byte[][][] snapshots;
    private final int[] snapshotPages;
    private final int[] savedHead, savedTail, savedNext;
    private final int[][] savedLastOrder;
    private final long seed;

    /** Which statements run ({@link Statements}). */
    public int mode = Statements.ALL;

    private SplittableRandom random;
    private long clock;
    /** Counts of statements executed, by kind (for the docs: what a transaction is made of). */
    public final long[] executed = new long[4];
    /** Updates a page could not hold (a grown c_data); none is expected with the customer table's fill factor. */
    public long refusedUpdates;

    private final Record row;
    private final Record customerRow = new Record(CUSTOMER), stockRow = new Record(STOCK), itemRow = new Record(ITEM);
    private final Record warehouseRow = new Record(WAREHOUSE),
            districtRow = new Record(DISTRICT),
            orderRow = new Record(ORDER);
    private final Record lineRow = new Record(ORDER_LINE),
            newOrderRow = new Record(NEW_ORDER),
            historyRow = new Record(HISTORY);
    private final byte[] bytes = new byte[600];
    private final int[] distinct = new int[20 * 15];

    public Tpcc(Function<RecordSchema, Page> format, int pageSize, long seed) {
        this.seed = seed;
        warehouse = new PageHeap("warehouse", format.apply(WAREHOUSE), pageSize);
        district = new PageHeap("district", format.apply(DISTRICT), pageSize);
        customer = new PageHeap("customer", format.apply(CUSTOMER), pageSize).fillFactor(0.9);
        history = new PageHeap("history", format.apply(HISTORY), pageSize);
        newOrder = new PageHeap("new_order", format.apply(NEW_ORDER), pageSize);
        orders = new PageHeap("orders", format.apply(ORDER), pageSize);
        orderLine = new PageHeap("order_line", format.apply(ORDER_LINE), pageSize);
        item = new PageHeap("item", format.apply(ITEM), pageSize);
        stock = new PageHeap("stock", format.apply(STOCK), pageSize);
        tables = List.of(warehouse, district, customer, history, newOrder, orders, orderLine, item, stock);
        SplittableRandom r = new SplittableRandom(seed);
        // Clause 2.1.6: C for NURand, fixed per run.
        nurandCLast = r.nextInt(256);
        nurandCId = r.nextInt(1024);
        nurandItem = r.nextInt(8192);
        row = new Record(WAREHOUSE);
        warehouseRid = warehouse.insert(
                address(row, 1, r).setLong(0, 1).setLong(W_TAX, r.nextInt(2001)).setLong(W_YTD, 30_000_000));
        for (int i = 1; i <= ITEMS; i++) {
            itemPrice[i] = 100 + r.nextInt(9_901);
            itemRow.setLong(0, i).setLong(1, 1 + r.nextInt(10_000)).setLong(I_PRICE, itemPrice[i]);
            astring(itemRow, 2, r, 14, 24);
            data(itemRow, 4, r);
            itemRid[i] = item.insert(itemRow);
        }
        for (int i = 1; i <= ITEMS; i++) {
            stockRow.setLong(0, i)
                    .setLong(1, 1)
                    .setLong(S_QUANTITY, 10 + r.nextInt(91))
                    .setLong(S_YTD, 0)
                    .setLong(S_ORDER_CNT, 0)
                    .setLong(15, 0);
            for (int d = 0; d < 10; d++) astring(stockRow, 3 + d, r, 24, 24);
            data(stockRow, 16, r);
            stockRid[i] = stock.insert(stockRow);
        }
        Record districtR = new Record(DISTRICT);
        for (int d = 1; d <= DISTRICTS; d++) {
            districtR.setLong(0, d).setLong(1, 1);
            astring(districtR, D_NAME, r, 6, 10);
            for (int f = 3; f <= 5; f++) astring(districtR, f, r, 10, 20);
            districtR.setString(6, letters(r, 2)).setString(7, digits(r, 4) + "11111");
            districtRid[d] = district.insert(districtR
                    .setLong(D_TAX, r.nextInt(2001))
                    .setLong(D_YTD, 3_000_000)
                    .setLong(D_NEXT_O_ID, ORDERS + 1));
            nextOrderId[d] = ORDERS + 1;
            Map<String, List<int[]>> names = new HashMap<>();
            for (int c = 1; c <= CUSTOMERS; c++) {
                String last = lastName(c <= 1000 ? c - 1 : nurand(255, 0, 999, nurandCLast, r));
                customerRow.setLong(0, c).setLong(1, d).setLong(2, 1);
                astring(customerRow, C_FIRST, r, 8, 16);
                customerRow.setString(4, "OE").setString(C_LAST, last);
                for (int f = 6; f <= 8; f++) astring(customerRow, f, r, 10, 20);
                customerRow
                        .setString(9, letters(r, 2))
                        .setString(10, digits(r, 4) + "11111")
                        .setString(11, digits(r, 16));
                badCredit[d][c] = r.nextInt(10) == 0;
                customerRow
                        .setLong(12, clock++)
                        .setString(C_CREDIT, badCredit[d][c] ? "BC" : "GC")
                        .setLong(14, 5_000_000)
                        .setLong(C_DISCOUNT, r.nextInt(5_001))
                        .setLong(C_BALANCE, -1_000)
                        .setLong(C_YTD_PAYMENT, 1_000)
                        .setLong(C_PAYMENT_CNT, 1)
                        .setLong(C_DELIVERY_CNT, 0);
                astring(customerRow, C_DATA, r, 300, 500);
                customerRid[d][c] = customer.insert(customerRow);
                names.computeIfAbsent(last, k -> new ArrayList<>())
                        .add(new int[] {c, Arrays.hashCode(customerRow.bytes(C_FIRST))});
                historyRow
                        .setLong(0, c)
                        .setLong(1, d)
                        .setLong(2, 1)
                        .setLong(3, d)
                        .setLong(4, 1)
                        .setLong(5, clock)
                        .setLong(6, 1_000);
                astring(historyRow, 7, r, 12, 24);
                history.insert(historyRow);
            }
            // Sorted by first name: the first name's hash stands for it (any fixed order works the same on every
            // format).
            Map<String, int[]> index = new HashMap<>();
            names.forEach((k, v) -> index.put(
                    k,
                    v.stream()
                            .sorted((a, b) -> Integer.compare(a[1], b[1]))
                            .mapToInt(e -> e[0])
                            .toArray()));
            byLastName.add(index);
            orderRid[d] = new long[ORDERS + 1];
            orderCustomer[d] = new int[ORDERS + 1];
            lineRids[d] = new long[ORDERS + 1][];
            newOrderIds[d] = new int[ORDERS];
            newOrderRids[d] = new long[ORDERS];
            int[] permutation = new int[CUSTOMERS];
            for (int c = 0; c < CUSTOMERS; c++) permutation[c] = c + 1;
            for (int c = CUSTOMERS - 1; c > 0; c--) {
                int j = r.nextInt(c + 1), t = permutation[c];
                permutation[c] = permutation[j];
                permutation[j] = t;
            }
            for (int o = 1; o <= ORDERS; o++) {
                int c = permutation[o - 1];
                int lines = 5 + r.nextInt(11);
                boolean delivered = o < FIRST_NEW_ORDER;
                orderRow.setLong(O_ID, o)
                        .setLong(O_D_ID, d)
                        .setLong(2, 1)
                        .setLong(O_C_ID, c)
                        .setLong(4, clock)
                        .setLong(O_OL_CNT, lines)
                        .setLong(7, 1);
                if (delivered) orderRow.setLong(O_CARRIER_ID, 1 + r.nextInt(10));
                else orderRow.setNull(O_CARRIER_ID);
                orderRid[d][o] = orders.insert(orderRow);
                orderCustomer[d][o] = c;
                lastOrder[d][c] = o;
                long[] rids = new long[lines];
                for (int l = 0; l < lines; l++) {
                    lineRow.setLong(OL_O_ID, o)
                            .setLong(OL_D_ID, d)
                            .setLong(2, 1)
                            .setLong(3, l + 1)
                            .setLong(OL_I_ID, 1 + r.nextInt(ITEMS))
                            .setLong(5, 1)
                            .setLong(7, 5)
                            .setLong(OL_AMOUNT, delivered ? 0 : 1 + r.nextInt(999_999));
                    if (delivered) lineRow.setLong(OL_DELIVERY_D, clock);
                    else lineRow.setNull(OL_DELIVERY_D);
                    astring(lineRow, 9, r, 24, 24);
                    rids[l] = orderLine.insert(lineRow);
                }
                lineRids[d][o] = rids;
                if (!delivered) {
                    newOrderIds[d][newOrderTail[d]] = o;
                    newOrderRids[d][newOrderTail[d]++] = newOrder.insert(
                            newOrderRow.setLong(0, o).setLong(1, d).setLong(2, 1));
                }
            }
        }
        snapshots = new byte[tables.size()][][];
        snapshotPages = new int[tables.size()];
        for (int t = 0; t < tables.size(); t++) {
            snapshots[t] = tables.get(t).snapshot();
            snapshotPages[t] = tables.get(t).pageCount();
        }
        savedHead = newOrderHead.clone();
        savedTail = newOrderTail.clone();
        savedNext = nextOrderId.clone();
        savedLastOrder = new int[DISTRICTS + 1][];
        for (int d = 1; d <= DISTRICTS; d++) savedLastOrder[d] = lastOrder[d].clone();
        reset();
    }

    /** Back to the loaded database and the first input of the run (the same inputs every time). */
    public void reset() {
        for (int t = 0; t < tables.size(); t++) tables.get(t).restore(snapshots[t], snapshotPages[t]);
        System.arraycopy(savedHead, 0, newOrderHead, 0, savedHead.length);
        System.arraycopy(savedTail, 0, newOrderTail, 0, savedTail.length);
        System.arraycopy(savedNext, 0, nextOrderId, 0, savedNext.length);
        for (int d = 1; d <= DISTRICTS; d++) System.arraycopy(savedLastOrder[d], 0, lastOrder[d], 0, CUSTOMERS + 1);
        random = new SplittableRandom(seed * 7 + 1);
        clock = 1L << 40;
    }

    // ---------------------------------------------------------------- population helpers

    private static Record address(Record r, int name, SplittableRandom random) {
        astring(r, name, random, 6, 10);
        for (int f = name + 1; f <= name + 3; f++) astring(r, f, random, 10, 20);
        return r.setString(name + 4, letters(random, 2)).setString(name + 5, digits(random, 4) + "11111");
    }

    private static void astring(Record r, int field, SplittableRandom random, int min, int max) {
        int n = min + random.nextInt(max - min + 1);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte) ('a' + random.nextInt(26));
        r.setBytes(field, b, 0, n);
    }

    /** i_data, s_data: 26-50 characters, 10% with "ORIGINAL" at a random position (clause 4.3.3.1). */
    private static void data(Record r, int field, SplittableRandom random) {
        astring(r, field, random, 26, 50);
        if (random.nextInt(10) == 0) {
            byte[] b = Arrays.copyOf(r.bytes(field), r.length(field));
            System.arraycopy("ORIGINAL".getBytes(StandardCharsets.US_ASCII), 0, b, random.nextInt(b.length - 7), 8);
            r.setBytes(field, b, 0, b.length);
        }
    }

    private static String letters(SplittableRandom random, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append((char) ('A' + random.nextInt(26)));
        return b.toString();
    }

    private static String digits(SplittableRandom random, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append((char) ('0' + random.nextInt(10)));
        return b.toString();
    }

    /** Clause 4.3.2.3: the last name of number n (0..999), three syllables. */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[n / 10 % 10] + SYLLABLES[n % 10];
    }

    /** Clause 2.1.6: NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. */
    public static int nurand(int a, int x, int y, int c, SplittableRandom random) {
        return (((random.nextInt(a + 1) | (x + random.nextInt(y - x + 1))) + c) % (y - x + 1)) + x;
    }

    // ---------------------------------------------------------------- statements

    private boolean on(int kind) {
        return (mode & kind) != 0;
    }

    private long readField(PageHeap heap, long rid, int field) {
        executed[1]++;
        return heap.pageOf(rid).getLong(PageHeap.ridSlot(rid), field);
    }

    private void readRecord(PageHeap heap, long rid, Record into) {
        executed[1]++;
        heap.pageOf(rid).read(PageHeap.ridSlot(rid), into);
    }

    /** field += delta in place; returns the new value. */
    private long add(PageHeap heap, long rid, int field, long delta) {
        executed[0]++;
        Page p = heap.pageOf(rid);
        int slot = PageHeap.ridSlot(rid);
        long v = p.getLong(slot, field) + delta;
        p.setLong(slot, field, v);
        return v;
    }

    private void set(PageHeap heap, long rid, int field, long value) {
        executed[0]++;
        heap.pageOf(rid).setLong(PageHeap.ridSlot(rid), field, value);
    }

    private long insert(PageHeap heap, Record r) {
        executed[2]++;
        return heap.insert(r);
    }

    // ---------------------------------------------------------------- transactions

    /** Runs {@code count} transactions of one type, or of the standard mix when type is null; returns a checksum. */
    public long run(Transaction type, int count) {
        long sum = 0;
        for (int i = 0; i < count; i++) {
            Transaction t = type;
            if (t == null) t = drawMix(random);
            switch (t) {
                case NEW_ORDER:
                    sum += newOrder();
                    break;
                case PAYMENT:
                    sum += payment();
                    break;
                case ORDER_STATUS:
                    sum += orderStatus();
                    break;
                case DELIVERY:
                    sum += delivery();
                    break;
                case STOCK_LEVEL:
                    sum += stockLevel();
                    break;
                default:
                    throw new AssertionError(t);
            }
        }
        return sum;
    }

    /**
     * Clause 5.2.3: at least 43% Payment, 4% each of Order-Status, Delivery, Stock-Level; the rest
     * New-Order. (Shared with the engine's TPC-C, which draws the same inputs.)
     */
    public static Transaction drawMix(SplittableRandom random) {
        int x = random.nextInt(100);
        return x < 45
                ? Transaction.NEW_ORDER
                : x < 88
                        ? Transaction.PAYMENT
                        : x < 92 ? Transaction.ORDER_STATUS : x < 96 ? Transaction.DELIVERY : Transaction.STOCK_LEVEL;
    }

    /**
     * Clause 2.4's input: district, customer (NURand(1023)), an order of 5-15 lines, items by
     * NURand(8191), quantities 1-10, drawn in this order (shared with the engine's TPC-C).
     */
    public static final class NewOrderInput {
        public int district, customer, lines;
        public final int[] items = new int[15], quantities = new int[15];

        public void draw(SplittableRandom random, int nurandCId, int nurandItem) {
            district = 1 + random.nextInt(DISTRICTS);
            customer = nurand(1023, 1, CUSTOMERS, nurandCId, random);
            lines = 5 + random.nextInt(11);
            for (int l = 0; l < lines; l++) {
                items[l] = nurand(8191, 1, ITEMS, nurandItem, random);
                quantities[l] = 1 + random.nextInt(10);
            }
        }
    }

    /** A new order's row (clause 2.4.2.2): no carrier yet. */
    public static Record orderRecord(Record r, int o, int d, int c, long now, int lines) {
        return r.setLong(O_ID, o)
                .setLong(O_D_ID, d)
                .setLong(2, 1)
                .setLong(O_C_ID, c)
                .setLong(4, now)
                .setNull(O_CARRIER_ID)
                .setLong(O_OL_CNT, lines)
                .setLong(7, 1);
    }

    /** A new order's line {@code l} (from 0): not delivered; ol_dist_info from {@code info}. */
    public static Record lineRecord(Record r, int o, int d, int l, int i, int q, long amount, byte[] info) {
        r.setLong(OL_O_ID, o)
                .setLong(OL_D_ID, d)
                .setLong(2, 1)
                .setLong(3, l + 1)
                .setLong(OL_I_ID, i)
                .setLong(5, 1)
                .setNull(OL_DELIVERY_D)
                .setLong(7, q)
                .setLong(OL_AMOUNT, amount);
        return r.setBytes(9, info, 0, 24);
    }

    /** A payment's history row; h_data from {@code data}. */
    public static Record historyRecord(Record r, int c, int d, long date, long amount, byte[] data) {
        r.setLong(0, c).setLong(1, d).setLong(2, 1).setLong(3, d).setLong(4, 1).setLong(5, date);
        return r.setLong(6, amount).setBytes(7, data, 0, 18);
    }

    private final NewOrderInput input = new NewOrderInput();

    /** Clause 2.4: an order of 5-15 lines, items by NURand(8191), quantities 1-10. */
    long newOrder() {
        input.draw(random, nurandCId, nurandItem);
        int d = input.district, c = input.customer, lines = input.lines;
        int[] items = input.items, quantities = input.quantities;
        long sum = 0;
        if (on(Statements.CONSTRUCT)) {
            sum += readField(warehouse, warehouseRid, W_TAX);
            sum += readField(district, districtRid[d], D_TAX) + readField(district, districtRid[d], D_NEXT_O_ID);
            readRecord(customer, customerRid[d][c], customerRow);
            sum += customerRow.getLong(C_DISCOUNT);
        }
        int o = nextOrderId[d]++;
        if (on(Statements.UPDATE)) add(district, districtRid[d], D_NEXT_O_ID, 1);
        long now = clock++;
        long rid = -1, noRid = -1;
        if (on(Statements.INSERT)) {
            rid = insert(orders, orderRecord(orderRow, o, d, c, now, lines));
            noRid = insert(newOrder, newOrderRow.setLong(0, o).setLong(1, d).setLong(2, 1));
        }
        growOrders(d, o);
        orderRid[d][o] = rid;
        orderCustomer[d][o] = c;
        lastOrder[d][c] = o;
        newOrderIds[d][newOrderTail[d]] = o;
        newOrderRids[d][newOrderTail[d]++] = noRid;
        long[] rids = new long[lines];
        for (int l = 0; l < lines; l++) {
            int i = items[l], q = quantities[l];
            if (on(Statements.CONSTRUCT)) {
                readRecord(item, itemRid[i], itemRow);
                readRecord(stock, stockRid[i], stockRow);
                sum += itemRow.getLong(I_PRICE) + stockRow.length(2 + d);
            }
            if (on(Statements.UPDATE)) {
                long s = stockRid[i];
                Page p = stock.pageOf(s);
                int slot = PageHeap.ridSlot(s);
                long have = p.getLong(slot, S_QUANTITY);
                p.setLong(slot, S_QUANTITY, have >= q + 10 ? have - q : have - q + 91);
                p.setLong(slot, S_YTD, p.getLong(slot, S_YTD) + q);
                p.setLong(slot, S_ORDER_CNT, p.getLong(slot, S_ORDER_CNT) + 1);
                executed[0]++;
            }
            rids[l] = -1;
            if (on(Statements.INSERT)) {
                rids[l] = insert(orderLine, lineRecord(lineRow, o, d, l, i, q, (long) q * itemPrice[i], bytes));
            }
        }
        lineRids[d][o] = rids;
        return sum + o;
    }

    private void growOrders(int d, int o) {
        if (o >= orderRid[d].length) {
            orderRid[d] = Arrays.copyOf(orderRid[d], orderRid[d].length * 2);
            orderCustomer[d] = Arrays.copyOf(orderCustomer[d], orderCustomer[d].length * 2);
            lineRids[d] = Arrays.copyOf(lineRids[d], lineRids[d].length * 2);
        }
        if (newOrderTail[d] == newOrderIds[d].length) {
            newOrderIds[d] = Arrays.copyOf(newOrderIds[d], newOrderIds[d].length * 2);
            newOrderRids[d] = Arrays.copyOf(newOrderRids[d], newOrderRids[d].length * 2);
        }
    }

    /** Clause 2.1.6 and 2.5.1.2: 60% by last name (NURand(255)), the middle of those sorted by first name; else by id. */
    private int pickCustomer(int d) {
        if (random.nextInt(100) < 60) {
            int[] ids = byLastName.get(d - 1).get(lastName(nurand(255, 0, 999, nurandCLast, random)));
            if (ids != null) return ids[(ids.length - 1) / 2];
        }
        return nurand(1023, 1, CUSTOMERS, nurandCId, random);
    }

    /** Clause 2.5: a payment of $1.00-5,000.00 to the warehouse, district and customer, and a history row. */
    long payment() {
        int d = 1 + random.nextInt(DISTRICTS);
        int c = pickCustomer(d);
        int amount = 100 + random.nextInt(499_901);
        long sum = 0;
        if (on(Statements.UPDATE)) {
            add(warehouse, warehouseRid, W_YTD, amount);
            add(district, districtRid[d], D_YTD, amount);
        }
        if (on(Statements.CONSTRUCT)) {
            readRecord(warehouse, warehouseRid, warehouseRow);
            readRecord(district, districtRid[d], districtRow);
            readRecord(customer, customerRid[d][c], customerRow);
            sum += warehouseRow.length(W_NAME) + districtRow.length(D_NAME) + customerRow.getLong(C_BALANCE);
        }
        long rid = customerRid[d][c];
        if (on(Statements.UPDATE)) {
            Page p = customer.pageOf(rid);
            int slot = PageHeap.ridSlot(rid);
            p.setLong(slot, C_BALANCE, p.getLong(slot, C_BALANCE) - amount);
            p.setLong(slot, C_YTD_PAYMENT, p.getLong(slot, C_YTD_PAYMENT) + amount);
            p.setLong(slot, C_PAYMENT_CNT, p.getLong(slot, C_PAYMENT_CNT) + 1);
            executed[0]++;
            if (badCredit[d][c]) {
                // c_data = "c_id d_id w_id amount " + c_data, kept to its first 500 characters.
                byte[] head = (c + " " + d + " 1 " + d + " 1 " + amount + " ").getBytes(StandardCharsets.US_ASCII);
                int old = p.getBytes(slot, C_DATA, bytes, head.length);
                System.arraycopy(head, 0, bytes, 0, head.length);
                if (!p.setBytes(slot, C_DATA, bytes, 0, Math.min(500, head.length + old))) refusedUpdates++;
                executed[0]++;
            }
        }
        if (on(Statements.INSERT)) {
            insert(history, historyRecord(historyRow, c, d, clock, amount, bytes));
        }
        clock++;
        return sum + amount;
    }

    /** Clause 2.6: a customer's balance, last order and its lines. */
    long orderStatus() {
        int d = 1 + random.nextInt(DISTRICTS);
        int c = pickCustomer(d);
        long sum = 0;
        if (!on(Statements.CONSTRUCT)) return c;
        readRecord(customer, customerRid[d][c], customerRow);
        sum += customerRow.getLong(C_BALANCE);
        int o = lastOrder[d][c];
        if (o == 0 || orderRid[d][o] < 0) return sum;
        readRecord(orders, orderRid[d][o], orderRow);
        sum += orderRow.getLong(4);
        for (long l : lineRids[d][o]) {
            if (l < 0) continue;
            readRecord(orderLine, l, lineRow);
            sum += lineRow.getLong(OL_AMOUNT) + lineRow.getLong(OL_I_ID);
        }
        return sum;
    }

    /** Clause 2.7: for each district, the oldest undelivered order: delete its new-order row, set its carrier and lines' delivery date, credit its customer. */
    long delivery() {
        int carrier = 1 + random.nextInt(10);
        long now = clock++;
        long sum = 0;
        for (int d = 1; d <= DISTRICTS; d++) {
            if (newOrderHead[d] == newOrderTail[d]) continue;
            int h = newOrderHead[d]++;
            int o = newOrderIds[d][h];
            long noRid = newOrderRids[d][h];
            if (on(Statements.DELETE) && noRid >= 0) {
                executed[3]++;
                newOrder.pageOf(noRid).delete(PageHeap.ridSlot(noRid));
            }
            long rid = orderRid[d][o];
            if (rid < 0) continue;
            if (on(Statements.CONSTRUCT)) sum += readField(orders, rid, O_C_ID);
            int c = orderCustomer[d][o];
            if (!on(Statements.UPDATE)) continue;
            set(orders, rid, O_CARRIER_ID, carrier);
            long total = 0;
            for (long l : lineRids[d][o]) {
                if (l < 0) continue;
                Page p = orderLine.pageOf(l);
                int slot = PageHeap.ridSlot(l);
                total += p.getLong(slot, OL_AMOUNT);
                p.setLong(slot, OL_DELIVERY_D, now);
                executed[0]++;
            }
            long crid = customerRid[d][c];
            Page p = customer.pageOf(crid);
            int slot = PageHeap.ridSlot(crid);
            p.setLong(slot, C_BALANCE, p.getLong(slot, C_BALANCE) + total);
            p.setLong(slot, C_DELIVERY_CNT, p.getLong(slot, C_DELIVERY_CNT) + 1);
            executed[0]++;
            sum += total;
        }
        return sum;
    }

    /** Clause 2.8: distinct items of the district's last 20 orders whose stock is below a threshold of 10-20. */
    long stockLevel() {
        int d = 1 + random.nextInt(DISTRICTS);
        int threshold = 10 + random.nextInt(11);
        if (!on(Statements.CONSTRUCT)) return threshold;
        int next = (int) readField(district, districtRid[d], D_NEXT_O_ID);
        int n = 0;
        for (int o = Math.max(1, next - 20); o < next; o++) {
            long[] rids = o < lineRids[d].length ? lineRids[d][o] : null;
            if (rids == null) continue;
            for (long l : rids) if (l >= 0) distinct[n++] = (int) readField(orderLine, l, OL_I_ID);
        }
        Arrays.sort(distinct, 0, n);
        int low = 0;
        for (int k = 0; k < n; k++) {
            if (k > 0 && distinct[k] == distinct[k - 1]) continue;
            if (readField(stock, stockRid[distinct[k]], S_QUANTITY) < threshold) low++;
        }
        return low;
    }

    // ---------------------------------------------------------------- consistency (clause 3.3.2)

    /** Sum of a field over the live records of a heap, optionally only those whose field {@code byField} equals {@code value}. */
    static long sum(PageHeap heap, int field, int byField, long value) {
        long total = 0;
        for (int p = 0; p < heap.pageCount(); p++) {
            Page page = heap.page(p);
            for (int s = 0; s < page.slotCount(); s++) {
                if (page.isGhost(s) || (byField >= 0 && page.getLong(s, byField) != value)) continue;
                total += field < 0 ? 1 : page.getLong(s, field);
            }
        }
        return total;
    }

    /** Max (or min) of a field over the live records of a district. */
    static long extreme(PageHeap heap, int field, int districtField, int d, boolean max) {
        long best = max ? Long.MIN_VALUE : Long.MAX_VALUE;
        for (int p = 0; p < heap.pageCount(); p++) {
            Page page = heap.page(p);
            for (int s = 0; s < page.slotCount(); s++) {
                if (page.isGhost(s) || page.getLong(s, districtField) != d) continue;
                long v = page.getLong(s, field);
                best = max ? Math.max(best, v) : Math.min(best, v);
            }
        }
        return best;
    }

    /**
     * Clause 3.3.2.1-4: W_YTD = sum(D_YTD); D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID); the
     * new-order ids of a district are contiguous; sum(O_OL_CNT) = count(ORDER-LINE) per district.
     * Returns the first condition that fails, or null.
     */
    public String consistencyViolation() {
        long ytd = readField(warehouse, warehouseRid, W_YTD);
        if (ytd != sum(district, D_YTD, -1, 0)) return "W_YTD " + ytd + " != sum(D_YTD) " + sum(district, D_YTD, -1, 0);
        for (int d = 1; d <= DISTRICTS; d++) {
            long next = readField(district, districtRid[d], D_NEXT_O_ID);
            long maxOrder = extreme(orders, O_ID, O_D_ID, d, true), maxNew = extreme(newOrder, 0, 1, d, true);
            if (next - 1 != maxOrder || (newOrderHead[d] < newOrderTail[d] && next - 1 != maxNew)) {
                return "district " + d + ": D_NEXT_O_ID - 1 = " + (next - 1) + ", max(O_ID) = " + maxOrder
                        + ", max(NO_O_ID) = " + maxNew;
            }
            long count = sum(newOrder, -1, 1, d);
            if (count > 0 && maxNew - extreme(newOrder, 0, 1, d, false) + 1 != count)
                return "district " + d + ": new-order ids not contiguous";
            long lines = sum(orders, O_OL_CNT, O_D_ID, d), rows = sum(orderLine, -1, OL_D_ID, d);
            if (lines != rows) return "district " + d + ": sum(O_OL_CNT) " + lines + " != count(ORDER-LINE) " + rows;
        }
        return null;
    }
}

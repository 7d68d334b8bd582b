package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.function.Function;

/**
 * TPC-H Q1, Q6, Q12 and Q14 (the queries of HPL-2012-240's Table 1) over tables of pages, as a
 * vectorized engine runs them: a page at a time, a predicate on one column into a selection
 * bitmap ({@link Page#scanBetween}), further predicates narrowing it ({@link Page#refineBetween}),
 * the needed columns of the selected records read into arrays ({@link Page#gather}), then
 * arithmetic and aggregation on the arrays, which is the same code for every format. So each
 * format works with its best loop (a column at a time for PAX and HPL, a record at a time for
 * NSM) and a time difference is the format's.
 *
 * <p>Tables carry the tight types the analyzer would choose: keys INT32, money in cents (INT32,
 * p_retailprice * 50 stays below 2^31), rates in percent (INT8), flags as one-byte characters,
 * dates as INT32 days; the text columns are VARLEN, so HPL's references and PAX's V-minipages
 * take part (Q12 compares l_shipmode, Q14 reads p_type).
 */
public final class Tpch {
    public static final int L_ORDERKEY = 0,
            L_PARTKEY = 1,
            L_SUPPKEY = 2,
            L_LINENUMBER = 3,
            L_QUANTITY = 4,
            L_EXTENDEDPRICE = 5,
            L_DISCOUNT = 6,
            L_TAX = 7,
            L_RETURNFLAG = 8,
            L_LINESTATUS = 9,
            L_SHIPDATE = 10,
            L_COMMITDATE = 11,
            L_RECEIPTDATE = 12,
            L_SHIPINSTRUCT = 13,
            L_SHIPMODE = 14,
            L_COMMENT = 15;
    public static final RecordSchema LINEITEM = RecordSchema.of(
            Field.of("l_orderkey", FieldType.INT32),
            Field.of("l_partkey", FieldType.INT32),
            Field.of("l_suppkey", FieldType.INT32),
            Field.of("l_linenumber", FieldType.INT8),
            Field.of("l_quantity", FieldType.INT8),
            Field.of("l_extendedprice", FieldType.INT32),
            Field.of("l_discount", FieldType.INT8),
            Field.of("l_tax", FieldType.INT8),
            Field.of("l_returnflag", FieldType.INT8),
            Field.of("l_linestatus", FieldType.INT8),
            Field.of("l_shipdate", FieldType.INT32),
            Field.of("l_commitdate", FieldType.INT32),
            Field.of("l_receiptdate", FieldType.INT32),
            Field.varlen("l_shipinstruct", false, 12),
            Field.varlen("l_shipmode", false, 4),
            Field.varlen("l_comment", false, 27));

    public static final int O_ORDERKEY = 0,
            O_CUSTKEY = 1,
            O_ORDERSTATUS = 2,
            O_TOTALPRICE = 3,
            O_ORDERDATE = 4,
            O_ORDERPRIORITY = 5,
            O_CLERK = 6,
            O_SHIPPRIORITY = 7,
            O_COMMENT = 8;
    public static final RecordSchema ORDERS = RecordSchema.of(
            Field.of("o_orderkey", FieldType.INT32),
            Field.of("o_custkey", FieldType.INT32),
            Field.of("o_orderstatus", FieldType.INT8),
            Field.of("o_totalprice", FieldType.INT32),
            Field.of("o_orderdate", FieldType.INT32),
            Field.varlen("o_orderpriority", false, 8),
            Field.varlen("o_clerk", false, 15),
            Field.of("o_shippriority", FieldType.INT8),
            Field.varlen("o_comment", false, 48));

    public static final int P_PARTKEY = 0,
            P_NAME = 1,
            P_MFGR = 2,
            P_BRAND = 3,
            P_TYPE = 4,
            P_SIZE = 5,
            P_CONTAINER = 6,
            P_RETAILPRICE = 7,
            P_COMMENT = 8;
    public static final RecordSchema PART = RecordSchema.of(
            Field.of("p_partkey", FieldType.INT32),
            Field.varlen("p_name", false, 33),
            Field.varlen("p_mfgr", false, 14),
            Field.varlen("p_brand", false, 8),
            Field.varlen("p_type", false, 20),
            Field.of("p_size", FieldType.INT8),
            Field.varlen("p_container", false, 7),
            Field.of("p_retailprice", FieldType.INT32),
            Field.varlen("p_comment", false, 13));

    /**
     * Generates the three tables at the generator's scale factor into heaps of {@code pageSize}
     * pages of the format {@code format} makes, passing every row to {@code also} too (a DuckDB
     * appender, a columnar copy) when it is not null.
     */
    public static Tpch load(
            TpchGenerator generator, Function<RecordSchema, Page> format, int pageSize, TpchGenerator.Sink also) {
        return load(generator, format, pageSize, also, null);
    }

    /**
     * As {@link #load(TpchGenerator, Function, int, TpchGenerator.Sink)}, with at most
     * {@code perPage[0..2]} lineitem, orders and part records a page when {@code perPage} is
     * given (HPL-2012-240 §6: 204, 256 and 199 on 32 KB pages, {@link #PAPER_RECORDS_PER_PAGE}).
     */
    public static Tpch load(
            TpchGenerator generator,
            Function<RecordSchema, Page> format,
            int pageSize,
            TpchGenerator.Sink also,
            int[] perPage) {
        PageHeap lineitem = new PageHeap("lineitem", format.apply(LINEITEM), pageSize);
        PageHeap orders = new PageHeap("orders", format.apply(ORDERS), pageSize);
        PageHeap part = new PageHeap("part", format.apply(PART), pageSize);
        if (perPage != null) {
            lineitem.maxRecordsPerPage(perPage[0]);
            orders.maxRecordsPerPage(perPage[1]);
            part.maxRecordsPerPage(perPage[2]);
        }
        generator.generate(new TpchGenerator.Sink() {
            @Override
            public void part(Record r) {
                part.insert(r);
                if (also != null) also.part(r);
            }

            @Override
            public void order(Record r) {
                orders.insert(r);
                if (also != null) also.order(r);
            }

            @Override
            public void lineitem(Record r) {
                lineitem.insert(r);
                if (also != null) also.lineitem(r);
            }
        });
        return new Tpch(lineitem, orders, part, TpchGenerator.orderKeyLimit(generator.orders), generator.parts + 1);
    }

    /** HPL-2012-240 §6: records per 32 KB page of lineitem, orders and part in every layout. */
    public static final int[] PAPER_RECORDS_PER_PAGE = {204, 256, 199};

    public static int date(int year, int month, int day) {
        return (int) LocalDate.of(year, month, day).toEpochDay();
    }

    /** Q1: l_shipdate &lt;= date '1998-12-01' - interval '90' day. */
    public static final int Q1_SHIPDATE_MAX = date(1998, 9, 2);
    /** Q6 and Q12: the year 1994. */
    public static final int Y1994 = date(1994, 1, 1), Y1995 = date(1995, 1, 1);
    /** Q14: September 1995. */
    public static final int SEP1995 = date(1995, 9, 1), OCT1995 = date(1995, 10, 1);

    private static final byte[] MAIL = "MAIL".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SHIP = "SHIP".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] URGENT = "1-URGENT".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HIGH = "2-HIGH".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PROMO = "PROMO".getBytes(StandardCharsets.US_ASCII);
    private static final int[] ORDER_KEY = {O_ORDERKEY};
    /** Q6's conjunction: ship date in 1994, discount 5-7%, quantity below 24. */
    private static final int[] Q6_FIELDS = {L_SHIPDATE, L_DISCOUNT, L_QUANTITY};

    private static final long[] Q6_LO = {Y1994, 5, Integer.MIN_VALUE}, Q6_HI = {Y1995 - 1, 7, 23};

    /** Q1's group of a (returnflag, linestatus) pair: 2 * (A=0, N=1, R=2) + (F=0, O=1). */
    private static final int[] FLAG_GROUP = new int[128], STATUS_GROUP = new int[128];

    static {
        FLAG_GROUP['N'] = 2;
        FLAG_GROUP['R'] = 4;
        STATUS_GROUP['O'] = 1;
    }

    public final PageHeap lineitem;
    public final PageHeap orders;
    public final PageHeap part;
    private final long[] selection;
    private final long[] other;
    private final long[][] vectors;
    private final byte[] value = new byte[64];
    /** Q12's build side: bit k set iff order k has priority 1-URGENT or 2-HIGH. */
    private final long[] highPriority;
    /** Q14's build side: bit k set iff part k's type starts with PROMO. */
    private final long[] promo;

    public Tpch(PageHeap lineitem, PageHeap orders, PageHeap part, int orderKeyLimit, int partKeyLimit) {
        this.lineitem = lineitem;
        this.orders = orders;
        this.part = part;
        int slots = Math.max(lineitem.maxSlots(), Math.max(orders.maxSlots(), part.maxSlots()));
        selection = new long[(slots + 63) / 64 + 1];
        other = new long[selection.length];
        vectors = new long[6][slots];
        highPriority = new long[(orderKeyLimit >>> 6) + 1];
        promo = new long[(partKeyLimit >>> 6) + 1];
    }

    /** Q1's answer: per group (2 * flag + status: A/F, A/O, N/F, N/O, R/F, R/O) its sums and count. */
    public static final class Q1 {
        public final long[] count = new long[6];
        public final long[] sumQuantity = new long[6];
        /** In cents. */
        public final long[] sumBasePrice = new long[6];
        /** price * (1 - discount), in 1/100 of a cent. */
        public final long[] sumDiscPrice = new long[6];
        /** price * (1 - discount) * (1 + tax), in 1/10,000 of a cent. */
        public final long[] sumCharge = new long[6];
        /** In percent. */
        public final long[] sumDiscount = new long[6];

        /** A number that depends on every sum (what a benchmark consumes). */
        public long checksum() {
            long c = 0;
            for (int g = 0; g < 6; g++)
                c += count[g] + sumQuantity[g] + sumBasePrice[g] + sumDiscPrice[g] + sumCharge[g] + sumDiscount[g];
            return c;
        }
    }

    /**
     * Q1: the ship-date scan selects ~98% of lineitem; six columns of every selected record are
     * read (the record construction of the paper's Q1) and summed per (returnflag, linestatus).
     */
    public Q1 q1() {
        Q1 q = new Q1();
        int[] fields = {L_RETURNFLAG, L_LINESTATUS, L_QUANTITY, L_EXTENDEDPRICE, L_DISCOUNT, L_TAX};
        long[] flag = vectors[0],
                status = vectors[1],
                qty = vectors[2],
                price = vectors[3],
                disc = vectors[4],
                tax = vectors[5];
        long[] count = q.count,
                sumQty = q.sumQuantity,
                sumBase = q.sumBasePrice,
                sumDisc = q.sumDiscPrice,
                sumCharge = q.sumCharge,
                sumDiscount = q.sumDiscount;
        for (int p = 0, pages = lineitem.pageCount(); p < pages; p++) {
            Page page = lineitem.page(p);
            if (page.scanBetween(L_SHIPDATE, Integer.MIN_VALUE, Q1_SHIPDATE_MAX, selection) == 0) continue;
            int n = page.gather(selection, fields, vectors);
            for (int i = 0; i < n; i++) {
                int g = FLAG_GROUP[(int) flag[i]] + STATUS_GROUP[(int) status[i]];
                long discPrice = price[i] * (100 - disc[i]);
                count[g]++;
                sumQty[g] += qty[i];
                sumBase[g] += price[i];
                sumDisc[g] += discPrice;
                sumCharge[g] += discPrice * (100 + tax[i]);
                sumDiscount[g] += disc[i];
            }
        }
        return q;
    }

    /**
     * Q6: revenue = sum(l_extendedprice * l_discount) where l_shipdate in 1994 (~15%), l_discount
     * between 0.05 and 0.07 and l_quantity &lt; 24; in 1/100 of a cent. The single-field
     * predicate scan of the paper's Table 1, then two refinements and a gather of ~2%.
     */
    public long q6() {
        return q6(0);
    }

    /**
     * Q6 with a read-ahead: before page p, the first value of each of Q6's four columns on page
     * p + {@code ahead} is loaded (0: none), so that those run starts' cache misses overlap each
     * other and the work on page p instead of stalling each scan in turn. Java has no prefetch
     * instruction; these are plain loads, which hold up retirement until they arrive. The
     * experiment on prefetch distance that issue 15 asks for.
     */
    public long q6(int ahead) {
        int[] fields = {L_EXTENDEDPRICE, L_DISCOUNT};
        long[] price = vectors[0], disc = vectors[1];
        long revenue = 0;
        for (int p = 0, pages = lineitem.pageCount(); p < pages; p++) {
            if (ahead > 0 && p + ahead < pages) {
                Page next = lineitem.page(p + ahead);
                revenue += next.getLong(0, L_SHIPDATE)
                                + next.getLong(0, L_DISCOUNT)
                                + next.getLong(0, L_QUANTITY)
                                + next.getLong(0, L_EXTENDEDPRICE)
                        & 1;
            }
            Page page = lineitem.page(p);
            if (page.scanAllBetween(Q6_FIELDS, Q6_LO, Q6_HI, selection) == 0) continue;
            int n = page.gather(selection, fields, vectors);
            for (int i = 0; i < n; i++) revenue += price[i] * disc[i];
        }
        return revenue;
    }

    /**
     * Q6 a predicate at a time: the ship-date scan into the page's selection bitmap, then a pass
     * per refinement, then the gather. The same answer as {@link #q6()}, which evaluates the three
     * predicates together a word at a time ({@link Page#scanAllBetween}); kept to measure what
     * the fused filter buys each format.
     */
    public long q6Stepwise() {
        int[] fields = {L_EXTENDEDPRICE, L_DISCOUNT};
        long[] price = vectors[0], disc = vectors[1];
        long revenue = 0;
        for (int p = 0, pages = lineitem.pageCount(); p < pages; p++) {
            Page page = lineitem.page(p);
            if (page.scanBetween(L_SHIPDATE, Y1994, Y1995 - 1, selection) == 0) continue;
            if (page.refineBetween(L_DISCOUNT, 5, 7, selection) == 0) continue;
            if (page.refineBetween(L_QUANTITY, Integer.MIN_VALUE, 23, selection) == 0) continue;
            int n = page.gather(selection, fields, vectors);
            for (int i = 0; i < n; i++) revenue += price[i] * disc[i];
        }
        return revenue;
    }

    /**
     * Q12: per ship mode (MAIL, SHIP), lineitems received in 1994 after their commit date,
     * committed after their ship date, counted by whether their order's priority is high
     * (1-URGENT, 2-HIGH). A join of lineitem with orders: the build side is a bitmap of the
     * high-priority order keys from a scan of orders (two equality scans of o_orderpriority);
     * the probe side two equality scans of l_shipmode per page (HPL decides most on its
     * references' normalized keys), a refinement on the receipt date and a gather.
     * Returns {MAIL high, MAIL low, SHIP high, SHIP low}.
     */
    public long[] q12() {
        java.util.Arrays.fill(highPriority, 0);
        long[] key = vectors[0];
        for (int p = 0, pages = orders.pageCount(); p < pages; p++) {
            Page page = orders.page(p);
            int high = page.scanEquals(O_ORDERPRIORITY, URGENT, selection);
            high += page.scanEquals(O_ORDERPRIORITY, HIGH, other);
            if (high == 0) continue;
            for (int w = 0, words = (page.slotCount() + 63) >>> 6; w < words; w++) selection[w] |= other[w];
            int n = page.gather(selection, ORDER_KEY, vectors);
            for (int i = 0; i < n; i++) highPriority[(int) (key[i] >>> 6)] |= 1L << key[i];
        }
        long[] counts = new long[4];
        int[] fields = {L_ORDERKEY, L_SHIPDATE, L_COMMITDATE, L_RECEIPTDATE};
        long[] ship = vectors[1], commit = vectors[2], receipt = vectors[3];
        for (int p = 0, pages = lineitem.pageCount(); p < pages; p++) {
            Page page = lineitem.page(p);
            for (int mode = 0; mode < 2; mode++) {
                if (page.scanEquals(L_SHIPMODE, mode == 0 ? MAIL : SHIP, selection) == 0) continue;
                if (page.refineBetween(L_RECEIPTDATE, Y1994, Y1995 - 1, selection) == 0) continue;
                int n = page.gather(selection, fields, vectors);
                long high = 0, all = 0;
                for (int i = 0; i < n; i++) {
                    long late = (commit[i] < receipt[i] & ship[i] < commit[i]) ? 1 : 0;
                    all += late;
                    high += late & (highPriority[(int) (key[i] >>> 6)] >>> key[i]);
                }
                counts[2 * mode] += high;
                counts[2 * mode + 1] += all - high;
            }
        }
        return counts;
    }

    /**
     * Q14: the share of September 1995's revenue (price * (1 - discount)) from PROMO parts. A
     * join of lineitem with part: the build side a bitmap of the promo part keys from a scan of
     * part (p_type's first five bytes, record by record), the probe side a one-month ship-date
     * scan (~1.3%) and a gather. Returns {promo revenue, revenue}, in 1/100 of a cent.
     */
    public long[] q14() {
        java.util.Arrays.fill(promo, 0);
        for (int p = 0, pages = part.pageCount(); p < pages; p++) {
            Page page = part.page(p);
            for (int s = 0, n = page.slotCount(); s < n; s++) {
                if (page.isGhost(s) || page.getLength(s, P_TYPE) < PROMO.length) continue;
                page.getBytes(s, P_TYPE, value, 0);
                if (value[0] == 'P' && value[1] == 'R' && value[2] == 'O' && value[3] == 'M' && value[4] == 'O') {
                    long k = page.getLong(s, P_PARTKEY);
                    promo[(int) (k >>> 6)] |= 1L << k;
                }
            }
        }
        int[] fields = {L_PARTKEY, L_EXTENDEDPRICE, L_DISCOUNT};
        long[] key = vectors[0], price = vectors[1], disc = vectors[2];
        long promoRevenue = 0, revenue = 0;
        for (int p = 0, pages = lineitem.pageCount(); p < pages; p++) {
            Page page = lineitem.page(p);
            if (page.scanBetween(L_SHIPDATE, SEP1995, OCT1995 - 1, selection) == 0) continue;
            int n = page.gather(selection, fields, vectors);
            for (int i = 0; i < n; i++) {
                long r = price[i] * (100 - disc[i]);
                revenue += r;
                promoRevenue += r & -(promo[(int) (key[i] >>> 6)] >>> key[i] & 1);
            }
        }
        return new long[] {promoRevenue, revenue};
    }
}

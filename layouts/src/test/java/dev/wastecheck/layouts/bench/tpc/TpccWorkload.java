package dev.wastecheck.layouts.bench.tpc;

import java.util.LinkedHashMap;
import java.util.function.LongSupplier;

/**
 * TPC-C on one format for a benchmark driver, one warehouse: a batch of each transaction type
 * ({@code new_order} ... {@code stock_level}, HPL-2012-240's Table 3) and of the standard mix;
 * {@code stmt:update}, {@code stmt:construct}, {@code stmt:insert} and {@code stmt:delete} run
 * the mix with one kind of statement alone, {@code logic} with none. {@code _before} restores the
 * loaded database and the inputs before each operation (untimed), so every operation runs the
 * same transactions on the same data ({@code -Dtpcc.reset=false} leaves it out: the tables run on,
 * and their lines stay in cache as far as they fit, as in a running database).
 */
public final class TpccWorkload extends LinkedHashMap<String, LongSupplier> {
    static final int MIX = 1000;
    private final String description;

    public TpccWorkload(String format, double scaleFactor, int pageSize) {
        Tpcc c = new Tpcc(Formats.of(format), pageSize, 42);
        // -Dtpcc.reset=false: no restore before an operation, the tables run on from batch to batch (as
        // TPC-C inside the engine does; with PaperRun's --warmup 0 every format runs the same batches).
        if (!"false".equals(System.getProperty("tpcc.reset")))
            put("_before", () -> {
                c.reset();
                return 0;
            });
        put("new_order", () -> run(c, Tpcc.Transaction.NEW_ORDER, 400, Statements.ALL));
        put("payment", () -> run(c, Tpcc.Transaction.PAYMENT, 400, Statements.ALL));
        put("order_status", () -> run(c, Tpcc.Transaction.ORDER_STATUS, 400, Statements.ALL));
        put("delivery", () -> run(c, Tpcc.Transaction.DELIVERY, 40, Statements.ALL));
        put("stock_level", () -> run(c, Tpcc.Transaction.STOCK_LEVEL, 40, Statements.ALL));
        put("mix", () -> run(c, null, MIX, Statements.ALL));
        put("stmt:update", () -> run(c, null, MIX, Statements.UPDATE));
        put("stmt:construct", () -> run(c, null, MIX, Statements.CONSTRUCT));
        put("stmt:insert", () -> run(c, null, MIX, Statements.INSERT));
        put("stmt:delete", () -> run(c, null, MIX, Statements.DELETE));
        put("logic", () -> run(c, null, MIX, Statements.NONE));
        // Figures 9-12 of HPL-2012-240: a transaction's statements by kind (r, u, i, d), each
        // alone, net of the transaction's own logic (PaperRun subtracts "<transaction> logic").
        put("new_order stmt:construct", () -> run(c, Tpcc.Transaction.NEW_ORDER, 400, Statements.CONSTRUCT));
        put("new_order stmt:update", () -> run(c, Tpcc.Transaction.NEW_ORDER, 400, Statements.UPDATE));
        put("new_order stmt:insert", () -> run(c, Tpcc.Transaction.NEW_ORDER, 400, Statements.INSERT));
        put("new_order logic", () -> run(c, Tpcc.Transaction.NEW_ORDER, 400, Statements.NONE));
        put("payment stmt:construct", () -> run(c, Tpcc.Transaction.PAYMENT, 400, Statements.CONSTRUCT));
        put("payment stmt:update", () -> run(c, Tpcc.Transaction.PAYMENT, 400, Statements.UPDATE));
        put("payment stmt:insert", () -> run(c, Tpcc.Transaction.PAYMENT, 400, Statements.INSERT));
        put("payment logic", () -> run(c, Tpcc.Transaction.PAYMENT, 400, Statements.NONE));
        put("delivery stmt:delete", () -> run(c, Tpcc.Transaction.DELIVERY, 40, Statements.DELETE));
        put("delivery stmt:construct", () -> run(c, Tpcc.Transaction.DELIVERY, 40, Statements.CONSTRUCT));
        put("delivery stmt:update", () -> run(c, Tpcc.Transaction.DELIVERY, 40, Statements.UPDATE));
        put("delivery logic", () -> run(c, Tpcc.Transaction.DELIVERY, 40, Statements.NONE));
        StringBuilder b = new StringBuilder(format).append(':');
        for (PageHeap h : c.tables)
            b.append(' ')
                    .append(h.name)
                    .append(' ')
                    .append(h.liveRecords())
                    .append('/')
                    .append(h.pageCount());
        description = b.append(" (rows/pages)").toString();
    }

    private static long run(Tpcc c, Tpcc.Transaction type, int count, int mode) {
        c.mode = mode;
        return c.run(type, count);
    }

    @Override
    public String toString() {
        return description;
    }
}

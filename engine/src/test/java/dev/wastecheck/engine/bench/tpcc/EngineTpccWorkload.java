package dev.wastecheck.engine.bench.tpcc;

import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.bench.tpc.Formats;
import dev.wastecheck.layouts.bench.tpc.Tpcc;
import java.util.LinkedHashMap;
import java.util.function.LongSupplier;

/**
 * TPC-C inside the engine ({@link EngineTpcc}) on one layout, for {@code PaperRun}'s
 * {@code tpcc-engine} workload ({@code ./bench layouts-engine}): a batch of each transaction type
 * and of the standard mix, as the layouts' {@code TpccWorkload} runs them (400 of New-Order,
 * Payment and Order-Status, 40 of Delivery and Stock-Level, 1,000 of the mix).
 *
 * <p>There is no reset between batches (rebuilding heap files and B+trees takes seconds): the
 * database runs on from batch to batch, and since PaperRun runs every format's operations in the
 * same order, a fixed number of times (warm-up with {@code --warmup 0}: three runs of each), every
 * layout sees the same transactions on the same data in every round. The constructor warms each
 * layout with {@link #WARMUP} mix transactions, the same for all.
 */
public final class EngineTpccWorkload extends LinkedHashMap<String, LongSupplier> {
    static final int WARMUP = 3000;
    private final String description;

    public EngineTpccWorkload(String format, double scaleFactor, int pageSize) {
        Layout layout = layout(format, pageSize);
        // The rows: the layouts' TPC-C, loaded once into pages of any format and read back whole.
        Tpcc source = new Tpcc(Formats.of("NSM"), 32768, 42);
        EngineTpcc c = new EngineTpcc(source, 42, layout, pageSize, 1L << 29);
        source = null;
        c.run(null, WARMUP);
        put("new_order", () -> c.run(Tpcc.Transaction.NEW_ORDER, 400));
        put("payment", () -> c.run(Tpcc.Transaction.PAYMENT, 400));
        put("order_status", () -> c.run(Tpcc.Transaction.ORDER_STATUS, 400));
        put("delivery", () -> c.run(Tpcc.Transaction.DELIVERY, 40));
        put("stock_level", () -> c.run(Tpcc.Transaction.STOCK_LEVEL, 40));
        put("mix", () -> c.run(null, 1000));
        description = format + " in the engine: " + c.describe();
    }

    /** The layout a format names, on pages the engine takes (at most 32 KB). */
    static Layout layout(String format, int pageSize) {
        if (pageSize > 32768)
            throw new IllegalArgumentException("the engine's pages are at most 32 KB: run with --page-size 32768");
        try {
            return Layout.valueOf(format);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the engine's heap files take NSM, PAX or HPL pages, not " + format);
        }
    }

    @Override
    public String toString() {
        return description;
    }
}

package dev.wastecheck.engine.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.bench.tpc.Formats;
import dev.wastecheck.layouts.bench.tpc.Tpcc;
import org.junit.jupiter.api.Test;

/**
 * TPC-C inside the engine runs the layouts' TPC-C: the same transactions on the same rows give
 * the same checksums (every value a transaction reads, summed), batch after batch, on every layout.
 */
class EngineTpccTest {
    @Test
    void sameTransactionsSameChecksumsOnEveryLayout() {
        Tpcc reference = new Tpcc(Formats.of("NSM"), 32768, 42);
        EngineTpcc[] engines = new EngineTpcc[Layout.PAGES.size()];
        for (int i = 0; i < engines.length; i++)
            engines[i] = new EngineTpcc(reference, 42, Layout.PAGES.get(i), 32768, 256L << 20);
        Tpcc.Transaction[] batches = {
            null,
            Tpcc.Transaction.NEW_ORDER,
            Tpcc.Transaction.PAYMENT,
            Tpcc.Transaction.ORDER_STATUS,
            Tpcc.Transaction.DELIVERY,
            Tpcc.Transaction.STOCK_LEVEL,
            null
        };
        for (Tpcc.Transaction t : batches) {
            int n = t == Tpcc.Transaction.DELIVERY || t == Tpcc.Transaction.STOCK_LEVEL ? 20 : 300;
            long expected = reference.run(t, n);
            for (EngineTpcc e : engines) assertEquals(expected, e.run(t, n), t + " on " + e.describe());
        }
        for (EngineTpcc e : engines) {
            assertEquals(0, e.pool.evictions(), e.describe());
            assertEquals(reference.orders.liveRecords(), e.orders.rows());
            assertEquals(reference.newOrder.liveRecords(), e.newOrder.rows());
            e.close();
        }
    }
}

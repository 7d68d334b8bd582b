package dev.wastecheck.engine.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.bench.tpc.Formats;
import dev.wastecheck.layouts.bench.tpc.Tpcb;
import org.junit.jupiter.api.Test;

/**
 * TPC-B inside the engine runs the layouts' TPC-B: on the same rows and inputs the first batch's
 * checksum and balances are the page-only {@link Tpcb}'s, later batches agree on every layout, the
 * timed run times all seven statements, and the balances stay consistent (accounts, tellers and
 * branches each sum to the history's deltas).
 */
class EngineTpcbTest {
    private static final int BRANCHES = 3, ACCOUNTS = 2_000, BATCH = 1_500;

    @Test
    void sameTransactionsSameChecksumsAndBalancesOnEveryLayout() {
        Tpcb reference = new Tpcb(Formats.of("NSM"), 32768, BRANCHES, ACCOUNTS, BATCH, 42);
        long expected = reference.run();
        long accounts = Tpcb.sum(reference.account, Tpcb.A_BALANCE);
        Long second = null;
        for (Layout layout : Layout.PAGES) {
            try (EngineTpcb e = new EngineTpcb(BRANCHES, ACCOUNTS, BATCH, 42, layout, 32768, 64L << 20)) {
                assertEquals(expected, e.run(), layout + ": the first batch's checksum");
                assertEquals(accounts, EngineTpcb.sum(e.account, Tpcb.A_BALANCE), layout + ": account balances");
                e.inputs.draw();
                long[] nanos = new long[EngineTpcb.STATEMENTS.length];
                long sum = e.run(nanos);
                if (second == null) second = sum;
                assertEquals(second, sum, layout + ": the second batch, timed");
                for (int i = 0; i < nanos.length; i++)
                    assertTrue(nanos[i] > 0, layout + ": " + EngineTpcb.STATEMENTS[i] + " not timed");
                long deltas = EngineTpcb.sum(e.history, Tpcb.H_DELTA);
                assertEquals(deltas, EngineTpcb.sum(e.account, Tpcb.A_BALANCE), layout + ": accounts");
                assertEquals(deltas, EngineTpcb.sum(e.teller, Tpcb.T_BALANCE), layout + ": tellers");
                assertEquals(deltas, EngineTpcb.sum(e.branch, Tpcb.B_BALANCE), layout + ": branches");
                assertEquals(2L * BATCH, e.history.rows());
                assertEquals(0, e.pool.evictions(), e.describe());
            }
        }
    }
}

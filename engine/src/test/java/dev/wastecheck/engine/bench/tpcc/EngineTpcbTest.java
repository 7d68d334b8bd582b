package dev.wastecheck.engine.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.bench.tpc.Formats;
import dev.wastecheck.layouts.bench.tpc.Tpcb;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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

    /**
     * T1's diagnostic ({@link EngineTpcb.Touch}) changes no result, and on NSM the byte it loads is
     * the account's slot: the int there is the offset of a record, past the slot array, that holds
     * the account's id among its fixed fields.
     */
    @Test
    void theDiagnosticTouchesNsmsSlotAndChangesNoResult() {
        Long expected = null;
        for (EngineTpcb.Touch touch : EngineTpcb.Touch.values()) {
            for (Layout layout : Layout.PAGES) {
                try (EngineTpcb e = new EngineTpcb(BRANCHES, ACCOUNTS, BATCH, 42, layout, 32768, 64L << 20)) {
                    long sum = e.run(new long[EngineTpcb.STATEMENTS.length], touch);
                    if (expected == null) expected = sum;
                    assertEquals(expected, sum, layout + ", " + touch + ": the batch's checksum");
                }
            }
        }
        try (EngineTpcb e = new EngineTpcb(BRANCHES, ACCOUNTS, BATCH, 42, Layout.NSM, 32768, 64L << 20)) {
            int pageSize = e.pool.pageSize();
            for (int a = 0; a < BRANCHES * ACCOUNTS; a++) {
                long tid = e.accountTid(a);
                ByteBuffer page =
                        ByteBuffer.wrap(e.accountPage(TupleId.page(tid))).order(ByteOrder.LITTLE_ENDIAN);
                int slots = page.getInt(0);
                int record = page.getInt(EngineTpcb.slotOffset(tid));
                assertTrue(
                        record >= EngineTpcb.NSM_HEADER_SIZE + slots * EngineTpcb.NSM_SLOT_SIZE && record < pageSize,
                        "account " + a + ": the slot holds " + record);
                boolean holdsId = false;
                for (int k = 0; k < 32 && !holdsId; k++) holdsId = page.getInt(record + k) == a;
                assertTrue(holdsId, "account " + a + ": the record at its slot's offset does not hold its id");
            }
        }
    }
}

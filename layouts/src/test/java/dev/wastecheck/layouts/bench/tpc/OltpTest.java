package dev.wastecheck.layouts.bench.tpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TPC-B and TPC-C run on pages of every format and leave the database in the state the
 * benchmarks' consistency conditions require, the same on every format.
 */
class OltpTest {

    /** TPC-B clause 2.2: account, teller and branch balances and the history deltas all sum to the same total. */
    @ParameterizedTest
    @ValueSource(
            strings = {"NSM", "NSM-SHORE", "PAX", "HPL", "HPL/256", "HPL-RIGID/8", "HPL-SIMPLISTIC"
            }) // a rigid segment of 512 accounts (10 KB) does not fit these 8 KB pages (§4.5): U = 8, R = 64
    void tpcbBalancesStayConsistent(String format) {
        Tpcb b = new Tpcb(Formats.of(format), 8192, 3, 2_000, 3_000, 7);
        b.run();
        assertThat(b.history.liveRecords()).isEqualTo(3_000);
        long deltas = Tpcb.sum(b.history, Tpcb.H_DELTA);
        assertThat(deltas).isNotZero();
        assertThat(Tpcb.sum(b.account, Tpcb.A_BALANCE)).isEqualTo(deltas);
        assertThat(Tpcb.sum(b.teller, Tpcb.T_BALANCE)).isEqualTo(deltas);
        assertThat(Tpcb.sum(b.branch, Tpcb.B_BALANCE)).isEqualTo(deltas);
        // Each statement kind alone: the updates move the balances again, the inserts add the history again.
        b.mode = Statements.UPDATE;
        b.run();
        assertThat(Tpcb.sum(b.account, Tpcb.A_BALANCE)).isEqualTo(2 * deltas);
        assertThat(Tpcb.sum(b.branch, Tpcb.B_BALANCE)).isEqualTo(2 * deltas);
        b.mode = Statements.INSERT;
        b.run();
        assertThat(b.history.liveRecords()).isEqualTo(6_000);
        assertThat(Tpcb.sum(b.history, Tpcb.H_DELTA)).isEqualTo(2 * deltas);
        assertThat(Tpcb.sum(b.teller, Tpcb.T_BALANCE)).isEqualTo(2 * deltas);
    }

    /**
     * TPC-C clause 3.3.2.1-4 after a thousand transactions of the mix on both NSMs, PAX and HPL:
     * W_YTD = sum(D_YTD), D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID), contiguous new-order ids,
     * sum(O_OL_CNT) = count(ORDER-LINE); the same answers and sums on every format.
     */
    @org.junit.jupiter.api.Test
    void tpccStaysConsistentAndEveryFormatAgrees() {
        Long checksum = null, balances = null, stock = null;
        for (String format : List.of("NSM", "NSM-SHORE", "PAX", "HPL")) {
            Tpcc c = new Tpcc(Formats.of(format), 16 << 10, 11);
            assertThat(c.consistencyViolation()).as("%s as loaded", format).isNull();
            long sum = c.run(null, 1_000) + c.run(Tpcc.Transaction.DELIVERY, 20);
            assertThat(c.consistencyViolation()).as("%s after the mix", format).isNull();
            assertThat(c.refusedUpdates).isZero();
            for (long n : c.executed)
                assertThat(n)
                        .as("%s statements of each kind: update, read, insert, delete", format)
                        .isPositive();
            long b = Tpcc.sum(c.customer, Tpcc.C_BALANCE, -1, 0), s = Tpcc.sum(c.stock, Tpcc.S_QUANTITY, -1, 0);
            if (checksum == null) {
                checksum = sum;
                balances = b;
                stock = s;
            }
            assertThat(sum).as("%s answers", format).isEqualTo(checksum);
            assertThat(b).as("%s customer balances", format).isEqualTo(balances);
            assertThat(s).as("%s stock", format).isEqualTo(stock);
            // reset() brings back the loaded database: the same transactions give the same answers.
            c.reset();
            assertThat(c.run(null, 1_000) + c.run(Tpcc.Transaction.DELIVERY, 20))
                    .isEqualTo(sum);
        }
    }
}

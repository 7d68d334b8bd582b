package dev.wastecheck.layouts.bench.tpc;

import java.util.LinkedHashMap;
import java.util.function.LongSupplier;

/**
 * TPC-B on one format for a benchmark driver: {@code txn} runs a batch of {@value #BATCH}
 * transactions; {@code stmt:update} (the three balance updates), {@code stmt:select} (the
 * account balance read back) and {@code stmt:insert} (the history row) run one kind of
 * statement of the same batch alone, {@code logic} none (what the others include besides their
 * statements). {@code _before} empties the history table before each operation, untimed.
 * One branch by default: 100,000 accounts of 100 bytes, a 10 MB account table (in L3);
 * {@code -Dtpcb.branches=N} (PaperRun's {@code --tpcb-branches}) loads N, as §6.2's scale 10.
 */
public final class TpcbWorkload extends LinkedHashMap<String, LongSupplier> {
    public static final int BATCH = 20_000;
    private final String description;

    public TpcbWorkload(String format, double scaleFactor, int pageSize) {
        Tpcb b = new Tpcb(Formats.of(format), pageSize, Integer.getInteger("tpcb.branches", 1), BATCH, 42);
        put("_before", () -> {
            b.history.clear();
            return 0;
        });
        put("txn", () -> run(b, Statements.ALL));
        put("stmt:update", () -> run(b, Statements.UPDATE));
        put("stmt:select", () -> run(b, Statements.CONSTRUCT));
        put("stmt:insert", () -> run(b, Statements.INSERT));
        put("logic", () -> run(b, Statements.NONE));
        description = String.format(
                "%s: %d transactions a batch; account %d rows in %d pages, teller %d, branch %d",
                format,
                BATCH,
                b.account.liveRecords(),
                b.account.pageCount(),
                b.teller.liveRecords(),
                b.branch.liveRecords());
    }

    private static long run(Tpcb b, int mode) {
        b.mode = mode;
        return b.run();
    }

    @Override
    public String toString() {
        return description;
    }
}

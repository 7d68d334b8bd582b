package dev.wastecheck.engine.bench.tpcc;

import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.bench.tpc.Tpcb;
import dev.wastecheck.layouts.bench.tpc.TpcbWorkload;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * TPC-B inside the engine ({@link EngineTpcb}) on one layout, for {@code PaperRun}'s
 * {@code tpcb-engine} workload ({@code ./bench layouts-engine}): {@code txn} runs a batch of
 * {@link TpcbWorkload#BATCH} transactions untimed inside (Table 2), {@code statements} the next
 * batch with each statement timed (Figure 7's T1..T7, which PaperRun reads through
 * {@link #get()} and reports as {@code statements T1 r account} and so on, in milliseconds a
 * batch).
 *
 * <p>Scale: {@code -Dtpcb.branches} (PaperRun's {@code --tpcb-branches}; {@code ./bench
 * layouts-engine} passes 10, §6.2's "scale 10": 1,000,000 accounts). {@code _before} draws the
 * next batch's inputs (untimed), so every batch is new transactions on the running database, the
 * same sequence on every layout. There is no reset: history grows by a batch an operation, the
 * same on every layout.
 *
 * <p>With {@code -Dtpcb.touch=true}, two more operations run T1's diagnostic
 * ({@link EngineTpcb#run(long[], EngineTpcb.Touch)}): {@code statements+slot} times the statements
 * with NSM's slot line of each account loaded just before its T1, untimed, and
 * {@code statements+other} with the same offset of an account the batch does not read.
 */
public final class EngineTpcbWorkload extends LinkedHashMap<String, LongSupplier>
        implements Supplier<Map<String, Double>> {
    /**
     * 1 GB (32,768 frames of 32 KB): scale 10 loads 4,078 pages (NSM; PAX 3,802, HPL 4,019), and
     * a batch's history rows take 31-37 pages, so about 750 batches (some 370 rounds of the two
     * operations) run without an eviction.
     */
    static final long POOL = 1L << 30;

    private final String description;
    private final long[] nanos = new long[EngineTpcb.STATEMENTS.length];
    private final Map<String, Double> parts = new LinkedHashMap<>();

    public EngineTpcbWorkload(String format, double scaleFactor, int pageSize) {
        Layout layout = EngineTpccWorkload.layout(format, pageSize);
        int branches = Integer.getInteger("tpcb.branches", 1);
        EngineTpcb b =
                new EngineTpcb(branches, Tpcb.ACCOUNTS_PER_BRANCH, TpcbWorkload.BATCH, 42, layout, pageSize, POOL);
        put("_before", () -> {
            b.inputs.draw();
            parts.clear();
            return 0;
        });
        put("txn", b::run);
        put("statements", () -> {
            Arrays.fill(nanos, 0);
            long sum = b.run(nanos);
            for (int i = 0; i < nanos.length; i++) parts.put(EngineTpcb.STATEMENTS[i], nanos[i] / 1e6);
            return sum;
        });
        if (Boolean.getBoolean("tpcb.touch")) {
            for (EngineTpcb.Touch touch : new EngineTpcb.Touch[] {EngineTpcb.Touch.SLOT, EngineTpcb.Touch.OTHER}) {
                put("statements+" + touch.name().toLowerCase(Locale.ROOT), () -> {
                    Arrays.fill(nanos, 0);
                    long sum = b.run(nanos, touch);
                    for (int i = 0; i < nanos.length; i++) parts.put(EngineTpcb.STATEMENTS[i], nanos[i] / 1e6);
                    return sum;
                });
            }
        }
        description = String.format(
                "%s in the engine: %d transactions a batch; %s", format, TpcbWorkload.BATCH, b.describe());
    }

    /** The statements' milliseconds in the operation that ran last (empty after {@code txn}). */
    @Override
    public Map<String, Double> get() {
        return parts;
    }

    @Override
    public String toString() {
        return description;
    }
}

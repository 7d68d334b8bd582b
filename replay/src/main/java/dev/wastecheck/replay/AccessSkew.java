package dev.wastecheck.replay;

import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.heat.WorkloadHeat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The access-skew curve of each table ("No Bits Left Behind" §1: 99% of the revision table's accesses hit 5%
 * of its tuples): the share of the keyed accesses that go to the hottest x of the table's tuples, for
 * x from 0.1% to 100%, counted through the index most accesses use.
 */
public final class AccessSkew {
    /** The shares of the table's tuples the curve is drawn at. */
    public static final double[] AT = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};

    private AccessSkew() {}

    /** Per table with keyed accesses: points {share of tuples, share of accesses}; {@code rows} gives a table's rows. */
    public static Map<String, List<double[]>> of(WorkloadHeat heat, java.util.function.ToLongFunction<String> rows) {
        Map<String, List<double[]>> out = new LinkedHashMap<>();
        for (TableHeat th : heat.tables()) {
            String ix = th.heatIndex();
            if (ix == null) continue;
            long[] counts = th.tupleCounts(ix).values().stream()
                    .mapToLong(Long::longValue)
                    .sorted()
                    .toArray();
            if (counts.length == 0) continue;
            long total = 0;
            for (long c : counts) total += c;
            long population = Math.max(rows.applyAsLong(th.name()), counts.length);
            List<double[]> points = new ArrayList<>();
            for (double x : AT) {
                long k = (long) Math.ceil(x * population);
                long sum = 0;
                for (int i = counts.length - 1, n = 0; i >= 0 && n < k; i--, n++) sum += counts[i];
                points.add(new double[] {x, total == 0 ? 0 : (double) sum / total});
            }
            out.put(th.name(), points);
        }
        return out;
    }
}

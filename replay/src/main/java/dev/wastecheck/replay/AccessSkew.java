package dev.wastecheck.replay;

import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.heat.WorkloadHeat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The access-skew curve of each table ("No Bits Left Behind" §1: 99% of the revision table's
 * accesses hit 5% of its tuples): the share of the keyed accesses that go to the hottest x of the
 * table's tuples, for x from 0.1% to 100%, counted through the index most accesses use, by
 * {@link TableHeat#hottestShares} (the computation behind {@code analyze}'s 1%, 5% and 10% shares).
 */
public final class AccessSkew {
    /** The shares of the table's tuples the curve is drawn at. */
    public static final double[] AT = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};

    private AccessSkew() {}

    /** Per table with keyed accesses: points {share of tuples, share of accesses}; {@code rows} gives a table's rows. */
    public static Map<String, List<double[]>> of(WorkloadHeat heat, ToLongFunction<String> rows) {
        Map<String, List<double[]>> out = new LinkedHashMap<>();
        for (TableHeat th : heat.tables()) {
            String ix = th.heatIndex();
            if (ix == null) continue;
            long tuples = rows.applyAsLong(th.name());
            if (th.skew(ix, tuples).keys() == 0) continue;
            double[] shares = th.hottestShares(ix, tuples, AT);
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i < AT.length; i++) points.add(new double[] {AT[i], shares[i]});
            out.put(th.name(), points);
        }
        return out;
    }
}

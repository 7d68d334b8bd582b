package dev.wastecheck.layouts.bench.tpc;

import java.util.LinkedHashMap;
import java.util.function.LongSupplier;

/**
 * TPC-H's four queries on one format, as named operations for a benchmark driver: q1, q6, q12,
 * q14 (and for ARRAY, the plain-array ceiling, q1 and q6 only); "q6 read-ahead 1" is Q6 loading
 * the next page's four run starts first ({@link Tpch#q6(int)}); "q6-stepwise" is Q6 a predicate
 * at a time through the selection bitmap ({@link Tpch#q6Stepwise()}). Each returns a number that
 * depends on the whole answer, for the driver to consume.
 */
public final class TpchWorkload extends LinkedHashMap<String, LongSupplier> {
    private final String description;

    public TpchWorkload(String format, double scaleFactor, int pageSize) {
        TpchGenerator generator = new TpchGenerator(scaleFactor, 42);
        if (format.equals("ARRAY")) {
            TpchArrays arrays = new TpchArrays();
            generator.generate(arrays);
            put("q1", () -> arrays.q1().checksum());
            put("q6", arrays::q6);
            description = "ARRAY: " + arrays.rows() + " lineitem rows in plain arrays";
        } else {
            // -Dlayouts.paper=true: §6's records per page (204 lineitem, 256 orders, 199 part).
            boolean paper = Boolean.getBoolean("layouts.paper");
            Tpch t = Tpch.load(
                    generator, Formats.of(format), pageSize, null, paper ? Tpch.PAPER_RECORDS_PER_PAGE : null);
            put("q1", () -> t.q1().checksum());
            put("q6", t::q6);
            put("q12", () -> {
                long[] c = t.q12();
                return c[0] + 31 * c[1] + 961 * c[2] + 29791 * c[3];
            });
            put("q14", () -> {
                long[] c = t.q14();
                return c[0] ^ c[1];
            });
            if (!paper) {
                put("q6 read-ahead 1", () -> t.q6(1));
                put("q6-stepwise", t::q6Stepwise);
            }
            description = String.format(
                    "%s: lineitem %d rows in %d pages (%.1f a page), orders %d in %d, part %d in %d",
                    format,
                    t.lineitem.liveRecords(),
                    t.lineitem.pageCount(),
                    (double) t.lineitem.liveRecords() / t.lineitem.pageCount(),
                    t.orders.liveRecords(),
                    t.orders.pageCount(),
                    t.part.liveRecords(),
                    t.part.pageCount());
        }
    }

    @Override
    public String toString() {
        return description;
    }
}

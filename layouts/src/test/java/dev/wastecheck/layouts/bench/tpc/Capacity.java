package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records per page of every format on the same records: TPC-H's lineitem, orders and part at
 * SF 0.01 and 20,000 RECORD100 records (the paper's ~100-byte record), loaded into heaps of each
 * format at each page size. The space side of HPL's variants (§3-§5): RIGID loses up to a whole
 * segment at the end of a page, SIMPLISTIC less (smaller segments), INCREMENTAL a cache line per
 * column at most; HPL's VARLEN reference is 8 bytes with its normalized key, PAX's 4.
 */
public final class Capacity {
    private Capacity() {}

    /** Rows of a table to load: the first few thousand of each. */
    static Map<String, List<Record>> samples() {
        Map<String, List<Record>> tables = new LinkedHashMap<>();
        List<Record> lineitem = new ArrayList<>(), orders = new ArrayList<>(), part = new ArrayList<>();
        new TpchGenerator(0.01, 42).generate(new TpchGenerator.Sink() {
            @Override
            public void part(Record r) {
                part.add(new Record(r.schema()).copyFrom(r));
            }

            @Override
            public void order(Record r) {
                orders.add(new Record(r.schema()).copyFrom(r));
            }

            @Override
            public void lineitem(Record r) {
                lineitem.add(new Record(r.schema()).copyFrom(r));
            }
        });
        tables.put("lineitem", lineitem);
        tables.put("orders", orders);
        tables.put("part", part);
        List<Record> record100 = new ArrayList<>();
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 20_000; i++) {
            Record r = new Record(dev.wastecheck.layouts.bench.Shape.RECORD100.schema);
            dev.wastecheck.layouts.bench.Shape.RECORD100.fill(r, i, random);
            record100.add(r);
        }
        tables.put("RECORD100", record100);
        return tables;
    }

    /** Average records per page when the rows fill pages of the format (the last, partly filled page left out). */
    public static double recordsPerPage(String format, RecordSchema schema, List<Record> rows, int pageSize) {
        PageHeap heap = new PageHeap("capacity", Formats.of(format).apply(schema), pageSize);
        try {
            for (Record r : rows) heap.insert(r);
        } catch (IllegalArgumentException segmentLargerThanPage) {
            return Double.NaN; // a rigid segment that does not fit the page (§4.5)
        }
        int full = heap.pageCount() - 1;
        if (full < 1) return Double.NaN;
        long records = 0;
        for (int p = 0; p < full; p++) records += heap.page(p).slotCount();
        return (double) records / full;
    }

    /** A Markdown table: records per page of each format, per table and page size. */
    public static String report(List<String> formats, int[] pageSizes) {
        StringBuilder b = new StringBuilder("| table | page |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (String f : formats) {
            b.append(' ').append(f).append(" |");
            rule.append("---|");
        }
        b.append('\n').append(rule).append('\n');
        Map<String, List<Record>> tables = samples();
        for (Map.Entry<String, List<Record>> t : tables.entrySet()) {
            RecordSchema schema = t.getValue().get(0).schema();
            for (int size : pageSizes) {
                b.append("| ")
                        .append(t.getKey())
                        .append(" | ")
                        .append(size >> 10)
                        .append(" KB |");
                for (String f : formats)
                    b.append(String.format(Locale.ROOT, " %.1f |", recordsPerPage(f, schema, t.getValue(), size)));
                b.append('\n');
            }
        }
        return b.toString();
    }
}

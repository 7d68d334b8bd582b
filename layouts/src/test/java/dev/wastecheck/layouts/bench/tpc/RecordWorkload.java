package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.bench.Shape;
import java.util.LinkedHashMap;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * The record operations the paper's targets are about, on a table whose working set fits in
 * cache: {@value #RECORDS} records of ~100 bytes (RECORD100, the record size HPL-2012-240
 * evaluates; ~0.9 MB in NSM, in L3, each HPL or PAX column in L2) in {@code pageSize} pages.
 * {@code update}: one INT32 field of every record rewritten in a random order within each page
 * (point updates); {@code construct}: every record read whole, in the same order; {@code delete}:
 * half of each page's records turned into ghosts, in that order; {@code insert}: the records
 * appended to emptied pages. {@code _before} restores the loaded table (untimed), which also
 * leaves it in cache for the next operation.
 */
public final class RecordWorkload extends LinkedHashMap<String, LongSupplier> {
    static final int RECORDS = 8192;
    private final String description;

    public RecordWorkload(String format, double scaleFactor, int pageSize) {
        Shape shape = Shape.RECORD100;
        PageHeap table = new PageHeap("record100", Formats.of(format).apply(shape.schema), pageSize);
        Random random = new Random(42);
        Record[] rows = new Record[RECORDS];
        for (int i = 0; i < RECORDS; i++) {
            rows[i] = new Record(shape.schema);
            shape.fill(rows[i], i, random);
            table.insert(rows[i]);
        }
        int pages = table.pageCount();
        byte[][] loaded = table.snapshot();
        int[][] order = new int[pages][];
        for (int p = 0; p < pages; p++) {
            int n = table.page(p).slotCount();
            int[] o = new int[n];
            for (int i = 0; i < n; i++) o[i] = i;
            for (int i = n - 1; i > 0; i--) {
                int j = random.nextInt(i + 1), t = o[i];
                o[i] = o[j];
                o[j] = t;
            }
            order[p] = o;
        }
        Record into = new Record(shape.schema);
        int field = shape.updateField;
        int[] round = {0};
        put("_before", () -> {
            table.restore(loaded, pages);
            return 0;
        });
        put("update", () -> {
            int v = round[0]++ & 31;
            for (int p = 0; p < pages; p++) {
                Page page = table.page(p);
                for (int slot : order[p]) page.setLong(slot, field, 1 + ((slot + v) & 31));
            }
            return v;
        });
        put("construct", () -> {
            long sum = 0;
            for (int p = 0; p < pages; p++) {
                Page page = table.page(p);
                for (int slot : order[p]) {
                    page.read(slot, into);
                    sum += into.getLong(field) + into.length(shape.schema.fieldCount() - 1);
                }
            }
            return sum;
        });
        // §3.1's simplistic layout has no ghost records: it cannot delete.
        if (!format.startsWith("HPL-SIMPLISTIC"))
            put("delete", () -> {
                long ghosts = 0;
                for (int p = 0; p < pages; p++) {
                    Page page = table.page(p);
                    int[] o = order[p];
                    for (int i = 0, half = o.length / 2; i < half; i++) page.delete(o[i]);
                    ghosts += page.ghostCount();
                }
                return ghosts;
            });
        put("insert", () -> {
            table.clear();
            long rids = 0;
            for (Record r : rows) rids += table.insert(r);
            return rids;
        });
        description = String.format(
                "%s: %d RECORD100 records in %d pages of %d bytes (%.1f a page)",
                format, RECORDS, pages, pageSize, (double) RECORDS / pages);
    }

    @Override
    public String toString() {
        return description;
    }
}

package dev.wastecheck.engine.replay;

import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.cluster.Clusterer;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.access.ResultDigest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay executor returns the same results under every configuration: layouts, index cache,
 * clustering, hot partition, a buffer pool far smaller than the data, and long values out of line.
 * The expected results come from a plain in-memory model of the table, not from the engine.
 */
class ReplayerTest {
    private static final int ROWS = 3000;

    private static TableSpec pageSpec() {
        return new TableSpec("page", List.of(
                new ColumnSpec("page_id", FieldType.INT64, false, false),
                new ColumnSpec("page_namespace", FieldType.INT32, false, false),
                new ColumnSpec("page_title", FieldType.VARLEN, false, false),
                new ColumnSpec("page_latest", FieldType.INT32, false, false),
                new ColumnSpec("page_note", FieldType.VARLEN, true, true)),
                List.of(new IndexSpec("PRIMARY", List.of("page_id"), true, List.of("page_latest")),
                        new IndexSpec("name_title", List.of("page_namespace", "page_title"), true, List.of("page_id", "page_latest")),
                        new IndexSpec("ns", List.of("page_namespace"), false)));
    }

    /** The model: page_id -> row values. */
    private static Map<Long, Object[]> model() {
        Map<Long, Object[]> m = new LinkedHashMap<>();
        Random rnd = new Random(7);
        for (long id = 1; id <= ROWS; id++) {
            String note = rnd.nextInt(10) == 0 ? null : "n".repeat(rnd.nextInt(10) == 0 ? 3000 + rnd.nextInt(20000) : rnd.nextInt(40));
            m.put(id, new Object[] {id, (long) (id % 4), "Title_" + id, id * 10, note});
        }
        return m;
    }

    private static void load(Database db, Map<Long, Object[]> model) {
        Table t = db.table("page");
        Record r = new Record(t.schema());
        for (Object[] row : model.values()) {
            r.setLong(0, (Long) row[0]).setLong(1, (Long) row[1]).setString(2, (String) row[2]).setLong(3, (Long) row[3]);
            if (row[4] == null) r.setNull(4);
            else r.setString(4, (String) row[4]);
            t.insert(t.main(), r);
        }
    }

    private static AccessEvent lookupByTitle(long ns, String title, Set<String> projected) {
        Map<String, String> key = new LinkedHashMap<>();
        key.put("page_namespace", Long.toString(ns));
        key.put("page_title", title);
        return new AccessEvent("page", Operation.POINT_LOOKUP, "name_title", key, List.of("page_namespace", "page_title"), projected,
                Set.of(), Set.of(), Set.of(), Map.of(), 1, -1, 0);
    }

    private static AccessEvent byId(Operation op, long id, Set<String> projected, Map<String, String> values) {
        return new AccessEvent("page", op, "PRIMARY", Map.of("page_id", Long.toString(id)), List.of("page_id"), projected, Set.of(),
                values.keySet(), Set.of(), Map.of(), 1, -1, 0, values);
    }

    private static List<AccessEvent> workload(Map<Long, Object[]> model) {
        Random rnd = new Random(11);
        List<AccessEvent> out = new ArrayList<>();
        long next = ROWS + 1;
        for (int i = 0; i < 6000; i++) {
            long id = 1 + (long) Math.min(ROWS - 1, Math.abs(rnd.nextGaussian()) * 150); // skewed: a hot head
            int kind = rnd.nextInt(100);
            if (kind < 55) {
                out.add(lookupByTitle(id % 4, "Title_" + id, Set.of("page_id", "page_latest")));
            } else if (kind < 75) {
                out.add(byId(Operation.POINT_LOOKUP, id, Set.of("page_title", "page_note", "page_latest"), Map.of()));
            } else if (kind < 80) {
                out.add(new AccessEvent("page", Operation.RANGE, "ns", Map.of("page_namespace", Long.toString(id % 4)),
                        List.of("page_namespace"), Set.of("page_id"), Set.of(), Set.of(), Set.of(), Map.of(), 1, -1, 0));
            } else if (kind < 90) {
                out.add(byId(Operation.UPDATE, id, Set.of(), Map.of("page_latest", Long.toString(id * 10 + i))));
            } else if (kind < 94) {
                String note = rnd.nextBoolean() ? "grown ".repeat(rnd.nextInt(2000)) : "s";
                out.add(byId(Operation.UPDATE, id, Set.of(), Map.of("page_note", note)));
            } else if (kind < 97) {
                Map<String, String> v = new LinkedHashMap<>();
                v.put("page_id", Long.toString(next));
                v.put("page_namespace", "1");
                v.put("page_title", "New_" + next);
                v.put("page_latest", "5");
                v.put("page_note", null);
                out.add(new AccessEvent("page", Operation.INSERT, "PRIMARY", Map.of("page_id", Long.toString(next)), List.of("page_id"),
                        Set.of(), Set.of(), Set.of(), Set.of(), Map.of(), 1, -1, 0, v));
                out.add(lookupByTitle(1, "New_" + next, Set.of("page_id", "page_latest")));
                next++;
            } else if (kind < 98) {
                out.add(byId(Operation.DELETE, id + 1000, Set.of(), Map.of()));
            } else {
                out.add(lookupByTitle(0, "No_such_title", Set.of("page_id"))); // a miss
                out.add(byId(Operation.POINT_LOOKUP, 17, Set.of("page_id"), Map.of()));
            }
        }
        return out;
    }

    /** Digests the model computes for the same events, applying the same changes. */
    private static long[] expected(Map<Long, Object[]> model, List<AccessEvent> events) {
        Map<Long, Object[]> m = new LinkedHashMap<>();
        model.forEach((k, v) -> m.put(k, v.clone()));
        String[] cols = {"page_id", "page_namespace", "page_title", "page_latest", "page_note"};
        long[] out = new long[events.size()];
        ResultDigest d = new ResultDigest();
        for (int i = 0; i < events.size(); i++) {
            AccessEvent e = events.get(i);
            d.reset();
            List<Object[]> rows = new ArrayList<>();
            for (Object[] row : m.values()) {
                boolean match = true;
                for (Map.Entry<String, String> k : e.key().entrySet()) {
                    int c = List.of(cols).indexOf(k.getKey());
                    if (!String.valueOf(row[c]).equals(k.getValue())) match = false;
                }
                if (match) rows.add(row);
            }
            switch (e.operation()) {
                case POINT_LOOKUP, RANGE -> {
                    for (Object[] row : rows) {
                        d.beginRow();
                        for (int c = 0; c < cols.length; c++) {
                            if (!e.projected().contains(cols[c])) continue;
                            if (row[c] == null) d.addNull();
                            else if (row[c] instanceof Long l) d.addLong(l);
                            else d.addString((String) row[c]);
                        }
                        d.endRow();
                    }
                }
                case UPDATE -> {
                    for (Object[] row : rows) {
                        for (Map.Entry<String, String> v : e.values().entrySet()) {
                            int c = List.of(cols).indexOf(v.getKey());
                            row[c] = c == 4 ? v.getValue() : Long.valueOf(Long.parseLong(v.getValue()));
                        }
                    }
                    count(d, rows.size());
                }
                case DELETE -> {
                    for (Object[] row : rows) m.remove((Long) row[0]);
                    count(d, rows.size());
                }
                case INSERT -> {
                    long id = Long.parseLong(e.values().get("page_id"));
                    m.put(id, new Object[] {id, Long.parseLong(e.values().get("page_namespace")), e.values().get("page_title"),
                        Long.parseLong(e.values().get("page_latest")), null});
                    count(d, 1);
                }
                default -> throw new AssertionError();
            }
            out[i] = d.value();
        }
        return out;
    }

    private static void count(ResultDigest d, long n) {
        d.beginRow();
        d.addLong(n);
        d.endRow();
    }

    private static RunResult run(Layout layout, CachePolicy cache, String cluster, long memory, List<AccessEvent> events,
                                 Map<Long, Object[]> model) {
        try (Database db = new Database(List.of(pageSpec()), layout, cache, 1.0, 8192, memory, DeviceModel.NVME)) {
            load(db, model);
            Map<String, Long> moved = Map.of();
            if (cluster.equals("partition")) moved = Clusterer.partition(db, events);
            else if (!cluster.equals("none")) moved = Clusterer.relocate(db, events, Double.parseDouble(cluster));
            return new Replayer(db).run(layout + "/" + cache + "/" + cluster, "", events, 0.1, 0, moved, n -> { });
        }
    }

    @Test
    void everyConfigurationReturnsWhatThePlainModelReturns() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = workload(model);
        long[] want = expected(model, events);
        for (Layout layout : List.of(Layout.NSM, Layout.PAX, Layout.HPL)) {
            for (CachePolicy cache : List.of(CachePolicy.OFF, CachePolicy.SWAP, CachePolicy.SHRINK)) {
                for (String cluster : List.of("none", "0.5", "partition")) {
                    for (long memory : List.of(64L << 20, 96L << 10)) {
                        RunResult r = run(layout, cache, cluster, memory, events, model);
                        assertThat(r.executed()).isEqualTo(events.size());
                        for (int i = 0; i < events.size(); i++) {
                            assertThat(r.digests()[i]).as("%s memory %d: event %d %s", r.config(), memory, i, events.get(i)).isEqualTo(want[i]);
                        }
                        // About 3 in 4 title lookups can hit: an update of page_latest invalidates the item, and the next
                        // lookup misses and caches it again. With a 12-frame pool, evicted leaves lose their items
                        // (cache writes never dirty a page), so only some survive.
                        if (cache != CachePolicy.OFF) {
                            assertThat(r.cacheHitRate()).as(r.config()).isGreaterThan(memory > (1 << 20) ? 0.6 : 0.04);
                        }
                        if (!cluster.equals("none")) assertThat(r.moved().get("page")).isPositive();
                    }
                }
            }
        }
    }

    @Test
    void arrowBlocksHotOrFrozenReturnWhatThePlainModelReturns() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = workload(model);
        long[] want = expected(model, events);
        for (boolean freeze : List.of(false, true)) {
            for (CachePolicy cache : List.of(CachePolicy.OFF, CachePolicy.SWAP)) {
                for (String cluster : List.of("none", "partition")) {
                    // 16 KB blocks (about 200 pages each) so that the table has full blocks to freeze; cold after 5 events.
                    ArrowStorage arrow = new ArrowStorage(freeze, 5, 16 << 10);
                    try (Database db = new Database(List.of(pageSpec()), Layout.NSM, cache, 1.0, 8192, 64L << 20, DeviceModel.NVME, arrow)) {
                        load(db, model);
                        Map<String, Long> moved = cluster.equals("partition") ? Clusterer.partition(db, events) : Map.of();
                        RunResult r = new Replayer(db).run("arrow", "", events, 0.1, 0, moved, n -> { });
                        for (int i = 0; i < events.size(); i++) {
                            assertThat(r.digests()[i]).as("arrow freeze=%s cache=%s cluster=%s: event %d %s", freeze, cache, cluster, i, events.get(i))
                                    .isEqualTo(want[i]);
                        }
                        assertThat(r.heapBytes()).isEqualTo(arrow.bytes()).isPositive();
                        assertThat(r.memoryBytes()).isEqualTo((64L << 20) + arrow.bytes());
                        if (freeze) assertThat(arrow.frozenBlocks()).as("cold blocks froze during the replay").isPositive();
                        else assertThat(arrow.frozenBlocks()).isZero();
                    }
                }
            }
        }
    }

    @Test
    void aSmallPoolMissesAndClusteringShrinksTheWorkingSet() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> reads = new ArrayList<>();
        for (AccessEvent e : workload(model)) if (e.operation() == Operation.POINT_LOOKUP) reads.add(e);
        RunResult plain = run(Layout.NSM, CachePolicy.OFF, "none", 96L << 10, reads, model);
        RunResult part = run(Layout.NSM, CachePolicy.OFF, "partition", 96L << 10, reads, model);
        assertThat(plain.bufferHitRate()).isLessThan(part.bufferHitRate());
        assertThat(part.workingSetBytes()).isLessThan(plain.workingSetBytes());
        assertThat(plain.deviceUsPerQuery()).isGreaterThan(part.deviceUsPerQuery());
        // every touched page belongs to one structure
        for (RunResult r : List.of(plain, part)) {
            assertThat(r.workingSetByStructure().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(r.workingSetBytes());
        }
        assertThat(plain.workingSetByStructure()).containsKeys("page.heap", "page.index").doesNotContainKey("page.hot_heap");
        assertThat(part.workingSetByStructure()).containsKeys("page.hot_heap", "page.hot_index");
    }

    @Test
    void lookupsAnsweredFromTheCacheSkipTheHeap() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = new ArrayList<>();
        for (int i = 0; i < 4000; i++) events.add(lookupByTitle(1, "Title_" + (1 + 4 * (i % 50)), Set.of("page_id", "page_latest")));
        RunResult off = run(Layout.NSM, CachePolicy.OFF, "none", 64L << 20, events, model);
        RunResult swap = run(Layout.NSM, CachePolicy.SWAP, "none", 64L << 20, events, model);
        assertThat(swap.cacheHitRate()).isGreaterThan(0.95);
        assertThat(swap.pagesPerQuery()).isLessThan(off.pagesPerQuery() - 0.9); // no heap page pinned on a hit
        assertThat(swap.digests()).isEqualTo(off.digests());
        assertThat(swap.workingSetBytes()).isLessThan(off.workingSetBytes()); // hits never pin the heap page
    }
}

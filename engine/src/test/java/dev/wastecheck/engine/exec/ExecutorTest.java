package dev.wastecheck.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.cluster.Clusterer;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.HotColdUpkeep;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Bound;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.access.ResultDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The replay executor returns the same results under every configuration: layouts, index cache,
 * clustering, hot partition, a buffer pool far smaller than the data, and long values out of line.
 * The expected results come from a plain in-memory model of the table, not from the engine.
 */
class ExecutorTest {
    private static final int ROWS = 3000;

    private static TableSpec pageSpec() {
        return new TableSpec(
                "page",
                List.of(
                        new ColumnSpec("page_id", FieldType.INT64, false, false),
                        new ColumnSpec("page_namespace", FieldType.INT32, false, false),
                        new ColumnSpec("page_title", FieldType.VARLEN, false, false),
                        new ColumnSpec("page_latest", FieldType.INT32, false, false),
                        new ColumnSpec("page_note", FieldType.VARLEN, true, true)),
                List.of(
                        new IndexSpec("PRIMARY", List.of("page_id"), true, List.of("page_latest")),
                        new IndexSpec(
                                "name_title",
                                List.of("page_namespace", "page_title"),
                                true,
                                List.of("page_id", "page_latest")),
                        new IndexSpec("ns", List.of("page_namespace"), false)));
    }

    /** The model: page_id -> row values. */
    private static Map<Long, Object[]> model() {
        Map<Long, Object[]> m = new LinkedHashMap<>();
        Random rnd = new Random(7);
        for (long id = 1; id <= ROWS; id++) {
            String note = rnd.nextInt(10) == 0
                    ? null
                    : "n".repeat(rnd.nextInt(10) == 0 ? 3000 + rnd.nextInt(20000) : rnd.nextInt(40));
            m.put(id, new Object[] {id, (long) (id % 4), "Title_" + id, id * 10, note});
        }
        return m;
    }

    private static void load(Database db, Map<Long, Object[]> model) {
        Table t = db.table("page");
        Record r = new Record(t.schema());
        for (Object[] row : model.values()) {
            r.setLong(0, (Long) row[0])
                    .setLong(1, (Long) row[1])
                    .setString(2, (String) row[2])
                    .setLong(3, (Long) row[3]);
            if (row[4] == null) r.setNull(4);
            else r.setString(4, (String) row[4]);
            t.insert(t.main(), r);
        }
    }

    private static AccessEvent lookupByTitle(long ns, String title, Set<String> projected) {
        Map<String, String> key = new LinkedHashMap<>();
        key.put("page_namespace", Long.toString(ns));
        key.put("page_title", title);
        return new AccessEvent(
                "page",
                Operation.POINT_LOOKUP,
                "name_title",
                key,
                List.of("page_namespace", "page_title"),
                projected,
                Set.of(),
                Set.of(),
                Set.of(),
                Map.of(),
                1,
                -1,
                0);
    }

    private static AccessEvent byId(Operation op, long id, Set<String> projected, Map<String, String> values) {
        return new AccessEvent(
                "page",
                op,
                "PRIMARY",
                Map.of("page_id", Long.toString(id)),
                List.of("page_id"),
                projected,
                Set.of(),
                values.keySet(),
                Set.of(),
                Map.of(),
                1,
                -1,
                0,
                values);
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
                out.add(new AccessEvent(
                        "page",
                        Operation.RANGE,
                        "ns",
                        Map.of("page_namespace", Long.toString(id % 4)),
                        List.of("page_namespace"),
                        Set.of("page_id"),
                        Set.of(),
                        Set.of(),
                        Set.of(),
                        Map.of(),
                        1,
                        -1,
                        0));
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
                out.add(new AccessEvent(
                        "page",
                        Operation.INSERT,
                        "PRIMARY",
                        Map.of("page_id", Long.toString(next)),
                        List.of("page_id"),
                        Set.of(),
                        Set.of(),
                        Set.of(),
                        Set.of(),
                        Map.of(),
                        1,
                        -1,
                        0,
                        v));
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
                    m.put(id, new Object[] {
                        id,
                        Long.parseLong(e.values().get("page_namespace")),
                        e.values().get("page_title"),
                        Long.parseLong(e.values().get("page_latest")),
                        null
                    });
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

    private static ExecutionResult run(
            Layout layout,
            CachePolicy cache,
            String cluster,
            long memory,
            List<AccessEvent> events,
            Map<Long, Object[]> model) {
        try (Database db = new Database(List.of(pageSpec()), layout, cache, 1.0, 8192, memory, DeviceModel.NVME)) {
            load(db, model);
            Map<String, Long> moved = Map.of();
            if (cluster.equals("partition")) moved = Clusterer.partition(db, events);
            else if (!cluster.equals("none")) moved = Clusterer.relocate(db, events, Double.parseDouble(cluster));
            return new Executor(db).run(layout + "/" + cache + "/" + cluster, "", events, 0.1, 0, moved, n -> {});
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
                        ExecutionResult r = run(layout, cache, cluster, memory, events, model);
                        assertThat(r.executed()).isEqualTo(events.size());
                        for (int i = 0; i < events.size(); i++) {
                            assertThat(r.digests()[i])
                                    .as("%s memory %d: event %d %s", r.config(), memory, i, events.get(i))
                                    .isEqualTo(want[i]);
                        }
                        // About 3 in 4 title lookups can hit: an update of page_latest invalidates the item, and the
                        // next
                        // lookup misses and caches it again. With a 12-frame pool, evicted leaves lose their items
                        // (cache writes never dirty a page), so only some survive.
                        if (cache != CachePolicy.OFF) {
                            assertThat(r.cacheHitRate()).as(r.config()).isGreaterThan(memory > (1 << 20) ? 0.6 : 0.04);
                        }
                        if (!cluster.equals("none"))
                            assertThat(r.moved().get("page")).isPositive();
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
                    // 16 KB blocks (about 200 pages each) so that the table has full blocks to freeze; cold after 5
                    // events.
                    ArrowStorage arrow = new ArrowStorage(freeze, 5, 16 << 10);
                    try (Database db = new Database(
                            List.of(pageSpec()), Layout.NSM, cache, 1.0, 8192, 64L << 20, DeviceModel.NVME, arrow)) {
                        load(db, model);
                        Map<String, Long> moved =
                                cluster.equals("partition") ? Clusterer.partition(db, events) : Map.of();
                        ExecutionResult r = new Executor(db).run("arrow", "", events, 0.1, 0, moved, n -> {});
                        for (int i = 0; i < events.size(); i++) {
                            assertThat(r.digests()[i])
                                    .as(
                                            "arrow freeze=%s cache=%s cluster=%s: event %d %s",
                                            freeze, cache, cluster, i, events.get(i))
                                    .isEqualTo(want[i]);
                        }
                        assertThat(r.heapBytes()).isEqualTo(arrow.bytes()).isPositive();
                        assertThat(r.memoryBytes()).isEqualTo((64L << 20) + arrow.bytes());
                        if (freeze)
                            assertThat(arrow.frozenBlocks())
                                    .as("cold blocks froze during the replay")
                                    .isPositive();
                        else assertThat(arrow.frozenBlocks()).isZero();
                    }
                }
            }
        }
    }

    /**
     * Arrow blocks with a hot partition learned at the split: while the training events run,
     * compaction moves tuples the learner has counted (the workload deletes, so blocks have gaps);
     * the counts follow the moves, and the partition then moves the tuples where they are now.
     * (Before, the learner kept the old ids and moving them failed: "no tuple at".)
     */
    @Test
    void heatLearnedOnArrowBlocksFollowsCompactionMoves() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = workload(model);
        long[] want = expected(model, events);
        TableDesign partition = TableDesign.BASELINE.with("cluster", "partition");
        ArrowStorage arrow = new ArrowStorage(true, 2, 16 << 10);
        try (Database db =
                new Database(List.of(pageSpec()), n -> partition, 8192, 64L << 20, DeviceModel.NVME, arrow)) {
            load(db, model);
            ExecutionResult r = new Executor(db)
                    .run(
                            "arrow, held out",
                            "",
                            events,
                            events.size() / 2,
                            0,
                            Map.of(),
                            (heat, read) -> Clusterer.apply(db, heat, read),
                            n -> {});
            assertThat(arrow.moves())
                    .as("compaction moved tuples while the training ran")
                    .isNotEmpty();
            assertThat(r.moved()).containsKey("page");
            for (int i = events.size() / 2; i < events.size(); i++) {
                assertThat(r.digests()[i]).as("event %d %s", i, events.get(i)).isEqualTo(want[i]);
            }
        }
    }

    @Test
    void aSmallPoolMissesAndClusteringShrinksTheWorkingSet() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> reads = new ArrayList<>();
        for (AccessEvent e : workload(model)) if (e.operation() == Operation.POINT_LOOKUP) reads.add(e);
        ExecutionResult plain = run(Layout.NSM, CachePolicy.OFF, "none", 96L << 10, reads, model);
        ExecutionResult part = run(Layout.NSM, CachePolicy.OFF, "partition", 96L << 10, reads, model);
        assertThat(plain.bufferHitRate()).isLessThan(part.bufferHitRate());
        assertThat(part.workingSetBytes()).isLessThan(plain.workingSetBytes());
        assertThat(plain.deviceUsPerQuery()).isGreaterThan(part.deviceUsPerQuery());
        // every touched page belongs to one structure
        for (ExecutionResult r : List.of(plain, part)) {
            assertThat(r.workingSetByStructure().values().stream()
                            .mapToLong(Long::longValue)
                            .sum())
                    .isEqualTo(r.workingSetBytes());
        }
        assertThat(plain.workingSetByStructure())
                .containsKeys("page.heap", "page.index")
                .doesNotContainKey("page.hot_heap");
        assertThat(part.workingSetByStructure()).containsKeys("page.hot_heap", "page.hot_index");
    }

    @Test
    void everyPinIsCountedByTheKindOfItsPage() {
        // The modeled cost charges a pin by the kind of page and the page size (Autotune.pinUs): every measured pin
        // must fall in one kind, the heap's named by the table's layout.
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = workload(model);
        for (Layout layout : List.of(Layout.NSM, Layout.PAX)) {
            for (String cluster : List.of("none", "partition")) {
                ExecutionResult r = run(layout, CachePolicy.OFF, cluster, 96L << 10, events, model);
                assertThat(r.pageSize()).isEqualTo(8192);
                assertThat(r.pins()).isPositive();
                assertThat(r.pinsByKind().values().stream()
                                .mapToLong(Long::longValue)
                                .sum())
                        .as("%s %s", layout, cluster)
                        .isEqualTo(r.pins());
                assertThat(r.pinsByKind())
                        .containsKey("heap_" + layout.name().toLowerCase(Locale.ROOT))
                        .containsKey("index");
            }
        }
    }

    @Test
    void lookupsAnsweredFromTheCacheSkipTheHeap() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = new ArrayList<>();
        for (int i = 0; i < 4000; i++)
            events.add(lookupByTitle(1, "Title_" + (1 + 4 * (i % 50)), Set.of("page_id", "page_latest")));
        ExecutionResult off = run(Layout.NSM, CachePolicy.OFF, "none", 64L << 20, events, model);
        ExecutionResult swap = run(Layout.NSM, CachePolicy.SWAP, "none", 64L << 20, events, model);
        assertThat(swap.cacheHitRate()).isGreaterThan(0.95);
        assertThat(swap.pagesPerQuery()).isLessThan(off.pagesPerQuery() - 0.9); // no heap page pinned on a hit
        assertThat(swap.digests()).isEqualTo(off.digests());
        assertThat(swap.workingSetBytes()).isLessThan(off.workingSetBytes()); // hits never pin the heap page
    }

    /** A design's run, learning at the split: the events before {@code measureFrom} train, the heat they count clusters. */
    private static ExecutionResult runDesign(
            TableDesign design,
            long memory,
            List<AccessEvent> events,
            int measureFrom,
            Map<Long, Object[]> model,
            Consumer<Database> after) {
        try (Database db = new Database(List.of(pageSpec()), n -> design, 8192, memory, DeviceModel.NVME)) {
            load(db, model);
            ExecutionResult r = new Executor(db)
                    .run(
                            design.describe(),
                            "",
                            events,
                            measureFrom,
                            0,
                            Map.of(),
                            (heat, read) -> Clusterer.apply(db, heat, read),
                            n -> {});
            after.accept(db);
            return r;
        }
    }

    @Test
    void demotionPromotionAndVerticalSplitsReturnWhatThePlainModelReturns() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = workload(model);
        long[] want = expected(model, events);
        TableDesign upkeep = TableDesign.BASELINE
                .with("cluster", "partition")
                .with("demote_after", "40")
                .with("promote", "1");
        // Each design once, most of them in a pool of 12 pages (evictions everywhere), one with every page in memory.
        Map<TableDesign, Long> designs = new LinkedHashMap<>();
        designs.put(upkeep, 96L << 10);
        designs.put(upkeep.withLayout(Layout.HPL).with("split", "page_note"), 64L << 20);
        designs.put(TableDesign.BASELINE.with("split", "page_note+page_title").with("cache", "swap"), 96L << 10);
        designs.put(upkeep.with("promote", "2").with("cache", "swap").withLayout(Layout.PAX), 96L << 10);
        for (Map.Entry<TableDesign, Long> dm : designs.entrySet()) {
            TableDesign d = dm.getKey();
            for (long memory : List.of(dm.getValue())) {
                long[] moves = new long[2];
                ExecutionResult r = runDesign(d, memory, events, 1500, model, db -> {
                    HotColdUpkeep u = db.table("page").upkeep();
                    if (u != null) {
                        moves[0] = u.promoted();
                        moves[1] = u.demoted();
                    }
                });
                assertThat(r.executed()).isEqualTo(events.size());
                for (int i = 0; i < events.size(); i++) {
                    assertThat(r.digests()[i])
                            .as("%s memory %d: event %d %s", d.describe(), memory, i, events.get(i))
                            .isEqualTo(want[i]);
                }
                if (d.demoteAfter() > 0) {
                    // a span of 40 events demotes much of the hot set, and reads bring tuples back: both happened, many
                    // times
                    assertThat(moves[0]).as("promoted, " + d.describe()).isGreaterThan(100);
                    assertThat(moves[1]).as("demoted, " + d.describe()).isGreaterThan(100);
                    assertThat(r.upkeep())
                            .containsEntry("page.promoted", moves[0])
                            .containsEntry("page.demoted", moves[1]);
                }
                if (!d.split().none()) assertThat(r.workingSetByStructure()).containsKey("page.apart_heap");
            }
        }
    }

    @Test
    void heldOutEventsTeachNothing() {
        // Training reads ids 1..20; the held-out events read id 2999, a key no training event names, 500 times.
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = new ArrayList<>();
        for (int i = 0; i < 200; i++)
            events.add(byId(Operation.POINT_LOOKUP, 1 + i % 20, Set.of("page_latest"), Map.of()));
        int split = events.size();
        for (int i = 0; i < 500; i++) events.add(byId(Operation.POINT_LOOKUP, 2999, Set.of("page_latest"), Map.of()));
        Set<Long> learned = new HashSet<>();
        boolean[] heldOutKeyHot = {true};
        TableDesign partition = TableDesign.BASELINE.with("cluster", "partition");
        try (Database db = new Database(List.of(pageSpec()), n -> partition, 8192, 64L << 20, DeviceModel.NVME)) {
            load(db, model);
            Table t = db.table("page");
            ExecutionResult r = new Executor(db)
                    .run(
                            "split",
                            "",
                            events,
                            split,
                            0,
                            Map.of(),
                            (heat, read) -> {
                                Record rec = new Record(t.schema());
                                heat.getOrDefault(t, new LinkedHashMap<>())
                                        .keySet()
                                        .forEach(tid -> {
                                            t.read(t.main(), tid, rec);
                                            learned.add(rec.getLong(0));
                                        });
                                return Clusterer.apply(db, heat, read);
                            },
                            n -> {});
            heldOutKeyHot[0] = t.hot().tree(0).lookup(t.keyOfLiterals(0, List.of("2999"))) != TupleId.NONE;
            assertThat(r.moved()).containsEntry("page", 20L);
            assertThat(r.queries()).isEqualTo(500);
        }
        assertThat(learned).as("the tuples the heat names").hasSize(20).allMatch(id -> id >= 1 && id <= 20);
        assertThat(heldOutKeyHot[0]).as("the held-out key stayed cold").isFalse();
        // The oracle (learning from every event) does put it in the hot partition: the test can tell the two apart.
        try (Database db = new Database(List.of(pageSpec()), n -> partition, 8192, 64L << 20, DeviceModel.NVME)) {
            load(db, model);
            Clusterer.apply(db, new Executor(db).heatOf(events));
            Table t = db.table("page");
            assertThat(t.hot().tree(0).lookup(t.keyOfLiterals(0, List.of("2999"))))
                    .isNotEqualTo(TupleId.NONE);
        }
    }

    @Test
    void theOraclesHotPartitionKeepsTheIndexesItsUpdatesGoThrough() {
        // An update by the non-unique "ns" index, learned by the oracle's heat pass (which runs only reads): the hot
        // partition must keep "ns", or the update would scan the hot heap. The training run of a split keeps it too.
        List<AccessEvent> events = new ArrayList<>();
        for (int i = 0; i < 50; i++) events.add(byId(Operation.POINT_LOOKUP, 1 + i, Set.of("page_latest"), Map.of()));
        events.add(new AccessEvent(
                "page",
                Operation.UPDATE,
                "ns",
                Map.of("page_namespace", "2"),
                List.of("page_namespace"),
                Set.of(),
                Set.of(),
                Set.of("page_latest"),
                Set.of(),
                Map.of(),
                1,
                -1,
                0,
                Map.of("page_latest", "7")));
        TableDesign partition = TableDesign.BASELINE.with("cluster", "partition");
        try (Database db = new Database(List.of(pageSpec()), n -> partition, 8192, 64L << 20, DeviceModel.NVME)) {
            load(db, model());
            Executor replayer = new Executor(db);
            Clusterer.apply(db, replayer.heatOf(events), replayer.indexesRead());
            Table t = db.table("page");
            assertThat(t.hot().tree(t.indexNamed("ns")))
                    .as("the hot partition's copy of ns")
                    .isNotNull();
        }
    }

    @Test
    void aPromotedTupleKeepsAnswerableThroughItsOldId() {
        Map<Long, Object[]> model = model();
        TableDesign promoteOnFirstRead =
                TableDesign.BASELINE.with("cluster", "partition").with("promote", "1");
        try (Database db =
                new Database(List.of(pageSpec()), n -> promoteOnFirstRead, 8192, 64L << 20, DeviceModel.NVME)) {
            load(db, model);
            Clusterer.apply(db, new LinkedHashMap<>());
            Table t = db.table("page");
            HotColdUpkeep u = t.upkeep();
            byte[] key = t.keyOfLiterals(0, List.of("42"));
            long cold = t.main().tree(0).lookup(key);
            u.tick();
            u.read(t.main(), cold);
            u.afterEvent();
            long hot = t.hot().tree(0).lookup(key);
            assertThat(hot).isNotEqualTo(TupleId.NONE);
            assertThat(t.main().tree(0).lookup(key)).as("one copy only").isEqualTo(TupleId.NONE);
            assertThat(u.forwarding().resolve(false, cold)).isEqualTo(new HotColdUpkeep.Forwarding.Location(true, hot));
            Record r = new Record(t.schema());
            t.read(t.hot(), hot, r);
            assertThat(r.getLong(0)).isEqualTo(42);
            assertThat(u.promoted()).isEqualTo(1);
        }
    }

    @Test
    void scansFilterOnTheirBoundsInEveryLayout() {
        Map<Long, Object[]> model = model();
        List<AccessEvent> events = new ArrayList<>();
        for (long lo = 0; lo < 30_000; lo += 2_500) {
            events.add(new AccessEvent(
                    "page",
                    Operation.SCAN,
                    null,
                    Map.of(),
                    List.of(),
                    Set.of("page_id", "page_title"),
                    Set.of("page_latest"),
                    Set.of(),
                    Set.of(),
                    Map.of(),
                    1,
                    -1,
                    0,
                    Map.of(),
                    Map.of(),
                    List.of(
                            new Bound("page_latest", Long.toString(lo), false, Long.toString(lo + 700), true),
                            Bound.equal("page_namespace", "2"))));
        }
        for (Layout layout : List.of(Layout.NSM, Layout.PAX, Layout.HPL)) {
            ExecutionResult r =
                    runDesign(TableDesign.BASELINE.withLayout(layout), 64L << 20, events, 0, model, db -> {});
            for (int i = 0; i < events.size(); i++) {
                long lo = 2_500L * i;
                ResultDigest d = new ResultDigest();
                for (Object[] row : model.values()) {
                    long latest = (Long) row[3];
                    if (latest > lo && latest <= lo + 700 && (Long) row[1] == 2) {
                        d.beginRow();
                        d.addLong((Long) row[0]);
                        d.addString((String) row[2]);
                        d.endRow();
                    }
                }
                assertThat(r.digests()[i]).as("%s scan %d", layout, i).isEqualTo(d.value());
            }
        }
    }

    @Test
    void aKeyOnlyAJoinBindsRunsAsANestedLoopThroughItsDriver() {
        TableSpec slots = new TableSpec(
                "slots",
                List.of(
                        new ColumnSpec("slot_revision_id", FieldType.INT64, false, false),
                        new ColumnSpec("slot_role_id", FieldType.INT32, false, false),
                        new ColumnSpec("slot_content_id", FieldType.INT64, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("slot_revision_id", "slot_role_id"), true)));
        TableSpec content = new TableSpec(
                "content",
                List.of(
                        new ColumnSpec("content_id", FieldType.INT64, false, false),
                        new ColumnSpec("content_size", FieldType.INT32, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("content_id"), true)));
        try (Database db = new Database(
                List.of(slots, content), Layout.NSM, CachePolicy.OFF, 1, 8192, 16L << 20, DeviceModel.NVME)) {
            Table s = db.table("slots"), c = db.table("content");
            Record sr = new Record(s.schema()), cr = new Record(c.schema());
            for (long rev = 1; rev <= 100; rev++) {
                for (int role = 1; role <= 2; role++)
                    s.insert(s.main(), sr.setLong(0, rev).setLong(1, role).setLong(2, rev * 10 + role));
            }
            for (long id = 11; id <= 1002; id++)
                c.insert(c.main(), cr.setLong(0, id).setLong(1, id * 3));
            // SELECT content_size FROM slots JOIN content ON slot_content_id = content_id WHERE slot_revision_id = 7:
            // two events, one line
            AccessEvent driver = new AccessEvent(
                    "slots",
                    Operation.RANGE,
                    "PRIMARY",
                    Map.of("slot_revision_id", "7"),
                    List.of("slot_revision_id"),
                    Set.of(),
                    Set.of("slot_revision_id"),
                    Set.of(),
                    Set.of("slot_content_id"),
                    Map.of(),
                    1,
                    5,
                    9,
                    Map.of(),
                    Map.of("slot_content_id", "content.content_id"),
                    List.of());
            AccessEvent joined = new AccessEvent(
                    "content",
                    Operation.POINT_LOOKUP,
                    "PRIMARY",
                    Map.of(),
                    List.of("content_id"),
                    Set.of("content_size"),
                    Set.of(),
                    Set.of(),
                    Set.of("content_id"),
                    Map.of(),
                    1,
                    5,
                    9,
                    Map.of(),
                    Map.of("content_id", "slots.slot_content_id"),
                    List.of());
            AccessEvent alone = new AccessEvent(
                    "content",
                    Operation.POINT_LOOKUP,
                    "PRIMARY",
                    Map.of(),
                    List.of("content_id"),
                    Set.of("content_size"),
                    Set.of(),
                    Set.of(),
                    Set.of("content_id"),
                    Map.of(),
                    1,
                    6,
                    10,
                    Map.of(),
                    Map.of("content_id", "slots.slot_content_id"),
                    List.of());
            // the join's event comes first in the statement's order: its driver runs first all the same
            ExecutionResult r = new Executor(db)
                    .recordJoins()
                    .run("join", "", List.of(joined, driver, alone), 0, 0, Map.of(), n -> {});
            ResultDigest want = new ResultDigest();
            for (long id : new long[] {71, 72}) {
                want.beginRow();
                want.addLong(id * 3);
                want.endRow();
            }
            assertThat(r.digests()[0]).isEqualTo(want.value());
            assertThat(r.joinBindings().get(0)).containsExactly(List.of("71"), List.of("72"));
            assertThat(r.executed()).isEqualTo(2);
            assertThat(r.skippedByReason()).containsExactly(Map.entry("key bound by a join with no driving row", 1L));
        }
    }
}

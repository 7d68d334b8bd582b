package dev.wastecheck.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * "No Bits Left Behind" §3.1's hot partition is built in the order of its primary key, whatever
 * the order of heat: ascending appends keep the B+tree's leaves full, where the hottest-first
 * order the heat gives left them about ln 2 full.
 */
class HotPartitionOrderTest {
    @Test
    void theHotPartitionsPrimaryIndexIsPackedWhateverTheOrderOfHeat() {
        TableSpec spec = new TableSpec(
                "revision",
                List.of(
                        new ColumnSpec("rev_id", FieldType.INT64, false, false),
                        new ColumnSpec("rev_page", FieldType.INT64, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("rev_id"), true)));
        TableDesign d = TableDesign.BASELINE.with("cluster", "partition");
        try (Database db = new Database(List.of(spec), n -> d, 8192, 8L << 20, DeviceModel.NVME)) {
            Table t = db.table("revision");
            Record r = new Record(t.schema());
            List<Long> tids = new ArrayList<>();
            for (int i = 0; i < 40_000; i++)
                tids.add(t.insert(t.main(), r.setLong(0, i).setLong(1, i / 8)));
            long whole = t.main().tree(0).pageCount() * 8192L;
            assertThat(db.indexBytesByStructure()).containsExactly(Map.entry("revision.index", whole));
            // every other tuple is hot, the hottest in random order (what a Zipf workload's heat looks like)
            List<Long> hot = new ArrayList<>();
            for (int i = 0; i < tids.size(); i += 2) hot.add(tids.get(i));
            Collections.shuffle(hot, new Random(11));
            LinkedHashMap<Long, Long> heat = new LinkedHashMap<>();
            for (int i = 0; i < hot.size(); i++) heat.put(hot.get(i), (long) (hot.size() - i));
            Clusterer.apply(db, Map.of(t, heat));
            assertThat(t.hot().heap().rows()).isEqualTo(20_000);
            // its leaves are packed (an 8-byte integer key: PackedLeafPage), each full to within one entry of at
            // most 16 bytes but the rightmost
            assertThat(t.hot().tree(0).packedKeyWidth()).isEqualTo(8);
            BTree.LeafStats hs = t.hot().tree(0).leafStats();
            assertThat(hs.freeBytes()).isLessThan(8192 + 16L * hs.leaves());
            // §3.1's measure, a structure's allocated size: the hot partition's index against the whole table's (half
            // the entries in full packed leaves, a key and a tuple id in 2-3 bytes each, where the whole table's tree
            // was built in key order too, 22 bytes an entry)
            Map<String, Long> sizes = db.indexBytesByStructure();
            assertThat(sizes).containsOnlyKeys("revision.index", "revision.hot_index");
            assertThat(sizes.get("revision.hot_index"))
                    .isEqualTo(t.hot().tree(0).pageCount() * 8192L);
            assertThat(sizes.get("revision.hot_index"))
                    .isLessThan(whole * 2 / 10)
                    .isGreaterThan(whole / 10);
            assertThat(sizes.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(t.indexBytes());
            assertThat(db.indexBytesByIndex())
                    .containsOnly(
                            Map.entry("revision.index.PRIMARY", sizes.get("revision.index")),
                            Map.entry("revision.hot_index.PRIMARY", sizes.get("revision.hot_index")));
        }
    }

    /**
     * The split packs the cold partition's trees: most of a small table went hot (as 2,663 of
     * `page`'s rows do on the 3,000-page wiki), and the cold trees keep only what stays, in full
     * leaves; every cold tuple is still found by each index, no hot one is.
     */
    @Test
    void theColdPartitionsIndexesArePackedAfterTheSplit() {
        TableSpec spec = new TableSpec(
                "page",
                List.of(
                        new ColumnSpec("page_id", FieldType.INT64, false, false),
                        new ColumnSpec("page_len", FieldType.INT64, false, false)),
                List.of(
                        new IndexSpec("PRIMARY", List.of("page_id"), true),
                        new IndexSpec("page_len", List.of("page_len"), false)));
        TableDesign d = TableDesign.BASELINE.with("cluster", "partition");
        try (Database db = new Database(List.of(spec), n -> d, 8192, 8L << 20, DeviceModel.NVME)) {
            Table t = db.table("page");
            Record r = new Record(t.schema());
            List<Long> tids = new ArrayList<>();
            Random random = new Random(5);
            for (int i = 0; i < 40_000; i++)
                tids.add(t.insert(t.main(), r.setLong(0, i).setLong(1, random.nextInt(100_000))));
            long primaryPages = t.main().tree(0).pageCount(),
                    byLenPages = t.main().tree(1).pageCount();
            // four of five rows go hot
            LinkedHashMap<Long, Long> heat = new LinkedHashMap<>();
            for (int i = 0; i < tids.size(); i++) if (i % 5 != 0) heat.put(tids.get(i), 1L);
            Clusterer.apply(db, Map.of(t, heat));

            assertThat(t.main().tree(0).size()).isEqualTo(8_000);
            assertThat(t.main().tree(0).leafStats().fill()).isGreaterThan(0.9);
            assertThat(t.main().tree(1).leafStats().fill()).isGreaterThan(0.9);
            // a fifth of the entries in full leaves, where the declared tree's were about ln 2 full
            assertThat(t.main().tree(0).pageCount()).isLessThan(primaryPages / 4);
            assertThat(t.main().tree(1).pageCount()).isLessThan(byLenPages / 4);
            Record got = new Record(t.schema());
            random = new Random(5);
            for (int i = 0; i < 40_000; i++) {
                long len = random.nextInt(100_000);
                List<Long> cold = new ArrayList<>();
                t.find(0, t.keyOfLiterals(0, List.of(Integer.toString(i))), true, (p, tid) -> {
                    if (p == t.main()) cold.add(tid);
                    return true;
                });
                assertThat(cold).as("page %d in the cold primary index", i).hasSize(i % 5 == 0 ? 1 : 0);
                if (i % 5 != 0) continue;
                List<Long> ids = new ArrayList<>();
                t.find(1, t.keyOfLiterals(1, List.of(Long.toString(len))), true, (p, tid) -> {
                    t.read(p, tid, got);
                    if (p == t.main()) ids.add(got.getLong(0));
                    return true;
                });
                assertThat(ids).as("page %d in the cold page_len index", i).contains((long) i);
            }
        }
    }
}

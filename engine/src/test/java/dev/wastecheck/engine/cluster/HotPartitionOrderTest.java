package dev.wastecheck.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.file.DeviceModel;
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
            // every other tuple is hot, the hottest in random order (what a Zipf workload's heat looks like)
            List<Long> hot = new ArrayList<>();
            for (int i = 0; i < tids.size(); i += 2) hot.add(tids.get(i));
            Collections.shuffle(hot, new Random(11));
            LinkedHashMap<Long, Long> heat = new LinkedHashMap<>();
            for (int i = 0; i < hot.size(); i++) heat.put(hot.get(i), (long) (hot.size() - i));
            Clusterer.apply(db, Map.of(t, heat));
            assertThat(t.hot().heap().rows()).isEqualTo(20_000);
            assertThat(t.hot().tree(0).leafStats().fill()).isGreaterThan(0.95);
        }
    }
}

package dev.wastecheck.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the training's heat counts, and what it leaves out, tuple by tuple. */
class TrainingHeatTest {
    private static TableSpec spec(String name) {
        return new TableSpec(
                name,
                List.of(
                        new ColumnSpec(name + "_id", FieldType.INT64, false, false),
                        new ColumnSpec(name + "_ns", FieldType.INT32, false, false)),
                List.of(
                        new IndexSpec("PRIMARY", List.of(name + "_id"), true),
                        new IndexSpec("ns", List.of(name + "_ns"), false)));
    }

    private static Database db() {
        return new Database(
                List.of(spec("revision"), spec("page")),
                Layout.NSM,
                CachePolicy.OFF,
                1.0,
                8192,
                1 << 20,
                DeviceModel.NVME);
    }

    private static AccessEvent event(Operation op, String index) {
        return new AccessEvent(
                "page", op, index, Map.of(), List.of(), Set.of(), Set.of(), Set.of(), Set.of(), Map.of(), 1, -1, 0);
    }

    @Test
    void countsReadsPerTupleHottestFirstTiesByIdTablesByName() {
        try (Database db = db()) {
            Table page = db.table("page"), revision = db.table("revision");
            TrainingHeat heat = new TrainingHeat();
            heat.start(db, 100);
            for (long tid : new long[] {9, 4, 9, 7, 4, 9}) heat.read(page, page.main(), tid);
            heat.read(revision, revision.main(), 3);
            Map<Table, LinkedHashMap<Long, Long>> counts = heat.finish();
            assertThat(counts.keySet()).containsExactly(page, revision);
            assertThat(counts.get(page)).containsExactly(Map.entry(9L, 3L), Map.entry(4L, 2L), Map.entry(7L, 1L));
            assertThat(counts.get(revision)).containsExactly(Map.entry(3L, 1L));
            assertThat(heat.counting()).isFalse();
        }
    }

    @Test
    void countsNothingWhenNotCounting() {
        try (Database db = db()) {
            Table page = db.table("page");
            TrainingHeat heat = new TrainingHeat();
            heat.read(page, page.main(), 1);
            heat.noteIndex(page, event(Operation.POINT_LOOKUP, "ns"));
            assertThat(heat.readLate()).isEmpty();
            assertThat(heat.indexesRead()).isEmpty();
            heat.start(db, 0);
            assertThat(heat.finish()).isEmpty();
        }
    }

    @Test
    void lateReadsAreTuplesFirstReadInTheSecondHalfAndNotInsertedThere() {
        try (Database db = db()) {
            Table page = db.table("page");
            TrainingHeat heat = new TrainingHeat();
            heat.start(db, 2);
            heat.at(0);
            heat.read(page, page.main(), 1);
            heat.at(2);
            heat.read(page, page.main(), 1); // read before the half: not late
            heat.read(page, page.main(), 5); // first read after it: late
            heat.at(3);
            heat.inserted(page, page.main(), 7);
            heat.read(page, page.main(), 7); // inserted after the half: no evidence
            heat.finish();
            assertThat(heat.readLate().get(page)).containsExactly(5L);
        }
    }

    @Test
    void countsFollowMovedTuplesAndLeaveDeletedOnes() {
        try (Database db = db()) {
            Table page = db.table("page");
            TrainingHeat heat = new TrainingHeat();
            heat.start(db, 0);
            heat.read(page, page.main(), 1);
            heat.read(page, page.main(), 1);
            heat.read(page, page.main(), 2);
            heat.read(page, page.main(), 3);
            heat.moved(page, 1, 40);
            heat.deleted(page, 2);
            Map<Table, LinkedHashMap<Long, Long>> counts = heat.finish();
            assertThat(counts.get(page)).containsExactly(Map.entry(40L, 2L), Map.entry(3L, 1L));
            assertThat(heat.readLate().get(page)).containsExactlyInAnyOrder(40L, 3L);
        }
    }

    @Test
    void indexesReadAreThoseOfReadsUpdatesAndDeletesNotScansOrInserts() {
        try (Database db = db()) {
            Table page = db.table("page");
            TrainingHeat heat = new TrainingHeat();
            heat.start(db, 0);
            heat.noteIndex(page, event(Operation.SCAN, "ns"));
            heat.noteIndex(page, event(Operation.INSERT, "ns"));
            assertThat(heat.indexesRead()).isEmpty();
            heat.noteIndex(page, event(Operation.UPDATE, "ns"));
            assertThat(heat.indexesRead().get(page)).containsExactly(false, true);
            heat.finish();
            heat.noteIndex(page, event(Operation.POINT_LOOKUP, "PRIMARY")); // not counting: not noted
            assertThat(heat.indexesRead().get(page)).containsExactly(false, true);
        }
    }
}

package dev.wastecheck.engine.table;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A MySQL {@code INT UNSIGNED} column in 4 bytes (UINT32): values above 2^31 - 1 round-trip,
 * sort after the small ones in its index, and are found by their literal.
 */
class UnsignedColumnTest {

    @Test
    void valuesAboveTheSignedRangeRoundTripSortAndAreFound() {
        for (Layout layout : List.of(Layout.NSM, Layout.PAX, Layout.HPL)) {
            try (StorageDevice dev = StorageDevice.temporary(8192, DeviceModel.NVME)) {
                TableSpec spec = new TableSpec("t", List.of(
                        new ColumnSpec("id", FieldType.UINT32, false, false),
                        new ColumnSpec("flags", FieldType.UINT8, false, false),
                        new ColumnSpec("len", FieldType.UINT16, true, false)),
                        List.of(new IndexSpec("PRIMARY", List.of("id"), true, List.of("flags"))));
                Table t = new Table(spec, new BufferPool(dev, 16L << 20), layout, CachePolicy.SWAP, 1.0);
                long[] ids = {0, 1, 2_147_483_647L, 2_147_483_648L, 4_294_967_295L, 70_000};
                Record r = new Record(t.schema());
                for (long id : ids) {
                    r.setLong(0, id).setLong(1, id & 0xFF).setLong(2, id & 0xFFFF);
                    assertThat(t.insert(t.main(), r)).isNotEqualTo(TupleId.NONE);
                }
                Record back = new Record(t.schema());
                for (long id : ids) {
                    byte[] key = t.keyOfLiterals(0, List.of(Long.toString(id)));
                    List<Long> found = new ArrayList<>();
                    t.find(0, key, true, (p, tid) -> { t.read(p, tid, back); found.add(back.getLong(0)); return true; });
                    assertThat(found).as("%s id %d", layout, id).containsExactly(id);
                    assertThat(back.getLong(1)).isEqualTo(id & 0xFF);
                    assertThat(back.getLong(2)).isEqualTo(id & 0xFFFF);
                }
                assertThat(t.keyOfLiterals(0, List.of("-1"))).as("no UINT32 equals -1").isNull();
                assertThat(t.keyOfLiterals(0, List.of("4294967296"))).isNull();
                List<Long> order = new ArrayList<>();
                t.main().tree(0).scan(null, null, true, (k, tid) -> { t.read(t.main(), tid, back); order.add(back.getLong(0)); return true; });
                assertThat(order).as(layout.toString()).containsExactly(0L, 1L, 70_000L, 2_147_483_647L, 2_147_483_648L, 4_294_967_295L);
            }
        }
    }
}

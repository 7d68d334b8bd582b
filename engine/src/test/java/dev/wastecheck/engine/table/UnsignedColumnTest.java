package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A MySQL {@code INT UNSIGNED} column in 4 bytes (UINT32): values above 2^31 - 1 round-trip,
 * sort after the small ones in its index, and are found by their literal.
 */
class UnsignedColumnTest {

    @Test
    void valuesAboveTheSignedRangeRoundTripSortAndAreFound() {
        for (Layout layout : List.of(Layout.NSM, Layout.PAX, Layout.HPL)) {
            try (StorageDevice dev = StorageDevice.temporary(8192, DeviceModel.NVME)) {
                TableSpec spec = new TableSpec(
                        "t",
                        List.of(
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
                    t.find(0, key, true, (p, tid) -> {
                        t.read(p, tid, back);
                        found.add(back.getLong(0));
                        return true;
                    });
                    assertThat(found).as("%s id %d", layout, id).containsExactly(id);
                    assertThat(back.getLong(1)).isEqualTo(id & 0xFF);
                    assertThat(back.getLong(2)).isEqualTo(id & 0xFFFF);
                }
                assertThat(t.keyOfLiterals(0, List.of("-1")))
                        .as("no UINT32 equals -1")
                        .isNull();
                assertThat(t.keyOfLiterals(0, List.of("4294967296"))).isNull();
                List<Long> order = new ArrayList<>();
                t.main().tree(0).scan(null, null, true, (k, tid) -> {
                    t.read(t.main(), tid, back);
                    order.add(back.getLong(0));
                    return true;
                });
                assertThat(order)
                        .as(layout.toString())
                        .containsExactly(0L, 1L, 70_000L, 2_147_483_647L, 2_147_483_648L, 4_294_967_295L);
            }
        }
    }

    /**
     * Arrow's unsigned vectors, as DuckDB hands out UINTEGER and UBIGINT columns: a UINTEGER above
     * 2^31 - 1 loads into a UINT32 field; a UBIGINT above 2^63 - 1 cannot be an INT64 and stops the
     * load (it would otherwise come back negative), and prints unsigned in a VARLEN field.
     */
    @Test
    void theLoaderTakesUnsignedArrowVectorsAtTheirValue() {
        try (StorageDevice dev = StorageDevice.temporary(8192, DeviceModel.NVME);
                RootAllocator alloc = new RootAllocator();
                UInt4Vector u4 = new UInt4Vector("id", alloc);
                UInt8Vector u8 = new UInt8Vector("big", alloc)) {
            u4.allocateNew(1);
            u4.set(0, (int) 4_000_000_000L);
            u4.setValueCount(1);
            u8.allocateNew(1);
            u8.set(0, Long.MIN_VALUE + 5); // 2^63 + 5
            u8.setValueCount(1);
            BufferPool pool = new BufferPool(dev, 16L << 20);
            Table narrow = new Table(
                    new TableSpec(
                            "a",
                            List.of(
                                    new ColumnSpec("id", FieldType.UINT32, false, false),
                                    new ColumnSpec("big", FieldType.INT64, false, false)),
                            List.of(new IndexSpec("PRIMARY", List.of("id"), true, List.of()))),
                    pool,
                    Layout.NSM,
                    CachePolicy.OFF,
                    0);
            // the roots are not closed: closing one would clear the vectors the next one wraps
            VectorSchemaRoot first = new VectorSchemaRoot(List.<FieldVector>of(u4, u8));
            assertThatThrownBy(() -> new TableLoader(narrow).load(first))
                    .isInstanceOf(TableLoader.LossyValueException.class)
                    .hasMessageContaining("9223372036854775813");
            Table text = new Table(
                    new TableSpec(
                            "b",
                            List.of(
                                    new ColumnSpec("id", FieldType.UINT32, false, false),
                                    new ColumnSpec("big", FieldType.VARLEN, false, false)),
                            List.of(new IndexSpec("PRIMARY", List.of("id"), true, List.of()))),
                    pool,
                    Layout.NSM,
                    CachePolicy.OFF,
                    0);
            new TableLoader(text).load(new VectorSchemaRoot(List.<FieldVector>of(u4, u8)));
            assertThat(text.rows()).isEqualTo(1);
            Record back = new Record(text.schema());
            List<Long> ids = new ArrayList<>();
            text.find(0, text.keyOfLiterals(0, List.of("4000000000")), true, (p, tid) -> {
                text.read(p, tid, back);
                ids.add(back.getLong(0));
                return true;
            });
            assertThat(ids).containsExactly(4_000_000_000L);
            assertThat(new String(back.bytes(1), 0, back.length(1))).isEqualTo("9223372036854775813");
        }
    }
}

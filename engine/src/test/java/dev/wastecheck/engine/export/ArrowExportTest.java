package dev.wastecheck.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.Block;
import dev.wastecheck.engine.block.BlockAccess;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.TupleSlot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.SeekableReadChannel;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Frozen blocks read back by Arrow Java's own readers, by DuckDB through the C stream and over Flight, with the same rows (§5). */
class ArrowExportTest {
    final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void close() {
        allocator.close(); // fails if any buffer was leaked
    }

    @Test
    void frozenBlocksAreHandedOverWithoutACopyAndReadTheSame() throws Exception {
        ExportFixture f = new ExportFixture(16 << 10, ArrowTable.FreezeMode.GATHER, 2000);
        int frozen = f.freeze();
        assertThat(frozen).isEqualTo(f.table.blockCount()).isGreaterThan(3);
        List<List<Object>> rows = new ArrayList<>();
        try (TableArrowReader r = new TableArrowReader(allocator, f.table)) {
            int batch = 0;
            List<Block> blocks = f.table.blocks();
            while (r.loadNextBatch()) {
                Block b = blocks.get(batch++);
                long base = MemoryUtil.getByteBufferAddress(b.data().buffer());
                assertThat(BlockAccess.readers(b))
                        .as("the latch is held while the batch uses the block")
                        .isEqualTo(1);
                VectorSchemaRoot root = r.getVectorSchemaRoot();
                for (int c = 0; c < 6; c++) {
                    long data = root.getVector(c).getDataBuffer().memoryAddress();
                    assertThat(data)
                            .as("column %d values inside the block", c)
                            .isEqualTo(base + b.data().layout().valuesOffset(c));
                }
                long names = root.getVector(6).getDataBuffer().memoryAddress();
                assertThat(names)
                        .isEqualTo(MemoryUtil.getByteBufferAddress(
                                        b.frozenVarlen(6).buffer())
                                + b.frozenVarlen(6).valuesOffset());
                rows.addAll(ExportFixture.rows(root, r));
            }
            assertThat(r.inPlaceBatches()).isEqualTo(frozen);
            assertThat(r.snapshotBatches()).isZero();
        }
        for (Block b : f.table.blocks())
            assertThat(BlockAccess.readers(b)).as("released with the buffers").isZero();
        assertThat(ExportFixture.sorted(rows)).isEqualTo(f.expected()).hasSize(2000 - 286);
    }

    @Test
    void arrowIpcFilesAndStreamsReadBackWithArrowJava(@TempDir Path dir) throws Exception {
        ExportFixture f = new ExportFixture(16 << 10, ArrowTable.FreezeMode.GATHER, 1500);
        f.freeze();
        Path file = dir.resolve("orders.arrow");
        ArrowExport.Written w = ArrowExport.writeFile(allocator, f.table, file);
        assertThat(w.rows()).isEqualTo(1500 - 215);
        List<List<Object>> fromFile = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file);
                ArrowFileReader reader = new ArrowFileReader(new SeekableReadChannel(ch), allocator)) {
            while (reader.loadNextBatch()) fromFile.addAll(ExportFixture.rows(reader.getVectorSchemaRoot(), reader));
        }
        assertThat(ExportFixture.sorted(fromFile)).isEqualTo(f.expected());

        ExportFixture d = new ExportFixture(16 << 10, ArrowTable.FreezeMode.DICTIONARY, 1500);
        d.freeze();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrowExport.writeStream(allocator, d.table, out);
        List<List<Object>> fromStream = new ArrayList<>();
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(out.toByteArray()), allocator)) {
            assertThat(reader.getVectorSchemaRoot()
                            .getSchema()
                            .getFields()
                            .get(6)
                            .getDictionary())
                    .isNotNull();
            while (reader.loadNextBatch()) fromStream.addAll(ExportFixture.rows(reader.getVectorSchemaRoot(), reader));
        }
        assertThat(ExportFixture.sorted(fromStream))
                .as("one dictionary per block, replaced batch by batch")
                .isEqualTo(d.expected());
    }

    @Test
    void duckDbReadsFrozenBlocksThroughTheCStream() throws Exception {
        for (ArrowTable.FreezeMode mode : ArrowTable.FreezeMode.values()) {
            ExportFixture f = new ExportFixture(16 << 10, mode, 1200);
            f.freeze();
            List<List<Object>> rows = new ArrayList<>();
            try (DuckDBConnection conn = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
                    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                ArrowExport.toCStream(allocator, f.table, stream);
                conn.registerArrowStream("orders", stream);
                try (Statement st = conn.createStatement()) {
                    st.execute("CREATE TABLE copied AS SELECT * FROM orders");
                }
                try (Statement st = conn.createStatement();
                        ResultSet rs = st.executeQuery("SELECT * FROM copied ORDER BY id")) {
                    while (rs.next()) {
                        List<Object> row = new ArrayList<>();
                        for (int c = 1; c <= 7; c++) {
                            Object o = rs.getObject(c);
                            row.add(
                                    o == null || o instanceof String || o instanceof Boolean || o instanceof Double
                                            ? o
                                            : ((Number) o).longValue());
                        }
                        rows.add(row);
                    }
                }
            }
            assertThat(rows).as(mode.name()).isEqualTo(f.expected()).hasSize(1200 - 172);
            for (Block b : f.table.blocks())
                assertThat(BlockAccess.readers(b))
                        .as("DuckDB released every block")
                        .isZero();
        }
    }

    @Test
    void hotBlocksExportThroughATransactionalSnapshot() throws Exception {
        ExportFixture f = new ExportFixture(16 << 10, ArrowTable.FreezeMode.GATHER, 800);
        List<List<Object>> before = f.expected();
        List<List<Object>> rows = new ArrayList<>();
        try (TableArrowReader r = new TableArrowReader(allocator, f.table)) {
            // A writer commits after the export's snapshot began: the export must not see it.
            Transaction w = f.tm.begin();
            Record changed = new Record(ExportFixture.SCHEMA).setString(6, "changed after the snapshot");
            assertThat(f.table.update(w, f.slots.get(1), new int[] {6}, changed))
                    .isTrue();
            assertThat(f.table.delete(w, f.slots.get(2))).isTrue();
            f.tm.commit(w);
            while (r.loadNextBatch()) rows.addAll(ExportFixture.rows(r.getVectorSchemaRoot(), r));
            assertThat(r.inPlaceBatches()).isZero();
        }
        assertThat(ExportFixture.sorted(rows)).isEqualTo(before);
        assertThat(f.expected()).isNotEqualTo(before);
    }

    @Test
    void aWriterOfAFrozenBlockWaitsForTheExportToReleaseIt() throws Exception {
        ExportFixture f = new ExportFixture(16 << 10, ArrowTable.FreezeMode.GATHER, 600);
        f.freeze();
        long slot = f.slots.get(1);
        Block b = f.table.block(slot);
        AtomicBoolean written = new AtomicBoolean();
        Thread writer;
        try (TableArrowReader r = new TableArrowReader(allocator, f.table)) {
            assertThat(r.loadNextBatch()).isTrue();
            assertThat(BlockAccess.readers(b)).isEqualTo(1);
            int qtyBefore = (Integer) r.getVectorSchemaRoot().getVector(1).getObject(1);
            writer = new Thread(() -> {
                Transaction w = f.tm.begin();
                f.table.update(w, slot, new int[] {1}, new Record(ExportFixture.SCHEMA).setLong(1, 123456));
                written.set(true);
                f.tm.commit(w);
            });
            writer.start();
            Thread.sleep(200);
            assertThat(written).as("the writer waits for the in-place reader").isFalse();
            assertThat(b.state())
                    .as("flipped to hot: no new in-place reader gets in")
                    .isEqualTo(ArrowBlock.HOT);
            assertThat((Integer) r.getVectorSchemaRoot().getVector(1).getObject(1))
                    .as("the batch is unchanged")
                    .isEqualTo(qtyBefore);
            while (r.loadNextBatch()) {
                // moving on releases the first block
            }
        }
        writer.join();
        assertThat(written).isTrue();
        assertThat(TupleSlot.block(slot)).isEqualTo(b.id());
    }

    @Test
    void flightServesTheTablesOnLoopback() throws Exception {
        for (ArrowTable.FreezeMode mode : ArrowTable.FreezeMode.values()) flight(mode);
    }

    void flight(ArrowTable.FreezeMode mode) throws Exception {
        ExportFixture f = new ExportFixture(16 << 10, mode, 1000);
        f.freeze();
        try (FlightServer server = FlightExport.serve(allocator, List.of(f.table), "127.0.0.1", 0);
                FlightClient client = FlightClient.builder(
                                allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort()))
                        .build()) {
            List<FlightInfo> infos = new ArrayList<>();
            client.listFlights(org.apache.arrow.flight.Criteria.ALL).forEach(infos::add);
            assertThat(infos).hasSize(1);
            assertThat(infos.get(0).getRecords()).isEqualTo(f.expected().size());
            List<List<Object>> rows = new ArrayList<>();
            try (FlightStream s = client.getStream(new Ticket("orders".getBytes(StandardCharsets.UTF_8)))) {
                while (s.next()) rows.addAll(ExportFixture.rows(s.getRoot(), s.getDictionaryProvider()));
            }
            assertThat(ExportFixture.sorted(rows)).as(mode.name()).isEqualTo(f.expected());
        }
    }
}

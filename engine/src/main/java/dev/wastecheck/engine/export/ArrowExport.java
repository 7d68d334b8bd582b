package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;

/**
 * Where an {@link ArrowTable} goes as Arrow (Li et al., VLDB 2020, §5): to an in-process consumer
 * through the Arrow C data interface (DuckDB's {@code registerArrowStream}), without a copy of a
 * frozen block; to Arrow IPC files and streams; over Arrow Flight ({@link FlightExport}). Every
 * export reads one transactional snapshot ({@link TableArrowReader}).
 */
public final class ArrowExport {
    private ArrowExport() {}

    /** What an export wrote. */
    public record Written(long rows, long inPlaceBatches, long snapshotBatches) {}

    /**
     * Exports the table as an Arrow C stream into {@code out}: the consumer (DuckDB:
     * {@code conn.registerArrowStream(name, out)}) pulls the batches and owns the stream from then
     * on; the snapshot's transaction ends when the consumer releases the stream.
     */
    public static void toCStream(BufferAllocator allocator, ArrowTable table, ArrowArrayStream out) {
        Data.exportArrayStream(allocator, new TableArrowReader(allocator, table), out);
    }

    /**
     * Writes the table as an Arrow IPC stream. A table that freezes by dictionary writes each
     * block's dictionary as a replacement before its batch (the stream format allows it).
     */
    public static Written writeStream(BufferAllocator allocator, ArrowTable table, OutputStream out)
            throws IOException {
        try (TableArrowReader reader = new TableArrowReader(allocator, table);
                ArrowStreamWriter writer =
                        new ArrowStreamWriter(reader.getVectorSchemaRoot(), reader, Channels.newChannel(out))) {
            return write(reader, writer);
        }
    }

    /**
     * Writes the table as an Arrow IPC file. The file format allows one dictionary per column, so a
     * table that freezes by dictionary (one dictionary per block) goes to a stream instead.
     */
    public static Written writeFile(BufferAllocator allocator, ArrowTable table, Path file) throws IOException {
        if (table.freezeMode() == ArrowTable.FreezeMode.DICTIONARY) {
            throw new IllegalArgumentException(
                    table.name() + " is dictionary-encoded per block; the Arrow file format allows one "
                            + "dictionary per column: write a stream (writeStream)");
        }
        try (TableArrowReader reader = new TableArrowReader(allocator, table);
                FileChannel ch = FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE);
                ArrowFileWriter writer = new ArrowFileWriter(reader.getVectorSchemaRoot(), reader, ch)) {
            return write(reader, writer);
        }
    }

    private static Written write(TableArrowReader reader, ArrowWriter writer) throws IOException {
        writer.start();
        while (reader.loadNextBatch()) writer.writeBatch();
        writer.end();
        return new Written(reader.rows(), reader.inPlaceBatches(), reader.snapshotBatches());
    }
}

package dev.wastecheck.replay;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.load.LoadedSource;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.analyzer.load.ProfilingOptions;
import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.BlockTransformer;
import dev.wastecheck.engine.export.ArrowImport;
import dev.wastecheck.engine.export.FlightExport;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBResultSet;

/**
 * A source served over Arrow Flight from Arrow-native blocks (docs/arrow.md, "Export"): every table
 * is loaded through DuckDB's Arrow export into an {@link ArrowTable}, frozen, and served by
 * {@link FlightExport} (a table's ticket is its name). Columns DuckDB holds in a type the engine has
 * no field for (a DECIMAL from Parquet, say) are served as text. Close it to stop the server.
 */
public final class ArrowService implements AutoCloseable {
    private final BufferAllocator allocator;
    private final List<ArrowTable> tables;
    private final FlightServer server;

    private ArrowService(BufferAllocator allocator, List<ArrowTable> tables, FlightServer server) {
        this.allocator = allocator;
        this.tables = tables;
        this.server = server;
    }

    /**
     * Loads {@code data}, freezes it and starts serving on {@code host}:{@code port} (0: a free port).
     *
     * @param dictionary freeze variable-length columns by dictionary (§4.4) rather than by gathering
     * @param info       receives one line per table (rows, blocks, frozen blocks)
     */
    public static ArrowService start(
            Path data, String host, int port, boolean dictionary, Progress progress, Consumer<String> info)
            throws IOException, SQLException {
        if (!Files.exists(data)) throw new BadInputException(data + ": no such file or folder");
        if (port < 0 || port > 65535)
            throw new BadInputException("--flight " + port + ": expected a port from 0 to 65535");
        TransactionManager tm = new TransactionManager();
        GarbageCollector gc = new GarbageCollector(tm);
        ArrowTable.FreezeMode mode = dictionary ? ArrowTable.FreezeMode.DICTIONARY : ArrowTable.FreezeMode.GATHER;
        BufferAllocator allocator = new RootAllocator();
        try {
            List<ArrowTable> tables = new ArrayList<>();
            Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
            try (LoadedSource session = analyzer.open(List.of(data), true, progress)) {
                for (LoadedTable t : session.tables().values()) {
                    String rel = session.namedRelation(t);
                    if (rel == null) continue;
                    ArrowTable table =
                            load(session.database(), allocator, t.def().name(), rel, tm, gc, mode);
                    int frozen = new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 100);
                    info.accept(table.name() + ": " + t.rows() + " rows in " + table.blockCount() + " blocks (" + frozen
                            + " frozen)");
                    tables.add(table);
                }
            }
            return new ArrowService(allocator, tables, FlightExport.serve(allocator, tables, host, port));
        } catch (IOException | SQLException | RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    public int port() {
        return server.getPort();
    }

    public List<ArrowTable> tables() {
        return tables;
    }

    /** Blocks until the server stops (or the thread is interrupted). */
    public void awaitTermination() throws InterruptedException {
        server.awaitTermination();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            server.close();
        } finally {
            allocator.close();
        }
    }

    /** Reads a relation through DuckDB's Arrow export into a new table; columns with no engine type are read as text. */
    private static ArrowTable load(
            ProfilingDatabase db,
            BufferAllocator allocator,
            String name,
            String rel,
            TransactionManager tm,
            GarbageCollector gc,
            ArrowTable.FreezeMode mode)
            throws IOException, SQLException {
        String select = "SELECT * FROM " + rel;
        try (Statement st = db.connection().createStatement();
                DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery(select + " LIMIT 0");
                ArrowReader probe = (ArrowReader) rs.arrowExportStream(allocator, 1)) {
            Schema s = probe.getVectorSchemaRoot().getSchema();
            List<String> cols = new ArrayList<>();
            boolean cast = false;
            for (Field f : s.getFields()) {
                String q = ProfilingDatabase.quote(f.getName());
                boolean supported = ArrowImport.fieldType(f.getType()) != null;
                cols.add(supported ? q : "CAST(" + q + " AS VARCHAR) AS " + q);
                cast |= !supported;
            }
            if (cast) select = "SELECT " + String.join(", ", cols) + " FROM " + rel;
        }
        try (Statement st = db.connection().createStatement();
                DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery(select);
                ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, 8192)) {
            ArrowTable table = ArrowImport.create(
                    name, reader.getVectorSchemaRoot().getSchema(), tm, BlockLayout.DEFAULT_BLOCK_SIZE, mode);
            ArrowImport.load(table, reader, gc, 50_000);
            return table;
        }
    }
}

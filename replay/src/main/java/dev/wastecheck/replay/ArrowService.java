package dev.wastecheck.replay;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.BlockTransformer;
import dev.wastecheck.engine.export.ArrowImport;
import dev.wastecheck.engine.export.FlightExport;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.arrow.ArrowSchemas;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
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
                    ArrowTable table = load(session.database(), allocator, t.def(), rel, tm, gc, mode, info);
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

    /**
     * Reads a relation through DuckDB's Arrow export into a new table. Integer columns are read at
     * their declared width ({@link ArrowSchemas#tight}: an {@code INT} as Arrow int32, not the int64
     * the profiler carries it in), unless a value does not fit, when the column keeps the carrier and
     * {@code info} says so; columns with no engine type are read as text.
     */
    private static ArrowTable load(
            ProfilingDatabase db,
            BufferAllocator allocator,
            TableDef def,
            String rel,
            TransactionManager tm,
            GarbageCollector gc,
            ArrowTable.FreezeMode mode,
            Consumer<String> info)
            throws IOException, SQLException {
        String name = def.name();
        Map<String, ColumnDef> declared = new HashMap<>();
        for (ColumnDef c : def.columns()) declared.put(c.name(), c);
        List<String> cols = new ArrayList<>(), names = new ArrayList<>(), narrow = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
                DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery("SELECT * FROM " + rel + " LIMIT 0");
                ArrowReader probe = (ArrowReader) rs.arrowExportStream(allocator, 1)) {
            for (Field f : probe.getVectorSchemaRoot().getSchema().getFields()) {
                String q = ProfilingDatabase.quote(f.getName());
                ColumnDef c = declared.get(f.getName());
                ArrowType want = c == null ? null : ArrowSchemas.tight(c.type());
                String n = want == null || f.getType().equals(want) ? null : duckDbInteger(want);
                boolean supported = ArrowImport.fieldType(f.getType()) != null;
                cols.add(supported ? q : "CAST(" + q + " AS VARCHAR) AS " + q);
                names.add(f.getName());
                narrow.add(n);
            }
        }
        // A value that does not fit its declared width (a lenient dump) keeps the column at the carrier.
        List<String> checks = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            if (narrow.get(i) == null) continue;
            String q = ProfilingDatabase.quote(names.get(i));
            checks.add("count(*) FILTER (WHERE " + q + " IS NOT NULL AND TRY_CAST(" + q + " AS " + narrow.get(i)
                    + ") IS NULL)");
        }
        if (!checks.isEmpty()) {
            try (Statement st = db.connection().createStatement();
                    ResultSet rs = st.executeQuery("SELECT " + String.join(", ", checks) + " FROM " + rel)) {
                rs.next();
                for (int i = 0, k = 1; i < cols.size(); i++) {
                    if (narrow.get(i) == null) continue;
                    long misfits = rs.getLong(k++);
                    String q = ProfilingDatabase.quote(names.get(i));
                    if (misfits == 0) {
                        cols.set(i, "CAST(" + q + " AS " + narrow.get(i) + ") AS " + q);
                    } else {
                        info.accept(name + "." + names.get(i) + ": " + misfits + " values do not fit "
                                + declared.get(names.get(i)).type().declared() + "; served as 64-bit integers");
                    }
                }
            }
        }
        return load(db, allocator, name, "SELECT " + String.join(", ", cols) + " FROM " + rel, tm, gc, mode);
    }

    /** DuckDB's name of an Arrow integer type, or null for another type. */
    private static String duckDbInteger(ArrowType t) {
        if (!(t instanceof ArrowType.Int i)) return null;
        String base = switch (i.getBitWidth()) {
            case 8 -> "TINYINT";
            case 16 -> "SMALLINT";
            case 32 -> "INTEGER";
            default -> "BIGINT";
        };
        return i.getIsSigned() ? base : "U" + base;
    }

    private static ArrowTable load(
            ProfilingDatabase db,
            BufferAllocator allocator,
            String name,
            String select,
            TransactionManager tm,
            GarbageCollector gc,
            ArrowTable.FreezeMode mode)
            throws IOException, SQLException {
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

package dev.wastecheck.cli;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
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
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBResultSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code wastecheck serve}: loads a source into Arrow-native blocks, freezes them, and serves every
 * table over Arrow Flight (docs/arrow.md, "Export"). A table's Flight ticket is its name.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Load a database into Arrow-native blocks, freeze them and serve its tables over Arrow Flight.", ""},
        footer = {"", "Example:", "  wastecheck serve --data wiki/dump.sql --flight 8815",
                "  (a Flight client then reads grpc://127.0.0.1:8815 with ticket 'revision')"})
public final class ServeCommand implements Callable<Integer> {
    enum Freeze { gather, dictionary }

    @Option(names = "--data", required = true, paramLabel = "SOURCE", description = "The database: a dump, database file or folder (as analyze reads).")
    Path data;

    @Option(names = "--flight", required = true, paramLabel = "PORT", description = "Serve Arrow Flight on this port (0: any free port).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}, loopback only).")
    String host;

    @Option(names = "--freeze", defaultValue = "gather", description = "How variable-length columns freeze: gather or dictionary "
            + "(default: ${DEFAULT-VALUE}; dictionary streams carry one dictionary per block).")
    Freeze freeze;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.exists(data)) throw new UserError(data + ": no such file or folder");
        if (port < 0 || port > 65535) throw new UserError("--flight " + port + ": expected a port from 0 to 65535");
        PrintWriter err = spec.commandLine().getErr();
        TransactionManager tm = new TransactionManager();
        GarbageCollector gc = new GarbageCollector(tm);
        ArrowTable.FreezeMode mode = freeze == Freeze.dictionary ? ArrowTable.FreezeMode.DICTIONARY : ArrowTable.FreezeMode.GATHER;
        List<ArrowTable> tables = new ArrayList<>();
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (BufferAllocator allocator = new RootAllocator()) {
            try (Analyzer.Session session = analyzer.open(List.of(data), true, Progress.forStderr(quiet))) {
                for (LoadedTable t : session.tables().values()) {
                    String rel = session.namedRelation(t);
                    if (rel == null) continue;
                    ArrowTable table = load(session.database(), allocator, t.def().name(), rel, tm, gc, mode);
                    int frozen = new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 100);
                    err.printf(Locale.ROOT, "wastecheck: %s: %d rows in %d blocks (%d frozen)%n", table.name(), t.rows(), table.blockCount(), frozen);
                    tables.add(table);
                }
            }
            try (FlightServer server = FlightExport.serve(allocator, tables, host, port)) {
                err.printf(Locale.ROOT, "wastecheck: serving %d tables on grpc://%s:%d (Ctrl-C stops)%n", tables.size(), host, server.getPort());
                err.flush();
                server.awaitTermination();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Main.EXIT_OK;
    }

    /** Reads a relation through DuckDB's Arrow export into a new table; columns with no engine type are read as text. */
    private static ArrowTable load(ProfilingDatabase db, BufferAllocator allocator, String name, String rel, TransactionManager tm,
                                   GarbageCollector gc, ArrowTable.FreezeMode mode) throws Exception {
        String select = "SELECT * FROM " + rel;
        try (Statement st = db.connection().createStatement();
             DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery(select + " LIMIT 0");
             ArrowReader probe = (ArrowReader) rs.arrowExportStream(allocator, 1)) {
            Schema s = probe.getVectorSchemaRoot().getSchema();
            List<String> cols = new ArrayList<>();
            boolean cast = false;
            for (Field f : s.getFields()) {
                String q = ProfilingDatabase.quote(f.getName());
                if (ArrowImport.fieldType(f.getType()) == null) {
                    cols.add("CAST(" + q + " AS VARCHAR) AS " + q);
                    cast = true;
                } else {
                    cols.add(q);
                }
            }
            if (cast) select = "SELECT " + String.join(", ", cols) + " FROM " + rel;
        }
        try (Statement st = db.connection().createStatement();
             DuckDBResultSet rs = (DuckDBResultSet) st.executeQuery(select);
             ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, 8192)) {
            ArrowTable table = ArrowImport.create(name, reader.getVectorSchemaRoot().getSchema(), tm, BlockLayout.DEFAULT_BLOCK_SIZE, mode);
            ArrowImport.load(table, reader, gc, 50_000);
            return table;
        }
    }
}

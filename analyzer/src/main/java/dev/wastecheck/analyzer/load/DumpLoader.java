package dev.wastecheck.analyzer.load;

import dev.wastecheck.analyzer.source.DumpFormatException;
import dev.wastecheck.analyzer.source.SqlScriptReader;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.LongConsumer;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams a SQL script's tables into the profiling database: DDL into the {@link DdlCatalog},
 * each run of INSERT or COPY rows into DuckDB as a stream of Arrow batches that DuckDB pulls
 * (Arrow C stream, no copy through JDBC).
 *
 * <p>Two threads share the work: a reader thread tokenizes the script and fills Arrow batches,
 * the calling thread runs DuckDB's ingest of them, a few batches apart (a bounded queue), so
 * parsing and loading overlap. Memory is the queue's batches plus the reader's buffer, whatever
 * the dump's size.
 */
public final class DumpLoader {
    /** Rows per Arrow batch. */
    static final int BATCH_ROWS = 16_384;
    /** Value bytes per Arrow batch; a batch of long text rows closes early. */
    static final long BATCH_BYTES = 16L << 20;
    /** Batches the reader may run ahead of DuckDB. */
    private static final int QUEUE = 4;

    private final ProfilingDatabase db;
    private final DdlCatalog catalog;
    private final LoadStats stats;
    private final Map<String, LoadedTable> loaded;
    private final LongConsumer progress;
    private final Map<String, long[]> counters = new HashMap<>();

    /**
     * @param loaded   tables loaded so far, by lower-case name; this loader adds to it
     * @param progress told the reader's byte position now and then
     */
    public DumpLoader(
            ProfilingDatabase db,
            DdlCatalog catalog,
            LoadStats stats,
            Map<String, LoadedTable> loaded,
            LongConsumer progress) {
        this.db = db;
        this.catalog = catalog;
        this.stats = stats;
        this.loaded = loaded;
        this.progress = progress;
    }

    // ------------------------------------------------------------------ what the reader hands over

    private sealed interface Event permits RunStart, Batch, RunEnd, Done, Failed {}

    /** Rows for a table follow. */
    private record RunStart(TableDef def, Schema schema, ColumnStorage[] storage) implements Event {}

    private record Batch(VectorSchemaRoot root) implements Event {}

    private record RunEnd(long rows) implements Event {}

    private record Done() implements Event {}

    private record Failed(Throwable error) implements Event {}

    public void load(SqlScriptReader reader) throws IOException, SQLException {
        BlockingQueue<Event> queue = new ArrayBlockingQueue<>(QUEUE);
        Thread producer = new Thread(() -> produce(reader, queue), "wastecheck-reader");
        producer.setDaemon(true);
        producer.start();
        try {
            consume(queue);
        } finally {
            producer.interrupt();
            drain(queue);
            try {
                producer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            drain(queue);
        }
        for (TableDef t : catalog.tables().values()) {
            loaded.computeIfAbsent(t.key(), k -> LoadedTable.empty(t));
        }
    }

    private static void drain(BlockingQueue<Event> queue) {
        Event e;
        while ((e = queue.poll()) != null) {
            if (e instanceof Batch b) {
                b.root().close();
            }
        }
    }

    // ------------------------------------------------------------------ the calling thread: DuckDB

    private void consume(BlockingQueue<Event> queue) throws SQLException, IOException {
        while (true) {
            Event e = take(queue);
            if (e instanceof Done) {
                return;
            }
            if (e instanceof Failed f) {
                throw rethrow(f.error());
            }
            if (!(e instanceof RunStart start)) {
                throw new IllegalStateException("expected the start of a run of rows, got " + e);
            }
            LoadedTable prior = loaded.get(start.def().key());
            if (prior != null && prior.def() != start.def() && !sameColumns(prior.def(), start.def())) {
                throw new DumpFormatException(
                        "table " + start.def().name() + " is defined twice, differently: " + describe(prior.def())
                                + ", and " + describe(start.def()) + "; give the sources of one of them");
            }
            boolean append = prior != null && prior.relation() != null;
            String relation = append ? prior.relation() : db.nextRelationName();
            QueueStream stream = new QueueStream(start.schema(), queue);
            String streamName = db.nextStreamName();
            try (ArrowArrayStream c = ArrowArrayStream.allocateNew(db.allocator())) {
                Data.exportArrayStream(db.allocator(), stream, c);
                db.connection().registerArrowStream(streamName, c);
                try {
                    db.execute(
                            append
                                    ? "INSERT INTO " + relation + " SELECT * FROM " + streamName
                                    : "CREATE TABLE " + relation + " AS SELECT * FROM " + streamName);
                } catch (SQLException ex) {
                    if (stream.failure != null) {
                        throw rethrow(stream.failure);
                    }
                    throw ex;
                }
            }
            if (stream.failure != null) {
                throw rethrow(stream.failure);
            }
            long rows = (prior == null ? 0 : prior.rows()) + stream.rows;
            loaded.put(start.def().key(), new LoadedTable(start.def(), relation, rows, start.storage()));
        }
    }

    private static boolean sameColumns(TableDef a, TableDef b) {
        if (a.columns().size() != b.columns().size()) {
            return false;
        }
        for (int i = 0; i < a.columns().size(); i++) {
            ColumnDef x = a.columns().get(i);
            ColumnDef y = b.columns().get(i);
            if (!x.name().equalsIgnoreCase(y.name())
                    || !x.type().declared().equalsIgnoreCase(y.type().declared())) {
                return false;
            }
        }
        return true;
    }

    private static String describe(TableDef t) {
        List<String> cols = t.columns().stream()
                .map(c -> c.name() + " " + c.type().declared())
                .toList();
        String shown = String.join(", ", cols);
        return "in " + t.origin() + " as (" + (shown.length() > 80 ? shown.substring(0, 80) + "..." : shown) + ")";
    }

    private static Event take(BlockingQueue<Event> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading", e);
        }
    }

    private static RuntimeException rethrow(Throwable t) throws IOException, SQLException {
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof SQLException sql) {
            throw sql;
        }
        if (t instanceof RuntimeException re) {
            return re;
        }
        return new IllegalStateException(t);
    }

    /** One run's batches, as the Arrow stream DuckDB pulls: each batch moves over without a copy. */
    private final class QueueStream extends ArrowReader {
        private final Schema schema;
        private final BlockingQueue<Event> queue;
        private boolean done;
        long rows;
        Throwable failure;

        QueueStream(Schema schema, BlockingQueue<Event> queue) {
            super(db.allocator());
            this.schema = schema;
            this.queue = queue;
        }

        @Override
        protected Schema readSchema() {
            return schema;
        }

        @Override
        public boolean loadNextBatch() throws IOException {
            prepareLoadNextBatch();
            if (done) {
                return false;
            }
            Event e = take(queue);
            if (e instanceof Batch b) {
                try (VectorSchemaRoot root = b.root();
                        ArrowRecordBatch rb = new VectorUnloader(root).getRecordBatch()) {
                    loadRecordBatch(rb);
                    rows += root.getRowCount();
                }
                return true;
            }
            done = true;
            if (e instanceof Failed f) {
                failure = f.error();
                throw new IOException(f.error().getMessage(), f.error());
            }
            return false; // RunEnd
        }

        @Override
        public long bytesRead() {
            return 0;
        }

        @Override
        protected void closeReadSource() {}
    }

    // ------------------------------------------------------------------ the reader thread

    private void produce(SqlScriptReader reader, BlockingQueue<Event> queue) {
        try {
            SqlScriptReader.Statement pending = null;
            while (true) {
                SqlScriptReader.Statement st = pending != null ? pending : reader.next();
                pending = null;
                if (st == null) {
                    break;
                }
                progress.accept(reader.position());
                if (st instanceof SqlScriptReader.Garbage g) {
                    stats.badStatement(reader.file(), g.line(), g.found(), g.resumeLine());
                    continue;
                }
                if (st instanceof SqlScriptReader.Other other) {
                    String text = other.text();
                    if (text.regionMatches(true, 0, "insert", 0, 6)) {
                        stats.warn(
                                reader.file() + ":" + other.line()
                                        + ": skipped an INSERT without VALUES (INSERT ... SELECT); its rows are not in the dump");
                    }
                    catalog.accept(text, reader.file(), other.line());
                    continue;
                }
                pending = produceRun(reader, st, queue);
            }
            put(queue, new Done());
        } catch (Throwable t) {
            try {
                put(queue, new Failed(t));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void put(BlockingQueue<Event> queue, Event e) throws InterruptedException {
        queue.put(e);
    }

    /** Hands over one run of rows for a table; returns the statement that ended the run, if read. */
    private SqlScriptReader.Statement produceRun(
            SqlScriptReader reader, SqlScriptReader.Statement first, BlockingQueue<Event> queue)
            throws IOException, InterruptedException {
        boolean copy = first instanceof SqlScriptReader.Copy;
        String tableName =
                first instanceof SqlScriptReader.Insert ins ? ins.table() : ((SqlScriptReader.Copy) first).table();
        List<String> columns =
                first instanceof SqlScriptReader.Insert ins ? ins.columns() : ((SqlScriptReader.Copy) first).columns();
        TableDef def = catalog.table(tableName);
        TableDef earlierDef = firstDefs.get(tableName.toLowerCase(Locale.ROOT));
        if (earlierDef != null) {
            def = earlierDef; // later runs keep the columns the first run loaded
        }
        if (def == null) {
            def = undeclared(tableName, columns, reader, first);
            catalog.put(def);
        }
        firstDefs.put(def.key(), def);
        ArrowRowBuilder builder = new ArrowRowBuilder(def, stats.table(def.name()), reader.file());
        if (catalog.dialect() != dev.wastecheck.model.schema.Dialect.SQLITE) {
            builder.checkDeclaredTypes(catalog.dialect() == dev.wastecheck.model.schema.Dialect.MYSQL);
        }
        builder.setColumnOrder(columns);
        builder.continueCounters(counters.get(def.key()));
        put(queue, new RunStart(def, builder.schema(), builder.storage()));
        SqlScriptReader.Statement next = null;
        long rows = 0;
        boolean done = false;
        while (!done) {
            VectorSchemaRoot root = VectorSchemaRoot.create(builder.schema(), db.allocator());
            try {
                builder.startBatch(root);
                while (!builder.full(BATCH_ROWS, BATCH_BYTES)) {
                    builder.atLine(reader.line());
                    boolean more = copy ? reader.nextCopyRow(builder) : reader.nextTuple(builder);
                    if (!more) {
                        if (!copy) {
                            // mysqldump splits a table's rows over many INSERTs in a row: keep going across them.
                            SqlScriptReader.Statement st = reader.next();
                            if (st instanceof SqlScriptReader.Insert ins
                                    && ins.table().equalsIgnoreCase(tableName)
                                    && Objects.equals(ins.columns(), columns)) {
                                continue;
                            }
                            next = st;
                        }
                        done = true;
                        break;
                    }
                }
                int n = builder.rows();
                builder.finishBatch();
                rows += n;
                progress.accept(reader.position());
                if (n > 0) {
                    put(queue, new Batch(root));
                    root = null;
                }
            } finally {
                if (root != null) {
                    root.close();
                }
            }
        }
        counters.put(def.key(), builder.counters());
        put(queue, new RunEnd(rows));
        return next;
    }

    private final Map<String, TableDef> firstDefs = new HashMap<>();

    /**
     * Rows for a table no CREATE TABLE declared (a data-only dump): with a column list they are
     * profiled as text with unknown declared types, and the report says so; without one there is
     * nothing to name the columns by, so the run stops and says what to do.
     */
    private TableDef undeclared(
            String name, List<String> columns, SqlScriptReader reader, SqlScriptReader.Statement first) {
        if (columns == null) {
            throw new DumpFormatException(
                    reader.file(),
                    first.line(),
                    "a CREATE TABLE for " + name + " before its rows (or an INSERT with a column list)",
                    "rows for an undeclared table; pass the schema file first, e.g. wastecheck analyze schema.sql data.sql");
        }
        stats.warn(reader.file() + ":" + first.line() + ": rows for table " + name
                + " with no CREATE TABLE before them; its columns are profiled as text with unknown declared types");
        List<ColumnDef> cols = new ArrayList<>();
        for (String c : columns) {
            cols.add(new ColumnDef(c, SqlType.of("unknown", TypeFamily.OTHER), true, false));
        }
        return new TableDef(name, cols, List.of(), List.of(), null, reader.file() + ":" + first.line(), false);
    }

    /** The tables loaded so far, in the order they were first seen. */
    public static Map<String, LoadedTable> newTableMap() {
        return new LinkedHashMap<>();
    }
}

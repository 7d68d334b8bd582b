package dev.wastecheck.analyzer.load;

import dev.wastecheck.analyzer.schema.ColumnDef;
import dev.wastecheck.analyzer.schema.SqlType;
import dev.wastecheck.analyzer.schema.TableDef;
import dev.wastecheck.analyzer.schema.TypeFamily;
import dev.wastecheck.analyzer.source.DdlCatalog;
import dev.wastecheck.analyzer.source.DumpFormatException;
import dev.wastecheck.analyzer.source.SqlScriptReader;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongConsumer;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams a SQL script's tables into the profiling database: DDL into the {@link DdlCatalog},
 * each run of INSERT or COPY rows into DuckDB as a stream of Arrow batches that DuckDB pulls
 * (Arrow C stream, no copy through JDBC). Memory is one batch plus the reader's buffer, whatever
 * the dump's size.
 */
public final class DumpLoader {
    /** Rows per Arrow batch. */
    static final int BATCH_ROWS = 16_384;
    /** Value bytes per Arrow batch; a batch of long text rows closes early. */
    static final long BATCH_BYTES = 16L << 20;

    private final ProfilingDatabase db;
    private final DdlCatalog catalog;
    private final LoadStats stats;
    private final Map<String, LoadedTable> loaded;
    private final LongConsumer progress;
    private final Map<String, long[]> counters = new java.util.HashMap<>();

    /**
     * @param loaded   tables loaded so far, by lower-case name; this loader adds to it
     * @param progress told the reader's byte position now and then
     */
    public DumpLoader(ProfilingDatabase db, DdlCatalog catalog, LoadStats stats, Map<String, LoadedTable> loaded,
                      LongConsumer progress) {
        this.db = db;
        this.catalog = catalog;
        this.stats = stats;
        this.loaded = loaded;
        this.progress = progress;
    }

    public void load(SqlScriptReader reader) throws IOException, SQLException {
        SqlScriptReader.Statement pending = null;
        while (true) {
            SqlScriptReader.Statement st = pending != null ? pending : reader.next();
            pending = null;
            if (st == null) {
                break;
            }
            progress.accept(reader.position());
            if (st instanceof SqlScriptReader.Other other) {
                String text = other.text();
                if (text.regionMatches(true, 0, "insert", 0, 6)) {
                    stats.warn(reader.file() + ":" + other.line() + ": skipped an INSERT without VALUES (INSERT ... SELECT); its rows are not in the dump");
                }
                catalog.accept(text, reader.file(), other.line());
                continue;
            }
            pending = ingest(reader, st);
        }
        for (TableDef t : catalog.tables().values()) {
            loaded.computeIfAbsent(t.key(), k -> LoadedTable.empty(t));
        }
    }

    /** Streams one run of rows for a table; returns the statement that ended the run, if read. */
    private SqlScriptReader.Statement ingest(SqlScriptReader reader, SqlScriptReader.Statement first)
            throws IOException, SQLException {
        String tableName = first instanceof SqlScriptReader.Insert ins ? ins.table() : ((SqlScriptReader.Copy) first).table();
        List<String> columns = first instanceof SqlScriptReader.Insert ins ? ins.columns() : ((SqlScriptReader.Copy) first).columns();
        TableDef def = catalog.table(tableName);
        LoadedTable prior = loaded.get(tableName.toLowerCase(Locale.ROOT));
        if (prior != null && prior.relation() != null) {
            def = prior.def();
        }
        if (def == null) {
            def = undeclared(tableName, columns, reader, first);
            catalog.put(def);
        }
        LoadStats.TableStats tstats = stats.table(def.name());
        ArrowRowBuilder builder = new ArrowRowBuilder(def, tstats, reader.file());
        builder.setColumnOrder(columns);
        builder.continueCounters(counters.get(def.key()));
        RowStream stream = new RowStream(builder, reader, first, columns);
        String relation = prior != null && prior.relation() != null ? prior.relation() : db.nextRelationName();
        String streamName = db.nextStreamName();
        try (ArrowArrayStream c = ArrowArrayStream.allocateNew(db.allocator())) {
            Data.exportArrayStream(db.allocator(), stream, c);
            db.connection().registerArrowStream(streamName, c);
            String sql = prior != null && prior.relation() != null
                    ? "INSERT INTO " + relation + " SELECT * FROM " + streamName
                    : "CREATE TABLE " + relation + " AS SELECT * FROM " + streamName;
            try {
                db.execute(sql);
            } catch (SQLException e) {
                if (stream.failure != null) {
                    throw stream.failure;
                }
                throw e;
            }
        }
        if (stream.failure != null) {
            throw stream.failure;
        }
        counters.put(def.key(), builder.counters());
        long rows = (prior == null ? 0 : prior.rows()) + stream.rows;
        loaded.put(def.key(), new LoadedTable(def, relation, rows, builder.storage()));
        return stream.next;
    }

    /**
     * Rows for a table no CREATE TABLE declared (a data-only dump): columns are named from the
     * INSERT's list or numbered, and profiled as text. The report says so.
     */
    private TableDef undeclared(String name, List<String> columns, SqlScriptReader reader, SqlScriptReader.Statement first) {
        stats.warn(reader.file() + ":" + first.line() + ": rows for table " + name
                + " with no CREATE TABLE before them; its columns are profiled as text with unknown declared types");
        List<ColumnDef> cols = new ArrayList<>();
        if (columns == null) {
            throw new DumpFormatException(reader.file(), first.line(),
                    "a CREATE TABLE for " + name + " before its rows (or an INSERT with a column list)",
                    "rows for an undeclared table; pass the schema file first, e.g. wastecheck analyze schema.sql data.sql");
        }
        for (String c : columns) {
            cols.add(new ColumnDef(c, SqlType.of("unknown", TypeFamily.OTHER), true, false));
        }
        return new TableDef(name, cols, List.of(), List.of(), null, reader.file() + ":" + first.line(), false);
    }

    /** The rows of one run, as an Arrow stream that DuckDB pulls batch by batch. */
    private final class RowStream extends ArrowReader {
        private final ArrowRowBuilder builder;
        private final SqlScriptReader reader;
        private final boolean copy;
        private final String table;
        private final List<String> columns;
        private boolean done;
        long rows;
        SqlScriptReader.Statement next;
        RuntimeException failure;

        RowStream(ArrowRowBuilder builder, SqlScriptReader reader, SqlScriptReader.Statement first, List<String> columns) {
            super(db.allocator());
            this.builder = builder;
            this.reader = reader;
            this.copy = first instanceof SqlScriptReader.Copy;
            this.table = first instanceof SqlScriptReader.Insert ins ? ins.table() : ((SqlScriptReader.Copy) first).table();
            this.columns = columns;
        }

        @Override
        protected Schema readSchema() {
            return builder.schema();
        }

        @Override
        public boolean loadNextBatch() throws IOException {
            try {
                return fillBatch();
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            } catch (IOException e) {
                failure = new java.io.UncheckedIOException(e);
                throw e;
            }
        }

        private boolean fillBatch() throws IOException {
            prepareLoadNextBatch();
            if (done) {
                return false;
            }
            VectorSchemaRoot root = getVectorSchemaRoot();
            root.clear();
            builder.startBatch(root);
            while (!builder.full(BATCH_ROWS, BATCH_BYTES)) {
                builder.atLine(reader.line());
                boolean more = copy ? reader.nextCopyRow(builder) : reader.nextTuple(builder);
                if (!more) {
                    if (copy || !continueWithNextInsert()) {
                        done = true;
                        break;
                    }
                }
            }
            int n = builder.rows();
            builder.finishBatch();
            rows += n;
            progress.accept(reader.position());
            return n > 0 || !done;
        }

        /** mysqldump splits a table's rows over many INSERTs in a row: keep streaming across them. */
        private boolean continueWithNextInsert() throws IOException {
            SqlScriptReader.Statement st = reader.next();
            if (st instanceof SqlScriptReader.Insert ins && ins.table().equalsIgnoreCase(table)
                    && Objects.equals(ins.columns(), columns)) {
                return true;
            }
            next = st;
            return false;
        }

        @Override
        public long bytesRead() {
            return reader.position();
        }

        @Override
        protected void closeReadSource() {
        }
    }

    /** The tables loaded so far, in the order they were first seen. */
    public static Map<String, LoadedTable> newTableMap() {
        return new LinkedHashMap<>();
    }
}

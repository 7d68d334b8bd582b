package dev.wastecheck.sources.load;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.DumpFormatException;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.vector.FieldVector;
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
 * <p>Three threads share the work, each a few steps ahead of the next through a bounded queue:
 *
 * <ol>
 *   <li>the reader tokenizes the script, reads its DDL, and records each run of rows in
 *       {@link TokenChunk}s of about 1 MB;
 *   <li>the filler replays the chunks into an {@link ArrowRowBuilder}: Arrow vectors, the
 *       declared-type checks, bad values counted. All of {@link LoadStats} is written here, in
 *       the script's order, so counts and messages are what one thread would give;
 *   <li>the calling thread runs DuckDB's ingest of the batches.
 * </ol>
 *
 * Tokenizing and filling each took about half of the single reader thread's time (5.4 s for a
 * 973 MB dump: 2.95 s tokenizing alone); on two threads they overlap. Memory is the queues'
 * chunks and batches plus the reader's buffer, whatever the dump's size.
 */
public final class DumpLoader {
    /**
     * Rows per Arrow batch: as many as fit a vector's combined validity and data (8-byte values)
     * in 128 KiB, and validity and offsets (text) in 64 KiB. Arrow rounds each allocation up to a
     * power of two and zeroes it: at 16,384 rows those were 256 and 128 KiB, half of it never
     * used, and the zeroing of fresh pages was 57% of a 100 MB ORM run's page faults (`perf record
     * -e minor-faults`); at 15,872 ORM's faults fell from 93,000 to 73,000, its peak RSS from 400
     * to 315 MB (docs/benchmarks.md, issue 32).
     */
    static final int BATCH_ROWS = 15_872;
    /** Value bytes per Arrow batch; a batch of long text rows closes early. */
    static final long BATCH_BYTES = 16L << 20;
    /** Batches the filler may run ahead of DuckDB. */
    private static final int QUEUE = 4;
    /** A run is held back from DuckDB up to its cut in at most this share of the Arrow memory ({@link QueueStream#hold}). */
    private static final int HOLD_SHARE = 4;
    /** Chunks the reader may run ahead of the filler. */
    private static final int CHUNKS = 4;

    private final ProfilingDatabase db;
    private final DdlCatalog catalog;
    private final LoadStats stats;
    private final Map<String, LoadedTable> loaded;
    private final LongConsumer progress;
    private final Map<String, long[]> counters = new HashMap<>();
    /** Per table, the facts its runs counted so far (the filler's alone). */
    private final Map<String, ColumnFacts[]> facts = new HashMap<>();
    /** The memory the columns' distinct hashes may hold together ({@link DistinctHashes}), one run at a time. */
    private final DistinctHashes.Budget distinctBudget =
            new DistinctHashes.Budget(DistinctHashes.budgetBytes(), DistinctHashes.minMeanBytes());
    /**
     * Threads that fill one table's batches: 1, or 2 for runs longer than a chunk; 0 chooses per
     * table ({@link #twoFillers}). {@code -Dwastecheck.fillers=1|2} sets it for measuring.
     */
    private int fillers = Integer.getInteger("wastecheck.fillers", 0);

    /** Whether the JVM compiles with C1 alone: {@code ./wastecheck} says so below 320 MB of input. */
    private static final boolean C1_ONLY = "c1".equals(System.getProperty("wastecheck.jit"));

    /**
     * Whether a run of {@code def}'s rows longer than a chunk is filled by two threads: as set
     * ({@link #fillers(int)}), or by default where a second one pays on two cores. Two fillers
     * replay every chunk's tokens each and each fills half the columns: about a fifth more
     * filling in all (perf, 1 GB: orders 4,273 samples of filling with one, 5,001 with two;
     * pandas 3,104 and 3,792), repaid only where filling outweighs reading by far. Compiled by
     * C2 it does not for the orders, ORM, text and MediaWiki shapes (one filler took 0.84-0.97x
     * two's time at 1 GB, orders 0.90x at 4 GB), where it does for pandas' doubles, each parsed
     * as a double (filling 2.1x reading's samples, orders 1.46x; one filler 1.00-1.04x at 1 GB,
     * 1.12x at 4 GB). With C1 alone filling is slower: two fillers pay on a table of many
     * columns (ORM's 45: one filler 1.03-1.16x at 100 MB) and on doubles (pandas: 1.06-1.15x),
     * not on orders' 9 columns (one: 0.90-0.97x) nor MediaWiki's 11 (0.98-1.01x). Where one text
     * column outweighs the others together, one filler while the reader counts its characters
     * ({@link #readerCounts}): 0.90-0.96x two fillers' time on text at 100 MB, where the second
     * filler counted them (without the reader counting, two: one took 0.96-1.07x)
     * (docs/benchmarks.md, issue 32).
     *
     * @param heavyText whether one text column weighs more than the others together in the
     *     run's first chunk ({@link ArrowRowBuilder#cost})
     */
    private boolean twoFillers(TableDef def, boolean heavyText) {
        if (fillers > 0) {
            return fillers > 1;
        }
        boolean doubles = def.columns().stream()
                .anyMatch(
                        c -> c.type().family() == TypeFamily.DOUBLE || c.type().family() == TypeFamily.FLOAT);
        return doubles
                || C1_ONLY && (heavyText && !readerCounts || def.columns().size() >= MANY_COLUMNS);
    }

    /**
     * With C1 alone, a table of this many columns is filled on two threads ({@link #twoFillers}):
     * ORM's 45 gain (one filler 1.03-1.16x), orders' 9 and MediaWiki's 11 do not (0.90-0.97x, 0.98-1.01x).
     */
    private static final int MANY_COLUMNS = 16;

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
        // a table an earlier file of the sources began (a dump in chunks, as mydumper writes
        // one): its runs here continue its facts, as a later run in one file does; columns it
        // left out are answered from them
        for (LoadedTable t : loaded.values()) {
            if (t.facts() != null) {
                facts.put(t.def().key(), t.facts());
            }
        }
    }

    /**
     * Holds a run back from DuckDB up to its cut in at most {@code bytes} of Arrow buffers
     * ({@link QueueStream#hold}; by default a {@value #HOLD_SHARE}th of the Arrow memory); 0
     * streams every run to DuckDB from its first batch. The facts and the profile are the same either way.
     */
    public DumpLoader holdingUpTo(long bytes) {
        this.holdBytes = bytes;
        return this;
    }

    private long holdBytes = -1;

    /** Fills a table's rows on {@code n} threads (1 or 2); the facts and counts are the same either way. */
    public DumpLoader fillers(int n) {
        if (n < 1 || n > 2) {
            throw new IllegalArgumentException("1 or 2 fillers, not " + n);
        }
        this.fillers = n;
        return this;
    }

    /**
     * Whether the reader counts the characters of a one-filler run's heavy text column while the
     * filler is behind ({@link #countThenPut}); on by default, {@code
     * -Dwastecheck.readerCounts=false} turns it off for measuring. The facts and counts are the
     * same either way.
     */
    public DumpLoader readerCounts(boolean on) {
        this.readerCounts = on;
        return this;
    }

    private boolean readerCounts = !"false".equals(System.getProperty("wastecheck.readerCounts"));

    /**
     * Has the reader, where it counts ({@link #readerCounts}), count the latest chunk at every
     * hand-over, not only while the filler is behind: it then counts chunks the filler is filling
     * at the same time, which tests of the two meeting need. Slower; not for real loads.
     */
    public DumpLoader readerCountsAlways() {
        this.countAlways = true;
        return this;
    }

    /** The chunks the reader counted a heavy column of ({@link #readerCounts}), in all runs so far. */
    public long readerCountedChunks() {
        return readerCounted.get();
    }

    private final AtomicLong readerCounted = new AtomicLong();

    // ------------------------------------------------------------------ what the reader hands over

    private sealed interface Event permits RunStart, Batch, RunEnd, Done, Failed {}

    /**
     * Rows for a table follow.
     *
     * @param unstored set once DuckDB stores none of the run's columns any more ({@link #rest}):
     *     the fillers then fill a scratch batch they never send, allocated once
     */
    private record RunStart(
            TableDef def,
            Schema schema,
            ColumnStorage[] storage,
            ColumnFacts[] facts,
            int[] sidecars,
            AtomicBoolean unstored)
            implements Event {}

    private record Batch(VectorSchemaRoot root) implements Event {}

    private record RunEnd(long rows) implements Event {}

    private record Done() implements Event {}

    private record Failed(Throwable error) implements Event {}

    public void load(SqlScriptReader reader) throws IOException, SQLException {
        BlockingQueue<Event> queue = new ArrayBlockingQueue<>(QUEUE);
        BlockingQueue<Step> steps = new ArrayBlockingQueue<>(CHUNKS);
        BlockingQueue<TokenChunk> free = new ArrayBlockingQueue<>(CHUNKS + 2);
        for (int i = 0; i < CHUNKS + 2; i++) {
            free.add(new TokenChunk());
        }
        Filler filler = new Filler(reader.file(), queue, free);
        Thread fillerThread = new Thread(() -> filler.run(steps), "wastecheck-filler");
        Thread producer = new Thread(() -> produce(reader, steps, free), "wastecheck-reader");
        filler.reader = producer;
        fillerThread.setDaemon(true);
        producer.setDaemon(true);
        fillerThread.start();
        producer.start();
        try {
            consume(queue);
            if (readerCounted.get() > 0 && Boolean.getBoolean("wastecheck.logSql")) {
                System.err.println(
                        "-- the reader counted a heavy column's characters in " + readerCounted.get() + " chunks");
            }
        } finally {
            producer.interrupt();
            fillerThread.interrupt();
            drain(queue);
            try {
                producer.join();
                fillerThread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            drain(queue);
        }
        for (TableDef t : catalog.tables().values()) {
            if (catalog.dialect() == Dialect.MYSQL) {
                MysqlIdentifiers.check(t);
            }
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
            // A later run of the table fills the columns its first run left in; a first run leaves
            // out the columns the loader counts whole, once their first batch shows it.
            // (without a budget for hashes, as under C1 alone, nothing is counted whole: DuckDB
            // starts on the run at once, as before)
            boolean doubles = Arrays.stream(start.sidecars()).anyMatch(k -> k >= 0);
            // with doubles, DuckDB's table holds them and the relation is a view of every value's text
            String stored = doubles ? relation + "_d" : relation;
            // a later run keeps its first run's columns: those not in the table (omitted), and
            // those in it but NULL past its first run's decision (nulled, QueueStream.lateCounted)
            boolean[] omitted = append
                    ? notIn(stored, start.schema(), prior.absent())
                    : db.leavesOutCounted() && distinctBudget.any() ? stream.counted(start) : null;
            boolean[] nulled = append && prior.absent() != null ? andNot(prior.absent(), omitted) : null;
            // a first run that may be cut is held back from DuckDB up to the cut: past it, the
            // columns it leaves out are never copied into the table (held)
            long dropped = -1;
            boolean[] heldOut = null;
            if (!append
                    && stream.hold(holdBytes >= 0 ? holdBytes : db.allocator().getLimit() / HOLD_SHARE)) {
                boolean[] gone = union(omitted, stream.late);
                if (anyKept(gone)) {
                    omitted = gone;
                } else {
                    dropped = stream.drop(); // no column stored: the table keeps its columns, none of its rows
                }
                heldOut = stream.late;
            }
            String select = omitted == null && nulled == null && !doubles
                    ? "*"
                    : kept(start.schema(), omitted, nulled, start.sidecars());
            if (append && split(stored)) {
                // the run's first table holds every column; its later rows' table those not nulled
                ingest(
                        start,
                        stream,
                        "INSERT INTO " + stored + "_2",
                        kept(start.schema(), union(omitted, nulled), null, start.sidecars()));
            } else {
                ingest(start, stream, append ? "INSERT INTO " + stored : "CREATE TABLE " + stored + " AS", select);
            }
            long rest = 0;
            if (heldOut != null) {
                if (dropped >= 0) {
                    nulled = heldOut;
                    rest = dropped - stream.rows;
                }
                if (Boolean.getBoolean("wastecheck.logSql")) {
                    System.err.println("-- " + start.def().name() + ": held back " + stream.heldRows + " rows, then "
                            + (dropped >= 0 ? "stored none of " + dropped : "left out") + ":" + names(start, heldOut));
                }
            } else if (stream.late != null) {
                nulled = stream.late; // past wholeUpTo rows, the rest of the run left these out
                if (stream.cut) {
                    rest = rest(queue, start, stream, stored, union(omitted, nulled));
                }
                if (Boolean.getBoolean("wastecheck.logSql")) {
                    System.err.println("-- " + start.def().name() + ": " + (stream.cut ? "not stored" : "NULL")
                            + " past " + db.wholeUpTo() + " rows:" + names(start, nulled));
                }
            }
            if (doubles && !append) {
                db.execute("CREATE VIEW " + relation + " AS SELECT "
                        + textView(start.schema(), omitted, start.sidecars()) + " FROM " + stored);
            }
            boolean[] absent = union(omitted, nulled);
            long rows = (prior == null ? 0 : prior.rows()) + stream.rows + rest;
            loaded.put(
                    start.def().key(),
                    new LoadedTable(start.def(), relation, rows, start.storage(), start.facts(), absent));
        }
    }

    /**
     * Runs {@code statement} ({@code CREATE TABLE t AS} or {@code INSERT INTO t}) over {@code
     * stream}'s batches, registered with DuckDB as an Arrow stream.
     */
    private void ingest(RunStart start, QueueStream stream, String statement, String select)
            throws SQLException, IOException {
        String streamName = db.nextStreamName();
        try (ArrowArrayStream c = ArrowArrayStream.allocateNew(db.allocator())) {
            Data.exportArrayStream(db.allocator(), stream, c);
            db.connection().registerArrowStream(streamName, c);
            if (!"*".equals(select) && Boolean.getBoolean("wastecheck.logSql")) {
                System.err.println("-- " + start.def().name() + ": " + statement + " SELECT " + select);
            }
            try {
                long t0 = System.nanoTime();
                db.execute(statement + " SELECT " + select + " FROM " + streamName);
                if (Boolean.getBoolean("wastecheck.logSql")) {
                    System.err.println(
                            "--   " + (System.nanoTime() - t0) / 1_000_000 + " ms, " + stream.rows + " rows");
                }
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
    }

    /**
     * The rest of a run cut at its {@link QueueStream#cutAt} ({@link QueueStream#cut}): a
     * second table of the columns still read ({@code gone}: those not), {@code stored + "_2"},
     * behind a view named {@code stored} that puts the two tables' rows one after the other
     * (the gone columns NULL in the second's, and each row's {@code rowid} as one table's would
     * be: the storage model and tune's checks order and join rows by it); or, when no column is
     * read any more, no table: the rows are counted and their batches closed. DuckDB's scan of
     * the second stream converts only the columns the statement names, where the first stream's
     * NULL vectors cost ORM at 1 GB a seventh of its time (docs/benchmarks.md, issue 32).
     *
     * @return the rows of the rest
     */
    private long rest(BlockingQueue<Event> queue, RunStart start, QueueStream first, String stored, boolean[] gone)
            throws SQLException, IOException {
        if (!anyKept(gone)) {
            while (true) {
                Event e = take(queue);
                if (e instanceof Batch b) {
                    b.root().close(); // filled before the fillers heard the run was unstored
                } else if (e instanceof Failed f) {
                    throw rethrow(f.error());
                } else if (e instanceof RunEnd end) {
                    return end.rows() - first.rows;
                } else {
                    throw new IllegalStateException("expected the rest of a run's rows, got " + e);
                }
            }
        }
        QueueStream rest = new QueueStream(start.schema(), queue);
        String second = stored + "_2";
        ingest(start, rest, "CREATE TABLE " + second + " AS", kept(start.schema(), gone, null, start.sidecars()));
        db.execute("ALTER TABLE " + stored + " RENAME TO " + stored + "_1");
        db.execute("CREATE VIEW " + stored + " AS SELECT rowid AS rowid, * FROM " + stored + "_1 UNION ALL BY NAME"
                + " SELECT rowid + " + first.rows + " AS rowid, * FROM " + second);
        return rest.rows;
    }

    private static String names(RunStart start, boolean[] which) {
        StringBuilder names = new StringBuilder();
        for (int i = 0; i < which.length; i++) {
            if (which[i]) {
                names.append(' ').append(start.def().columns().get(i).name());
            }
        }
        return names.toString();
    }

    private static boolean anyKept(boolean[] gone) {
        for (boolean g : gone) {
            if (!g) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether table {@code stored}'s first run was cut in two ({@link #rest}): a view of two
     * tables, asked of DuckDB, since the run may have been another file's, with a loader of its own.
     */
    private boolean split(String stored) throws SQLException {
        try (Statement st = db.connection().createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT count(*) FROM duckdb_tables() WHERE table_name = '" + stored + "_2'")) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    /** Which of the {@code absent} columns {@code table} has no column for (null: none absent). */
    private boolean[] notIn(String table, Schema schema, boolean[] absent) throws SQLException {
        if (absent == null) {
            return null;
        }
        Set<String> has = new HashSet<>();
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery("DESCRIBE " + table)) {
            while (rs.next()) {
                has.add(rs.getString(1));
            }
        }
        boolean[] out = new boolean[absent.length];
        for (int i = 0; i < absent.length; i++) {
            out[i] = absent[i] && !has.contains(schema.getFields().get(i).getName());
        }
        return out;
    }

    private static boolean[] andNot(boolean[] a, boolean[] b) {
        boolean[] out = a.clone();
        for (int i = 0; b != null && i < out.length; i++) {
            out[i] &= !b[i];
        }
        return out;
    }

    private static boolean[] union(boolean[] a, boolean[] b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        boolean[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] |= b[i];
        }
        return out;
    }

    /**
     * The columns a run copies into DuckDB's table, by their names in the batches' schema:
     * DuckDB's Arrow scan reads only the columns its SELECT names (projection pushdown), so a
     * left-out column's values are never copied. An {@code omitted} column is not in the table; a
     * {@code nulled} one is (its first rows came before the decision, {@link QueueStream#late}) and gets NULL.
     */
    private static String kept(Schema schema, boolean[] omitted, boolean[] nulled, int[] sidecars) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < sidecars.length; i++) {
            if (omitted == null || !omitted[i]) {
                boolean none = nulled != null && nulled[i];
                sb.append(sb.length() == 0 ? "" : ", ")
                        .append(
                                none
                                        ? "NULL"
                                        : ProfilingDatabase.quote(
                                                schema.getFields().get(i).getName()));
                if (sidecars[i] >= 0) {
                    sb.append(", ")
                            .append(
                                    none
                                            ? "NULL"
                                            : ProfilingDatabase.quote(schema.getFields()
                                                    .get(sidecars[i])
                                                    .getName()));
                }
            }
        }
        return sb.toString();
    }

    /**
     * The view's columns over a table with doubles ({@link ArrowRowBuilder#sidecars}): each
     * column's values under its own name, a double column's as the text its values were spelled
     * in ({@link DoubleSpelling#text}), and the table's {@code rowid}, which a view has not of its
     * own (the storage model orders rows by it).
     */
    private static String textView(Schema schema, boolean[] absent, int[] sidecars) {
        StringBuilder sb = new StringBuilder("rowid AS rowid");
        for (int i = 0; i < sidecars.length; i++) {
            if (absent == null || !absent[i]) {
                String c = ProfilingDatabase.quote(schema.getFields().get(i).getName());
                sb.append(", ");
                if (sidecars[i] >= 0) {
                    String x = ProfilingDatabase.quote(
                            schema.getFields().get(sidecars[i]).getName());
                    sb.append(DoubleSpelling.text(c, x)).append(" AS ").append(c);
                } else {
                    sb.append(c);
                }
            }
        }
        return sb.toString();
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
        /** The first event, taken before DuckDB asks for it ({@link #counted}). */
        private Event first;

        long rows;
        Throwable failure;

        /**
         * Whether this stream ended at {@link #cutAt}, with the rest of the run still queued
         * ({@link #rest}); when it cannot ({@link #cuttable}), the rest comes here with the late
         * columns NULL.
         */
        boolean cut;

        /** Whether {@link #cut} may happen: not when a column is named {@code rowid}, which the view of two tables names. */
        private boolean cuttable;

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
            if (cutAt >= 0 && rows > cutAt) {
                cutAt = -1;
                late = lateCounted(); // the fillers leave them out of the batches they start next
                if (late != null && cuttable) {
                    cut = true; // the rest goes to another table, or none (rest)
                    boolean stored = false;
                    for (int i = 0; i < late.length; i++) {
                        stored |= !late[i] && (omitted == null || !omitted[i]);
                    }
                    if (!stored) {
                        start.unstored().set(true); // the fillers stop sending batches
                    }
                    done = true;
                    return false;
                }
            }
            Event e = first != null ? first : pending.isEmpty() ? take(queue) : pending.poll();
            first = null;
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

        /**
         * Waits for the run's first batch, kept for DuckDB, and says which of its columns the
         * loader will count whole and no later step is expected to read, or null for none: text
         * or bytes it counts the distinct values of by hashes past the short list (every other
         * figure it counts for any text column), unique in the batch with at most one NULL (the
         * dependency search and the duplicate check pass unique columns over; {@link
         * DistinctHashes#hashedAndUnique}). A later step that reads such a column after all gets
         * {@link ColumnNotLoaded} (and the analysis loads the sources again whole). At least one
         * column stays in: a table needs one.
         *
         * <p>Keeps each column's parts of the batch's rows in its facts ({@link BatchPartition},
         * for the duplicate check), and, where a column could be left out of the rest of a longer
         * run, has the stream decide past {@link ProfilingDatabase#wholeUpTo} rows which ones
         * ({@link #lateCounted}): a table that small keeps every column its dependency search
         * reads. The columns it then leaves out stay in the table, NULL from the batches the
         * fillers start after it ({@link ArrowRowBuilder}'s uncopied vectors are all NULL).
         */
        boolean[] counted(RunStart start) {
            ColumnFacts[] facts = start.facts();
            first = take(queue);
            if (!(first instanceof Batch b) || facts == null) {
                return null;
            }
            int n = facts.length;
            int batchRows = b.root().getRowCount();
            Long[] parts = new Long[n];
            for (int i = 0; i < n; i++) {
                if (facts[i] != null) {
                    int x = start.sidecars()[i]; // a double's parts are its text's: its bits' where they are the same
                    parts[i] = x < 0
                            ? BatchPartition.of(b.root().getVector(i), batchRows)
                            : BatchPartition.ofDoubles(
                                    b.root().getVector(i), b.root().getVector(x), batchRows);
                    facts[i].batchPartition(parts[i]);
                    facts[i].firstBatchRead();
                }
            }
            boolean[] absent = new boolean[n];
            int left = 0;
            for (int i = 0; i < n; i++) {
                absent[i] = facts[i] != null
                        && facts[i].valid()
                        && DistinctHashes.hashedAndUnique(b.root().getVector(i), distinctBudget);
                left += absent[i] ? 1 : 0;
            }
            if (left == n) {
                absent[0] = false;
                left--;
            }
            for (int i = 0; i < absent.length; i++) {
                if (absent[i]) {
                    facts[i].leaveOut(); // the fillers need not copy its values from the next batch on
                }
            }
            this.parts = parts;
            this.start = start;
            this.omitted = left == 0 ? null : absent;
            if (db.wholeUpTo() < Long.MAX_VALUE && late(start, absent) != null) {
                cutAt = db.wholeUpTo(); // the rest of a longer run may leave out more (lateCounted)
                cuttable =
                        start.def().columns().stream().noneMatch(c -> c.name().equalsIgnoreCase("rowid"));
            }
            return omitted;
        }

        /** The batches {@link #hold} took, in order, then the event that ended the hold. */
        private final ArrayDeque<Event> pending = new ArrayDeque<>();

        /**
         * Takes the run's batches from the queue, DuckDB not yet scanning, until they pass
         * {@link #cutAt} rows, the run ends first, or they hold more than {@code cap} bytes of
         * Arrow buffers; the stream then gives them to DuckDB in order. Past the cut the columns
         * the rest leaves out ({@link #lateCounted}, {@link #late}) are decided before DuckDB has
         * copied any of their values: the table is made without them, and with no column left
         * (as for orders, pandas and ORM at 100 MB) with none of the run's rows ({@link #drop}).
         * Without the hold DuckDB copied every column of the run's first 262,144 rows (16 batches
         * of 16,384 then) only to
         * leave them unread: 0.2 to 0.6 s of its thread at 100 MB (docs/benchmarks.md, issue 32).
         * A run that ends first is copied whole as before, after its last batch.
         *
         * @return whether the run passed the cut held and leaves columns out ({@link #late})
         */
        boolean hold(long cap) {
            if (cutAt < 0 || !(first instanceof Batch)) {
                return false;
            }
            Event e = first;
            first = null;
            long n = 0;
            long bytes = 0;
            while (true) {
                pending.add(e);
                if (!(e instanceof Batch b)) {
                    return false; // the run ended (or failed) within the cut: DuckDB takes it whole
                }
                n += b.root().getRowCount();
                for (FieldVector v : b.root().getFieldVectors()) {
                    bytes += v.getBufferSize();
                }
                if (n > cutAt) {
                    break;
                }
                if (bytes > cap) {
                    return false; // DuckDB takes them now; the cut comes in loadNextBatch
                }
                e = take(queue);
            }
            heldRows = n;
            cutAt = -1;
            late = lateCounted(); // the fillers leave them out of the batches they start next
            if (late == null) {
                return false;
            }
            if (!anyKept(union(omitted, late))) {
                start.unstored().set(true); // the fillers stop sending batches
            }
            return true;
        }

        /** The rows {@link #hold} held, or 0. */
        long heldRows;

        /**
         * Closes the held batches and those still to come, ending the stream with no rows, once
         * the run stores no column ({@link #hold}).
         *
         * @return the run's rows
         */
        long drop() throws IOException, SQLException {
            done = true;
            while (true) {
                Event e = pending.isEmpty() ? take(queue) : pending.poll();
                if (e instanceof Batch b) {
                    b.root().close(); // held, or filled before the fillers heard the run was unstored
                } else if (e instanceof Failed f) {
                    throw rethrow(f.error());
                } else if (e instanceof RunEnd end) {
                    return end.rows();
                } else {
                    throw new IllegalStateException("expected the rest of a run's rows, got " + e);
                }
            }
        }

        /** The first batch's parts by each column ({@link BatchPartition}), once {@link #counted} ran. */
        private Long[] parts;

        private RunStart start;

        /** The columns not in the table ({@link #counted}), or null. */
        private boolean[] omitted;

        /** Past this many rows the stream decides what the rest leaves out ({@link #lateCounted}), or -1: never. */
        private long cutAt = -1;

        /**
         * The columns in the table whose values past {@link #cutAt} rows are NULL ({@link
         * #lateCounted}), or null. Set on the thread DuckDB's scan runs on, read after the statement.
         */
        volatile boolean[] late;

        /**
         * The columns the rest of a run past {@link #cutAt} rows leaves out, besides {@code
         * omitted}: those {@link ColumnFacts#countedWhole} still, in no index that is not unique
         * unless they hold more values than a low-cardinality index's key takes (the check groups
         * by the others' columns; {@link ColumnFacts#INDEX_FEW_VALUES}: orders' {@code
         * customer_id}, pandas' {@code index} and MediaWiki's {@code rev_timestamp} kept every
         * batch of a run going to DuckDB for it, docs/benchmarks.md, issue 32), whose first batch
         * no other column parts alike ({@link BatchPartition}; the duplicate check passes over a
         * pair that parts it differently, without SQL). Null for none.
         */
        private boolean[] lateCounted() {
            boolean[] late = late(start, omitted);
            if (late != null) {
                for (int i = 0; i < late.length; i++) {
                    if (late[i]) {
                        start.facts()[i].leaveOut();
                    }
                }
            }
            return late;
        }

        private boolean[] late(RunStart start, boolean[] omitted) {
            ColumnFacts[] facts = start.facts();
            Set<String> indexed = indexedFew(start.def());
            boolean[] late = new boolean[facts.length];
            boolean any = false;
            boolean allParted = Arrays.stream(parts).allMatch(Objects::nonNull);
            for (int i = 0; i < facts.length; i++) {
                late[i] = (omitted == null || !omitted[i])
                        && facts[i] != null
                        && (facts[i].countedWhole(start.storage()[i])
                                || (allParted && facts[i].pastShortList(start.storage()[i])))
                        && (!indexed.contains(
                                        start.def().columns().get(i).name().toLowerCase(Locale.ROOT))
                                || facts[i].moreDistinctThan(start.storage()[i], ColumnFacts.INDEX_FEW_VALUES))
                        && !partsAlike(parts, i);
                any |= late[i];
            }
            return any ? late : null;
        }

        /**
         * Whether another column parts the first batch as column {@code i} does, not one row a
         * part: the two may map one to one (the duplicate check), and that needs both in the table.
         */
        private static boolean partsAlike(Long[] parts, int i) {
            if (parts[i] == null || parts[i] == BatchPartition.ALL_SINGLE) {
                return false;
            }
            for (int j = 0; j < parts.length; j++) {
                if (j != i && parts[i].equals(parts[j])) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The columns of the table's indexes that are not unique: the analysis groups the rows by
         * those of few values (a low-cardinality index), which SQL does.
         */
        private static Set<String> indexedFew(TableDef def) {
            Set<String> out = new HashSet<>();
            for (IndexDef ix : def.allIndexes()) {
                if (!ix.unique()) {
                    for (String c : ix.columns()) {
                        out.add(c.toLowerCase(Locale.ROOT));
                    }
                }
            }
            return out;
        }

        @Override
        public long bytesRead() {
            return 0;
        }

        @Override
        protected void closeReadSource() {
            if (first instanceof Batch b) { // taken by counted, never asked for: DuckDB failed first
                b.root().close();
            }
            first = null;
            for (Event e : pending) {
                if (e instanceof Batch b) {
                    b.root().close();
                }
            }
            pending.clear();
        }
    }

    // ------------------------------------------------------------------ the filler thread

    /** Work the reader hands the filler, done there in the script's order. */
    private interface Step {
        /** @return whether it was the last */
        boolean apply(Filler filler) throws Throwable;
    }

    /**
     * Fills Arrow batches from the reader's chunks and hands them to DuckDB's queue. A run of
     * rows longer than one chunk is filled by two threads (this one and a {@link Helper}), each
     * the same rows' values of half the columns (balanced by their cost in the first chunk, {@link ArrowRowBuilder#cost}),
     * into the same batches. Nothing a column counts is shared, so no fact is merged: each
     * column's {@link ColumnFacts} and Arrow vector see its values, in the script's order, on one
     * thread. What is counted per row (rows, bytes, batch boundaries) both count alike from every
     * value; a bad row is reported by this one; the counts for {@link LoadStats} are deferred
     * and made, once both are done with a chunk, in the order one thread makes them.
     */
    private final class Filler {
        private final String file;
        private final BlockingQueue<Event> queue;
        private final BlockingQueue<TokenChunk> free;
        /** Interrupted when the filler fails, so that it stops reading. */
        Thread reader;

        private TableDef def;
        private List<String> columns;
        private ArrowRowBuilder builder;
        private VectorSchemaRoot root;
        private long rows;
        /** Whether the run's first chunk is still to come (where the split is decided). */
        private boolean first;
        /** The current run's two halves, or null (one filler: a short run, one column, or one thread asked). */
        private Half mine;

        private Half theirs;
        private SharedBatches shared;
        private Helper helper;
        /** The current run's {@link RunStart#unstored}. */
        private AtomicBoolean unstored;
        /** The value index the reader counts the characters of for this run's one filler ({@link #split}), or -1. */
        private AtomicInteger countedByReader;
        /** The batch filled and never sent once the run is {@link #unstored} (one filler), or null. */
        private VectorSchemaRoot scratch;

        Filler(String file, BlockingQueue<Event> queue, BlockingQueue<TokenChunk> free) {
            this.file = file;
            this.queue = queue;
            this.free = free;
        }

        void run(BlockingQueue<Step> steps) {
            try {
                while (!steps.take().apply(this)) {
                    // next step
                }
            } catch (Throwable t) {
                Throwable cause = helper != null && helper.failure != null ? helper.failure : t;
                // Interrupted without a failure of the second filler: load is ending (its caller
                // reports why) and no longer takes from the queue, so a Failed put there could
                // block for good on a full queue; only the cleanup below is owed.
                boolean stopped = cause instanceof InterruptedException;
                if (root != null && root != scratch) {
                    root.close();
                }
                root = null;
                if (scratch != null) {
                    scratch.close();
                    scratch = null;
                }
                if (helper != null) {
                    helper.kill();
                }
                if (shared != null) {
                    shared.closeAll();
                }
                if (!stopped) {
                    try {
                        put(queue, new Failed(cause));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (reader != null) {
                    reader.interrupt();
                }
            } finally {
                if (helper != null) {
                    helper.stop();
                }
            }
        }

        void startRun(TableDef def, List<String> columns, AtomicInteger countedByReader) throws InterruptedException {
            if (catalog.dialect() == Dialect.MYSQL) {
                MysqlIdentifiers.check(def);
            }
            this.def = def;
            this.columns = columns;
            this.countedByReader = countedByReader;
            builder = newBuilder();
            ColumnFacts[] counted = builder.countFacts(facts.get(def.key()), distinctBudget);
            facts.put(def.key(), counted);
            rows = 0;
            first = true;
            unstored = new AtomicBoolean();
            put(queue, new RunStart(def, builder.schema(), builder.storage(), counted, builder.sidecars(), unstored));
        }

        private ArrowRowBuilder newBuilder() {
            // doubles as doubles where the analysis reads its own tables (as for left-out columns)
            ArrowRowBuilder b = new ArrowRowBuilder(def, stats.table(def.name()), file, false, db.leavesOutCounted());
            if (catalog.dialect() != Dialect.SQLITE) {
                b.checkDeclaredTypes(catalog.dialect() == Dialect.MYSQL);
            }
            b.setColumnOrder(columns);
            b.continueCounters(counters.get(def.key()));
            return b;
        }

        void fill(TokenChunk chunk) throws InterruptedException {
            if (first) {
                first = false;
                // a chunk less than full is the whole run: one filler; a longer run is split
                if (chunk.full() && def.columns().size() > 1) {
                    split(chunk); // or not: twoFillers
                }
            }
            if (mine == null) {
                chunk.replay(builder, this::beforeRow);
                if (chunk.release()) { // else the reader is still counting it, and frees it
                    chunk.reset();
                    free.put(chunk);
                }
                return;
            }
            chunk.pending.set(2);
            Half other = theirs;
            helper.give(() -> other.fill(chunk));
            mine.fill(chunk);
        }

        /** Gives the other filler the columns that balance the first chunk's cost ({@link ArrowRowBuilder#cost}). */
        private void split(TokenChunk chunk) {
            int n = def.columns().size();
            long[] weight = new long[n];
            chunk.weigh(builder, weight);
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (x, y) -> Long.compare(weight[y], weight[x]));
            long total = 0;
            for (long w : weight) {
                total += w;
            }
            int heavy = order[0];
            boolean heavyText = 2 * weight[heavy] > total && builder.storage()[heavy] == ColumnStorage.TEXT;
            if (!twoFillers(def, heavyText)) {
                if (heavyText && readerCounts) {
                    // one filler: the reader counts the heavy column's characters from each
                    // chunk's end while the filler has no room for its next chunk (countThenPut)
                    int index = builder.indexOf(heavy);
                    builder.countedIndex(index);
                    countedByReader.set(index);
                    if (Boolean.getBoolean("wastecheck.logSql")) {
                        System.err.println("-- " + def.name() + ": one filler; the reader counts the characters of "
                                + def.columns().get(heavy).name());
                    }
                }
                return;
            }
            boolean[] ours = new boolean[n];
            long a = 0;
            long b = 0;
            for (int i : order) { // the heaviest first, each to the lighter side
                if (a <= b) {
                    ours[i] = true;
                    a += weight[i];
                } else {
                    b += weight[i];
                }
            }
            boolean[] others = new boolean[n];
            for (int i = 0; i < n; i++) {
                others[i] = !ours[i];
            }
            ArrowRowBuilder other = newBuilder();
            other.countFacts(facts.get(def.key())); // the same facts: each side counts its columns'
            builder.fillOnly(ours, true);
            other.fillOnly(others, false);
            shared = new SharedBatches(builder.schema(), queue, unstored);
            mine = new Half(builder, 0);
            theirs = new Half(other, 1);
            // a text column heavier than all the others together stays on this side (the first
            // dealt): the other counts its values' characters from each chunk's end meanwhile
            if (heavyText) {
                int index = builder.indexOf(heavy);
                builder.countedIndex(index);
                theirs.countIndex = index;
            }
            if (helper == null) {
                helper = new Helper(Thread.currentThread());
            }
        }

        /** Where the single-threaded loop checked the batch: a new one when full. */
        private void beforeRow() throws InterruptedException {
            if (root != null && builder.full(BATCH_ROWS, BATCH_BYTES)) {
                flush();
            }
            if (root == null) {
                if (unstored.get()) {
                    if (scratch == null) {
                        scratch = VectorSchemaRoot.create(builder.schema(), db.allocator());
                        ArrowRowBuilder.allocate(scratch);
                    }
                    root = scratch;
                    builder.startOwn(root);
                } else {
                    root = VectorSchemaRoot.create(builder.schema(), db.allocator());
                    builder.startBatch(root);
                }
            }
        }

        private void flush() throws InterruptedException {
            int n = builder.rows();
            if (root == scratch) { // nothing reads it: its rows are counted, its vectors filled again
                builder.discardOwn();
                rows += n;
                root = null;
                return;
            }
            builder.finishBatch();
            rows += n;
            VectorSchemaRoot done = root;
            root = null;
            if (n > 0) {
                putBatch(queue, done);
            } else {
                done.close();
            }
        }

        void endRun() throws InterruptedException {
            if (mine != null) {
                helper.await(theirs::finish);
                mine.finish();
                if (mine.batch != theirs.batch) {
                    throw new IllegalStateException("the two fillers of table " + def.name() + " closed " + mine.batch
                            + " and " + theirs.batch + " batches");
                }
                long[] merged = mine.builder.counters();
                long[] others = theirs.builder.counters();
                for (int i = 0; i < merged.length; i++) {
                    if (theirs.builder.fills(i)) {
                        merged[i] = others[i];
                    }
                }
                counters.put(def.key(), merged);
                rows = shared.rows;
                shared.closeAll(); // every sent batch left it: the scratch batch, if any
                mine = null;
                theirs = null;
                shared = null;
            } else {
                if (root != null) {
                    flush();
                }
                counters.put(def.key(), builder.counters());
            }
            builder = null;
            if (scratch != null) {
                scratch.close();
                scratch = null;
            }
            for (ColumnFacts f : facts.get(def.key())) {
                if (f != null) {
                    f.endRun(); // the distinct hashes' count taken, their memory freed for the next run
                }
            }
            put(queue, new RunEnd(rows));
        }

        /** One filler's side of a split run: its builder and the batch it is at. */
        private final class Half {
            final ArrowRowBuilder builder;
            final int side;
            /** The value index whose characters this side counts for the other, or -1. */
            int countIndex = -1;

            int batch;
            VectorSchemaRoot root;

            Half(ArrowRowBuilder builder, int side) {
                this.builder = builder;
                this.side = side;
            }

            void fill(TokenChunk chunk) throws InterruptedException {
                if (countIndex >= 0) {
                    chunk.countFromEnd(countIndex); // the first filler's heavy column, from the end
                }
                chunk.replay(builder, this::beforeRow);
                chunk.events[side] = builder.takeEvents();
                if (chunk.pending.decrementAndGet() == 0) {
                    count(chunk.events[0], chunk.events[1]);
                    chunk.reset();
                    free.put(chunk);
                }
            }

            private void beforeRow() throws InterruptedException {
                if (root != null && builder.full(BATCH_ROWS, BATCH_BYTES)) {
                    flush();
                }
                if (root == null) {
                    root = shared.root(batch);
                    builder.startOwn(root);
                }
            }

            private void flush() throws InterruptedException {
                int n = builder.rows();
                if (shared.scratch(batch)) {
                    builder.discardOwn();
                } else {
                    builder.finishOwn();
                }
                root = null;
                shared.done(batch++, n);
            }

            void finish() throws InterruptedException {
                if (root != null) {
                    flush();
                }
            }
        }
    }

    /** Makes both fillers' deferred counts of a chunk, in the order one filler makes them. */
    private static void count(List<ArrowRowBuilder.StatEvent> a, List<ArrowRowBuilder.StatEvent> b) {
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            ArrowRowBuilder.StatEvent next;
            if (j == b.size()) {
                next = a.get(i++);
            } else if (i == a.size()) {
                next = b.get(j++);
            } else {
                ArrowRowBuilder.StatEvent x = a.get(i);
                ArrowRowBuilder.StatEvent y = b.get(j);
                boolean first = x.seq() != y.seq() ? x.seq() < y.seq() : x.column() <= y.column();
                next = first ? a.get(i++) : b.get(j++);
            }
            next.count().run();
        }
    }

    /**
     * The batches two fillers fill together: the first to reach batch {@code k} allocates it,
     * the second to finish it hands it to DuckDB (each finishes its batches in order, so they
     * reach DuckDB in order).
     */
    private final class SharedBatches {
        private final Schema schema;
        private final BlockingQueue<Event> queue;
        private final Map<Integer, VectorSchemaRoot> open = new HashMap<>();
        private final Map<Integer, Integer> rowsOf = new HashMap<>();
        private final AtomicBoolean unstored;
        /** The batch both fillers fill once the run is {@link RunStart#unstored}: never sent. */
        private VectorSchemaRoot scratch;

        long rows;

        SharedBatches(Schema schema, BlockingQueue<Event> queue, AtomicBoolean unstored) {
            this.schema = schema;
            this.queue = queue;
            this.unstored = unstored;
        }

        /**
         * Batch {@code k}'s vectors: decided by the first filler to reach it, a batch of its own,
         * or the scratch batch once the run is unstored (each filler writes its own columns).
         */
        synchronized VectorSchemaRoot root(int k) {
            VectorSchemaRoot r = open.get(k);
            if (r == null) {
                if (unstored.get()) {
                    if (scratch == null) {
                        scratch = VectorSchemaRoot.create(schema, db.allocator());
                        ArrowRowBuilder.allocate(scratch);
                    }
                    r = scratch;
                } else {
                    r = VectorSchemaRoot.create(schema, db.allocator());
                    ArrowRowBuilder.allocate(r);
                }
                open.put(k, r);
            }
            return r;
        }

        /** Whether batch {@code k} is the scratch batch. */
        synchronized boolean scratch(int k) {
            return scratch != null && open.get(k) == scratch;
        }

        void done(int k, int n) throws InterruptedException {
            VectorSchemaRoot ready;
            synchronized (this) {
                Integer other = rowsOf.remove(k);
                if (other == null) {
                    rowsOf.put(k, n);
                    return;
                }
                if (other != n) {
                    throw new IllegalStateException(
                            "the two fillers closed batch " + k + " at " + other + " and " + n + " rows");
                }
                ready = open.remove(k);
                rows += n;
                if (ready == scratch) {
                    return; // its rows counted; nothing reads its vectors
                }
            }
            ready.setRowCount(n);
            if (n > 0) {
                putBatch(queue, ready);
            } else {
                ready.close();
            }
        }

        synchronized void closeAll() {
            open.values().stream().filter(r -> r != scratch).forEach(VectorSchemaRoot::close);
            open.clear();
            if (scratch != null) {
                scratch.close();
                scratch = null;
            }
        }
    }

    /**
     * The second filler's thread: runs what the first gives it, in order. A failure stops it
     * and interrupts the first, which reports it.
     */
    private static final class Helper {
        private final BlockingQueue<Step0> work = new LinkedBlockingQueue<>();
        private final Thread thread;
        volatile Throwable failure;

        /** Work for the helper. */
        private interface Step0 {
            void run() throws InterruptedException;
        }

        Helper(Thread owner) {
            thread = new Thread(
                    () -> {
                        try {
                            while (true) {
                                work.take().run();
                            }
                        } catch (InterruptedException e) {
                            // stopped
                        } catch (Throwable t) {
                            failure = t;
                            owner.interrupt();
                        }
                    },
                    "wastecheck-filler-2");
            thread.setDaemon(true);
            thread.start();
        }

        void give(Step0 step) throws InterruptedException {
            if (failure != null) {
                throw new InterruptedException("the second filler failed");
            }
            work.put(step);
        }

        /** Runs {@code last} after what was given, and waits for it. */
        void await(Step0 last) throws InterruptedException {
            CountDownLatch done = new CountDownLatch(1);
            give(() -> {
                last.run();
                done.countDown();
            });
            done.await();
        }

        /** Ends the thread now (the run failed). */
        void kill() {
            thread.interrupt();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Lets what was given finish (unless it failed), then ends the thread. */
        void stop() {
            if (!thread.isAlive()) {
                return;
            }
            work.add(() -> {
                throw new InterruptedException();
            });
            try {
                thread.join();
            } catch (InterruptedException e) {
                thread.interrupt();
                Thread.currentThread().interrupt();
            }
        }
    }

    // ------------------------------------------------------------------ the reader thread

    private void produce(SqlScriptReader reader, BlockingQueue<Step> steps, BlockingQueue<TokenChunk> free) {
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
                    String file = reader.file();
                    steps.put(f -> {
                        stats.badStatement(file, g.line(), g.found(), g.resumeLine());
                        return false;
                    });
                    continue;
                }
                if (st instanceof SqlScriptReader.Other other) {
                    String text = other.text();
                    if (text.regionMatches(true, 0, "insert", 0, 6)) {
                        warn(
                                steps,
                                reader.file() + ":" + other.line()
                                        + ": skipped an INSERT without VALUES (INSERT ... SELECT); its rows are not in the dump");
                    }
                    catalog.accept(text, reader.file(), other.line());
                    continue;
                }
                pending = produceRun(reader, st, steps, free);
            }
            steps.put(f -> {
                put(f.queue, new Done());
                return true;
            });
        } catch (InterruptedException stop) {
            // Told to stop (load's end after a failure, or the filler's failure, each reported by
            // whoever interrupted): nothing to hand over. Putting the interruption on the steps
            // blocked for good when the filler had stopped taking them and the queue was full,
            // and load's join of this thread with it (seen once after DuckDB's out-of-memory
            // error; the interrupt that would have freed the put had already been spent).
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            try {
                steps.put(f -> {
                    throw t;
                });
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void warn(BlockingQueue<Step> steps, String message) throws InterruptedException {
        steps.put(f -> {
            stats.warn(message);
            return false;
        });
    }

    private static void put(BlockingQueue<Event> queue, Event e) throws InterruptedException {
        queue.put(e);
    }

    /**
     * Hands a filled batch over. Interrupted (the load is ending: the calling thread failed and
     * drains the queue), the batch is closed here: it is no longer held by the filler and never
     * reached the queue, and its buffers would outlive the allocator ("Memory was leaked").
     */
    private static void putBatch(BlockingQueue<Event> queue, VectorSchemaRoot root) throws InterruptedException {
        try {
            queue.put(new Batch(root));
        } catch (InterruptedException e) {
            root.close();
            throw e;
        }
    }

    /** Hands over one run of rows for a table; returns the statement that ended the run, if read. */
    private SqlScriptReader.Statement produceRun(
            SqlScriptReader reader,
            SqlScriptReader.Statement first,
            BlockingQueue<Step> steps,
            BlockingQueue<TokenChunk> free)
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
            def = undeclared(tableName, columns, reader, first, steps);
            catalog.put(def);
        }
        firstDefs.put(def.key(), def);
        TableDef runDef = def;
        AtomicInteger counts = new AtomicInteger(-1); // set by the filler where the reader counts (Filler.split)
        steps.put(f -> {
            f.startRun(runDef, columns, counts);
            return false;
        });
        ArrayDeque<TokenChunk> handed = new ArrayDeque<>(); // the latest chunks given to the filler
        SqlScriptReader.Statement next = null;
        TokenChunk chunk = free.take();
        try {
            boolean done = false;
            while (!done) {
                boolean more;
                if (copy) {
                    chunk.atLine(reader.line());
                    more = reader.nextCopyRow(chunk);
                } else {
                    more = reader.nextTuples(chunk); // rows until the chunk is full or the INSERT ends
                }
                if (!more) {
                    done = true;
                    if (!copy) {
                        // mysqldump splits a table's rows over many INSERTs in a row: keep going across them.
                        SqlScriptReader.Statement st = reader.next();
                        if (st instanceof SqlScriptReader.Insert ins
                                && ins.table().equalsIgnoreCase(tableName)
                                && Objects.equals(ins.columns(), columns)) {
                            done = false;
                        } else {
                            next = st;
                        }
                    }
                }
                if (done || chunk.full()) {
                    TokenChunk full = chunk;
                    chunk = null;
                    full.pending.set(1); // its filler (Filler.fill; two set it to two)
                    handed.remove(full);
                    if (handed.size() > CHUNKS + 2) {
                        handed.pollFirst();
                    }
                    handed.addLast(full);
                    countThenPut(
                            steps,
                            f -> {
                                f.fill(full);
                                return false;
                            },
                            free,
                            handed,
                            counts,
                            readerCounted,
                            countAlways);
                    progress.accept(reader.position());
                    if (!done) {
                        chunk = free.take();
                    }
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            // the rows read before the failure are filled first, as one thread would have
            if (chunk != null && !chunk.isEmpty()) {
                TokenChunk part = chunk;
                steps.put(f -> {
                    f.fill(part);
                    return false;
                });
            }
            throw e;
        }
        steps.put(f -> {
            f.endRun();
            return false;
        });
        return next;
    }

    private final Map<String, TableDef> firstDefs = new HashMap<>();

    /**
     * Hands {@code fill}, the chunk last added to {@code handed}, over to the filler once it has
     * room for it. Until then the filler is behind: where one filler fills a run whose heavy text
     * column it counts the characters of ({@code counts}, {@link Filler#split}), the reader counts
     * them meanwhile in the chunks in {@code handed}, the latest first (the last the filler comes
     * to), each from its end until the filler, filling from its start, meets it ({@link
     * TokenChunk#countFromEnd}, as the second of two fillers does; the last of the two at a chunk
     * frees it). The text shape's one filler spent 60% of its time in {@link Utf8#chars} at 1 GB
     * while the reader waited on it 44% of its own (docs/benchmarks.md, issue 32).
     *
     * @param always count the latest chunk even when the filler has room (tests: the reader then
     *     counts a chunk while the filler fills it)
     */
    static <S> void countThenPut(
            BlockingQueue<S> steps,
            S fill,
            BlockingQueue<TokenChunk> free,
            ArrayDeque<TokenChunk> handed,
            AtomicInteger counts,
            AtomicLong counted,
            boolean always)
            throws InterruptedException {
        boolean given = steps.offer(fill);
        while (!given || always) {
            int index = counts.get();
            TokenChunk c = null;
            while (index >= 0 && c == null && !handed.isEmpty()) {
                TokenChunk x = handed.pollLast();
                if (x.claim()) {
                    c = x;
                }
            }
            if (c == null) {
                if (!given) {
                    steps.put(fill); // nothing to count: wait, as before
                }
                return;
            }
            c.countFromEnd(index);
            counted.incrementAndGet();
            if (c.release()) {
                c.reset();
                free.put(c);
            }
            if (given) {
                return;
            }
            given = steps.offer(fill);
        }
    }

    /** {@link #countThenPut}'s {@code always} ({@link #readerCountsAlways}). */
    private boolean countAlways;

    /**
     * Rows for a table no CREATE TABLE declared (a data-only dump): with a column list they are
     * profiled as text with unknown declared types, and the report says so; without one there is
     * nothing to name the columns by, so the run stops and says what to do.
     */
    private TableDef undeclared(
            String name,
            List<String> columns,
            SqlScriptReader reader,
            SqlScriptReader.Statement first,
            BlockingQueue<Step> steps)
            throws InterruptedException {
        if (columns == null) {
            throw new DumpFormatException(
                    reader.file(),
                    first.line(),
                    "a CREATE TABLE for " + name + " before its rows (or an INSERT with a column list)",
                    "rows for an undeclared table; pass the schema file first, e.g. wastecheck analyze schema.sql data.sql");
        }
        warn(
                steps,
                reader.file() + ":" + first.line() + ": rows for table " + name
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

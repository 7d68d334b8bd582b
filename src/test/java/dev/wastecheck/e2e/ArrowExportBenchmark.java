package dev.wastecheck.e2e;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.Block;
import dev.wastecheck.engine.block.BlockTransformer;
import dev.wastecheck.engine.export.ArrowExport;
import dev.wastecheck.engine.export.FlightExport;
import dev.wastecheck.engine.export.PgWireServer;
import dev.wastecheck.engine.export.TableArrowReader;
import dev.wastecheck.engine.export.VectorizedBatch;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.TupleSlot;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.duckdb.DuckDBConnection;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * Export of a large frozen table (Li et al., VLDB 2020, §6.3: exporting Arrow blocks is orders of
 * magnitude faster than a wire protocol), all in one run on the same rows:
 * <ul>
 * <li>{@code arrow in-process}: the table's frozen blocks handed to an Arrow Java consumer without
 * a copy ({@link TableArrowReader}), the consumer reading every value;</li>
 * <li>{@code duckdb c-stream}: DuckDB scanning the same blocks through the Arrow C data interface,
 * aggregating every column;</li>
 * <li>{@code arrow flight}: the same batches over Arrow Flight on loopback to a Flight client that
 * reads every value;</li>
 * <li>{@code postgresql wire}: the same rows in a real PostgreSQL (embedded, zonky) read with JDBC
 * ({@code SELECT *}, a 10,000-row fetch size), every value read from the result set: the baseline;</li>
 * <li>{@code postgresql csv}: the same rows as {@code COPY ... TO STDOUT (FORMAT csv)}, parsed;</li>
 * <li>{@code our pg wire}: §6.3's method (4) as NoisePage built it, the PostgreSQL wire protocol
 * served from the Arrow table itself ({@link PgWireServer}: a text DataRow per tuple, read at a
 * snapshot), read by pgjdbc ({@code SELECT *}, simple query mode) value by value;</li>
 * <li>{@code our vectorized}: method (3), the vectorized protocol of [47] from the same server
 * ({@code COPY orders TO STDOUT (FORMAT vectorized)}: a column-major chunk per block), read by
 * pgjdbc's COPY API and decoded into columns ({@link VectorizedBatch.Reader}) before summing.</li>
 * </ul>
 * Every consumer computes the same checksum over all values (it is printed and must agree), so
 * none can skip the work; each way runs {@code runs} times, alternating, and the median counts.
 *
 * <p>What would make it lie: PostgreSQL's buffer cache cold for one run (a warm-up run of each
 * way is discarded); the Arrow ways reading fewer bytes than they claim (the checksum); DuckDB's
 * first-use costs (its connection is opened before timing). What differs from §6.3: the paper's
 * server and client are two 8-core machines on a 10 Gb network and its clients are C++ feeding
 * Python; here server and client share one JVM and 2 cores over loopback, and the clients are Java
 * (pgjdbc, Arrow Java's Flight client), so a network never limits and the sender's and receiver's
 * CPU time add up.
 *
 * <p>Run: {@code ./bench arrow export [ROWS] [RUNS] [HOT_SHARES]} (default 1,000,000 rows, 3 runs;
 * {@code HOT_SHARES}, e.g. {@code 0,1,5,10,20,40,60,80,100}, adds Fig. 15's sweep: {@link #hotSweep}).
 */
public final class ArrowExportBenchmark {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.of("qty", FieldType.INT32),
            Field.of("amount", FieldType.FLOAT64),
            Field.of("ts", FieldType.INT64),
            Field.of("note", FieldType.VARLEN));

    interface Way {
        long run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        // An analytical Arrow consumer reads without per-value checks (Arrow Java's own switches; read once, before any
        // Arrow class loads).
        System.setProperty("arrow.enable_unsafe_memory_access", "true");
        System.setProperty("arrow.enable_null_check_for_get", "false");
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        try (BufferAllocator allocator = new RootAllocator();
                EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            TransactionManager tm = new TransactionManager();
            GarbageCollector gc = new GarbageCollector(tm);
            ArrowTable table = new ArrowTable("orders", SCHEMA, tm);
            StringBuilder csv = new StringBuilder();
            load(table, tm, gc, rows, csv);
            int frozen = new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 100);
            System.out.printf(
                    Locale.ROOT,
                    "%d rows, %d blocks (%d frozen), %d MB of blocks and values%n",
                    rows,
                    table.blockCount(),
                    frozen,
                    table.memoryBytes() >> 20);
            try (Connection c = pg.getPostgresDatabase().getConnection();
                    Statement st = c.createStatement()) {
                st.execute(
                        "CREATE TABLE orders (id bigint, qty integer, amount double precision, ts bigint, note text)");
                ((PGConnection) c.unwrap(PGConnection.class))
                        .getCopyAPI()
                        .copyIn("COPY orders FROM STDIN (FORMAT csv)", new StringReader(csv.toString()));
                st.execute("VACUUM ANALYZE orders");
            }
            csv.setLength(0);
            String url = pg.getJdbcUrl("postgres", "postgres");
            try (FlightServer server = FlightExport.serve(allocator, List.of(table), "127.0.0.1", 0);
                    PgWireServer wireServer = new PgWireServer(List.of(table), "127.0.0.1", 0);
                    FlightClient client = FlightClient.builder(
                                    allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort()))
                            .build();
                    DuckDBConnection duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
                    Connection jdbc = DriverManager.getConnection(url);
                    Connection ours = DriverManager.getConnection(
                            "jdbc:postgresql://127.0.0.1:" + wireServer.port() + "/wastecheck?preferQueryMode=simple",
                            "wastecheck",
                            "")) {
                Map<String, Way> ways = new LinkedHashMap<>();
                ways.put("arrow in-process", () -> arrowInProcess(allocator, table));
                ways.put("duckdb c-stream", () -> duckdb(allocator, table, duck));
                ways.put("arrow flight", () -> flight(client));
                ways.put("postgresql wire", () -> postgresWire(jdbc));
                ways.put("postgresql csv", () -> postgresCsv(jdbc));
                ways.put("our pg wire", () -> ourWire(ours));
                ways.put("our vectorized", () -> ourVectorized(ours));
                Map<String, List<Double>> millis = new LinkedHashMap<>();
                Long expected = null;
                for (int r = 0; r <= runs; r++) {
                    for (Map.Entry<String, Way> w : ways.entrySet()) {
                        long t0 = System.nanoTime();
                        long sum = w.getValue().run();
                        double ms = (System.nanoTime() - t0) / 1e6;
                        if (expected == null) expected = sum;
                        if (sum != expected)
                            throw new IllegalStateException(w.getKey() + ": checksum " + sum + " != " + expected);
                        if (r > 0)
                            millis.computeIfAbsent(w.getKey(), k -> new ArrayList<>())
                                    .add(ms); // run 0 warms up
                    }
                }
                double wire = median(millis.get("postgresql wire")), copy = median(millis.get("postgresql csv"));
                System.out.printf(
                        Locale.ROOT,
                        "%-18s %10s %12s %14s  %s%n",
                        "way",
                        "median ms",
                        "vs pg wire",
                        "vs pg csv",
                        "runs (ms)");
                for (Map.Entry<String, List<Double>> e : millis.entrySet()) {
                    double m = median(e.getValue());
                    System.out.printf(
                            Locale.ROOT,
                            "%-18s %10.1f %11.1fx %13.1fx  %s%n",
                            e.getKey(),
                            m,
                            wire / m,
                            copy / m,
                            e.getValue());
                }
                System.out.printf(Locale.ROOT, "checksum %d over %d rows%n", expected, rows);
                if (args.length > 2) hotSweep(args[2], allocator, table, tm, gc, client, ours, wire, runs, expected);
            }
        }
    }

    /**
     * §6.3 Fig. 15: export speed against the share of hot blocks. Blocks are thawed, in table order,
     * by a write that changes no value (one tuple's qty set to itself), until {@code share}% of them
     * are hot; a hot block is materialized at the snapshot instead of handed over. Each share: the
     * in-process consumer, Flight, and our server's vectorized and row protocols, {@code runs} times
     * alternating, medians, against the real PostgreSQL's wire protocol median measured above (which
     * the share does not change).
     */
    static void hotSweep(
            String shares,
            BufferAllocator allocator,
            ArrowTable table,
            TransactionManager tm,
            GarbageCollector gc,
            FlightClient client,
            Connection ours,
            double wireMillis,
            int runs,
            long expected)
            throws Exception {
        List<Block> blocks = table.blocks();
        System.out.printf(
                Locale.ROOT,
                "%n%% hot  hot blocks  in-process ms  vs pg wire  flight ms  vs pg wire  vectorized ms  vs pg wire"
                        + "  our pg wire ms  vs pg wire%n");
        int thawed = 0;
        Record r = new Record(SCHEMA);
        for (String sh : shares.split(",")) {
            int want = (int) Math.round(blocks.size() * Integer.parseInt(sh.strip()) / 100.0);
            Transaction t = tm.begin();
            for (; thawed < want; thawed++) {
                long slot = TupleSlot.of(blocks.get(thawed).id(), 0);
                if (!table.select(t, slot, r) || !table.update(t, slot, new int[] {1}, r))
                    throw new IllegalStateException("could not thaw " + blocks.get(thawed));
            }
            tm.commit(t);
            for (int i = 0; i < 3; i++) gc.run();
            List<Way> ways = List.of(
                    () -> arrowInProcess(allocator, table),
                    () -> flight(client),
                    () -> ourVectorized(ours),
                    () -> ourWire(ours));
            List<List<Double>> times = new ArrayList<>();
            for (int w = 0; w < ways.size(); w++) times.add(new ArrayList<>());
            for (int run = 0; run <= runs; run++) {
                for (int w = 0; w < ways.size(); w++) {
                    long t0 = System.nanoTime();
                    long sum = ways.get(w).run();
                    double ms = (System.nanoTime() - t0) / 1e6;
                    if (sum != expected)
                        throw new IllegalStateException("checksum changed at " + sh + "% (way " + w + ")");
                    if (run > 0) times.get(w).add(ms);
                }
            }
            long hot = table.blocks().stream()
                    .filter(b -> b.state() != ArrowBlock.FROZEN)
                    .count();
            double m = median(times.get(0)),
                    fm = median(times.get(1)),
                    vm = median(times.get(2)),
                    om = median(times.get(3));
            System.out.printf(
                    Locale.ROOT,
                    "%5s  %10d  %13.1f  %9.1fx  %9.1f  %9.1fx  %13.1f  %9.1fx  %14.1f  %9.1fx%n",
                    sh.strip(),
                    hot,
                    m,
                    wireMillis / m,
                    fm,
                    wireMillis / fm,
                    vm,
                    wireMillis / vm,
                    om,
                    wireMillis / om);
        }
    }

    static void load(ArrowTable table, TransactionManager tm, GarbageCollector gc, int rows, StringBuilder csv) {
        Random rnd = new Random(42);
        Record r = new Record(SCHEMA);
        Transaction t = tm.begin();
        for (int i = 0; i < rows; i++) {
            int qty = 1 + rnd.nextInt(50);
            double amount = rnd.nextInt(1_000_000) / 100.0;
            long ts = 1_600_000_000_000L + rnd.nextInt(1_000_000_000);
            StringBuilder note = new StringBuilder(24);
            for (int k = 8 + rnd.nextInt(25); k > 0; k--) note.append((char) ('a' + rnd.nextInt(26)));
            table.insert(
                    t,
                    r.setLong(0, i)
                            .setLong(1, qty)
                            .setDouble(2, amount)
                            .setLong(3, ts)
                            .setString(4, note.toString()));
            csv.append(i)
                    .append(',')
                    .append(qty)
                    .append(',')
                    .append(amount)
                    .append(',')
                    .append(ts)
                    .append(',')
                    .append(note)
                    .append('\n');
            if (i % 50_000 == 49_999) {
                tm.commit(t);
                gc.run();
                t = tm.begin();
            }
        }
        tm.commit(t);
        gc.run();
    }

    /** The checksum every consumer computes: ids, quantities, amounts in cents, timestamps and note lengths. */
    static long checksum(long id, long qty, double amount, long ts, int noteBytes) {
        return id + qty + Math.round(amount * 100) + ts + noteBytes;
    }

    /**
     * The checksum over one batch, column by column as an analytical consumer reads Arrow: straight
     * from the data buffers (Arrow's bounds and null checks off, see main), the note lengths from
     * the offsets buffer. No column has nulls.
     */
    static long sumRoot(VectorSchemaRoot root) {
        int n = root.getRowCount();
        ArrowBuf id = root.getVector(0).getDataBuffer(),
                qty = root.getVector(1).getDataBuffer(),
                amount = root.getVector(2).getDataBuffer(),
                ts = root.getVector(3).getDataBuffer();
        ArrowBuf offsets = ((VarCharVector) root.getVector(4)).getOffsetBuffer();
        long sum = 0;
        for (int i = 0; i < n; i++) sum += id.getLong(8L * i);
        for (int i = 0; i < n; i++) sum += qty.getInt(4L * i);
        for (int i = 0; i < n; i++) sum += Math.round(amount.getDouble(8L * i) * 100);
        for (int i = 0; i < n; i++) sum += ts.getLong(8L * i);
        return sum + offsets.getInt(4L * n) - offsets.getInt(0);
    }

    static long arrowInProcess(BufferAllocator allocator, ArrowTable table) throws Exception {
        long sum = 0;
        try (TableArrowReader reader = new TableArrowReader(allocator, table)) {
            while (reader.loadNextBatch()) sum += sumRoot(reader.getVectorSchemaRoot());
        }
        return sum;
    }

    static long duckdb(BufferAllocator allocator, ArrowTable table, DuckDBConnection duck) throws Exception {
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            ArrowExport.toCStream(allocator, table, stream);
            duck.registerArrowStream("orders_stream", stream);
            try (Statement st = duck.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT sum(id) + sum(qty) + sum(round(amount * 100)::BIGINT) + sum(ts) + sum(strlen(note)) FROM orders_stream")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    static long flight(FlightClient client) throws Exception {
        long sum = 0;
        try (FlightStream s = client.getStream(new Ticket("orders".getBytes(StandardCharsets.UTF_8)))) {
            while (s.next()) sum += sumRoot(s.getRoot());
        }
        return sum;
    }

    static long postgresWire(Connection c) throws Exception {
        long sum = 0;
        c.setAutoCommit(false); // a cursor: fetch 10,000 rows at a time instead of the whole result in memory
        try (Statement st = c.createStatement()) {
            st.setFetchSize(10_000);
            try (ResultSet rs = st.executeQuery("SELECT id, qty, amount, ts, note FROM orders")) {
                sum = sumRows(rs);
            }
        } finally {
            c.commit();
            c.setAutoCommit(true);
        }
        return sum;
    }

    /** Method (4) from our server: a text DataRow per tuple, parsed by pgjdbc, every value read. */
    static long ourWire(Connection c) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM orders")) {
            return sumRows(rs);
        }
    }

    /** The checksum over a result set of (id, qty, amount, ts, note), every value read through JDBC. */
    static long sumRows(ResultSet rs) throws Exception {
        long sum = 0;
        while (rs.next()) {
            sum += checksum(
                    rs.getLong(1),
                    rs.getInt(2),
                    rs.getDouble(3),
                    rs.getLong(4),
                    rs.getString(5).getBytes(StandardCharsets.UTF_8).length);
        }
        return sum;
    }

    /**
     * Method (3) from our server: the vectorized chunks through pgjdbc's COPY API, each decoded into
     * columns ({@link VectorizedBatch.Reader}: what [47]'s client library hands over), then summed
     * column by column.
     */
    static long ourVectorized(Connection c) throws Exception {
        CopyOut copy = c.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY orders TO STDOUT (FORMAT vectorized)");
        VectorizedBatch.Reader reader = new VectorizedBatch.Reader(VectorizedBatch.readHeader(copy.readFromCopy()));
        long sum = 0;
        for (byte[] m; (m = copy.readFromCopy()) != null; ) {
            reader.read(m);
            int n = reader.rows;
            long[] id = reader.values[0], qty = reader.values[1], amount = reader.values[2], ts = reader.values[3];
            for (int i = 0; i < n; i++) sum += id[i];
            for (int i = 0; i < n; i++) sum += qty[i];
            for (int i = 0; i < n; i++) sum += Math.round(Double.longBitsToDouble(amount[i]) * 100);
            for (int i = 0; i < n; i++) sum += ts[i];
            sum += reader.starts[4][n];
        }
        return sum;
    }

    static long postgresCsv(Connection c) throws Exception {
        PGConnection pgc = c.unwrap(PGConnection.class);
        PipedInputStream in = new PipedInputStream(1 << 20);
        PipedOutputStream out = new PipedOutputStream(in);
        Thread copier = new Thread(() -> {
            try (out) {
                pgc.getCopyAPI().copyOut("COPY orders TO STDOUT (FORMAT csv)", out);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        copier.start();
        long sum = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            for (String line; (line = r.readLine()) != null; ) {
                int a = line.indexOf(','),
                        b = line.indexOf(',', a + 1),
                        d = line.indexOf(',', b + 1),
                        e = line.indexOf(',', d + 1);
                sum += checksum(
                        Long.parseLong(line, 0, a, 10),
                        Integer.parseInt(line, a + 1, b, 10),
                        Double.parseDouble(line.substring(b + 1, d)),
                        Long.parseLong(line, d + 1, e, 10),
                        line.length() - e - 1);
            }
        }
        copier.join();
        return sum;
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(d -> d).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}

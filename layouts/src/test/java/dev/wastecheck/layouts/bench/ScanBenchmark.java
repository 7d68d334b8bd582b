package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.HybridPage;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.bench.tpc.Formats;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Q6-like single-field predicate scan: {@code ship date in 1994} (~14% selected) over
 * {@code records} (262,144) records, into a selection bitmap per page, and the number of matches.
 * (TPC-H's own Q6, with its three predicates and the revenue sum, is {@link TpchBenchmark}.)
 *
 * <p>Ratios to read (docs/benchmarks.md (layouts)): PAX/NSM is what a columnar page buys a
 * one-field scan (Ailamaki et al. report PAX well ahead of NSM on scans, because NSM drags
 * every record's cache line through the cache for 4 bytes of it); HPL/PAX should be ~1 (the
 * HPL paper's claim: "scans almost as fast as the scan-optimized PAX layout"); PAX/ARRAY is the cost of the page
 * format against the Java ceiling: ARRAY is a plain {@code int[]} of the same values scanned by
 * ColumnScan's INT32 kernel ({@link ArrayScan}: the same branch-free range test, 64-value words
 * and selection bitmap), so only the storage access differs; DUCKDB is DuckDB
 * (threads=1, in-process) counting the same predicate over the same values, a columnar engine
 * with vectorized, compressed scans. Every page format tests values with the same branch-free
 * range test (NSM too, a record at a time: before issue 15 NSM's loop branched, which made
 * PAX/NSM 1.6x larger than the layouts alone); {@code layout} takes any name of
 * {@code tpc.Formats} (HPL-RIGID, HPL/1024, HPL:nokey, ...).
 *
 * <p>What would make it lie: a selection that is never read (the work could be eliminated:
 * the count goes to the Blackhole and the bitmap is a field, so it escapes); constant folding
 * of the bounds (they are instance fields); caches that favour some layouts: scanned again and
 * again, PAX's and HPL's 1 MB date column and ARRAY's 1 MB array stay in this machine's 32 MB L3
 * while NSM's 27 MB of records do not, so {@link #cold} = true evicts everything before each
 * operation (the paper's setting: tables larger than the cache); DuckDB's JDBC round trip (one query per 262,144
 * values, microseconds against milliseconds).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScanBenchmark {
    @Param({"NSM", "PAX", "HPL", "ARRAY", "DUCKDB"})
    public String layout;

    @Param({"RECORD100", "LINEITEM"})
    public String shape;

    @Param({"65536"})
    public int pageSize;

    /**
     * HPL's unit of space U in bytes (HPL-2012-240 §4.1, §5.1): 64 (a cache line, R = 512) or
     * 256 (a read-ahead block of four lines, R = 2,048); a column of the INCREMENTAL layout grows
     * a unit at a time, so U is also how many bytes of a column a scan reads in one run.
     */
    @Param({"64"})
    public int unit;

    /**
     * Bytes by which page p starts (p % 16) * stagger into its buffer; 0 = at the start. An
     * experiment on cache-set aliasing between the pages' identical layouts.
     */
    @Param({"0"})
    public int stagger;

    /**
     * false: the table is scanned again and again, so whatever the scan touches stays in the
     * caches it fits (PAX's and HPL's 1 MB date column fits this machine's L3, NSM's 27 MB of
     * records do not). true: before each operation (outside the timing) a 64 MB buffer is read,
     * so every layout and the ARRAY baseline start from memory, as the paper's scans of tables
     * larger than the cache do.
     */
    @Param({"false"})
    public boolean cold;

    /** Records in the table; a small table (e.g. 8192) shows the in-cache, compute-only ratios. */
    @Param({"262144"})
    public int records;

    private Shape s;
    private Page page;
    private List<ByteBuffer> pages;
    private int[] offsets;
    private long[] selection;
    private int[] column;
    private long lo = Shape.Q6_LO, hi = Shape.Q6_HI;
    private Connection duck;
    /** Pages the table takes (printed at teardown: the capacity side of HPL's segment size). */
    private int pagesUsed;

    private PreparedStatement count;

    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        s = Shape.valueOf(shape);
        switch (layout) {
            case "ARRAY":
                column = new int[records];
                for (int i = 0; i < records; i++) column[i] = Shape.date(i);
                selection = new long[records / 64 + 1];
                break;
            case "DUCKDB":
                duck = DriverManager.getConnection("jdbc:duckdb:");
                try (Statement st = duck.createStatement()) {
                    st.execute("SET threads = 1");
                    st.execute("CREATE TABLE t AS SELECT CAST(" + Shape.FIRST_DATE + " + (i * 2654435761) % "
                            + Shape.DATE_SPAN + " AS INTEGER) AS d FROM range(" + records + ") r(i)");
                }
                count = duck.prepareStatement("SELECT count(*) FROM t WHERE d BETWEEN ? AND ?");
                break;
            default:
                Page flyweight = layout.equals("HPL")
                        ? new HybridPage(s.schema, HybridPage.Variant.INCREMENTAL, unit)
                        : Formats.of(layout).apply(s.schema);
                Table table =
                        new Table(s, flyweight, pageSize).staggered(stagger).load(records, 42);
                pagesUsed = table.pages.size();
                page = table.page;
                pages = table.pages;
                offsets = table.offsets.stream().mapToInt(Integer::intValue).toArray();
                selection = new long[table.maxPerPage() / 64 + 1];
        }
    }

    private long[] flush;
    private long flushSink;

    /** Evicts the table from every cache level when {@link #cold}: reads a buffer twice the L3. */
    @Setup(Level.Invocation)
    public void evict() {
        if (!cold) return;
        if (flush == null) flush = new long[8 << 20];
        long sum = 0;
        for (int i = 0; i < flush.length; i += 8) sum += flush[i];
        flushSink += sum;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        if (duck != null) duck.close();
        if (pagesUsed > 0) System.out.println("\n[" + layout + " " + shape + " U=" + unit + "] pages: " + pagesUsed);
    }

    @Benchmark
    public void scan(Blackhole bh) throws SQLException {
        switch (layout) {
            case "ARRAY":
                bh.consume(scanArray());
                return;
            case "DUCKDB":
                bh.consume(scanDuckDb());
                return;
            default:
                long matches = 0;
                int field = s.dateField;
                for (int p = 0, n = pages.size(); p < n; p++) {
                    matches += page.wrap(pages.get(p), offsets[p], pageSize).scanBetween(field, lo, hi, selection);
                }
                bh.consume(matches);
        }
    }

    /** ColumnScan's INT32 kernel over an int[] ({@link ArrayScan}). */
    private long scanArray() {
        return ArrayScan.scan(column, lo, hi, selection);
    }

    private long scanDuckDb() throws SQLException {
        count.setLong(1, lo);
        count.setLong(2, hi);
        try (ResultSet rs = count.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

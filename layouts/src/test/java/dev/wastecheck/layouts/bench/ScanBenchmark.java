package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.HybridPage;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
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
 *
 * <p>Ratios to read (docs/benchmarks.md (layouts)): PAX/NSM is what a columnar page buys a
 * one-field scan (Ailamaki et al. report PAX well ahead of NSM on scans, because NSM drags
 * every record's cache line through the cache for 4 bytes of it); HPL/PAX should be ~1 (the
 * HPL paper's claim: "scans almost as fast as the scan-optimized PAX layout"); PAX/ARRAY is the cost of the page
 * format against the Java ceiling: ARRAY is a plain {@code int[]} of the same values scanned by
 * the same bitmap-building loop, so only the storage access differs; DUCKDB is DuckDB
 * (threads=1, in-process) counting the same predicate over the same values, a columnar engine
 * with vectorized, compressed scans.
 *
 * <p>What would make it lie: a selection that is never read (the work could be eliminated:
 * the count goes to the Blackhole and the bitmap is a field, so it escapes); constant folding
 * of the bounds (they are instance fields); a table that fits in cache (32 MB of NSM pages for
 * RECORD100, beyond the L2 of this machine, but ARRAY's 1 MB column does fit: ARRAY is a ceiling,
 * not a like-for-like memory-bound figure); DuckDB's JDBC round trip (one query per 262,144
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
     * HPL's records per segment R; 0 = chosen per page size (§4.1: 64 for RECORD100 in 64 KB
     * pages). A larger R makes the column runs longer (fewer cache misses at segment starts)
     * but the page refuses records sooner (the last segment must fit whole).
     */
    @Param({"0"})
    public int segment;

    /** Records in the table; a small table (e.g. 8192) shows the in-cache, compute-only ratios. */
    @Param({"262144"})
    public int records;

    private Shape s;
    private Page page;
    private List<ByteBuffer> pages;
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
                    st.execute("CREATE TABLE t AS SELECT CAST(" + Shape.FIRST_DATE + " + (i * 2654435761) % " + Shape.DATE_SPAN
                            + " AS INTEGER) AS d FROM range(" + records + ") r(i)");
                }
                count = duck.prepareStatement("SELECT count(*) FROM t WHERE d BETWEEN ? AND ?");
                break;
            default:
                Page flyweight = layout.equals("HPL") && segment != 0
                        ? new HybridPage(s.schema, segment) : Layout.valueOf(layout).newPage(s.schema);
                Table table = new Table(s, flyweight, pageSize).load(records, 42);
                pagesUsed = table.pages.size();
                page = table.page;
                pages = table.pages;
                selection = new long[table.maxPerPage() / 64 + 1];
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        if (duck != null) duck.close();
        if (pagesUsed > 0) System.out.println("\n[" + layout + " " + shape + " R=" + segment + "] pages: " + pagesUsed);
    }

    @Benchmark
    public void scan(Blackhole bh) throws SQLException {
        switch (layout) {
            case "ARRAY": bh.consume(scanArray()); return;
            case "DUCKDB": bh.consume(scanDuckDb()); return;
            default:
                long matches = 0;
                int field = s.dateField;
                for (int p = 0, n = pages.size(); p < n; p++) {
                    matches += page.wrap(pages.get(p), 0, pageSize).scanBetween(field, lo, hi, selection);
                }
                bh.consume(matches);
        }
    }

    /** The same loop as ColumnScan over an int[]: 64 values to one selection word. */
    private long scanArray() {
        int[] c = column;
        long[] sel = selection;
        long lo = this.lo, hi = this.hi;
        long matches = 0;
        for (int w = 0, words = (c.length + 63) >>> 6; w < words; w++) {
            int first = w << 6, count = Math.min(64, c.length - first);
            long bits = 0;
            for (int j = 0; j < count; j++) {
                long v = c[first + j];
                bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
            }
            sel[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
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

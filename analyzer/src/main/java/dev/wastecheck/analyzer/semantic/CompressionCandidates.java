package dev.wastecheck.analyzer.semantic;

import com.github.luben.zstd.Zstd;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.traces.heat.ColumnUse;
import dev.wastecheck.traces.heat.TableHeat;
import io.airlift.compress.lz4.Lz4Compressor;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Large fields the workload never reads, only projects, or compares only by equality, with the
 * bytes a real codec saves on their values ("No Bits Left Behind" §4.1: "large fields that are
 * either never accessed or only projected or accessed through equality predicates are good
 * candidates for compression"): such a field is decompressed only when returned, and an equality
 * can compare the compressed bytes of a constant compressed the same way.
 *
 * <p>The saving is measured, not estimated: the column's values are read in the table's order,
 * packed into chunks of the source engine's page size (InnoDB 16 KiB, PostgreSQL 8 KiB, SQLite
 * 4 KiB, DuckDB 256 KiB), as page or block compression sees them, and each chunk is compressed with
 * zstd (level 3, the zstd library's default, through zstd-jni) and LZ4 (aircompressor). A chunk that
 * does not shrink is counted stored as is, as engines do. The paper leaves the codec and unit open;
 * PostgreSQL's TOAST compresses single values of 2 KB and more instead of pages, so for it the
 * figure is what page-sized chunks would give.
 *
 * <p>Which fields are large is our choice: at least {@link #MIN_AVERAGE_BYTES} bytes per value on
 * average and {@link #MIN_COLUMN_BYTES} in all (less than a few pages gives a codec nothing to win).
 * A field any statement updates is left out: every write would recompress it.
 */
public final class CompressionCandidates {
    public static final long MIN_AVERAGE_BYTES = 32;
    public static final long MIN_COLUMN_BYTES = 64 * 1024;
    static final int ZSTD_LEVEL = 3;

    private final Connection db;
    private final int pageBytes;

    public CompressionCandidates(Connection db, Dialect dialect) {
        this.db = db;
        this.pageBytes = pageBytes(dialect);
    }

    /** Page size of the source engine, the unit page compression works on. */
    static int pageBytes(Dialect d) {
        return switch (d) {
            case MYSQL -> 16 * 1024;
            case POSTGRESQL -> 8 * 1024;
            case SQLITE -> 4 * 1024;
            case DUCKDB, TRINO -> 256 * 1024;
        };
    }

    /** What compressing one column's values page by page gives. */
    public record Measured(long values, long rawBytes, long zstdBytes, long lz4Bytes, int chunks) {
        public long zstdSaved() {
            return rawBytes - zstdBytes;
        }

        public long lz4Saved() {
            return rawBytes - lz4Bytes;
        }
    }

    /** The table's report with a {@code compression_candidate} finding on each candidate column. */
    public TableReport addFindings(LoadedTable t, TableReport report, TableHeat heat) throws SQLException {
        if (t.relation() == null) {
            return report;
        }
        Map<String, ColumnUse> uses = new HashMap<>();
        for (ColumnUse u : heat.columns()) {
            uses.put(u.column().toLowerCase(Locale.ROOT), u);
        }
        List<ColumnReport> cols = new ArrayList<>();
        boolean changed = false;
        for (int i = 0; i < report.columns().size(); i++) {
            ColumnReport c = report.columns().get(i);
            String access = access(c, uses.get(c.name().toLowerCase(Locale.ROOT)), heat);
            long nonNull = report.rows() - c.nulls();
            if (access == null
                    || nonNull <= 0
                    || c.declaredBytes() < MIN_COLUMN_BYTES
                    || c.declaredBytes() / nonNull < MIN_AVERAGE_BYTES) {
                cols.add(c);
                continue;
            }
            Measured m = measure(t, i);
            if (m.zstdSaved() <= 0) {
                cols.add(c);
                continue;
            }
            List<Finding> f = new ArrayList<>(c.findings());
            f.add(new Finding(
                    FindingKind.COMPRESSION_CANDIDATE,
                    access + "; its " + m.rawBytes() + " bytes of values in " + m.chunks() + " chunks of "
                            + pageBytes + " bytes (the engine's page) compress to " + m.zstdBytes()
                            + " with zstd (" + percent(m.zstdSaved(), m.rawBytes()) + " saved), " + m.lz4Bytes()
                            + " with LZ4 (" + percent(m.lz4Saved(), m.rawBytes()) + ")",
                    m.zstdSaved()));
            cols.add(c.withFindings(f));
            changed = true;
        }
        if (!changed) {
            return report;
        }
        return report.withColumns(cols);
    }

    private static String percent(long part, long whole) {
        return whole == 0 ? "0%" : Math.round(100.0 * part / whole) + "%";
    }

    /**
     * How the trace uses the column when it qualifies (never; only projected; compared only by
     * equality), said with the counts; null when it does not (updated, or compared otherwise).
     */
    static String access(ColumnReport c, ColumnUse u, TableHeat heat) {
        if (u == null) {
            return "never read: no statement of the trace (" + heat.events() + " accesses to the table) reads,"
                    + " filters on or updates it";
        }
        if (u.updated() > 0 || heat.otherComparisons(u.column()) > 0) {
            return null;
        }
        if (u.predicate() == 0 && u.joined() == 0) {
            return "only projected: " + u.projected() + " reads return it, no statement filters on, joins on or"
                    + " updates it";
        }
        return "compared only by equality: " + (u.predicate() + u.joined()) + " equality comparisons, " + u.projected()
                + " reads return it, no statement updates it";
    }

    /** Compresses column {@code i}'s values, in the table's order, page by page. */
    public Measured measure(LoadedTable t, int i) throws SQLException {
        String c = t.physicalColumn(i);
        boolean bytes = t.storage()[i] == ColumnStorage.BYTES;
        String value = bytes ? c : "CAST(" + c + " AS VARCHAR)";
        byte[] chunk = new byte[pageBytes];
        byte[] zstdOut = new byte[(int) Zstd.compressBound(pageBytes)];
        Lz4Compressor lz4 = new Lz4Compressor();
        byte[] lz4Out = new byte[lz4.maxCompressedLength(pageBytes)];
        long values = 0;
        long raw = 0;
        long zstd = 0;
        long lz4Bytes = 0;
        int chunks = 0;
        int fill = 0;
        try (Statement st = db.createStatement();
                ResultSet rs =
                        st.executeQuery("SELECT " + value + " FROM " + t.relation() + " WHERE " + c + " IS NOT NULL")) {
            while (rs.next()) {
                byte[] v = bytes ? rs.getBytes(1) : rs.getString(1).getBytes(StandardCharsets.UTF_8);
                values++;
                raw += v.length;
                int off = 0;
                while (off < v.length) { // a value larger than a page spans pages, as overflow pages hold it
                    int n = Math.min(v.length - off, pageBytes - fill);
                    System.arraycopy(v, off, chunk, fill, n);
                    fill += n;
                    off += n;
                    if (fill == pageBytes) {
                        zstd += compressed(chunk, fill, zstdOut);
                        lz4Bytes += Math.min(fill, lz4.compress(chunk, 0, fill, lz4Out, 0, lz4Out.length));
                        chunks++;
                        fill = 0;
                    }
                }
            }
        }
        if (fill > 0) {
            zstd += compressed(chunk, fill, zstdOut);
            lz4Bytes += Math.min(fill, lz4.compress(chunk, 0, fill, lz4Out, 0, lz4Out.length));
            chunks++;
        }
        return new Measured(values, raw, zstd, lz4Bytes, chunks);
    }

    private static long compressed(byte[] chunk, int length, byte[] out) {
        long n = Zstd.compressByteArray(out, 0, out.length, chunk, 0, length, ZSTD_LEVEL);
        if (Zstd.isError(n)) {
            throw new IllegalStateException("zstd: " + Zstd.getErrorName(n));
        }
        return Math.min(length, n);
    }
}

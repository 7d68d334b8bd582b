package dev.wastecheck.engine.bench;

import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.exec.Executor;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * "No Bits Left Behind" Fig. 2b as a grid: the cost of a lookup against the buffer pool's hit rate
 * (rows: the pool from a sliver of the table to all of it) and the index cache's hit rate
 * (columns: cache_size from 0, no cache, to a quarter of a leaf's tuples, beyond which Zipf(1.05) gains little). The paper's point: the
 * index cache pays most where the buffer pool misses, because a cache hit saves the heap page,
 * and a heap page that is not in the pool costs a device read (85 µs modeled) where a resident one
 * costs a pin (a fraction of a µs).
 *
 * <p>Table: 200,000 revision-like records (rev_id, rev_page, rev_len, rev_timestamp, rev_sha1 as
 * 40 bytes), NSM, 8 KB pages, a unique B+tree on rev_id built in random order; queries {@code
 * SELECT rev_len, rev_timestamp FROM revision WHERE rev_id = ?} with Zipf(1.05) popularity over
 * randomly permuted ids (the exponent that reproduces Fig. 2a's curve, docs/benchmarks.md). Each
 * cell: a fresh database, {@code warm} lookups unmeasured, then {@code measured} lookups. Cost =
 * mean measured engine time + modeled device time; the ratio is the cell's cost over the same
 * row's no-cache cell (paired: the same pool, the same lookups). The hit rates are counts and do
 * not move between runs; the measured part of the cost does (a shared machine), so the device
 * part is printed apart.
 *
 * <pre>
 *   ./bench fig2b [full]      (quick: 60,000 measured lookups per cell; full: 400,000)
 * </pre>
 */
public final class BufferCacheGridExperiment {
    private static final int ROWS = 200_000;

    public static void main(String[] args) {
        boolean full = args.length > 0 && args[0].equals("full");
        int measured = full ? 400_000 : 60_000, warm = full ? 400_000 : 100_000;
        TableSpec spec = new TableSpec(
                "revision",
                List.of(
                        new ColumnSpec("rev_id", FieldType.INT32, false, false),
                        new ColumnSpec("rev_page", FieldType.INT32, false, false),
                        new ColumnSpec("rev_len", FieldType.INT32, false, false),
                        new ColumnSpec("rev_timestamp", FieldType.INT64, false, false),
                        new ColumnSpec("rev_sha1", FieldType.VARLEN, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("rev_id"), true, List.of("rev_len", "rev_timestamp"))));
        List<AccessEvent> events = lookups(warm + measured);
        double[] poolShares = {0.05, 0.15, 0.3, 0.6, 1.2};
        double[] cacheSizes = {0, 0.005, 0.01, 0.02, 0.05, 0.25};
        System.out.println(
                "Fig. 2b grid: cost per lookup (µs; device part in brackets), buffer hit / cache hit, and the ratio to no cache");
        System.out.printf(Locale.ROOT, "%-22s", "pool \\ cache_size");
        for (double c : cacheSizes) System.out.printf(Locale.ROOT, "%-30s", c == 0 ? "off" : String.valueOf(c));
        System.out.println();
        // every cell's pool is a share of the same size: the table loaded once, its heap and index pages
        long dataBytes = dataBytes(spec);
        for (double share : poolShares) {
            double off = 0;
            StringBuilder line = new StringBuilder();
            String label = null;
            for (double c : cacheSizes) {
                ExecutionResult r = cell(spec, share, c, events, warm, dataBytes);
                if (c == 0) off = r.costPerQueryUs();
                if (label == null) label = String.format(Locale.ROOT, "%.0f%% (%s)", 100 * share, mib(r.memoryBytes()));
                line.append(String.format(
                        Locale.ROOT,
                        "%-30s",
                        String.format(
                                Locale.ROOT,
                                "%.2f [%.2f] %.0f/%.0f%% %.2fx",
                                r.costPerQueryUs(),
                                r.deviceUsPerQuery(),
                                100 * r.bufferHitRate(),
                                100 * r.cacheHitRate(),
                                off / r.costPerQueryUs())));
            }
            System.out.printf(Locale.ROOT, "%-22s%s%n", label, line);
        }
        System.out.println("pool = share of the table's heap and index pages the buffer pool holds");
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    /** The table's heap and index bytes, loaded once with every page in the pool. */
    private static long dataBytes(TableSpec spec) {
        try (Database db = load(spec, 0, 64L << 20)) {
            return db.heapBytes() + db.indexBytes();
        }
    }

    private static ExecutionResult cell(
            TableSpec spec, double poolShare, double cacheSize, List<AccessEvent> events, int warm, long dataBytes) {
        long memory = Math.max(16 * 8192, (long) (dataBytes * poolShare));
        try (Database db = load(spec, cacheSize, memory)) {
            return new Executor(db).run("cell", "", events, warm, 0, Map.of(), n -> {});
        }
    }

    /** A fresh database holding the table, loaded in random id order and flushed; the caller closes it. */
    private static Database load(TableSpec spec, double cacheSize, long memory) {
        CachePolicy policy = cacheSize == 0 ? CachePolicy.OFF : CachePolicy.SWAP;
        Database db = new Database(
                List.of(spec), Layout.NSM, policy, cacheSize == 0 ? 1 : cacheSize, 8192, memory, DeviceModel.NVME);
        try {
            Table t = db.table("revision");
            Record r = new Record(t.schema());
            int[] ids = permutation(ROWS, 5);
            byte[] sha = new byte[40];
            Arrays.fill(sha, (byte) 'a');
            for (int id : ids) {
                t.insert(
                        t.main(),
                        r.setLong(0, id)
                                .setLong(1, id / 12)
                                .setLong(2, id % 5000)
                                .setLong(3, 20160101000000L + id)
                                .setBytes(4, sha, 0, sha.length));
            }
            db.pool().flushAll();
            System.gc();
            return db;
        } catch (RuntimeException | Error e) {
            db.close();
            throw e;
        }
    }

    /** Zipf(1.05) over ranks, ranks scattered over the ids by a random permutation. */
    private static List<AccessEvent> lookups(int n) {
        int[] perm = permutation(ROWS, 9);
        double s = 1.05;
        double[] cdf = new double[ROWS];
        double sum = 0;
        for (int i = 0; i < ROWS; i++) {
            sum += Math.pow(i + 1, -s);
            cdf[i] = sum;
        }
        Random rnd = new Random(13);
        List<AccessEvent> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int rank = Arrays.binarySearch(cdf, rnd.nextDouble() * sum);
            if (rank < 0) rank = -rank - 1;
            int id = perm[Math.min(rank, ROWS - 1)];
            out.add(new AccessEvent(
                    "revision",
                    Operation.POINT_LOOKUP,
                    "PRIMARY",
                    Map.of("rev_id", Integer.toString(id)),
                    List.of("rev_id"),
                    Set.of("rev_len", "rev_timestamp"),
                    Set.of(),
                    Set.of(),
                    Set.of(),
                    Map.of(),
                    1,
                    i,
                    i));
        }
        return out;
    }

    private static int[] permutation(int n, long seed) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i + 1;
        Random rnd = new Random(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}

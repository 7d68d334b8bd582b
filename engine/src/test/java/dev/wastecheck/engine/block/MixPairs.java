package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.LogManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Logging's cost on the TPC-C-like mix in short paired windows, ABBA (docs/benchmarks.md, issue 26,
 * "Logging's cost in paired windows"): {@code arrow-log} ({@link TpccLikeMix} in an {@link
 * ArrowDatabase} with logging on) against {@code arrow} (the same mix in memory, no log).
 *
 * <p>Why not {@link MixRuns#interleaved}: there every run loads a fresh database and measures it for
 * 6-8 s, and two runs of the same configuration differ by up to 40% in their workers' CPU a
 * transaction, more than the 10% the target tests; 21 rounds left a 95% interval of 0.85-1.03. Here
 * both databases are loaded from the same seed and stay open through a <em>block</em>; the block
 * measures them in windows of {@code millis}, alternated A B B A (or B A A B in every other block),
 * {@code quads} times. Adjacent windows share whatever the machine is doing at that moment, and the
 * ABBA order cancels a drift that is linear over the four (the databases grow as the mix inserts,
 * and the heap fills between collections). Blocks repeat with fresh databases from new seeds, so that
 * no one pair of databases decides the result; the intervals of {@code docs/scripts/mix_bootstrap.py}
 * resample whole blocks.
 *
 * <p>Every block: load both (A's log on the disk under {@code target/mix-runs}, or {@code
 * -Dmix.logDir}), a full collection (the previous block's databases are garbage), one unmeasured
 * window of each, then the measured windows. Each window runs the collector every 5 ms in the
 * background and prints one line as {@link MixRuns#print} does: throughput, the workers' CPU a
 * committed transaction, and for A the log manager thread's CPU a transaction, commits a force and
 * log bytes. The idle database's log manager thread parks (nothing is queued).
 */
public final class MixPairs {
    private MixPairs() {}

    /** One open database with its mix. */
    private static final class Live implements AutoCloseable {
        final String config;
        final ArrowDatabase db;
        final TpccLikeMix mix;
        final Path dir;
        final double loadSeconds;

        Live(String config, int threads, long seed, Path root) throws Exception {
            this.config = config;
            long t0 = System.nanoTime();
            dir = root.resolve("pair-" + System.nanoTime());
            db = config.equals("arrow-log") ? ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true) : null;
            mix = new TpccLikeMix(threads, 20_000, 3_000, db);
            mix.load(seed);
            loadSeconds = (System.nanoTime() - t0) / 1e9;
        }

        LogManager log() {
            return db == null ? null : db.log();
        }

        MixRuns.Result window(int threads, long millis, long seed) throws InterruptedException {
            return MixRuns.measureArrow(config, mix, log(), threads, 0, millis, seed);
        }

        @Override
        public void close() throws Exception {
            if (db != null) db.close();
            if (Files.exists(dir)) CrashRecoveryTest.deleteTree(dir);
        }
    }

    /**
     * Runs {@code blocks} blocks of {@code quads} ABBA quadruples of {@code millis} windows of
     * {@code a} against {@code b} on {@code threads} workers; prints every window; returns them.
     */
    static Map<String, List<MixRuns.Result>> run(String a, String b, long millis, int quads, int blocks, int threads)
            throws Exception {
        for (String c : List.of(a, b))
            if (!c.equals("arrow-log") && !c.equals("arrow"))
                throw new IllegalArgumentException("paired windows take arrow-log and arrow, not " + c);
        Path root = Files.createDirectories(Path.of(System.getProperty("mix.logDir", "target/mix-runs")));
        System.out.printf(
                Locale.ROOT,
                "TPC-C-like mix, %d workers (a warehouse each), 20,000 items, 3,000 customers a district; paired windows:"
                        + " %d blocks of %d ABBA quadruples of %d ms windows, %s against %s; log in %s%n",
                threads,
                blocks,
                quads,
                millis,
                a,
                b,
                root.toAbsolutePath());
        Map<String, List<MixRuns.Result>> out = new LinkedHashMap<>();
        out.put(a, new ArrayList<>());
        out.put(b, new ArrayList<>());
        // The JIT's compilations and the heap's growth first, unmeasured (as MixRuns.interleaved).
        for (String c : List.of(a, b)) {
            try (Live l = new Live(c, threads, 41, root)) {
                if (l.log() != null)
                    System.out.println("  log in " + root
                            + (l.log().direct()
                                    ? ", O_DIRECT in " + l.log().alignment() + "-byte blocks"
                                    : ", through the page cache"));
                MixRuns.Result r = MixRuns.measureArrow(c, l.mix, l.log(), threads, 1_000, 2_000, 41);
                System.out.printf(Locale.ROOT, "  (warm-up, not counted) %s %.0f txn/s%n", c, r.tps());
            }
        }
        for (int block = 0; block < blocks; block++) {
            long seed = 42 + block;
            boolean abba = block % 2 == 0;
            String first = abba ? a : b, second = abba ? b : a;
            try (Live x = new Live(first, threads, seed, root);
                    Live y = new Live(second, threads, seed, root)) {
                System.gc();
                System.out.printf(
                        Locale.ROOT,
                        "block %d (seed %d, %s): loaded %s in %.1f s, %s in %.1f s%n",
                        block + 1,
                        seed,
                        abba ? "ABBA" : "BAAB",
                        x.config,
                        x.loadSeconds,
                        y.config,
                        y.loadSeconds);
                x.window(threads, millis, seed * 1000); // unmeasured: the fresh database's first second
                y.window(threads, millis, seed * 1000);
                long w = 1;
                for (int q = 0; q < quads; q++) {
                    for (Live l : List.of(x, y, y, x)) {
                        MixRuns.Result r = l.window(threads, millis, seed * 1000 + w++);
                        MixRuns.print(r);
                        out.get(l.config).add(r);
                    }
                }
            }
        }
        MixRuns.summarize(out);
        return out;
    }

    /** {@code [MILLIS] [QUADS] [BLOCKS] [THREADS]}: windows of MILLIS ms, QUADS ABBA quadruples a block. */
    public static void main(String[] args) throws Exception {
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 1_000;
        int quads = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int blocks = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        run("arrow-log", "arrow", millis, quads, blocks, threads);
    }
}

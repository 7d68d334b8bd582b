package dev.wastecheck.autotune;

import dev.wastecheck.autotune.AutotuneReport.CachePoint;
import dev.wastecheck.autotune.AutotuneReport.Evaluation;
import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.replay.AccessSkew;
import dev.wastecheck.replay.ReplaySource;
import dev.wastecheck.sources.load.LoadedTable;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The search behind {@code wastecheck autotune}: a physical design per table ("No Bits Left
 * Behind" §2-4), learned on the first part of a trace and scored by replaying the rest.
 *
 * <p><b>Split.</b> The trace splits in time ({@code train}, default the first half). Everything
 * a design learns (tuple heat for clustering and the hot partition, the fields worth caching,
 * which columns a vertical split keeps apart) comes from the training events; the held-out
 * events only score. The training events still run, unmeasured, before the held-out ones, so a
 * design is scored in the state the training left (inserts, updates, a warm buffer pool).
 *
 * <p><b>Search space, per table</b>, in this order (coordinate descent: each dimension is chosen
 * with the ones before it fixed): clustering (none; the accessed tuples relocated together; a hot
 * partition; a hot partition kept up to date while the workload runs), tight types (off, on),
 * vertical partitioning (§3.2: none; the columns training never reads apart; the columns it
 * updates apart), the index cache (off; Swap at 10%, 30%, 100% of a leaf's tuples, the
 * fields the training's reads would have answered from it), the page layout (NSM, PAX, HPL;
 * Arrow blocks, {@code layout=arrow}, are one storage for the whole database, tried once by
 * {@link Finalists}).
 *
 * <p><b>Pruning by analysis.</b> A candidate is not replayed when the analysis shows it is the
 * same design as one that is (tight types that change no column of the table, a cache with no
 * field to keep, a split that keeps nothing apart) or that it cannot change what a lookup reads
 * (PAX and HPL for a table the training never scans). Every pruned candidate is reported with
 * its reason.
 *
 * <p><b>Successive halving.</b> Within each step the candidates replay the table's training
 * events and the first quarter of its held-out events; the better half goes on to the first
 * half, then to all of them. Candidates replay one table alone, in its share of the memory budget
 * (its share of the baseline's working set); keys that a join binds were recorded on the
 * baseline's replay and run as the lookups they made, so a table replays without the tables that
 * drove them. The best <em>uniform</em> design (one design for every table) is searched the same
 * way, scored as the sum over the tables; the evaluations both searches share run once.
 *
 * <p><b>Finalists.</b> The baseline, the best uniform design and the per-table recommendation
 * then replay together, all tables in one buffer pool of the budget, on every held-out event,
 * {@code repeat} times interleaved. The recommendation is never worse than the best uniform
 * design: if it is, jointly, the uniform design is recommended instead (and the report says so).
 *
 * <p><b>Scores.</b> The search compares the modeled cost per query: device time of the misses
 * and write-backs plus a measured charge per buffer-pool pin by the page's kind and size ({@link #pinUs}), plus
 * the decompression, copies and
 * value-cache work of compressed fields at measured constants; all are counts times constants, so
 * the same trace picks the same design on any machine, loaded or not. The finalists also report
 * the measured cost (engine time plus device time), with a 95% interval over the repeats.
 *
 * <p><b>The rule between designs</b> ({@link #preferred}, {@link #rank}): two modeled costs within
 * {@link #MODEL_ERROR} (12%, the largest residual of the decompression constant's fit; the charges per
 * page touched spread wider, see {@link #MODEL_ERROR}) are not told apart, and then the design with the smaller working
 * set wins; beyond 12% the cheaper wins. It decides successive halving, the uniform design as a
 * table's candidate, and {@code hot=refs}. The finalists' guard stays on cost alone: the per-table
 * designs are recommended only when they model no dearer than the best uniform design (the issue's
 * "never worse than the best uniform design"), and Arrow blocks keep their own measured test.
 */
public final class Autotune {
    /**
     * The page sizes the charges per page touched were measured at ({@link #pinUs}): {@code Finalists.PAGE_SIZES}
     * and the default 8 KiB, the sizes the search tries.
     */
    static final int[] CHARGED_PAGE_SIZES = {4 << 10, 8 << 10, 16 << 10};

    /**
     * Modeled engine time of a page of a hot index with packed leaves ({@code PackedLeafPage}) a query touches, in
     * microseconds, at 4, 8 and 16 KiB ({@link #CHARGED_PAGE_SIZES}): the pin and unpin of the resident page and the
     * search in it. The JMH {@code PinBenchmark.descent} (engine; quiet, 2 forks x 4 iterations of 1 s,
     * docs/benchmarks.md, issue 27, "Charges per page size and kind") descends a hot index as the hot partition builds
     * it (2,455 integer keys in key order, every page resident): 160.0 ns (+-8.2) for 2 pages at 4 KiB (a root and a
     * leaf), 162.3 (+-22.1) for 2 at 8 KiB, 152.1 (+-16.3) for 1 at 16 KiB (one leaf, a binary search over all 2,455
     * entries); each charge is the descent's time over its pins. Before, {@code PIN_US}: one constant for every page,
     * 0.124 µs, the fit of time = rate x pages through nblb27e's 4 and 16 KiB descents (226.6 and 168.7 ns).
     */
    static final double[] INDEX_PACKED_US = {0.0800, 0.0811, 0.1521};

    /**
     * The same for a B+tree with {@code BTreePage} leaves (a cold partition's index, or any index without a hot
     * partition): {@code PinBenchmark.descentBTreePage}, 30,000 integer keys in key order (about wiki 3571's whole
     * {@code revision} primary index): 284.1 ns (+-53.1) for 3 pages at 4 KiB, 229.5 (+-36.6) for 2 at 8 KiB, 218.5
     * (+-32.9) for 2 at 16 KiB.
     */
    static final double[] INDEX_US = {0.0947, 0.1148, 0.1093};

    /**
     * Modeled engine time of a heap page in NSM a query reads a tuple from, in microseconds, at 4, 8 and 16 KiB: the
     * pin, every field of the tuple read as {@code Table.project} reads it ({@code HeapFile.project}), the unpin.
     * {@code PinBenchmark.heapNsm}, a random tuple of 20,000 revision-like records (seven integers and a comment of
     * 8-40 bytes, about a MiB of pages): 152.2 ns (+-29.6), 165.0 (+-25.9), 173.2 (+-65.9). A query that projects
     * fewer fields pays less; a tuple of a cold heap read far from the last pays more cache misses. Overflow pages,
     * Arrow blocks' tuple reads and any page pinned outside the heaps and trees are charged at this rate (not
     * measured apart).
     */
    static final double[] HEAP_NSM_US = {0.1522, 0.1650, 0.1732};

    /**
     * The same in PAX pages ({@code PinBenchmark.heapPax}: the fields from their minipages): 195.9 ns (+-77.9),
     * 168.7 (+-28.9), 167.1 (+-18.6). HPL's pages are charged at this rate (not measured apart).
     */
    static final double[] HEAP_PAX_US = {0.1959, 0.1687, 0.1671};

    /**
     * The modeled engine time of one page of {@code kind} ({@code ExecutionResult.pinsByKind}'s keys) touched at
     * {@code pageSize}, in microseconds: the charge measured at that size, or at the nearest size measured ({@link
     * #CHARGED_PAGE_SIZES}, nearest in powers of two) for a size the search does not try.
     */
    public static double pinUs(String kind, int pageSize) {
        double[] charges = switch (kind) {
            case "index_packed" -> INDEX_PACKED_US;
            case "index" -> INDEX_US;
            case "heap_pax", "heap_hpl" -> HEAP_PAX_US;
            default -> HEAP_NSM_US;
        };
        int at = 0;
        for (int i = 1; i < CHARGED_PAGE_SIZES.length; i++)
            if (Math.abs(Math.log((double) pageSize / CHARGED_PAGE_SIZES[i]))
                    < Math.abs(Math.log((double) pageSize / CHARGED_PAGE_SIZES[at]))) at = i;
        return charges[at];
    }

    private Autotune() {}

    /**
     * The model's own measured error, relative: {@link #DECODE_US_PER_DICTIONARY_FRAME_BYTE} is a least-squares fit
     * within 12% of every point it rests on (-6%, +11%, 0%, +12%, +2%, -1% over six medians: two wikis, three
     * dictionary sizes; docs/benchmarks.md, issue 27, "The cost model charges the design's dictionary"). The charges
     * per page touched ({@link #pinUs}) are now measured for each page size and kind, so a comparison between page
     * sizes no longer rests on one constant that was -26% at 16 KiB; their own spread is wider than this fraction
     * (JMH's 99.9% intervals +-5% to +-40%, and the packed 4 KiB descent measured 226.6 ns in one quiet run and
     * 160.0 in another), and the value is kept, not chosen again after seeing what it picks. The model leaves out
     * the executor's own work per event (about 2-3 µs a query measured end to end, the same for every design): it
     * cancels in any difference between two designs, and adding it would only shrink every ratio toward 1 and let
     * this band hide differences the charged parts measure.
     * Two modeled costs within this fraction of each other are not told apart by the model
     * ({@link #indistinguishable}).
     */
    public static final double MODEL_ERROR = 0.12;

    /**
     * Whether two modeled costs are within {@link #MODEL_ERROR} of each other: the larger at most {@code 1 +
     * MODEL_ERROR} times the smaller.
     */
    public static boolean indistinguishable(double a, double b) {
        return Math.max(a, b) <= (1 + MODEL_ERROR) * Math.min(a, b);
    }

    /**
     * <b>The search's rule between two designs</b>: where the modeled costs are within the model's measured error of
     * each other ({@link #MODEL_ERROR}, 12%), the model cannot tell which is cheaper, and the design with the smaller
     * working set (the memory that serves the held-out events, the other target) is preferred; the cheaper
     * decides only beyond that error, or at equal working sets. Whether A is preferred to B: B, listed first (the
     * incumbent), keeps an exact tie.
     */
    public static boolean preferred(double costA, long workingSetA, double costB, long workingSetB) {
        if (indistinguishable(costA, costB))
            return workingSetA < workingSetB || (workingSetA == workingSetB && costA < costB);
        return costA < costB;
    }

    /**
     * Candidates in the order the search prefers them ({@link #preferred}, applied to a set): those within {@link
     * #MODEL_ERROR} of the cheapest first, by working set and then cost, then the others by cost; equal keys keep the
     * listed order. The band is measured from the cheapest, so the order is a total one (a sort by a pairwise "within
     * 12%" would not be transitive).
     */
    public static <T> List<T> rank(List<T> items, ToDoubleFunction<T> cost, ToLongFunction<T> workingSet) {
        double cheapest = items.stream().mapToDouble(cost).min().orElse(0);
        List<T> within = new ArrayList<>(), rest = new ArrayList<>();
        for (T t : items) (indistinguishable(cost.applyAsDouble(t), cheapest) ? within : rest).add(t);
        within.sort(Comparator.comparingLong(workingSet).thenComparingDouble(cost));
        rest.sort(Comparator.comparingDouble(cost));
        within.addAll(rest);
        return within;
    }

    /**
     * Modeled time to decode one byte of a zstd frame made with a field's trained dictionary, in microseconds. Such
     * a frame's decoding time follows its own bytes, not the value's: a dictionary that holds most of what the
     * values share makes a frame of a few long references into it, mostly a copy, so the same held-out texts
     * decode 0.30-0.31 ns a byte written with {@code compress_dict=1m} (frames 19x smaller), 0.99-1.08 with 512
     * KiB (5.4-5.5x) and 1.79-2.13 with the default 110 KiB (3.0x), and 5.3-6.3 ns a frame byte at all three. The
     * rate is the least-squares fit of time = rate x frame bytes to those six medians: the engine's own read path
     * ({@code FrameReader}), the JMH {@code DecompressBenchmark} on the held-out texts of the two generated wikis
     * under the exclusive lock, within 12% of every point (docs/benchmarks.md, issue 27, "The cost model charges
     * the design's dictionary"). Before, the model charged 0.002 µs a byte written whatever the dictionary: the
     * default's rate, six times the large dictionary's.
     */
    public static final double DECODE_US_PER_DICTIONARY_FRAME_BYTE = 0.00596;

    /**
     * Modeled time to decompress a frame made without a dictionary (the cold partition's, level 3, about 1.9x),
     * in microseconds per byte it writes: the same benchmark's {@code plainFrames}, 2.01-2.07 ns a byte (3.9-4.0
     * a frame byte: such a frame decodes more literals and fewer copies per byte it holds).
     */
    public static final double DECOMPRESS_US_PER_PLAIN_BYTE = 0.00204;

    /**
     * Modeled time of a {@code compress_cache=} hit, in microseconds a hit: the key (a hash of an inline frame's
     * bytes, or the overflow reference), the lookup, the inline frame compared whole and the value copied into the
     * reader's record, as {@code Table.untag} does. {@code DecompressBenchmark.cacheHit} (quiet, the held-out texts
     * a 256 KiB cache holds, frames made with the 1 MiB dictionary, 5 iterations): 10.6 µs for 47 hits of 250,320
     * bytes on the 3,000-page wiki, 13.8 µs for 63 hits of 245,083 on the 2,000-page one; time = rate x hits fits
     * both within 2% (0.2214 µs a hit), time = rate x bytes only within 16% (0.042 and 0.056 ns a byte), so a hit is
     * charged per hit (docs/benchmarks.md, issue 27, "A value-cache hit charged"). Before, a hit was free.
     */
    public static final double CACHE_HIT_US = 0.2214;

    /**
     * Modeled time a {@code compress_cache=} miss adds to the decompression, in microseconds a miss: the key, the
     * failed lookup, the inline frame and the value copied into the cache, the least recently read dropped ({@code
     * DecompressBenchmark.cacheMiss}, every held-out text through a 256 KiB cache: 0.704 and 0.679 µs a miss, the
     * fit 0.696 within 3% of both).
     */
    public static final double CACHE_MISS_US = 0.696;

    /**
     * Modeled time of a decompressed read's copy of its value into the reader's record, after the decoding that
     * {@link #DECODE_US_PER_DICTIONARY_FRAME_BYTE} times, in microseconds per byte ({@code
     * DecompressBenchmark.copyValue}: 0.0192 and 0.0252 ns a byte, the fit through the origin 0.0212, within 16%): a
     * hit copies its value too ({@link #CACHE_HIT_US}), so charging the hit its copy and not the decompressed read
     * would count the copy against the cache alone. Charged only for the copies a read makes ({@code
     * ExecutionResult.decompressedCopiedBytes}: an Arrow block's values decompressed into a buffer); a zstd frame
     * decodes into the record's own buffer and is charged its decoding alone.
     */
    public static final double COPY_US_PER_BYTE = 0.0000212;

    /**
     * The modeled cost per query of a run: device time plus each pin's charge by kind and page size ({@link
     * #pagesUs}) plus the decompression of
     * what its reads of compressed fields decoded ({@link #DECODE_US_PER_DICTIONARY_FRAME_BYTE},
     * {@link #DECOMPRESS_US_PER_PLAIN_BYTE}) and its copy into the record ({@link #COPY_US_PER_BYTE}), plus what the
     * value cache's hits and misses did ({@link #CACHE_HIT_US}, {@link #CACHE_MISS_US}).
     */
    public static double modeledUs(ExecutionResult r) {
        // A tuple read in an Arrow block (layout=arrow) costs what a pin of the heap page holding it costs on pages:
        // both are memory touched under a latch, and counting neither would favour the blocks for free.
        double blockAccesses = r.queries() == 0 ? 0 : (double) r.blockAccesses() / r.queries();
        double frames = r.queries() == 0 ? 0 : (double) r.dictionaryFrameBytes() / r.queries();
        double plain = r.queries() == 0 ? 0 : (double) r.plainDecompressedBytes() / r.queries();
        double copied = r.queries() == 0 ? 0 : (double) r.decompressedCopiedBytes() / r.queries();
        double hits = r.queries() == 0 ? 0 : (double) r.valueCacheHits() / r.queries();
        double misses = r.queries() == 0 ? 0 : (double) r.valueCacheMisses() / r.queries();
        return r.deviceUsPerQuery()
                + pagesUs(r)
                + pinUs("heap_nsm", r.pageSize()) * blockAccesses
                + DECODE_US_PER_DICTIONARY_FRAME_BYTE * frames
                + DECOMPRESS_US_PER_PLAIN_BYTE * plain
                + COPY_US_PER_BYTE * copied
                + CACHE_HIT_US * hits
                + CACHE_MISS_US * misses;
    }

    /**
     * The modeled engine time per query of the pages a run touched: each kind's pins ({@code
     * ExecutionResult.pinsByKind}) times its charge at the run's page size ({@link #pinUs}); pins of no listed kind
     * are charged as NSM heap pages.
     */
    static double pagesUs(ExecutionResult r) {
        if (r.queries() == 0) return 0;
        double us = 0;
        long listed = 0;
        for (Map.Entry<String, Long> k : r.pinsByKind().entrySet()) {
            us += pinUs(k.getKey(), r.pageSize()) * k.getValue();
            listed += k.getValue();
        }
        us += pinUs("heap_nsm", r.pageSize()) * Math.max(0, r.pins() - listed);
        return us / r.queries();
    }

    /**
     * Runs the search, step by step: the baseline and the {@linkplain TraceSplit split}, the
     * {@linkplain DesignSearch search} (candidates {@linkplain Candidates pruned} and
     * {@linkplain Screening screened}), the {@linkplain Finalists finalists}; then the report.
     */
    public static AutotuneReport run(AutotuneOptions o, Progress progress, Consumer<String> warnings)
            throws IOException, SQLException {
        long started = System.nanoTime();
        long memory;
        try {
            memory = EngineConfig.parseSize("--memory", o.memory());
            EngineConfig.parse("", EngineConfig.defaults(memory)); // checks the budget holds two pages
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        DeviceModel device = DeviceModel.NVME;
        try (ReplaySource src = ReplaySource.open(o.data(), o.trace(), List.of(), o.maxEvents(), progress, warnings)) {
            List<AccessEvent> events = src.events();
            int at = src.splitPoint(o.train());
            List<AccessEvent> training = events.subList(0, at);

            // The baseline, jointly: the yardstick, each table's share of its working set, and the keys joins bound.
            EngineConfig base = EngineConfig.defaults(memory).withLabel("baseline");
            ExecutionResult baseRun = src.run(base, "baseline", training, events, at, device, Map.of(), true);
            long oneReplay = baseRun.loadMillis() + baseRun.replayMillis();
            TraceSplit split = TraceSplit.of(
                    events,
                    at,
                    baseRun.joinBindings(),
                    baseRun.workingSetByStructure(),
                    (table, index) -> indexColumns(src, table, index),
                    memory,
                    EngineConfig.DEFAULT_PAGE_SIZE);

            CandidateLog log = new CandidateLog();
            Candidates candidates = new Candidates(src, split, log);
            Screening screening = new Screening(src, device, split, warnings);
            Stages stages = Stages.of(progress, split.tables().size());
            DesignSearch.Designs designs = new DesignSearch(split, candidates, screening, log, stages).run();
            stages.next("finalists");
            Finalists.Outcome out = new Finalists(src, device, split, memory, o, candidates, screening, log)
                    .run(designs, base, baseRun);
            stages.finish();

            Map<String, Long> rows = new LinkedHashMap<>();
            for (LoadedTable lt : src.session().tables().values())
                rows.put(lt.def().name().toLowerCase(Locale.ROOT), lt.rows());
            Map<String, List<double[]>> skew =
                    AccessSkew.of(src.heat(training), n -> rows.getOrDefault(n.toLowerCase(Locale.ROOT), 0L));
            List<String> ddl = Ddl.of(src, out.choices(), out.recommendedDesigns(), out.recommendedLine());
            List<Evaluation> evaluations = log.evaluations();
            long millis = (System.nanoTime() - started) / 1_000_000;
            return new AutotuneReport(
                    o.data(),
                    o.trace().toString(),
                    o.train(),
                    training.size(),
                    events.size() - at,
                    memory,
                    out.baseline(),
                    out.bestUniform(),
                    out.recommended(),
                    out.fallback(),
                    out.choices(),
                    evaluations,
                    log.pruned(),
                    out.curve(),
                    cacheCurve(evaluations),
                    skew,
                    ddl,
                    millis,
                    oneReplay,
                    screening.runs(),
                    1 + out.jointRuns(),
                    screening.millis());
        }
    }

    private static List<String> indexColumns(ReplaySource src, String table, String index) {
        TableDef t = src.schema().table(table).orElseThrow();
        if (index.equalsIgnoreCase("PRIMARY")) return t.primaryKey();
        return t.index(index).orElseThrow().columns();
    }

    /**
     * Cache hit rate against cache size, per table, from the evaluations that tried the cache step
     * on all the held-out events (or the longest prefix).
     */
    static List<CachePoint> cacheCurve(List<Evaluation> evaluations) {
        Map<String, CachePoint> best = new TreeMap<>();
        Map<String, Double> prefixOf = new HashMap<>();
        for (Evaluation e : evaluations) {
            if (!e.step().equals(Dimension.CACHE.key())
                    || e.table().equals("uniform")
                    || !e.design().contains("cache=swap")) continue;
            double size = Double.parseDouble(e.design().replaceAll(".*cache_size=([0-9.]+).*", "$1"));
            String k = e.table() + "|" + size;
            if (prefixOf.getOrDefault(k, -1.0) < e.prefix()) {
                prefixOf.put(k, e.prefix());
                best.put(k, new CachePoint(e.table(), size, e.cacheHitRate()));
            }
        }
        return new ArrayList<>(best.values());
    }
}

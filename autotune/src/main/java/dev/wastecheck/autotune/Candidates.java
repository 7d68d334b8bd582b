package dev.wastecheck.autotune;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.replay.ReplaySource;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The candidates of each step of the search, and the analysis that prunes them: a candidate is not
 * replayed when the analysis shows it is the same design as one that is (tight types that change no
 * column of the table, a cache with no field to keep, a split that keeps nothing apart), or that it
 * has nothing to act on (clustering a table the training never reads by key). Every pruned candidate
 * goes to the {@link CandidateLog} with its reason.
 */
final class Candidates {
    /** Index-cache sizes tried, as shares of a leaf's tuples. */
    static final double[] CACHE_SIZES = {0.1, 0.3, 1.0};
    /** Block sizes of {@code compress_block=} tried, in KiB (docs/benchmarks.md, "Block-compressed overflow"). */
    static final int[] BLOCK_KIB = {4, 16, 64};
    /** Sizes of {@code compress_cache=} tried, in KiB: about 50 and 200 texts of the generated wikis' 5 KB. */
    static final int[] VALUE_CACHE_KIB = {256, 1024};
    /**
     * Sizes of {@code compress_dict=} tried, in KiB, beside zstd's default 110 KiB: a dictionary that may hold what
     * many values share (docs/benchmarks.md, "A dictionary the size of what the texts share"); tried alone and with
     * the smaller value cache.
     */
    static final int[] DICTIONARY_KIB = {1024};
    /**
     * Caps of {@code compress_dict_kind=content} tried, in KiB: a dictionary of the values' own distinct bytes
     * ({@code ContentDictionary}), which holds as much as they share only when it has room for all of it; the
     * pool gives up the cap, the working set counts what the dictionary holds (docs/benchmarks.md, "A dictionary of
     * the values' own bytes"). Tried alone and with the smaller value cache.
     */
    static final int[] CONTENT_DICTIONARY_KIB = {1024, 2048};
    /**
     * Page layouts the search tries per table. {@code layout=arrow} is not one: Arrow blocks are
     * one storage for the whole database, tried once as the best uniform design ({@link Finalists}).
     */
    static final List<Layout> LAYOUTS = List.of(Layout.NSM, Layout.PAX, Layout.HPL);

    private final ReplaySource src;
    private final TraceSplit split;
    private final CandidateLog log;
    private final Map<String, List<String[]>> tightChanges = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    Candidates(ReplaySource src, TraceSplit split, CandidateLog log) {
        this.src = src;
        this.split = split;
        this.log = log;
    }

    /**
     * The designs {@code dimension} offers from {@code current}, the incumbent's own value first
     * where it is one of them; {@code table} null for the uniform design.
     */
    List<TableDesign> options(Dimension dimension, TableDesign current, String table) {
        List<TableDesign> out = new ArrayList<>();
        switch (dimension) {
            case CLUSTER -> {
                out.add(current.with("cluster", "none"));
                out.add(current.with("cluster", "1"));
                out.add(current.with("cluster", "partition"));
                // a hot tuple unread for a quarter of the table's training events goes cold
                long span = Math.max(
                        1_000,
                        (table == null
                                        ? split.trainingEvents().size()
                                                / Math.max(1, split.training().size())
                                        : split.training(table).size())
                                / 4);
                out.add(current.with("cluster", "partition")
                        .with("demote_after", String.valueOf(span))
                        .with("promote", "2"));
            }
            case TIGHT -> {
                out.add(current.with("tight", "off"));
                out.add(current.with("tight", "on"));
            }
            case SPLIT -> {
                out.add(current.with("split", "none"));
                out.add(current.with("split", "cold"));
                out.add(current.with("split", "updates"));
                out.add(current.with("split", "cached"));
            }
            case COMPRESS -> {
                // §4.1: large fields stored compressed; the replay pays the decompression in every read
                TableDesign plain = current.with("compress_cache", "0")
                        .with("compress_dict", "0")
                        .with("compress_dict_kind", "trained");
                out.add(plain.with("compress", "none"));
                out.add(plain.with("compress", "large").with("compress_block", "0"));
                // long values compressed many at a time, in blocks of these raw sizes (BlockOverflow): a
                // read decompresses its whole block, which the modeled cost charges per byte
                for (int kib : BLOCK_KIB)
                    out.add(plain.with("compress", "large").with("compress_block", kib + "k"));
                // the values last read kept decompressed, their memory taken from the pool's (DecompressedCache)
                for (int kib : VALUE_CACHE_KIB)
                    out.add(current.with("compress", "large")
                            .with("compress_block", "0")
                            .with("compress_cache", kib + "k"));
                // a larger trained dictionary, its memory taken from the pool's (Table.trainDictionaries)
                for (int kib : DICTIONARY_KIB) {
                    TableDesign dict = plain.with("compress", "large")
                            .with("compress_block", "0")
                            .with("compress_dict", kib + "k");
                    out.add(dict);
                    out.add(dict.with("compress_cache", VALUE_CACHE_KIB[0] + "k"));
                }
                // a dictionary of the values' own distinct bytes, up to a cap (ContentDictionary)
                for (int kib : CONTENT_DICTIONARY_KIB) {
                    TableDesign dict = plain.with("compress", "large")
                            .with("compress_block", "0")
                            .with("compress_dict", kib + "k")
                            .with("compress_dict_kind", "content");
                    out.add(dict);
                    out.add(dict.with("compress_cache", VALUE_CACHE_KIB[0] + "k"));
                }
            }
            case CACHE -> {
                out.add(current.with("cache", "off").with("cache_size", "1"));
                for (double s : CACHE_SIZES)
                    out.add(current.with("cache", "swap").with("cache_size", String.valueOf(s)));
            }
            case LAYOUT -> {
                for (Layout l : LAYOUTS) out.add(current.withLayout(l));
            }
        }
        return out;
    }

    /** The analyzer's tight type changes the engine can store for {@code table}: declared, suggested, field. */
    List<String[]> tightChanges(String table) throws IOException, SQLException {
        List<String[]> known = tightChanges.get(table);
        if (known == null) {
            known = src.tightChanges(table);
            tightChanges.put(table, known);
        }
        return known;
    }

    /**
     * The same physical design, written one way: tight types that change nothing are off, a cache
     * with nothing to keep is off, a split that keeps nothing apart is none. Null when the analysis
     * rules the design out for this table; with {@code record}, each pruning goes to the log.
     */
    TableDesign canonical(String table, TableDesign d, boolean record) throws IOException, SQLException {
        TableDesign c = d;
        List<AccessEvent> training = split.trainingEvents();
        if (!c.tight().isEmpty() && tightChanges(table).isEmpty()) {
            c = c.with("tight", "off");
            prune(
                    record,
                    table,
                    Dimension.TIGHT,
                    d.tightLabel(),
                    "the analyzer's tight types change no column the engine can store exactly");
        }
        if (c.cache() != CachePolicy.OFF) {
            Map<String, List<String>> advice =
                    src.cacheAdvice(training).getOrDefault(table.toLowerCase(Locale.ROOT), Map.of());
            if (advice.values().stream().allMatch(List::isEmpty)) {
                c = c.with("cache", "off").with("cache_size", "1");
                prune(
                        record,
                        table,
                        Dimension.CACHE,
                        d.cache().name().toLowerCase(Locale.ROOT),
                        "no read in the training events would be answered by an index's key and cacheable fields");
            }
        }
        if (!c.split().none() && src.resolveSplit(table, c, training).split().none()) {
            prune(
                    record,
                    table,
                    Dimension.SPLIT,
                    c.split().label(),
                    switch (c.split().mode()) {
                        case "cold" -> "the training events read every column (or keys on it)";
                        case "cached" -> "no index would cache a field outside its keys";
                        default -> "the training events update no column outside the keys";
                    });
            c = c.withSplit(TableDesign.Split.NONE);
        }
        if (!c.compress().none() && (table == null || src.longColumns(table).isEmpty())) {
            prune(
                    record,
                    table,
                    Dimension.COMPRESS,
                    c.compress().label(),
                    "no column of this table is long enough to leave a page (nothing to compress)");
            c = c.with("compress", "none");
        }
        long side = (long) c.compress().cache() + c.compress().dictionary();
        if (table != null && side > split.share(table) / 2) {
            // Database takes the cache's and the dictionary's bytes out of the pool: more than half the table's share
            // would leave its pages too few frames (and below two pages the run refuses to start)
            prune(
                    record,
                    table,
                    Dimension.COMPRESS,
                    "compress_cache=" + c.compress().cache() + ",compress_dict="
                            + c.compress().dictionary(),
                    "the cache and the dictionary would take more than half of the table's " + split.share(table)
                            + " B of memory");
            c = c.with("compress_cache", "0").with("compress_dict", "0").with("compress_dict_kind", "trained");
        }
        if (c.clusterFraction() > 0 || c.partition()) {
            boolean keyed = split.training(table).stream()
                    .anyMatch(e ->
                            e.operation() != Operation.INSERT && e.operation() != Operation.SCAN && e.keyComplete());
            if (!keyed && !c.partition()) {
                prune(
                        record,
                        table,
                        Dimension.CLUSTER,
                        c.clusterLabel(),
                        "the training events read no tuple of this table by key: no heat to cluster by");
                return null;
            }
        }
        return c;
    }

    /**
     * A uniform design as it applies to {@code table}: its canonical form, or where the analysis
     * would rule it out for this table (a uniform design applies to every table, even one the
     * per-table search would not try it on), the closest design that is not ruled out.
     */
    TableDesign forTable(String table, TableDesign uniform) throws IOException, SQLException {
        TableDesign c = canonical(table, uniform, false);
        if (c != null) return c;
        TableDesign nsm = canonical(table, uniform.withLayout(Layout.NSM), false);
        TableDesign base = nsm == null ? uniform.with("cluster", "none").withLayout(Layout.NSM) : nsm;
        return base.withLayout(uniform.layout());
    }

    /**
     * The recommendation's per-table designs: those that differ from the uniform design. Tables the search did not
     * tune (no held-out event) keep the uniform design, as in the uniform finalist: when every table chose the uniform
     * design, the two finalists are the same configuration.
     */
    Map<String, TableDesign> perTable(Map<String, TableDesign> chosen, TableDesign uniform)
            throws IOException, SQLException {
        Map<String, TableDesign> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, TableDesign> c : chosen.entrySet()) {
            if (!c.getValue().equals(forTable(c.getKey(), uniform))) out.put(c.getKey(), c.getValue());
        }
        return out;
    }

    private void prune(boolean record, String table, Dimension dimension, String value, String reason) {
        if (record) log.prune(table, dimension.key(), value, reason);
    }
}

package dev.wastecheck.replay;

import java.util.List;
import java.util.Map;

/**
 * What one configuration's replay measured, for the renderers (the replay JSON's run object,
 * docs/json.md). The engine's per-event result digests stay behind: they are compared inside the
 * replay ({@link ReplayReport#mismatches()}).
 *
 * @param queries          access events executed and measured (after the warm-up share)
 * @param executed         access events executed in all, warm-up included
 * @param skipped          events the engine cannot execute from the trace alone (scans, keys a join binds)
 * @param memoryBytes      the buffer pool's budget
 * @param heapBytes        heap and overflow pages of all tables
 * @param indexBytes       B+tree pages of all indexes
 * @param cacheBytes       index-cache items held at the end
 * @param workingSetBytes  distinct pages the measured queries touched, times the page size
 * @param leafFill         share of leaf bytes in use, before the replay
 * @param pagesPerQuery    buffer-pool pins per measured query
 * @param latencyUs        measured latency per query, in microseconds
 * @param deviceUsPerQuery modeled device time per measured query
 * @param costPerQueryUs   mean latency plus device time per query
 * @param throughputQps    measured queries per second of engine time (device time excluded)
 * @param moved            tuples relocated or moved to a hot partition, per table
 * @param workingSetByStructure the working set split by table and structure ({@code table.heap}, ...), largest first
 * @param repeats          how many times the configuration ran (interleaved with the others)
 * @param costPerQueryUsCi95 a 95% interval of the median cost per query over the repeats ({@link Stats#medianCi95})
 * @param speedupVsFirst   the median over the repeats of the baseline's cost over this run's, repeat by repeat
 * @param speedupCi95      a 95% interval of that median
 * @param skippedByReason  measured events skipped, per reason
 * @param deviceReads      page reads (buffer-pool misses) of the measured events, first repeat
 * @param upkeep           the hot partitions' upkeep, per table: promoted and demoted tuples
 * @param hotRules         with {@code hot=refs}: the rules learned for the hot partitions, described
 * @param decompressedBytesPerQuery bytes the measured events decompressed reading compressed fields (a frame per value,
 *                         or whole blocks with {@code compress_block=}), per query, first repeat
 * @param deviceReadsByStructure the measured events' device reads per structure ({@code table.hot_overflow}, ...),
 *                         first repeat
 * @param dictionaryFrameBytesPerQuery of those, bytes of the zstd frames made with a dictionary that they decoded, per
 *                         query, first repeat
 * @param plainDecompressedBytesPerQuery of those, bytes written from frames made without one, per query, first repeat
 * @param decompressedCopiedBytesPerQuery bytes of the values those reads decompressed into a buffer and then copied
 *                         into the reader's record (a block's values; a frame decodes into the record, no copy), per
 *                         query, first repeat
 * @param valueCacheHitsPerQuery with {@code compress_cache=}: lookups it answered, per query, first repeat
 * @param valueCacheMissesPerQuery with {@code compress_cache=}: lookups it did not answer, per query, first repeat
 * @param indexBytesByStructure the B+tree pages allocated at the end of the first repeat, per table and partition
 *                         ({@code table.index}, {@code table.hot_index}), in bytes: a structure's size, §3.1's measure
 * @param indexBytesByIndex the same per index ({@code table.index.NAME}, {@code table.hot_index.NAME})
 * @param pageSize         the buffer pool's page size in bytes
 * @param pinsByKindPerQuery buffer-pool pins per query by kind of page ({@code index}, {@code index_packed}, {@code
 *                         heap_nsm}, {@code heap_pax}, {@code heap_hpl}, {@code overflow}), first repeat: what {@code
 *                         autotune}'s modeled cost charges by kind and page size
 * @param costPerQueryUsByRound the cost per query of each repeat, in the order of the rounds (one value without
 *                         {@code --repeat}): what the median and its interval summarize, and what pairs by round with the
 *                         baseline's
 * @param jitCompileMsByRound the JIT's compile time during each repeat (its load and its replay), in milliseconds, in
 *                         round order; empty when not known. A measured round during which the JIT still compiles ran
 *                         before the code settled, on cores the compiler threads shared
 * @param gcMsByRound      the garbage collectors' time during each repeat, in milliseconds, in round order; empty when
 *                         not known
 */
public record RunReport(
        String config,
        String settings,
        long queries,
        long executed,
        long skipped,
        long rowsReturned,
        long memoryBytes,
        long heapBytes,
        long indexBytes,
        long cacheBytes,
        long workingSetBytes,
        double leafFill,
        double bufferHitRate,
        double cacheHitRate,
        double pagesPerQuery,
        Latency latencyUs,
        double deviceUsPerQuery,
        double costPerQueryUs,
        double throughputQps,
        long loadMillis,
        long replayMillis,
        Map<String, Long> moved,
        Map<String, Long> workingSetByStructure,
        int repeats,
        double[] costPerQueryUsCi95,
        double speedupVsFirst,
        double[] speedupCi95,
        Map<String, Long> skippedByReason,
        long deviceReads,
        Map<String, Long> upkeep,
        List<String> hotRules,
        double decompressedBytesPerQuery,
        Map<String, Long> deviceReadsByStructure,
        double dictionaryFrameBytesPerQuery,
        double plainDecompressedBytesPerQuery,
        double decompressedCopiedBytesPerQuery,
        double valueCacheHitsPerQuery,
        double valueCacheMissesPerQuery,
        Map<String, Long> indexBytesByStructure,
        Map<String, Long> indexBytesByIndex,
        int pageSize,
        Map<String, Double> pinsByKindPerQuery,
        double[] costPerQueryUsByRound,
        long[] jitCompileMsByRound,
        long[] gcMsByRound) {

    /** Latency percentiles and mean, in microseconds. */
    public record Latency(double p50, double p95, double p99, double mean) {}
}

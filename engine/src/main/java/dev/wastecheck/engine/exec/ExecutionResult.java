package dev.wastecheck.engine.exec;

import dev.wastecheck.engine.metrics.LatencyRecorder;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * What the {@link Executor} measured in one run of events under one {@link EngineConfig}: the
 * figures of the replay JSON's run object (docs/replay.md; the {@code replay} module's
 * {@code RunReport} is these figures over repeats, without the digests), and the per-event
 * digests {@code --check} compares.
 *
 * @param queries          access events executed and measured (after the warm-up share)
 * @param executed         access events executed in all, warm-up included
 * @param skipped          events the engine cannot execute from the trace alone (scans, keys a join binds)
 * @param memoryBytes      the buffer pool's budget
 * @param heapBytes        heap and overflow pages of all tables
 * @param indexBytes       B+tree pages of all indexes
 * @param cacheBytes       index-cache items held at the end
 * @param workingSetBytes  distinct pages the measured queries touched, times the page size: the memory
 *                         that serves the workload without a miss
 * @param leafFill         share of leaf bytes in use, before the replay
 * @param pagesPerQuery    buffer-pool pins per measured query
 * @param deviceUsPerQuery modeled device time per measured query
 * @param costPerQueryUs   mean latency plus device time per query
 * @param throughputQps    measured queries per second of engine time (device time excluded)
 * @param moved            tuples relocated or moved to a hot partition, per table
 * @param digests          per event, the digest of its result ({@code ResultDigest}); 0 when skipped
 * @param executedEvents   which events were executed (the others were skipped)
 * @param workingSetByStructure the working set split by table and structure ({@code table.heap},
 *                         {@code table.index}, {@code table.hot_heap}, ...), largest first
 * @param skippedByReason  measured events skipped, per reason ({@code key bound by a join with no driving row}, ...)
 * @param pins             buffer-pool pins of the measured events
 * @param deviceReads      page reads of the measured events (buffer-pool misses)
 * @param deviceWrites     page writes of the measured events (dirty pages written back)
 * @param upkeep           with a hot partition's upkeep, per table: {@code table.promoted}, {@code table.demoted}
 * @param joinBindings     when the replayer recorded them: per event whose key a join binds, the literals of each key
 *                         it looked up (the leading key columns in index order)
 * @param blockAccesses    with {@code layout=arrow}: tuples the measured events read or wrote in Arrow blocks (in memory,
 *                         so neither pins nor device reads); 0 on pages
 * @param hotRules         with {@code hot=refs}: the rules learned for the hot partitions, described, and for each
 *                         partitioned table that got none, why
 * @param decompressedBytes bytes the measured events decompressed reading compressed fields (single-value frames and
 *                         whole blocks of {@code compress_block=}): the CPU those reads pay, charged per byte by the
 *                         modeled cost
 * @param deviceReadsByStructure the measured events' device reads per structure, keyed as {@code workingSetByStructure}
 * @param dictionaryFrameBytes of {@code decompressedBytes}, the bytes of the zstd frames made with a dictionary that
 *                         those reads decoded: such a frame decodes in a time that follows its own bytes, and the
 *                         modeled cost charges them
 * @param plainDecompressedBytes of {@code decompressedBytes}, the bytes written from frames made without a dictionary
 * @param decompressedCopiedBytes bytes of the values those reads decompressed into a buffer and then copied into the
 *                         reader's record (a block's values; a frame decodes into the record itself, no copy)
 * @param valueCacheHits   with {@code compress_cache=}: lookups it answered (each a key, a frame compared, the value
 *                         copied into the reader's record; the modeled cost charges them per hit)
 * @param valueCacheMisses with {@code compress_cache=}: lookups it did not answer (each then decompresses the value
 *                         and copies it, and an inline frame, into the cache)
 * @param indexBytesByStructure the B+tree pages allocated at the end of the run, per table and partition ({@code
 *                         table.index}, {@code table.hot_index}), times the page size: the size of a structure, the
 *                         measure of "No Bits Left Behind" §3.1 (27.1 GB for the full revision index, 1.4 GB for the
 *                         hot partition's), beside the working set's pages touched
 * @param indexBytesByIndex the same per index: {@code table.index.NAME}, {@code table.hot_index.NAME} (a hot partition
 *                         keeps only the indexes its reads use, Table.createHotPartition)
 * @param pageSize         the buffer pool's page size in bytes: what a page touched costs depends on it (a larger page's
 *                         search covers more entries), and the modeled cost charges a pin by it
 * @param pinsByKind       of {@code pins}, those of each kind of page ({@code Database.pinsByKind}: {@code index},
 *                         {@code index_packed}, {@code heap_nsm}, {@code heap_pax}, {@code heap_hpl}, {@code overflow});
 *                         the modeled cost charges each kind its measured cost per page at {@code pageSize}
 */
public record ExecutionResult(
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
        LatencyRecorder.Summary latencyUs,
        double deviceUsPerQuery,
        double costPerQueryUs,
        double throughputQps,
        long loadMillis,
        long replayMillis,
        Map<String, Long> moved,
        long[] digests,
        BitSet executedEvents,
        Map<String, Long> workingSetByStructure,
        Map<String, Long> skippedByReason,
        long pins,
        long deviceReads,
        long deviceWrites,
        Map<String, Long> upkeep,
        Map<Integer, List<List<String>>> joinBindings,
        long blockAccesses,
        List<String> hotRules,
        long decompressedBytes,
        Map<String, Long> deviceReadsByStructure,
        long dictionaryFrameBytes,
        long plainDecompressedBytes,
        long decompressedCopiedBytes,
        long valueCacheHits,
        long valueCacheMisses,
        Map<String, Long> indexBytesByStructure,
        Map<String, Long> indexBytesByIndex,
        int pageSize,
        Map<String, Long> pinsByKind) {

    /** A run that measured nothing: no event, no byte, no time. */
    public static ExecutionResult empty() {
        return new ExecutionResult(
                "",
                "",
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                new LatencyRecorder().summary(),
                0,
                0,
                0,
                0,
                0,
                Map.of(),
                new long[0],
                new BitSet(),
                Map.of(),
                Map.of(),
                0,
                0,
                0,
                Map.of(),
                Map.of(),
                0,
                List.of(),
                0,
                Map.of(),
                0,
                0,
                0,
                0,
                0,
                Map.of(),
                Map.of(),
                0,
                Map.of());
    }
}

package dev.wastecheck.engine.replay;

import dev.wastecheck.engine.metrics.LatencyRecorder;

import java.util.Map;

/**
 * What one configuration's replay measured (the replay JSON's run object, DESIGN.md).
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
 */
public record RunResult(String config, String settings, long queries, long executed, long skipped, long rowsReturned,
                        long memoryBytes, long heapBytes, long indexBytes, long cacheBytes, long workingSetBytes,
                        double leafFill, double bufferHitRate, double cacheHitRate, double pagesPerQuery,
                        LatencyRecorder.Summary latencyUs, double deviceUsPerQuery, double costPerQueryUs, double throughputQps,
                        long loadMillis, long replayMillis, Map<String, Long> moved, long[] digests,
                        java.util.BitSet executedEvents, Map<String, Long> workingSetByStructure) {
}

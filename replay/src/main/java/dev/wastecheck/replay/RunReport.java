package dev.wastecheck.replay;

import java.util.Map;

/**
 * What one configuration's replay measured, for the renderers (the replay JSON's run object,
 * DESIGN.md). The engine's per-event result digests stay behind: they are compared inside the
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
 */
public record RunReport(String config, String settings, long queries, long executed, long skipped, long rowsReturned,
                        long memoryBytes, long heapBytes, long indexBytes, long cacheBytes, long workingSetBytes,
                        double leafFill, double bufferHitRate, double cacheHitRate, double pagesPerQuery,
                        Latency latencyUs, double deviceUsPerQuery, double costPerQueryUs, double throughputQps,
                        long loadMillis, long replayMillis, Map<String, Long> moved, Map<String, Long> workingSetByStructure) {

    /** Latency percentiles and mean, in microseconds. */
    public record Latency(double p50, double p95, double p99, double mean) {
    }
}

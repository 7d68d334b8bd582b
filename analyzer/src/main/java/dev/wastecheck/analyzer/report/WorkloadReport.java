package dev.wastecheck.analyzer.report;

import java.util.List;
import java.util.Map;

/**
 * What the traces of {@code analyze --trace} showed.
 *
 * @param traces  what was read from each trace
 * @param access  per table (as the report names it), how it is accessed
 * @param indexes per index the trace used, the fields worth caching in its leaves
 * @param tables  the tables' reports with the workload's column findings added (unused columns, granularity)
 */
public record WorkloadReport(
        List<TraceSummary> traces,
        Map<String, AccessSummary> access,
        List<IndexCacheAdvice> indexes,
        List<TableReport> tables) {}

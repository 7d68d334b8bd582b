package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * Everything {@code wastecheck analyze} found, ready for any renderer.
 *
 * @param sources  what was read
 * @param dialect  the source engine whose types and storage sizes the report uses
 * @param warnings things the user must know that are not about one column
 * @param timingsMillis where the time went: reading and loading, profiling, inference
 * @param workload what the traces showed, or null when none was given
 */
public record AnalysisReport(List<String> sources, String dialect, List<TableReport> tables, long declaredBytes,
                             long tightBytes, List<String> warnings, long elapsedMillis, java.util.Map<String, Long> timingsMillis,
                             WorkloadReport workload) {
    public AnalysisReport {
        timingsMillis = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(timingsMillis));
        sources = List.copyOf(sources);
        tables = List.copyOf(tables);
        warnings = List.copyOf(warnings);
    }

    public long wastedBytes() {
        return Math.max(0, declaredBytes - tightBytes);
    }

    public long rows() {
        return tables.stream().mapToLong(TableReport::rows).sum();
    }

    public TableReport table(String name) {
        return tables.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + name));
    }
}

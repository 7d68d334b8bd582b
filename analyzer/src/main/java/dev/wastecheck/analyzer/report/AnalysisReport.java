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
 * @param references the columns found to hold another table's key values, with their evidence
 * @param domains    the groups of columns that take one type together: each key with its references,
 *                   and domains such as MediaWiki's namespaces ({@code table.column} names)
 */
public record AnalysisReport(
        List<String> sources,
        String dialect,
        List<TableReport> tables,
        long declaredBytes,
        long tightBytes,
        List<String> warnings,
        long elapsedMillis,
        java.util.Map<String, Long> timingsMillis,
        WorkloadReport workload,
        List<Reference> references,
        List<List<String>> domains,
        java.util.Map<String, Long> serverBytes) {
    /** What the advice rests on when no trace was given. */
    public static final String SNAPSHOT_ONLY =
            "the advice rests on the snapshot only: no trace (--trace) showed what the "
                    + "workload writes, so ranges, ENUM members and lengths are the dump's, with the headroom the policy leaves";

    public AnalysisReport(
            List<String> sources,
            String dialect,
            List<TableReport> tables,
            long declaredBytes,
            long tightBytes,
            List<String> warnings,
            long elapsedMillis,
            java.util.Map<String, Long> timingsMillis,
            WorkloadReport workload) {
        this(
                sources,
                dialect,
                tables,
                declaredBytes,
                tightBytes,
                warnings,
                elapsedMillis,
                timingsMillis,
                workload,
                List.of(),
                List.of());
    }

    public AnalysisReport(
            List<String> sources,
            String dialect,
            List<TableReport> tables,
            long declaredBytes,
            long tightBytes,
            List<String> warnings,
            long elapsedMillis,
            java.util.Map<String, Long> timingsMillis,
            WorkloadReport workload,
            List<Reference> references,
            List<List<String>> domains) {
        this(
                sources,
                dialect,
                tables,
                declaredBytes,
                tightBytes,
                warnings,
                elapsedMillis,
                timingsMillis,
                workload,
                references,
                domains,
                java.util.Map.of());
    }

    /**
     * The report with each table's size as a live server measures it (PostgreSQL's
     * {@code pg_table_size}: heap, TOAST and maps, no indexes; InnoDB's {@code data_length}: the
     * clustered index), keyed by lower-case table name.
     */
    public AnalysisReport withServerBytes(java.util.Map<String, Long> bytes) {
        return new AnalysisReport(
                sources,
                dialect,
                tables,
                declaredBytes,
                tightBytes,
                warnings,
                elapsedMillis,
                timingsMillis,
                workload,
                references,
                domains,
                bytes);
    }

    public AnalysisReport {
        references = List.copyOf(references);
        domains = domains.stream().map(List::copyOf).toList();
        timingsMillis = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(timingsMillis));
        sources = List.copyOf(sources);
        tables = List.copyOf(tables);
        warnings = List.copyOf(warnings);
        serverBytes = java.util.Map.copyOf(serverBytes);
    }

    public long wastedBytes() {
        return Math.max(0, declaredBytes - tightBytes);
    }

    public long rows() {
        return tables.stream().mapToLong(TableReport::rows).sum();
    }

    /** What the advice rests on: the snapshot only, or the snapshot and a trace. */
    public String basis() {
        return workload == null
                ? SNAPSHOT_ONLY
                : "the snapshot, and the trace's statements for what the workload reads and"
                        + " writes (tune --trace replays its writes against the tuned types)";
    }

    public TableReport table(String name) {
        return tables.stream()
                .filter(t -> t.name().equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no table " + name));
    }
}

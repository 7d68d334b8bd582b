package dev.wastecheck.analyzer.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * @param serverBytes each table's size as a live server measures it, by lower-case table name
 * @param sample     how a live database was sampled ({@code analyze --sample}), or null when every row was read
 * @param serverSpace per lower-case table name, the dead and free bytes a live PostgreSQL holds
 *                   (pgstattuple, when installed); empty otherwise
 * @param space      per lower-case table name, its bytes outside the column values: indexes, free and
 *                   dead space, counter headroom, and the engine's own total ({@link TableSpace})
 * @param indexFindings redundant, unused and low-cardinality indexes, with the bytes each holds
 */
public record AnalysisReport(
        List<String> sources,
        String dialect,
        List<TableReport> tables,
        long declaredBytes,
        long tightBytes,
        List<String> warnings,
        long elapsedMillis,
        Map<String, Long> timingsMillis,
        WorkloadReport workload,
        List<Reference> references,
        List<List<String>> domains,
        Map<String, Long> serverBytes,
        Sample sample,
        Map<String, ServerSpace> serverSpace,
        Map<String, TableSpace> space,
        List<IndexFinding> indexFindings) {
    /**
     * Space a table takes on the server beyond its live rows, by {@code pgstattuple_approx}:
     * dead tuples VACUUM has not reclaimed yet, and free space inside the table's pages.
     */
    public record ServerSpace(long deadBytes, long freeBytes) {}

    /**
     * A sampled analysis of a live database: the profile and the advice came from a random
     * {@code percent} of each table's rows, and then every suggested type and every "all NULL" or
     * "constant" observation was checked against all rows on the server (only counts cross the
     * wire). Sizes are the sample's scaled to the server's row counts.
     *
     * @param rowsProfiled per table (as the report names it) the rows the sample drew
     * @param checked      suggested types and observations checked on the server
     * @param withdrawn    of those, the ones some row on the server contradicted (the declared type stays)
     */
    public record Sample(double percent, int seed, Map<String, Long> rowsProfiled, int checked, int withdrawn) {
        public Sample {
            rowsProfiled = Collections.unmodifiableMap(new LinkedHashMap<>(rowsProfiled));
        }
    }

    /** What the advice rests on when no trace was given. */
    public static final String SNAPSHOT_ONLY =
            "the advice rests on the snapshot only: no trace (--trace) showed what the "
                    + "workload writes, so ranges, ENUM members and lengths are the snapshot's, with the headroom the policy leaves";

    public AnalysisReport(
            List<String> sources,
            String dialect,
            List<TableReport> tables,
            long declaredBytes,
            long tightBytes,
            List<String> warnings,
            long elapsedMillis,
            Map<String, Long> timingsMillis,
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
            Map<String, Long> timingsMillis,
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
                Map.of(),
                null,
                Map.of(),
                Map.of(),
                List.of());
    }

    /** The constructor before the space account existed: no table's space. */
    public AnalysisReport(
            List<String> sources,
            String dialect,
            List<TableReport> tables,
            long declaredBytes,
            long tightBytes,
            List<String> warnings,
            long elapsedMillis,
            Map<String, Long> timingsMillis,
            WorkloadReport workload,
            List<Reference> references,
            List<List<String>> domains,
            Map<String, Long> serverBytes,
            Sample sample,
            Map<String, ServerSpace> serverSpace) {
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
                serverBytes,
                sample,
                serverSpace,
                Map.of(),
                List.of());
    }

    /**
     * The report with what a live server measures of each table, keyed by lower-case table name:
     * its size ({@code bytes}: PostgreSQL's {@code pg_table_size}, heap, TOAST and maps, no
     * indexes; InnoDB's {@code data_length}, the clustered index) and, where pgstattuple is
     * installed, the dead and free bytes beyond the rows ({@code space}).
     */
    public AnalysisReport withServer(Map<String, Long> bytes, Map<String, ServerSpace> space) {
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
                bytes,
                sample,
                space,
                this.space,
                indexFindings);
    }

    /** The report with each table's space outside the column values, keyed by lower-case table name. */
    public AnalysisReport withSpace(Map<String, TableSpace> space) {
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
                serverBytes,
                sample,
                serverSpace,
                space,
                indexFindings);
    }

    /** The report with its tables replaced by the same tables with other findings (the byte totals stay). */
    public AnalysisReport withTables(List<TableReport> annotated) {
        return new AnalysisReport(
                sources,
                dialect,
                annotated,
                declaredBytes,
                tightBytes,
                warnings,
                elapsedMillis,
                timingsMillis,
                workload,
                references,
                domains,
                serverBytes,
                sample,
                serverSpace);
    }

    /** The report with its tables replaced (totals recomputed) and how they were sampled. */
    public AnalysisReport withSample(List<TableReport> sampledTables, List<String> moreWarnings, Sample how) {
        List<String> w = new ArrayList<>(warnings);
        w.addAll(moreWarnings);
        return new AnalysisReport(
                sources,
                dialect,
                sampledTables,
                sampledTables.stream().mapToLong(TableReport::declaredBytes).sum(),
                sampledTables.stream().mapToLong(TableReport::tightBytes).sum(),
                w,
                elapsedMillis,
                timingsMillis,
                workload,
                references,
                domains,
                serverBytes,
                how,
                serverSpace,
                space,
                indexFindings);
    }

    public AnalysisReport {
        references = List.copyOf(references);
        domains = domains.stream().map(List::copyOf).toList();
        timingsMillis = Collections.unmodifiableMap(new LinkedHashMap<>(timingsMillis));
        sources = List.copyOf(sources);
        tables = List.copyOf(tables);
        warnings = List.copyOf(warnings);
        serverBytes = Map.copyOf(serverBytes);
        serverSpace = Map.copyOf(serverSpace);
        space = Map.copyOf(space);
        indexFindings = indexFindings == null ? List.of() : List.copyOf(indexFindings);
    }

    /** The report with these index findings (redundant, unused, low-cardinality indexes). */
    public AnalysisReport withIndexFindings(List<IndexFinding> found) {
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
                serverBytes,
                sample,
                serverSpace,
                space,
                found);
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

package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * A column's verdict.
 *
 * @param suggestedType the tightest lossless type in the source's dialect (the declared type when none is tighter)
 * @param tightBytes    bytes under the suggested type, same storage model as {@code declaredBytes}
 * @param distinctEstimated {@code distinct} is a HyperLogLog estimate, not a count: a large
 *                      distinct count no decision depends on (the profile's screen)
 */
public record ColumnReport(
        String name,
        String declaredType,
        String suggestedType,
        long declaredBytes,
        long tightBytes,
        long nulls,
        long distinct,
        String min,
        String max,
        List<Finding> findings,
        boolean distinctEstimated) {
    public ColumnReport {
        findings = List.copyOf(findings);
    }

    /** An exact distinct count. */
    public ColumnReport(
            String name,
            String declaredType,
            String suggestedType,
            long declaredBytes,
            long tightBytes,
            long nulls,
            long distinct,
            String min,
            String max,
            List<Finding> findings) {
        this(name, declaredType, suggestedType, declaredBytes, tightBytes, nulls, distinct, min, max, findings, false);
    }

    /** The same verdict with these findings. */
    public ColumnReport withFindings(List<Finding> findings) {
        return new ColumnReport(
                name,
                declaredType,
                suggestedType,
                declaredBytes,
                tightBytes,
                nulls,
                distinct,
                min,
                max,
                findings,
                distinctEstimated);
    }

    public long wastedBytes() {
        return Math.max(0, declaredBytes - tightBytes);
    }

    public boolean has(FindingKind kind) {
        return findings.stream().anyMatch(f -> f.kind() == kind);
    }
}

package dev.wastecheck.traces.heat;

/**
 * Share of accesses on the hottest 1%, 5% and 10% of a table's tuples ("No Bits Left Behind" §1:
 * 99% of the revision table's accesses hit 5% of its tuples).
 *
 * @param tuples   the population the percentages are of: the table's row count when known,
 *                 otherwise the distinct keys the trace touched
 * @param keys     distinct keys accessed
 * @param accesses accesses with a known key
 */
public record SkewShares(long tuples, long keys, long accesses, double top1, double top5, double top10) {}

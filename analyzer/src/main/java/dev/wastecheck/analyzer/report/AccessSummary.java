package dev.wastecheck.analyzer.report;

import java.util.Map;

/**
 * How a table is accessed ("No Bits Left Behind" §3.1).
 *
 * @param heatIndex       the unique index through which tuple heat is counted
 * @param shareTop1       share of keyed accesses that go to the hottest 1% of the table's tuples (likewise 5%, 10%)
 * @param pageHotDensity  in the table's current physical order, the average share of hot tuples on a page that holds any
 * @param hotRows         tuples in the hot set (the hottest that take 90% of accesses)
 * @param hotRowsPlaced   of those, how many were found in the table
 * @param hotBytes        bytes a hot partition would hold (declared row size x hot rows)
 * @param hotIndexBytes   size of the partition's index on the heat index's key, at 68% leaf fill
 */
public record AccessSummary(
        long events,
        String heatIndex,
        double shareTop1,
        double shareTop5,
        double shareTop10,
        double pageHotDensity,
        long hotRows,
        long hotRowsPlaced,
        long hotBytes,
        long coldBytes,
        long hotIndexBytes,
        long coldIndexBytes,
        Map<String, Long> operations) {}

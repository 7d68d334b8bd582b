package dev.wastecheck.traces.heat;

import java.util.Map;

/** How often statements referenced a column, by role, and the functions applied to it (YEAR, LEFT, SUBSTRING, ...). */
public record ColumnUse(
        String column, long projected, long predicate, long updated, long joined, Map<String, Long> functions) {
    public long total() {
        return projected + predicate + updated + joined;
    }
}

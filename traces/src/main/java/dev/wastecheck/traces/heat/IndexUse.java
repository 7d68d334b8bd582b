package dev.wastecheck.traces.heat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reads that used an index (bound its key or a key prefix by equality) and what they projected:
 * the input to the paper's index caching (§2.1), which keeps hot tuples' frequently projected fields
 * in the index's free leaf space so that key plus cached fields answer a query without the heap.
 */
public final class IndexUse {
    private final String name;
    private final List<String> columns;
    private final boolean unique;
    private long queries;
    private final Map<Set<String>, Long> projections = new HashMap<>();

    IndexUse(String name, List<String> columns, boolean unique) {
        this.name = name;
        this.columns = List.copyOf(columns);
        this.unique = unique;
    }

    void add(Set<String> projected, long count) {
        queries += count;
        projections.merge(projected, count, Long::sum);
    }

    public String name() {
        return name;
    }

    public List<String> columns() {
        return columns;
    }

    public boolean unique() {
        return unique;
    }

    /** Reads (point lookups and ranges) that used this index. */
    public long queries() {
        return queries;
    }

    /** Distinct projection sets and how many of the queries projected exactly that set. */
    public Map<Set<String>, Long> projections() {
        return Map.copyOf(projections);
    }

    /** Per column, how many of the queries projected it, most projected first. */
    public Map<String, Long> projectedColumns() {
        Map<String, Long> m = new HashMap<>();
        projections.forEach((set, n) -> set.forEach(c -> m.merge(c, n, Long::sum)));
        Map<String, Long> sorted = new LinkedHashMap<>();
        m.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** Share of the queries whose projection the key columns plus {@code cached} answer alone. */
    public double answerableShare(Set<String> cached) {
        if (queries == 0) {
            return 0;
        }
        Set<String> have = new HashSet<>(columns);
        have.addAll(cached);
        long ok = 0;
        for (var e : projections.entrySet()) {
            if (have.containsAll(e.getKey())) {
                ok += e.getValue();
            }
        }
        return (double) ok / queries;
    }
}

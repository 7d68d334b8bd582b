package dev.wastecheck.traces.heat;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.DatabaseSchema;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The heat of a trace's workload, per table: how often each tuple, column and index is touched
 * ("No Bits Left Behind" §3.1, tuple heat). What the analyzer's workload findings are computed from
 * (skew, hot sets for page hot-density, column roles for unused columns and granularity, index use
 * for cacheable fields). Memory: one counter per distinct key accessed, one per column and index.
 *
 * <pre>{@code
 * WorkloadHeat heat = new WorkloadHeat(schema);
 * AccessExtractor extractor = new AccessExtractor(schema);
 * try (TraceReader r = TraceReader.open(trace)) {
 *     while (r.hasNext()) extractor.extract(r.next(), heat::add);
 * }
 * SkewShares s = heat.table("revision").orElseThrow().skew("PRIMARY", revisionRows);
 * }</pre>
 */
public final class WorkloadHeat {
    private final DatabaseSchema schema;
    private final Map<String, TableHeat> tables = new LinkedHashMap<>();
    private final EnumMap<Operation, Long> operations = new EnumMap<>(Operation.class);
    private long events;

    public WorkloadHeat(DatabaseSchema schema) {
        this.schema = schema;
    }

    public static WorkloadHeat of(DatabaseSchema schema, Iterable<AccessEvent> events) {
        WorkloadHeat p = new WorkloadHeat(schema);
        events.forEach(p::add);
        return p;
    }

    public void add(AccessEvent e) {
        TableHeat t = tables.computeIfAbsent(
                e.table().toLowerCase(Locale.ROOT),
                k -> new TableHeat(schema.table(e.table())
                        .orElseThrow(() -> new IllegalArgumentException("no table " + e.table() + " in the schema"))));
        t.add(e);
        events += e.count();
        operations.merge(e.operation(), e.count(), Long::sum);
    }

    /** All accesses, weighted by each event's count. */
    public long events() {
        return events;
    }

    public Map<Operation, Long> operations() {
        return Map.copyOf(operations);
    }

    /** Tables that were accessed, most accessed first. */
    public List<TableHeat> tables() {
        List<TableHeat> out = new ArrayList<>(tables.values());
        out.sort((a, b) -> Long.compare(b.events(), a.events()));
        return out;
    }

    public Optional<TableHeat> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }
}

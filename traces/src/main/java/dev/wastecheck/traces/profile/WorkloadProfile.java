package dev.wastecheck.traces.profile;

import dev.wastecheck.traces.access.AccessEvent;
import dev.wastecheck.traces.access.Operation;
import dev.wastecheck.traces.schema.DatabaseSchema;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The workload of a trace, per table: what the analyzer's workload findings are computed from
 * (skew, hot sets for page hot-density, column roles for unused columns and granularity, index use
 * for cacheable fields). Memory: one counter per distinct key accessed, one per column and index.
 *
 * <pre>{@code
 * WorkloadProfile profile = new WorkloadProfile(schema);
 * AccessExtractor extractor = new AccessExtractor(schema);
 * try (TraceReader r = TraceReader.open(trace)) {
 *     while (r.hasNext()) extractor.extract(r.next(), profile::add);
 * }
 * SkewShares s = profile.table("revision").orElseThrow().skew("PRIMARY", revisionRows);
 * }</pre>
 */
public final class WorkloadProfile {
    private final DatabaseSchema schema;
    private final Map<String, TableProfile> tables = new LinkedHashMap<>();
    private final EnumMap<Operation, Long> operations = new EnumMap<>(Operation.class);
    private long events;

    public WorkloadProfile(DatabaseSchema schema) {
        this.schema = schema;
    }

    public static WorkloadProfile of(DatabaseSchema schema, Iterable<AccessEvent> events) {
        WorkloadProfile p = new WorkloadProfile(schema);
        events.forEach(p::add);
        return p;
    }

    public void add(AccessEvent e) {
        TableProfile t = tables.computeIfAbsent(e.table().toLowerCase(Locale.ROOT),
                k -> new TableProfile(schema.table(e.table()).orElseThrow(() -> new IllegalArgumentException("no table " + e.table() + " in the schema"))));
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
    public List<TableProfile> tables() {
        List<TableProfile> out = new ArrayList<>(tables.values());
        out.sort((a, b) -> Long.compare(b.events(), a.events()));
        return out;
    }

    public Optional<TableProfile> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }
}

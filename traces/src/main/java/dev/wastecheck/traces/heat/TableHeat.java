package dev.wastecheck.traces.heat;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One table's workload: operations, accesses per tuple key, column references by role, and index
 * use. A tuple is identified by the values of a unique key (the primary key or a unique index) when a
 * statement binds all of them; keys of different unique indexes are counted apart, since only the
 * data can tell that {@code name_title = (0, 'Foo')} is {@code page_id = 7}.
 */
public final class TableHeat {
    private final TableDef schema;
    private long events;
    private long eventsWithoutKey;
    private final EnumMap<Operation, Long> operations = new EnumMap<>(Operation.class);
    private final Map<String, Map<List<String>, long[]>> tuples = new LinkedHashMap<>();
    private final Map<String, long[]> columnRoles = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> functions = new LinkedHashMap<>();
    private final Map<String, IndexUse> indexes = new LinkedHashMap<>();
    private final Map<String, Long> otherComparisons = new HashMap<>();
    /** The table's indexes by lower-case name (the first of a name), looked up once per event. */
    private final Map<String, IndexDef> byName = new HashMap<>();

    TableHeat(TableDef schema) {
        this.schema = schema;
        for (IndexDef ix : schema.allIndexes()) {
            indexes.put(ix.name(), new IndexUse(ix.name(), ix.columns(), ix.unique()));
            byName.putIfAbsent(ix.name().toLowerCase(Locale.ROOT), ix);
        }
    }

    void add(AccessEvent e) {
        long n = e.count();
        events += n;
        operations.merge(e.operation(), n, Long::sum);
        IndexDef ix = e.index() == null ? null : byName.get(e.index().toLowerCase(Locale.ROOT));
        if (ix != null
                && ix.unique()
                && e.keyComplete()
                && e.keyColumns().size() == ix.columns().size()) {
            tuples.computeIfAbsent(ix.name(), k -> new HashMap<>())
                    .computeIfAbsent(e.keyValues(), k -> new long[1])[0] += n;
        } else {
            eventsWithoutKey += n;
        }
        if (ix != null && (e.operation() == Operation.POINT_LOOKUP || e.operation() == Operation.RANGE)) {
            indexes.get(ix.name()).add(e.projected(), n);
        }
        for (String c : e.projected()) {
            role(c)[0] += n;
        }
        for (String c : e.predicate()) {
            role(c)[1] += n;
            if (!comparedByEquality(e, c)) {
                otherComparisons.merge(c, n, Long::sum);
            }
        }
        for (String c : e.updated()) {
            role(c)[2] += n;
        }
        for (String c : e.joined()) {
            role(c)[3] += n;
        }
        e.functions().forEach((c, fns) -> {
            Map<String, Long> m = functions.computeIfAbsent(c, k -> new LinkedHashMap<>());
            fns.forEach(f -> m.merge(f, n, Long::sum));
        });
    }

    /**
     * The statement compares the column only by equality: it binds an index key column, an equality
     * join binds it, or its WHERE conjuncts are all {@code c = literal}; no function is applied to it.
     * Such a column can stay compressed when compared ("No Bits Left Behind" §4.1).
     */
    private static boolean comparedByEquality(AccessEvent e, String c) {
        if (e.functions().containsKey(c)) {
            return false;
        }
        boolean equal = e.keyColumns().contains(c) || e.joinKeys().containsKey(c);
        for (var b : e.bounds()) {
            if (b.column().equals(c)) {
                if (!b.isEquality()) {
                    return false;
                }
                equal = true;
            }
        }
        return equal;
    }

    /** Predicate references that compare the column other than by equality (ranges, LIKE, functions, ...). */
    public long otherComparisons(String column) {
        return otherComparisons.getOrDefault(column, 0L);
    }

    private long[] role(String column) {
        return columnRoles.computeIfAbsent(column, k -> new long[4]);
    }

    public String name() {
        return schema.name();
    }

    public TableDef schema() {
        return schema;
    }

    /** Accesses (weighted by each event's count). */
    public long events() {
        return events;
    }

    /** Accesses whose tuple the trace does not identify (scans, ranges, keys bound by joins or unknown parameters). */
    public long eventsWithoutKey() {
        return eventsWithoutKey;
    }

    public Map<Operation, Long> operations() {
        return Map.copyOf(operations);
    }

    /** Per column referenced, counts by role; columns of the schema never referenced are absent. */
    public List<ColumnUse> columns() {
        List<ColumnUse> out = new ArrayList<>();
        columnRoles.forEach((c, r) ->
                out.add(new ColumnUse(c, r[0], r[1], r[2], r[3], Map.copyOf(functions.getOrDefault(c, Map.of())))));
        out.sort((a, b) -> Long.compare(b.total(), a.total()));
        return out;
    }

    /** Schema columns no statement of the trace referenced. */
    public List<String> unreferencedColumns() {
        List<String> out = new ArrayList<>();
        for (String c : schema.columnNames()) {
            if (!columnRoles.containsKey(c)) {
                out.add(c);
            }
        }
        return out;
    }

    public Map<String, IndexUse> indexes() {
        return Map.copyOf(indexes);
    }

    public IndexUse index(String name) {
        return indexes.get(name);
    }

    /** The unique index through which most keyed accesses came (the one tuple heat is best measured by), or null. */
    public String heatIndex() {
        String best = null;
        long most = -1;
        for (var e : tuples.entrySet()) {
            long sum = e.getValue().values().stream().mapToLong(c -> c[0]).sum();
            if (sum > most) {
                most = sum;
                best = e.getKey();
            }
        }
        return best;
    }

    /** Accesses per key of a unique index (values in index column order). */
    public Map<List<String>, Long> tupleCounts(String index) {
        Map<List<String>, Long> out = new HashMap<>();
        tuples.getOrDefault(index, Map.of()).forEach((k, v) -> out.put(k, v[0]));
        return out;
    }

    /** Skew over the heat index's keys, the population being the distinct keys accessed. */
    public SkewShares skew() {
        String ix = heatIndex();
        return ix == null ? new SkewShares(0, 0, 0, 0, 0, 0) : skew(ix, 0);
    }

    /**
     * @param tupleCount the table's rows, so never-accessed tuples count in the population; 0 or
     *                   less to use the distinct keys accessed
     */
    public SkewShares skew(String index, long tupleCount) {
        long[] counts = sortedCounts(index);
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        double[] shares = hottestShares(counts, total, population(counts, tupleCount), 0.01, 0.05, 0.10);
        return new SkewShares(population(counts, tupleCount), counts.length, total, shares[0], shares[1], shares[2]);
    }

    /**
     * The access-skew curve through {@code index} ("No Bits Left Behind" §3.1): for each of
     * {@code fractions} of the table's tuples, the share of the keyed accesses its hottest tuples
     * take; the same computation as {@link #skew(String, long)}'s 1%, 5% and 10%.
     *
     * @param tupleCount as for {@link #skew(String, long)}
     */
    public double[] hottestShares(String index, long tupleCount, double... fractions) {
        long[] counts = sortedCounts(index);
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        return hottestShares(counts, total, population(counts, tupleCount), fractions);
    }

    /** The tuples the shares are of: the table's rows when known (and not fewer than the keys accessed), else the keys. */
    private static long population(long[] counts, long tupleCount) {
        return tupleCount > 0 ? Math.max(tupleCount, counts.length) : counts.length;
    }

    /** For each fraction, the share of {@code total} the hottest {@code ceil(fraction * population)} keys take. */
    private static double[] hottestShares(long[] desc, long total, long population, double... fractions) {
        double[] out = new double[fractions.length];
        if (total == 0) {
            return out;
        }
        for (int f = 0; f < fractions.length; f++) {
            long k = (long) Math.ceil(fractions[f] * population);
            long sum = 0;
            for (int i = 0; i < desc.length && i < k; i++) {
                sum += desc[i];
            }
            out[f] = (double) sum / total;
        }
        return out;
    }

    private long[] sortedCounts(String index) {
        Map<List<String>, long[]> m = tuples.getOrDefault(index, Map.of());
        long[] c = new long[m.size()];
        int i = 0;
        for (long[] v : m.values()) {
            c[i++] = v[0];
        }
        Arrays.sort(c);
        for (int a = 0, b = c.length - 1; a < b; a++, b--) {
            long t = c[a];
            c[a] = c[b];
            c[b] = t;
        }
        return c;
    }

    /** The hottest keys that together take at least {@code coverage} of the keyed accesses (0.9: the hot set). */
    public Set<List<String>> hotKeys(String index, double coverage) {
        List<Map.Entry<List<String>, long[]>> entries =
                new ArrayList<>(tuples.getOrDefault(index, Map.of()).entrySet());
        entries.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
        long total = entries.stream().mapToLong(e -> e.getValue()[0]).sum();
        Set<List<String>> hot = new HashSet<>();
        long sum = 0;
        for (var e : entries) {
            if (sum >= coverage * total) {
                break;
            }
            hot.add(e.getKey());
            sum += e.getValue()[0];
        }
        return hot;
    }
}

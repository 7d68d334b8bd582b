package dev.wastecheck.autotune;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The search's first step: the trace split in time into training and held-out events, and each
 * table's part of both, and of the memory budget. Nothing in it changes once built.
 *
 * @param events             every event of the trace, in time
 * @param split              the first held-out event: the training is {@code events[0, split)}
 * @param training           per table (case-insensitive), its training events; keys a join bound on the
 *                           baseline are the lookups they made, so that a table replays without the tables that
 *                           drove it
 * @param heldOut            per table, its held-out events, join-bound keys likewise
 * @param screeningTraining  per table, what a screening run replays before the held-out prefix: every write of the
 *                           first half of its training (so the table reaches the state the training left), then the
 *                           second half whole (its reads are the heat a design learns, and they warm the pool). Half
 *                           the reads of a full training, and still nothing held out
 * @param shares             per table, its share of the budget: its share of the baseline's working set, at least
 *                           {@link #MIN_SHARE_PAGES} pages
 * @param tables             the tables with held-out events, the largest share first (ties by name): the search's
 *                           order
 */
record TraceSplit(
        List<AccessEvent> events,
        int split,
        Map<String, List<AccessEvent>> training,
        Map<String, List<AccessEvent>> heldOut,
        Map<String, List<AccessEvent>> screeningTraining,
        Map<String, Long> shares,
        List<String> tables) {
    /** The smallest share of the budget a table replays in alone: 64 pages. */
    static final long MIN_SHARE_PAGES = 64;

    /** The columns of a table's index, in order ({@code PRIMARY} for the primary key). */
    @FunctionalInterface
    interface IndexColumns {
        List<String> of(String table, String index);
    }

    /**
     * @param joinBindings           the baseline's recorded join-bound lookups, per event index
     * @param workingSetByStructure  the baseline's working set per {@code table.structure}
     */
    static TraceSplit of(
            List<AccessEvent> events,
            int split,
            Map<Integer, List<List<String>>> joinBindings,
            Map<String, Long> workingSetByStructure,
            IndexColumns indexColumns,
            long memory,
            int pageSize) {
        Map<String, List<AccessEvent>> train = byName(), held = byName();
        for (int i = 0; i < events.size(); i++) {
            AccessEvent e = events.get(i);
            List<AccessEvent> list = (i < split ? train : held).computeIfAbsent(e.table(), k -> new ArrayList<>());
            (i < split ? held : train).computeIfAbsent(e.table(), k -> new ArrayList<>());
            List<List<String>> bound = joinBindings.get(i);
            if (bound == null) {
                list.add(e);
                continue;
            }
            List<String> cols = indexColumns.of(e.table(), e.index());
            for (List<String> literals : bound) list.add(lookup(e, cols, literals));
        }
        Map<String, Long> ws = byName();
        workingSetByStructure.forEach((k, v) -> {
            int dot = k.lastIndexOf('.');
            ws.merge(dot < 0 ? k : k.substring(0, dot), v, Long::sum);
        });
        long total = ws.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> shares = byName();
        for (String t : held.keySet()) {
            long share = total == 0 ? memory : Math.round((double) memory * ws.getOrDefault(t, 0L) / total);
            shares.put(t, Math.max(MIN_SHARE_PAGES * pageSize, share));
        }
        Map<String, List<AccessEvent>> screening = byName();
        for (String t : train.keySet()) screening.put(t, screening(train.get(t)));
        List<String> tables = new ArrayList<>(held.keySet());
        tables.removeIf(t -> held.get(t).isEmpty());
        tables.sort(Comparator.comparingLong((String t) -> -shares.getOrDefault(t, 0L))
                .thenComparing(String.CASE_INSENSITIVE_ORDER));
        return new TraceSplit(
                Collections.unmodifiableList(events),
                split,
                frozen(train),
                frozen(held),
                frozen(screening),
                Collections.unmodifiableMap(shares),
                List.copyOf(tables));
    }

    /** The training events, all tables. */
    List<AccessEvent> trainingEvents() {
        return events.subList(0, split);
    }

    List<AccessEvent> training(String table) {
        return training.getOrDefault(table, List.of());
    }

    List<AccessEvent> heldOut(String table) {
        return heldOut.getOrDefault(table, List.of());
    }

    List<AccessEvent> screeningTraining(String table) {
        return screeningTraining.getOrDefault(table, List.of());
    }

    long share(String table) {
        return shares.getOrDefault(table, 0L);
    }

    /** A join-bound event as the lookup it made with {@code literals}, its leading key columns bound in index order. */
    private static AccessEvent lookup(AccessEvent e, List<String> cols, List<String> literals) {
        Map<String, String> key = new LinkedHashMap<>();
        for (int k = 0; k < literals.size(); k++) key.put(cols.get(k), literals.get(k));
        return new AccessEvent(
                e.table(),
                e.operation(),
                e.index(),
                key,
                List.copyOf(key.keySet()),
                e.projected(),
                e.predicate(),
                e.updated(),
                e.joined(),
                e.functions(),
                e.count(),
                e.timeMillis(),
                e.line(),
                e.values(),
                Map.of(),
                e.bounds());
    }

    private static List<AccessEvent> screening(List<AccessEvent> train) {
        int half = train.size() / 2;
        List<AccessEvent> out = new ArrayList<>();
        for (AccessEvent e : train.subList(0, half)) {
            if (e.operation() == Operation.INSERT
                    || e.operation() == Operation.UPDATE
                    || e.operation() == Operation.DELETE) out.add(e);
        }
        out.addAll(train.subList(half, train.size()));
        return List.copyOf(out);
    }

    private static <V> Map<String, V> byName() {
        return new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    }

    private static Map<String, List<AccessEvent>> frozen(Map<String, List<AccessEvent>> m) {
        Map<String, List<AccessEvent>> out = byName();
        m.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return Collections.unmodifiableMap(out);
    }
}

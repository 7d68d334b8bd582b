package dev.wastecheck.engine.exec;

import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reads per tuple a training makes, what clustering and the hot partition learn from ("No Bits
 * Left Behind" §3.1: tuple heat from the workload). The {@link Executor} reports every read of a
 * tuple, every move, delete and insert while counting; this class keeps the counts by tuple id of
 * each table's main partition (what clustering moves), and two things the hot-by-reference rules
 * score themselves on:
 * <ul>
 *   <li>the tuples first read in the second half of the counted events, which a rule learned on the
 *       first half should have foreseen ({@link #readLate()});</li>
 *   <li>the indexes the reads, updates and deletes went through ({@link #indexesRead()}), which a
 *       hot partition must keep, or an update by a secondary key scans the partition's heap.</li>
 * </ul>
 * While counting, each table also notes the values its updates overwrite ({@link Table#recordOverwrites}): the
 * references that moved on during the training, which the split reads. Scans are not counted (they read
 * everything), nor inserts (they are not reads). Counting starts
 * with {@link #start} and ends with {@link #finish}; between runs nothing is counted. The late
 * reads and the indexes read stay readable after {@link #finish}, until the next {@link #start}
 * (the late reads) or for the replayer's life (the indexes).
 */
final class TrainingHeat {
    /** Reads per tuple id of each table's main partition, or null when not counting. */
    private Map<Table, Map<Long, Long>> counts;
    /** Per table, the tuples first read at or after {@link #mid}; null before the first {@link #start}. */
    private Map<Table, Set<Long>> lateFirst;
    /** Per table, the tuples inserted at or after {@link #mid}: no evidence for a rule, inserts go hot anyway. */
    private Map<Table, Set<Long>> lateInserted;
    /** The event being counted, and the first event of the second half. */
    private int event, mid;

    private final Map<Table, boolean[]> indexesRead = new HashMap<>();

    /**
     * Starts counting; {@code mid} is the first event of the second half. Arrow compaction may move
     * a counted tuple while it counts (Mainlining Databases §4.3): its count follows it, or
     * clustering would later look for a tuple that is no longer there.
     */
    void start(Database db, int mid) {
        counts = new HashMap<>();
        lateFirst = new HashMap<>();
        lateInserted = new HashMap<>();
        this.mid = mid;
        recording = new ArrayList<>(db.tables());
        for (Table t : recording) {
            t.onMainMove((from, to) -> moved(t, from, to));
            t.recordOverwrites(); // what the training's updates overwrite: a reference that moved on (§3.1)
        }
    }

    /** The tables whose updates note what they overwrite while counting. */
    private List<Table> recording = List.of();

    /** Whether reads are being counted. */
    boolean counting() {
        return counts != null;
    }

    /** The events that follow are event {@code i} of the counted ones. */
    void at(int i) {
        event = i;
    }

    /** A read of tuple {@code tid} of partition {@code p}: counted when counting, and of the main partition. */
    void read(Table t, Table.Part p, long tid) {
        if (counts == null || p != t.main()) return;
        Map<Long, Long> h = counts.computeIfAbsent(t, k -> new HashMap<>());
        Long before = h.putIfAbsent(tid, 1L);
        if (before != null) h.put(tid, before + 1);
        else if (event >= mid && !lateInserted.getOrDefault(t, Set.of()).contains(tid))
            lateFirst.computeIfAbsent(t, k -> new HashSet<>()).add(tid);
    }

    /** A tuple of partition {@code p} was inserted with id {@code tid}. */
    void inserted(Table t, Table.Part p, long tid) {
        if (counts != null && p == t.main() && event >= mid)
            lateInserted.computeIfAbsent(t, k -> new HashSet<>()).add(tid);
    }

    /** A tuple of the main partition got a new id: its count (and its first read) follow it. */
    void moved(Table t, long from, long to) {
        Map<Long, Long> h = counts == null ? null : counts.get(t);
        if (h == null) return;
        Long n = h.remove(from);
        if (n != null) h.merge(to, n, Long::sum);
        Set<Long> late = lateFirst.get(t);
        if (late != null && late.remove(from)) late.add(to);
        Set<Long> inserted = lateInserted.get(t);
        if (inserted != null && inserted.remove(from)) inserted.add(to);
    }

    /** A tuple of the main partition was deleted: it has no heat, and clustering must not bring it back. */
    void deleted(Table t, long tid) {
        if (counts == null || !counts.containsKey(t)) return;
        counts.get(t).remove(tid);
        Set<Long> late = lateFirst.get(t);
        if (late != null) late.remove(tid);
        Set<Long> inserted = lateInserted.get(t);
        if (inserted != null) inserted.remove(tid);
    }

    /** Notes the index a read, update or delete goes through (while counting). */
    void noteIndex(Table t, AccessEvent e) {
        if (counts == null || e.index() == null || e.operation() == Operation.INSERT || e.operation() == Operation.SCAN)
            return;
        int ix = t.indexNamed(e.index());
        if (ix >= 0) indexesRead.computeIfAbsent(t, k -> new boolean[k.indexCount()])[ix] = true;
    }

    /**
     * Stops counting and returns the counts: each table's tuples hottest first (ties by tuple id),
     * tables by name, so that the same run moves the same tuples.
     */
    Map<Table, LinkedHashMap<Long, Long>> finish() {
        Map<Table, LinkedHashMap<Long, Long>> out = new LinkedHashMap<>();
        List<Table> tables = new ArrayList<>(counts.keySet());
        tables.sort(Comparator.comparing(Table::name, String.CASE_INSENSITIVE_ORDER));
        for (Table t : tables) {
            LinkedHashMap<Long, Long> sorted = new LinkedHashMap<>();
            counts.get(t).entrySet().stream()
                    .sorted(Map.Entry.<Long, Long>comparingByValue()
                            .reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .forEach(x -> sorted.put(x.getKey(), x.getValue()));
            out.put(t, sorted);
        }
        counts = null;
        for (Table t : recording) t.stopRecordingOverwrites();
        return out;
    }

    /** Per table, the indexes the counted events went through, over every count so far. */
    Map<Table, boolean[]> indexesRead() {
        return indexesRead;
    }

    /**
     * Per table, the tuple ids (of the main partition, as the last count left them) that the second
     * half of the counted events read first: no event of the first half read them, and no event of
     * the second half inserted them.
     */
    Map<Table, Set<Long>> readLate() {
        return lateFirst == null ? Map.of() : lateFirst;
    }
}

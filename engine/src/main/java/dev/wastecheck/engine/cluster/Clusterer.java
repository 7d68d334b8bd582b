package dev.wastecheck.engine.cluster;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.exec.BoundKey;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.HotColdUpkeep;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Access-based clustering, "No Bits Left Behind" §3.1: the tuples a workload reads are few and
 * scattered over many pages (each hot tuple drags a page of cold neighbours into memory), so
 * gather them.
 *
 * <ul>
 *   <li>{@link #relocate}: move the hottest share of the accessed tuples to the end of their heap,
 *       hottest first (delete and append), updating every index entry to the new tuple id;</li>
 *   <li>{@link #partition}: move every accessed tuple into a hot partition with its own heap and
 *       indexes, so that the hot index is small enough to stay in memory as well; the cold
 *       partition then keeps Bloom filters of its key prefixes ({@link dev.wastecheck.engine.table.PrefixFilter}),
 *       so that a lookup by a key prefix does not search it in vain.</li>
 * </ul>
 * Heat is counted from access events (lookups, ranges, updates and deletes whose key the trace
 * gives), each tuple's accesses summed; the caller chooses which events train it.
 */
public final class Clusterer {
    private Clusterer() {}

    /** Accesses per tuple id of each table's main partition, hottest first. */
    public static Map<Table, LinkedHashMap<Long, Long>> heat(Database db, List<AccessEvent> events) {
        Map<Table, Map<Long, Long>> counts = new HashMap<>();
        for (AccessEvent e : events) {
            if (e.operation() == Operation.INSERT || e.operation() == Operation.SCAN) continue;
            Table t = db.table(e.table());
            BoundKey b = t == null ? null : BoundKey.of(t, e);
            if (b == null || b.key() == null) continue;
            Map<Long, Long> c = counts.computeIfAbsent(t, k -> new HashMap<>());
            long weight = Math.max(1, e.count());
            t.find(b.index(), b.key(), b.whole(), (p, tid) -> {
                if (p == t.main()) c.merge(tid, weight, Long::sum);
                return true;
            });
        }
        Map<Table, LinkedHashMap<Long, Long>> out = new LinkedHashMap<>();
        // Tables in name order: page numbers are handed out in the order tuples move, and the same run should give the
        // same pages.
        List<Map.Entry<Table, Map<Long, Long>>> tables = new ArrayList<>(counts.entrySet());
        tables.sort(Comparator.comparing(en -> en.getKey().name(), String.CASE_INSENSITIVE_ORDER));
        for (Map.Entry<Table, Map<Long, Long>> en : tables) {
            LinkedHashMap<Long, Long> sorted = new LinkedHashMap<>();
            en.getValue().entrySet().stream()
                    .sorted(Map.Entry.<Long, Long>comparingByValue()
                            .reversed()
                            .thenComparing(Map.Entry.comparingByKey()))
                    .forEach(x -> sorted.put(x.getKey(), x.getValue()));
            out.put(en.getKey(), sorted);
        }
        return out;
    }

    /**
     * Applies each table's own clustering design ({@link dev.wastecheck.engine.table.TableDesign}),
     * with heat counted from {@code training}: the hottest share relocated, or a hot partition,
     * kept up to date while the workload runs when the design gives a demotion span or a
     * promotion heat. Returns tuples moved per table.
     */
    public static Map<String, Long> apply(Database db, List<AccessEvent> training) {
        if (!clusters(db)) return new LinkedHashMap<>();
        Map<Table, boolean[]> read = new HashMap<>();
        for (AccessEvent e : training) {
            Table t = db.table(e.table());
            if (t == null || e.index() == null || e.operation() == Operation.INSERT || e.operation() == Operation.SCAN)
                continue;
            int ix = t.indexNamed(e.index());
            if (ix >= 0) read.computeIfAbsent(t, k -> new boolean[k.indexCount()])[ix] = true;
        }
        return apply(db, heat(db, training), read);
    }

    /** Whether any table's design clusters or partitions. */
    public static boolean clusters(Database db) {
        for (Table t : db.tables()) if (t.design().partition() || t.design().clusterFraction() > 0) return true;
        return false;
    }

    /** {@link #apply(Database, List)} with the heat counted already (per table, tuple ids of the main partition, hottest first). */
    public static Map<String, Long> apply(Database db, Map<Table, LinkedHashMap<Long, Long>> heat) {
        return apply(db, heat, null);
    }

    /**
     * @param indexesRead per table, the indexes the training's reads went through: the hot partition keeps only those
     *                    (and index 0 and the unique ones); null to keep every index
     */
    public static Map<String, Long> apply(
            Database db, Map<Table, LinkedHashMap<Long, Long>> heat, Map<Table, boolean[]> indexesRead) {
        return apply(db, heat, indexesRead, null);
    }

    /**
     * @param lateFirst per table, the tuples only the second half of the training read (for the rules of
     *                  {@code hot=refs}, {@link HotRules}); null when unknown (no rule is learned)
     */
    public static Map<String, Long> apply(
            Database db,
            Map<Table, LinkedHashMap<Long, Long>> heat,
            Map<Table, boolean[]> indexesRead,
            Map<Table, Set<Long>> lateFirst) {
        // The reorganization's reads of the cold data (and its rewritten cold indexes) go through a ring of frames,
        // so that the pool holds the hot partitions it writes when the workload resumes (§3.1: the hot partition is
        // what stays in memory).
        BufferPool.Bulk before = db.pool().bulk(BufferPool.Bulk.READS);
        try {
            return reorganize(db, heat, indexesRead, lateFirst);
        } finally {
            db.pool().bulk(before);
        }
    }

    private static Map<String, Long> reorganize(
            Database db,
            Map<Table, LinkedHashMap<Long, Long>> heat,
            Map<Table, boolean[]> indexesRead,
            Map<Table, Set<Long>> lateFirst) {
        Map<String, Long> moved = new LinkedHashMap<>();
        // Rules first: they read every table as the training left it, before any tuple moves.
        List<Table> byReference = new ArrayList<>();
        for (Table t : db.tables()) if (t.design().partition() && t.design().byReference()) byReference.add(t);
        HotRules.Learned rules = lateFirst == null
                ? new HotRules.Learned(Map.of(), List.of(), List.of())
                : HotRules.learn(db, heat, lateFirst, byReference);
        if (!byReference.isEmpty() && lateFirst != null) db.noteHotRules(rules.describe());
        for (Table t : db.tables()) t.forgetOverwrites(); // learned from: the training's updates are over
        for (Table t : db.tables()) {
            var design = t.design();
            LinkedHashMap<Long, Long> h = heat.getOrDefault(t, new LinkedHashMap<>());
            List<Long> extra = rules.extra().get(t), cold = rules.cold().get(t);
            if ((extra != null && !extra.isEmpty()) || cold != null) {
                h = new LinkedHashMap<>(h);
                if (extra != null) for (long tid : extra) h.putIfAbsent(tid, 0L);
                // read by the training, then superseded by reference before the split: cold, as the upkeep would
                // have left them (§3.1)
                if (cold != null) for (long tid : cold) h.remove(tid);
            }
            if (design.partition()) {
                boolean[] keep = indexesRead == null ? null : indexesRead.getOrDefault(t, new boolean[t.indexCount()]);
                long n = toHotPartition(db.pool(), t, h, keep);
                if (n > 0) moved.put(t.name(), n);
                if ((design.demoteAfter() > 0 || design.promoteAfter() > 0) && t.indexCount() > 0) {
                    t.startUpkeep(design.demoteAfter(), design.promoteAfter());
                }
            } else if (design.clusterFraction() > 0) {
                long n = relocate(t, h, design.clusterFraction());
                if (n > 0) moved.put(t.name(), n);
            }
        }
        follow(rules.links());
        return moved;
    }

    /**
     * Keeps the rules learned true while the workload writes (§3.1): each partitioned table a rule
     * names gets an upkeep that moves tuples between its partitions when a reference changes or a
     * tuple it follows moves.
     */
    private static void follow(List<HotRules.Link> links) {
        for (HotRules.Link l : links) {
            switch (l.kind()) {
                case REFERENCED -> {
                    int ix = keyIndex(l.to(), l.key(), true);
                    HotColdUpkeep up = upkeep(l.to());
                    if (ix >= 0 && up != null) up.followReference(l.from(), l.column(), ix);
                }
                case REFERENCING_HOT -> {
                    int ix = keyIndex(l.from(), l.column(), false);
                    HotColdUpkeep follower = upkeep(l.from()), leader = upkeep(l.to());
                    if (ix >= 0 && follower != null && leader != null) follower.follow(leader, ix, l.key());
                }
                case REFERENCED_BY_HOT -> {
                    int ix = keyIndex(l.to(), l.key(), true);
                    HotColdUpkeep follower = upkeep(l.to()), leader = upkeep(l.from());
                    if (ix >= 0 && follower != null && leader != null) follower.follow(leader, ix, l.column());
                }
            }
        }
    }

    /** The table's upkeep, started when it has none yet; null without a hot partition or an index. */
    private static HotColdUpkeep upkeep(Table t) {
        if (t.hot() == null || t.indexCount() == 0) return null;
        if (t.upkeep() == null)
            t.startUpkeep(t.design().demoteAfter(), t.design().promoteAfter());
        return t.upkeep();
    }

    /** An index of {@code t} whose first column is {@code field} (with {@code unique}: its only column, unique); -1 if none. */
    private static int keyIndex(Table t, int field, boolean unique) {
        for (int i = 0; i < t.indexCount(); i++) {
            int[] k = t.keyFields(i);
            if (k.length == 0 || k[0] != field) continue;
            if (!unique || (k.length == 1 && t.unique(i))) return i;
        }
        return -1;
    }

    private static long relocate(Table t, LinkedHashMap<Long, Long> heat, double fraction) {
        long n = Math.round(heat.size() * fraction);
        t.trainDictionaries(); // the relocated values are stored again: with the field's dictionary (compress=)
        Record scratch = new Record(t.schema());
        long done = 0;
        for (long tid : heat.keySet()) {
            if (done == n) break;
            t.move(t.main(), tid, t.main(), scratch);
            done++;
        }
        return done;
    }

    /**
     * Moves the tuples with heat into a (new) hot partition, packs the cold partition's trees, and builds its
     * prefix filters.
     */
    private static long toHotPartition(BufferPool pool, Table t, LinkedHashMap<Long, Long> heat, boolean[] indexed) {
        Table.Part hot = indexed == null ? t.createHotPartition() : t.createHotPartition(indexed);
        Record scratch = new Record(t.schema());
        for (long tid : inKeyOrder(t, heat.keySet(), scratch)) t.move(t.main(), tid, hot, scratch);
        BufferPool.Bulk before = pool.bulk(BufferPool.Bulk.READS_AND_NEW_PAGES);
        try {
            t.packColdIndexes(); // the moves left the cold trees' leaves sparse
            t.buildColdFilters(); // so that lookups by a key prefix skip the cold partition when it cannot match
        } finally {
            pool.bulk(before);
        }
        t.deferColdIndexes(); // tuples demoted from now on are noted, not inserted at random cold leaves
        return heat.size();
    }

    /**
     * The tuples in the order of their first index's key, so that the hot partition's primary index
     * is built by ascending appends, which keep its leaves full ({@link dev.wastecheck.engine.index.BTree}):
     * built in order of heat, its leaves filled about ln 2 = 69% (65% measured, issue 13).
     */
    static List<Long> inKeyOrder(Table t, Collection<Long> tids, Record scratch) {
        List<Long> out = new ArrayList<>(tids);
        if (t.indexCount() == 0) return out;
        Map<Long, byte[]> keys = new HashMap<>();
        for (long tid : out) {
            t.read(t.main(), tid, scratch);
            byte[] k = t.key(0, scratch);
            keys.put(tid, k == null ? new byte[0] : k);
        }
        out.sort((a, b) -> {
            int c = Arrays.compareUnsigned(keys.get(a), keys.get(b));
            return c != 0 ? c : Long.compare(a, b);
        });
        return out;
    }

    /** Relocates the hottest {@code fraction} of each table's accessed tuples to its heap's end; returns tuples moved per table. */
    public static Map<String, Long> relocate(Database db, List<AccessEvent> training, double fraction) {
        Map<String, Long> moved = new LinkedHashMap<>();
        for (Map.Entry<Table, LinkedHashMap<Long, Long>> en : heat(db, training).entrySet()) {
            Table t = en.getKey();
            long n = Math.round(en.getValue().size() * fraction);
            Record scratch = new Record(t.schema());
            long done = 0;
            for (long tid : en.getValue().keySet()) {
                if (done == n) break;
                t.move(t.main(), tid, t.main(), scratch);
                done++;
            }
            moved.put(t.name(), done);
        }
        return moved;
    }

    /** Moves every accessed tuple of each table into its hot partition; returns tuples moved per table. */
    public static Map<String, Long> partition(Database db, List<AccessEvent> training) {
        Map<String, Long> moved = new LinkedHashMap<>();
        for (Map.Entry<Table, LinkedHashMap<Long, Long>> en : heat(db, training).entrySet()) {
            Table t = en.getKey();
            Table.Part hot = t.createHotPartition();
            Record scratch = new Record(t.schema());
            for (long tid : en.getValue().keySet()) t.move(t.main(), tid, hot, scratch);
            moved.put(t.name(), (long) en.getValue().size());
        }
        // Tables the trace never keys into get an (empty) hot partition too, so that inserts go there.
        for (Table t : db.tables()) {
            if (t.hot() == null) t.createHotPartition();
            t.buildColdFilters(); // so that lookups by a key prefix skip the cold partition when it cannot match
        }
        return moved;
    }
}

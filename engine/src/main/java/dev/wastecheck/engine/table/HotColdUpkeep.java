package dev.wastecheck.engine.table;

import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.layouts.Record;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps a table's hot partition honest while the workload runs ("No Bits Left Behind" §3.1): the
 * partition is first filled from heat learned on past events, and then the workload moves on. New
 * tuples go hot (the table inserts into the hot partition); a hot tuple that nobody has read for
 * {@code demoteAfter} of the table's events moves to the cold partition (MediaWiki's case: an edit
 * inserts a new revision, {@code page_latest} points to it, and the previous revision is never
 * read again); a cold tuple whose heat reaches {@code promoteAfter} moves to the hot one.
 *
 * <p><b>Heat</b> is counted online with exponential decay: each read adds 1 to a cold tuple's
 * heat after halving it once per {@code halfLife} events since its last read, so a tuple read
 * twice a long time apart stays cold while one read twice in a row does not. Hot tuples keep only
 * the time of their last read.
 *
 * <p><b>When.</b> Reads only note; moves happen between events ({@link #afterEvent}), never under
 * an index scan. Demotion sweeps run every {@code max(64, demoteAfter / 16)} events.
 *
 * <p><b>Forwarding.</b> A move gives the tuple a new id (delete and append, every index entry
 * updated). The old id is recorded in {@link Forwarding} so that an id taken before the move (a
 * promotion queued earlier in the same event, a caller's saved id) still resolves; entries are
 * dropped at each sweep, after the queues that could hold old ids are drained.
 *
 * <p><b>By reference</b> ({@link #followReference}, {@link #follow}): the policy §3.1 states for
 * Wikipedia, "hot revision tuples are those that are pointed to from the page table, so newly
 * inserted revision tuples can replace the previously hot tuple for the same page, which is then
 * moved to the cold partition (note that this does require updating foreign key pointers and/or
 * using forwarding tables ...)". A rule {@code hot=refs} learned ({@code page.page_latest ->
 * revision.rev_id}) is kept true as the workload writes: when an update changes the referencing
 * column, the tuple it now names moves hot (an edit's new revision is hot already: inserts go
 * there) and the one it named before moves cold; tables whose rule follows this one's hot set
 * ({@code slots} of the hot revisions) move their tuples with it. The moves run once the event is
 * over ({@link #settle}). Ids here are not reassigned (the key {@code rev_id} stays), so lookups by
 * key find the demoted tuple in the cold partition through its index; what changes is its tuple
 * id, which {@link Forwarding} maps from the old one until the next sweep (the paper's forwarding
 * table, for whoever holds an address taken before the move).
 *
 * <p>Its bookkeeping (a last-read time per hot tuple, heat per recently read cold tuple) is kept
 * outside the pool and counted in the working set, 16 bytes an entry: what a stamp in each tuple
 * header would cost a real engine.
 */
public final class HotColdUpkeep {
    private final Table table;
    private final long demoteAfter;
    private final int promoteAfter;
    private final double halfLife;
    private final long sweepPeriod;
    private long clock;
    private final Map<Long, Long> hotLastRead = new HashMap<>();
    /** Cold tuple id to {heat, clock of its last read}. */
    private final Map<Long, double[]> coldHeat = new HashMap<>();

    private final Set<Long> promote = new LinkedHashSet<>();
    private final Forwarding forwarding = new Forwarding();
    private final Record scratch;
    private long promoted, demoted;
    /** Whether idle time is tracked at all (only {@code demoteAfter > 0} needs a last-read time per hot tuple). */
    private final boolean trackIdle;

    /** A move by reference waiting for the end of the event: the tuples {@code key} finds go hot or cold. */
    private record Pending(boolean toHot, int index, String literal, boolean whole) {}

    private final List<Pending> pending = new ArrayList<>();
    /** Tables whose tuples follow this one's between the partitions (§3.1 "referencing hot"). */
    private final List<Follower> followers = new ArrayList<>();

    private record Follower(HotColdUpkeep upkeep, int index, int leaderField, boolean whole) {}

    private long promotedByReference, demotedByReference;

    /**
     * @param demoteAfter  events of this table without a read after which a hot tuple goes cold; 0 never
     * @param promoteAfter decayed reads after which a cold tuple goes hot; 0 never
     */
    public HotColdUpkeep(Table table, long demoteAfter, int promoteAfter) {
        if (table.hot() == null) throw new IllegalStateException(table.name() + " has no hot partition");
        this.table = table;
        this.demoteAfter = demoteAfter;
        this.promoteAfter = promoteAfter;
        this.halfLife = demoteAfter > 0 ? demoteAfter : 10_000;
        this.sweepPeriod = Math.max(64, demoteAfter / 16);
        this.scratch = new Record(table.schema());
        this.trackIdle = demoteAfter > 0;
        // Every tuple the training put in the hot partition starts as just read.
        if (trackIdle)
            table.forEachTuple(table.hot(), tid -> {
                hotLastRead.put(tid, 0L);
                return true;
            });
    }

    public long promoted() {
        return promoted;
    }

    public long demoted() {
        return demoted;
    }

    /** Tuples moved hot because a reference came to name them (or a tuple they follow moved hot). */
    public long promotedByReference() {
        return promotedByReference;
    }

    /** Tuples moved cold because a reference stopped naming them (or a tuple they follow moved cold). */
    public long demotedByReference() {
        return demotedByReference;
    }

    /**
     * Keeps a rule "hot when referenced by {@code from.column}" true: after every update of that
     * column, the tuple of this table its new value names (by the single-column unique {@code index})
     * is hot and the one its old value named is cold. A value {@code prefix:digits} names its digits.
     */
    public void followReference(Table from, int column, int index) {
        from.watch(column, new Table.ReferenceListener() {
            @Override
            public void changed(String before, String after) {
                String was = digits(before), now = digits(after);
                if (was != null) pending.add(new Pending(false, index, was, true));
                if (now != null) pending.add(new Pending(true, index, now, true));
            }

            @Override
            public void settle() {
                HotColdUpkeep.this.settle();
            }
        });
    }

    /**
     * Keeps a rule that makes this table's tuples hot with a tuple of {@code leader} true: whenever
     * {@code leader} moves a tuple between its partitions, this table's tuples whose first column of
     * {@code index} equals the leader's {@code leaderField} move the same way ("referencing hot":
     * the slots of a revision; "referenced by hot": the content a slot names).
     */
    public void follow(HotColdUpkeep leader, int index, int leaderField) {
        boolean whole = table.keyFields(index).length == 1 && table.unique(index);
        leader.followers.add(new Follower(this, index, leaderField, whole));
    }

    /** Whether moves by reference wait for {@link #settle}. */
    public boolean unsettled() {
        return !pending.isEmpty();
    }

    /** Runs the moves by reference that the event's writes asked for, then those of the tables that follow. */
    public void settle() {
        if (settling) return; // rules may follow each other in a cycle: each settles once a round
        settling = true;
        try {
            boolean again = true;
            while (again) {
                while (!pending.isEmpty()) {
                    List<Pending> now = new ArrayList<>(pending);
                    pending.clear();
                    for (Pending m : now) apply(m);
                }
                for (Follower f : followers) f.upkeep.settle();
                again = !pending.isEmpty(); // a follower's moves may have asked for moves here
            }
        } finally {
            settling = false;
        }
    }

    private boolean settling;

    private void apply(Pending m) {
        byte[] key = table.keyOfLiterals(m.index, List.of(m.literal));
        if (key == null) return; // no stored value is this literal
        Table.Part from = m.toHot ? table.main() : table.hot();
        Table.Part to = m.toHot ? table.hot() : table.main();
        List<Long> found = new ArrayList<>();
        table.find(m.index, key, m.whole, (p, tid) -> {
            if (p == from) found.add(tid);
            return true;
        });
        for (long tid : found) {
            long moved = table.move(from, tid, to, scratch);
            forwarding.put(!m.toHot, tid, m.toHot, moved);
            if (m.toHot) {
                coldHeat.remove(tid);
                promote.remove(tid);
                if (trackIdle) hotLastRead.put(moved, clock);
                promotedByReference++;
            } else {
                hotLastRead.remove(tid);
                demotedByReference++;
            }
            for (Follower f : followers) {
                String v = digits(Values.literal(table, f.leaderField, scratch));
                if (v != null) f.upkeep.pending.add(new Pending(m.toHot, f.index, v, f.whole));
            }
        }
    }

    /** The digits a reference names: the number itself, or the digits of {@code prefix:digits}; null for none. */
    static String digits(String literal) {
        if (literal == null) return null;
        int colon = literal.indexOf(':');
        String d = colon >= 0 ? literal.substring(colon + 1) : literal;
        return Values.parseLong(d) == null ? null : d;
    }

    public Forwarding forwarding() {
        return forwarding;
    }

    public long hotTuples() {
        return table.hot().heap().rows();
    }

    /** Bytes of bookkeeping, counted with the working set (16 per tracked tuple or forwarding entry). */
    public long bytes() {
        return 16L * (hotLastRead.size() + coldHeat.size() + forwarding.size());
    }

    /** One event of this table begins. */
    public void tick() {
        clock++;
    }

    /** The event read (or updated) this tuple. */
    public void read(Table.Part p, long tid) {
        if (p == table.hot()) {
            if (trackIdle) hotLastRead.put(tid, clock);
            return;
        }
        if (promoteAfter <= 0) return;
        double[] h = coldHeat.computeIfAbsent(tid, k -> new double[] {0, clock});
        h[0] = h[0] * Math.pow(0.5, (clock - h[1]) / halfLife) + 1;
        h[1] = clock;
        if (h[0] >= promoteAfter) promote.add(tid);
    }

    /** A tuple was inserted into {@code p} (new tuples go hot: the table inserts them there). */
    public void inserted(Table.Part p, long tid) {
        if (p == table.hot() && trackIdle) hotLastRead.put(tid, clock);
    }

    /** An update moved a tuple within its partition. */
    public void moved(Table.Part p, long from, long to) {
        if (from == to) return;
        forwarding.put(p == table.hot(), from, p == table.hot(), to);
        if (p == table.hot()) {
            Long last = hotLastRead.remove(from);
            if (trackIdle) hotLastRead.put(to, last == null ? clock : last);
        } else {
            double[] h = coldHeat.remove(from);
            if (h != null) coldHeat.put(to, h);
            if (promote.remove(from)) promote.add(to);
        }
    }

    /** A tuple was deleted. */
    public void deleted(Table.Part p, long tid) {
        if (p == table.hot()) hotLastRead.remove(tid);
        else {
            coldHeat.remove(tid);
            promote.remove(tid);
        }
    }

    /** Between events: queued promotions move, and every sweep period the idle hot tuples go cold. */
    public void afterEvent() {
        if (!promote.isEmpty()) {
            List<Long> queue = new ArrayList<>(promote);
            promote.clear();
            for (long queued : queue) {
                Forwarding.Location at = forwarding.resolve(false, queued);
                if (at.hot()) continue; // already hot
                long hotTid = table.move(table.main(), at.tid(), table.hot(), scratch);
                forwarding.put(false, at.tid(), true, hotTid);
                coldHeat.remove(at.tid());
                if (trackIdle) hotLastRead.put(hotTid, clock);
                promoted++;
            }
        }
        if (demoteAfter <= 0 && clock % sweepPeriod == 0) {
            forwarding.clear(); // the promotions queued before any move have been drained above
            return;
        }
        if (demoteAfter > 0 && clock % sweepPeriod == 0) {
            long[] idle = hotLastRead.entrySet().stream()
                    .filter(e -> clock - e.getValue() > demoteAfter)
                    .mapToLong(Map.Entry::getKey)
                    .toArray();
            Arrays.sort(idle); // a fixed order: the same run moves the same tuples to the same places
            for (long tid : idle) {
                long coldTid = table.move(table.hot(), tid, table.main(), scratch);
                hotLastRead.remove(tid);
                demoted++;
                if (coldTid == TupleId.NONE) throw new IllegalStateException("demotion lost a tuple");
            }
            forwarding.clear();
            if (promoteAfter > 0) {
                // Heat below a hundredth of a read is no heat: forget it, so the map holds recent reads only.
                List<Long> cold = new ArrayList<>();
                for (Map.Entry<Long, double[]> e : coldHeat.entrySet()) {
                    double[] h = e.getValue();
                    if (h[0] * Math.pow(0.5, (clock - h[1]) / halfLife) < 0.01) cold.add(e.getKey());
                }
                for (long t : cold) coldHeat.remove(t);
            }
        }
    }

    /** Old tuple ids to where the tuple went, until the next sweep. */
    public static final class Forwarding {
        /** Where a tuple is: its partition and id. */
        public record Location(boolean hot, long tid) {}

        private final Map<Location, Location> moves = new HashMap<>();

        void put(boolean fromHot, long from, boolean toHot, long to) {
            moves.put(new Location(fromHot, from), new Location(toHot, to));
        }

        /** Where the tuple that was at ({@code hot}, {@code tid}) is now (itself if it has not moved). */
        public Location resolve(boolean hot, long tid) {
            Location at = new Location(hot, tid);
            for (int hops = 0; hops < 64; hops++) {
                Location next = moves.get(at);
                if (next == null) return at;
                at = next;
            }
            throw new IllegalStateException("forwarding cycle at " + TupleId.toString(tid));
        }

        public int size() {
            return moves.size();
        }

        void clear() {
            moves.clear();
        }
    }
}

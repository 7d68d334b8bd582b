package dev.wastecheck.engine.cluster;

import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.Values;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Hot tuples by reference: a rule, learned from the training's reads, that names the hot tuples
 * the training never read ("No Bits Left Behind" §3.1).
 *
 * <p>A hot partition filled with the tuples the training read keeps the next reads of those tuples
 * off cold pages, but not the reads of tuples it never saw: on a wiki, a page first viewed after
 * the split reads its latest revision from the cold partition, one cold page per lookup, and such
 * lookups are 5-10% of a held-out half (docs/benchmarks.md, "Where the working set goes"). What the
 * paper partitions by is not "read last week" but a property of the data: a revision is hot
 * because a page's {@code page_latest} points to it. This class finds such properties and keeps
 * the ones the training's reads confirm.
 *
 * <p><b>References</b> are found in the data, not the schema: a column {@code A.c} refers to a
 * table {@code B} when at least {@value #CONTAINED} of its values are values of a single-column
 * unique integer key of {@code B} (a value {@code prefix:digits}, as MediaWiki's
 * {@code content_address = 'tt:123'}, refers by its digits). Chance containment (small numbers
 * in a dense key) is harmless: a rule it makes selects tuples nobody reads and is rejected below.
 *
 * <p><b>Rules</b> for a partitioned table {@code T}, each selecting a set of its tuples:
 * <ul>
 *   <li><b>referenced by</b> {@code A.c}: the tuples whose key some row of {@code A} names
 *       ({@code page.page_latest} selects the latest revision of every page);</li>
 *   <li><b>referenced by hot</b> {@code A.c}: the tuples whose key a hot tuple of {@code A} names
 *       ({@code content} referenced by the hot {@code slots});</li>
 *   <li><b>referencing hot</b> {@code B} by {@code T.c}: the tuples whose {@code c} names a hot
 *       tuple of {@code B} ({@code slots} of the hot revisions).</li>
 * </ul>
 * A rule is scored on the training alone, the way the split scores a design: with the hot sets of
 * the training's first half, which share of the tuples its second half read first (that the first
 * half never read) does the rule select? It is kept when it foresees at least
 * {@value #MIN_COVERAGE} of them, selects at most {@value #MAX_SHARE} of the table, and foresees at
 * least {@value #MIN_LIFT} times its share of the table; each table keeps its best (foreseen minus
 * share), and with fewer than {@value #MIN_EVIDENCE} such tuples a table gets no rule. Since "hot"
 * feeds the other rules, they are evaluated again until no hot set changes; the rules chosen are
 * then applied with everything the training read as the seed, less what the rule itself sent cold
 * during the training (below). Only training events and the database as the training left it are
 * used: no held-out event can select a tuple.
 *
 * <p><b>Superseded before the split.</b> §3.1: "Hot revision tuples are those that are pointed to
 * from the page table, so newly inserted revision tuples can replace the previously hot tuple for
 * the same page, which is then moved to the cold partition". A tuple the training read while a
 * reference named it, and whose reference then moved on to another tuple before the split (an edit
 * during the training), is where the upkeep would have put it had the partition existed then: cold.
 * So a table with a rule {@link Kind#REFERENCED referenced by} {@code A.c} leaves out of its seed
 * the tuples some update of the training overwrote {@code A.c} away from ({@link Table#overwritten})
 * and that no row of {@code A} names at the split; a table that follows another's hot set leaves
 * out the tuples that follow only such superseded ones (the slots of a superseded revision). The
 * old ids still find them: they stay in the cold partition, with every index.
 */
public final class HotRules {
    /** Share of a column's values that must be keys of the referenced table. */
    static final double CONTAINED = 0.9;

    static final double MIN_COVERAGE = 0.5;
    static final double MAX_SHARE = 0.5;
    static final double MIN_LIFT = 4;
    /** Tuples first read in the second half of the training below which a table gets no rule: too little evidence. */
    static final int MIN_EVIDENCE = 20;
    /** Longest string column looked at as a reference ({@code prefix:digits}); longer ones are text. */
    private static final int MAX_REF_CHARS = 64;

    private static final long NOT_A_NUMBER = Long.MIN_VALUE;
    /** Scores (foreseen minus share) closer than this are a tie, broken by the plainer rule. */
    static final double TIE = 0.01;
    /** Tuples a table's columns are screened on before any is read whole. */
    private static final int SAMPLE = 256;

    private HotRules() {}

    /**
     * A rule kept for a table.
     *
     * @param table    the partitioned table
     * @param kind     {@code referenced by}, {@code referenced by hot} or {@code referencing hot}
     * @param via      the reference, {@code A.c -> B.k}
     * @param selected tuples the rule selects
     * @param added    of those, tuples the training did not read
     * @param rows     tuples of the table
     * @param coverage of the tuples that only the second half of the training read, the share the rule selected
     *                 when learned on the first half
     * @param superseded tuples the training read that the rule had sent cold before the split (§3.1: a reference
     *                   moved on), left out of the hot partition
     */
    public record Rule(
            String table,
            String kind,
            String via,
            long selected,
            long added,
            long rows,
            double coverage,
            long superseded) {
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "%s: hot when %s %s: %,d of %,d tuples (%.1f%%), %,d of them not read in training; learned on the training's"
                            + " first half, it foresaw %.1f%% of the tuples its second half read first; %,d read by the"
                            + " training and superseded before the split, left cold",
                    table,
                    kind,
                    via,
                    selected,
                    rows,
                    100.0 * selected / Math.max(1, rows),
                    added,
                    100 * coverage,
                    superseded);
        }
    }

    /**
     * A kept rule as the workload's writes keep it true (§3.1: "newly inserted revision tuples can
     * replace the previously hot tuple for the same page, which is then moved to the cold
     * partition"): {@code from.column} names {@code to.key}.
     *
     * @param kind     {@link Kind#REFERENCED}: the tuple of {@code to} that {@code from.column} names goes hot when
     *                 a write makes it named, and the one named before goes cold; {@link Kind#REFERENCING_HOT}: the
     *                 tuples of {@code from} whose {@code column} names a tuple of {@code to} follow that tuple
     *                 between the partitions; {@link Kind#REFERENCED_BY_HOT}: the tuple of {@code to} a tuple of
     *                 {@code from} names follows that tuple
     * @param from     the referencing table
     * @param column   its field that holds the reference
     * @param to       the referenced table
     * @param key      the field of {@code to} the reference names (a single-column unique integer key)
     */
    public record Link(Kind kind, Table from, int column, Table to, int key) {}

    /**
     * What the rules add.
     *
     * @param extra per table, the tuple ids of its main partition the rule selects beyond those with heat, in key order
     * @param rules the rules kept
     * @param none  for each table that asked for a rule and got none, why (in table order)
     * @param links the rules kept, as the upkeep follows them while the workload writes
     * @param cold  per table, the tuple ids of its main partition the training read that stay cold: superseded
     *              before the split (§3.1), in key order
     */
    public record Learned(
            Map<Table, List<Long>> extra,
            List<Rule> rules,
            List<String> none,
            List<Link> links,
            Map<Table, List<Long>> cold) {
        public Learned(Map<Table, List<Long>> extra, List<Rule> rules, List<String> none) {
            this(extra, rules, none, List.of(), Map.of());
        }

        /** The rules described, then the tables without one: what a report lists. */
        public List<String> describe() {
            List<String> out = new ArrayList<>();
            for (Rule r : rules) out.add(r.describe());
            out.addAll(none);
            return out;
        }
    }

    /** One table's tuples, their integer-valued columns, and its single-column unique integer keys. */
    private static final class Snapshot {
        final Table table;
        final long[] tids;
        final int rows;
        /** Field numbers of the columns kept, and their values per tuple ({@link #NOT_A_NUMBER} when none). */
        final int[] fields;

        final long[][] values;
        /** Column position in {@link #fields} to a map from key value to tuple position, for unique keys. */
        final Map<Integer, Map<Long, Integer>> keys = new LinkedHashMap<>();

        /** Tuples the training read; of them, those its first half read; those only its second half read. */
        final BitSet read, early, late;

        BitSet hot;
        /** Tuples the training read that its rule had sent cold before the split (a reference moved on, §3.1). */
        BitSet superseded = new BitSet();

        Snapshot(Table t, Map<Long, Long> h, Set<Long> lateFirst) {
            table = t;
            List<Long> ids = new ArrayList<>();
            t.forEachTuple(t.main(), tid -> {
                ids.add(tid);
                return true;
            });
            rows = ids.size();
            tids = new long[rows];
            for (int i = 0; i < rows; i++) tids[i] = ids.get(i);
            // Candidate columns: integers, and short strings that may spell one (as a number or prefix:digits).
            List<Integer> cand = new ArrayList<>();
            for (int f = 0; f < t.schema().fieldCount(); f++) {
                FieldType type = t.schema().type(f);
                if (type == FieldType.FLOAT64 || type.isBit()) continue;
                if (t.spec().columns().get(f).overflow()) continue;
                cand.add(f);
            }
            int[] all = screen(t, cand.stream().mapToInt(Integer::intValue).toArray());
            long[][] vals = new long[all.length][rows];
            boolean[] keep = new boolean[all.length];
            // plain: every value is an integer written as Long.toString writes it (a BIGINT UNSIGNED key is stored as
            // its digits), so that the column can serve as a key: values and numbers map one to one
            boolean[] plainCol = new boolean[all.length];
            Arrays.fill(plainCol, true);
            int[] nonNull = new int[all.length], numeric = new int[all.length];
            Record r = new Record(t.schema());
            for (int i = 0; i < rows; i++) {
                t.project(t.main(), tids[i], all, r);
                for (int k = 0; k < all.length; k++) {
                    int f = all[k];
                    long v;
                    if (r.isNull(f)) v = NOT_A_NUMBER;
                    else if (!t.schema().type(f).isVariable() && t.codec(f) == null) v = r.getLong(f);
                    else {
                        String lit = Values.literal(t, f, r);
                        v = number(lit);
                        if (plainCol[k] && (v == NOT_A_NUMBER || !lit.equals(Long.toString(v)))) plainCol[k] = false;
                    }
                    vals[k][i] = v;
                    if (!r.isNull(f)) nonNull[k]++;
                    if (v != NOT_A_NUMBER) numeric[k]++;
                }
            }
            int kept = 0;
            for (int k = 0; k < all.length; k++) {
                keep[k] = nonNull[k] > 0 && numeric[k] >= CONTAINED * nonNull[k];
                if (keep[k]) kept++;
            }
            fields = new int[kept];
            values = new long[kept][];
            boolean[] plain = new boolean[kept];
            for (int k = 0, j = 0; k < all.length; k++) {
                if (!keep[k]) continue;
                fields[j] = all[k];
                plain[j] = plainCol[k];
                values[j++] = vals[k];
            }
            for (int ix = 0; ix < t.indexCount(); ix++) {
                int[] kf = t.keyFields(ix);
                if (!t.unique(ix) || kf.length != 1) continue;
                int col = column(kf[0]);
                // an integer key, or digits spelling one exactly: '007' or 'tt:7' would not map to a number one to one
                if (col < 0 || !plain[col] || keys.containsKey(col)) continue;
                Map<Long, Integer> m = new HashMap<>(rows * 2);
                for (int i = 0; i < rows; i++) if (values[col][i] != NOT_A_NUMBER) m.put(values[col][i], i);
                keys.put(col, m);
            }
            read = new BitSet(rows);
            late = new BitSet(rows);
            if (h != null && !h.isEmpty()) {
                Map<Long, Integer> pos = new HashMap<>(rows * 2);
                for (int i = 0; i < rows; i++) pos.put(tids[i], i);
                for (Long tid : h.keySet()) {
                    Integer i = pos.get(tid);
                    if (i == null) continue;
                    read.set(i);
                    if (lateFirst != null && lateFirst.contains(tid)) late.set(i);
                }
            }
            early = (BitSet) read.clone();
            early.andNot(late);
            hot = early;
        }

        /**
         * The candidate columns whose first {@value #SAMPLE} values are numbers often enough to refer (a title, a SHA-1
         * or a timestamp is not): read whole only those.
         */
        private int[] screen(Table t, int[] cand) {
            int n = Math.min(rows, SAMPLE);
            int[] nonNull = new int[cand.length], numeric = new int[cand.length];
            Record r = new Record(t.schema());
            for (int i = 0; i < n; i++) {
                t.project(t.main(), tids[i], cand, r);
                for (int k = 0; k < cand.length; k++) {
                    if (r.isNull(cand[k])) continue;
                    nonNull[k]++;
                    if (value(t, cand[k], r) != NOT_A_NUMBER) numeric[k]++;
                }
            }
            List<Integer> out = new ArrayList<>();
            for (int k = 0; k < cand.length; k++) if (numeric[k] >= CONTAINED * nonNull[k]) out.add(cand[k]);
            return out.stream().mapToInt(Integer::intValue).toArray();
        }

        int column(int field) {
            for (int k = 0; k < fields.length; k++) if (fields[k] == field) return k;
            return -1;
        }

        String name(int col) {
            return table.name() + "." + table.spec().columns().get(fields[col]).name();
        }
    }

    /** The integer a field's value names: the number itself, a string of digits, or the digits of {@code prefix:digits}. */
    private static long value(Table t, int f, Record r) {
        if (r.isNull(f)) return NOT_A_NUMBER;
        FieldType type = t.schema().type(f);
        if (!type.isVariable() && t.codec(f) == null) return r.getLong(f);
        return number(Values.literal(t, f, r));
    }

    /** The integer a literal names: a string of digits, or the digits of {@code prefix:digits}. */
    private static long number(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_REF_CHARS) return NOT_A_NUMBER;
        int colon = s.indexOf(':');
        String digits = s;
        if (colon > 0) {
            for (int i = 0; i < colon; i++) if (!Character.isLetterOrDigit(s.charAt(i))) return NOT_A_NUMBER;
            digits = s.substring(colon + 1);
        }
        Long v = Values.parseLong(digits);
        return v == null || v == NOT_A_NUMBER ? NOT_A_NUMBER : v;
    }

    /** A reference found in the data: {@code from.values[col]} names keys of {@code to} (column {@code key}). */
    private record Edge(Snapshot from, int col, Snapshot to, int key) {
        String via() {
            return from.name(col) + " -> " + to.name(key);
        }

        /** Whether the column's name contains the referenced table's name (singular or not) or its key's. */
        boolean named() {
            String c = from.table.spec().columns().get(from.fields[col]).name().toLowerCase(Locale.ROOT);
            String t = to.table.name().toLowerCase(Locale.ROOT);
            String k = to.table.spec().columns().get(to.fields[key]).name().toLowerCase(Locale.ROOT);
            String singular = t.endsWith("s") ? t.substring(0, t.length() - 1) : t;
            return c.contains(singular) || c.contains(k);
        }
    }

    /**
     * Learns the rules for {@code targets} (partitioned tables that take tuples by reference) from the training's
     * heat, over every table of {@code db} as the training left it.
     *
     * @param heat      per table, the tuple ids of its main partition the training read
     * @param lateFirst per table, those of them that only the second half of the training read
     */
    public static Learned learn(
            Database db,
            Map<Table, ? extends Map<Long, Long>> heat,
            Map<Table, ? extends Set<Long>> lateFirst,
            List<Table> targets) {
        if (targets.isEmpty()) return new Learned(Map.of(), List.of(), List.of());
        List<Snapshot> snaps = new ArrayList<>();
        Map<Table, Snapshot> byTable = new HashMap<>();
        List<Table> tables = new ArrayList<>(db.tables());
        tables.sort(Comparator.comparing(Table::name, String.CASE_INSENSITIVE_ORDER));
        for (Table t : tables) {
            if (t.indexCount() == 0) continue; // no key to refer to, and no index to visit its tuples by
            Snapshot s = new Snapshot(t, heat.get(t), lateFirst.get(t));
            snaps.add(s);
            byTable.put(t, s);
        }
        List<Edge> edges = new ArrayList<>();
        for (Snapshot a : snaps) {
            for (int c = 0; c < a.fields.length; c++) {
                for (Snapshot b : snaps) {
                    for (Map.Entry<Integer, Map<Long, Integer>> k : b.keys.entrySet()) {
                        if (a == b && k.getKey() == c) continue;
                        if (contained(a.values[c], k.getValue())) edges.add(new Edge(a, c, b, k.getKey()));
                    }
                }
            }
        }
        // Rules are learned for the targets with enough evidence; any partitioned table's hot set can feed them.
        List<Snapshot> tgt = new ArrayList<>();
        Set<Snapshot> partitioned = new HashSet<>();
        for (Snapshot s : snaps) {
            if (s.table.design().partition()) partitioned.add(s);
            if (targets.contains(s.table) && s.late.cardinality() >= MIN_EVIDENCE) tgt.add(s);
        }
        // Choose: each rule is scored on the training's second half, with hot sets from its first half (what the
        // first half read, plus what the rules chosen so far select): the share of the tuples first read in the
        // second half that it foresaw. Rules feed each other through the hot sets, so evaluate until none changes
        // (a chain of k tables takes k rounds).
        Map<Snapshot, Choice> chosen = new LinkedHashMap<>();
        Map<String, BitSet> fixed = new HashMap<>();
        for (int round = 0; round <= tgt.size(); round++) {
            boolean changed = false;
            for (Snapshot t : tgt) {
                Choice best = null;
                for (Edge e : edges) {
                    if (e.to == t) {
                        best = better(t, e, Kind.REFERENCED, fixed, best);
                        if (e.from != t && partitioned.contains(e.from))
                            best = better(t, e, Kind.REFERENCED_BY_HOT, fixed, best);
                    }
                    if (e.from == t && e.to != t && partitioned.contains(e.to))
                        best = better(t, e, Kind.REFERENCING_HOT, fixed, best);
                }
                BitSet next = (BitSet) t.early.clone();
                if (best != null) next.or(best.selected);
                if (!next.equals(t.hot)) {
                    t.hot = next;
                    changed = true;
                }
                if (best != null) chosen.put(t, best);
                else chosen.remove(t);
            }
            if (!changed) break;
        }
        // Apply: the chosen rules again, now with every tuple the training read as the seed, less those the rule sent
        // cold during the training (§3.1: "newly inserted revision tuples can replace the previously hot tuple for the
        // same page, which is then moved to the cold partition").
        for (Snapshot t : partitioned) t.hot = (BitSet) t.read.clone();
        for (int round = 0; round <= tgt.size(); round++) {
            boolean changed = false;
            for (Snapshot t : tgt) {
                Choice c = chosen.get(t);
                if (c == null) continue;
                BitSet gone = superseded(t, c, fixed);
                BitSet next = (BitSet) t.read.clone();
                next.andNot(gone);
                next.or(select(c.edge, c.kind, fixed));
                if (!next.equals(t.hot) || !gone.equals(t.superseded)) {
                    t.hot = next;
                    t.superseded = gone;
                    changed = true;
                }
            }
            if (!changed) break;
        }
        Map<Table, List<Long>> extra = new LinkedHashMap<>();
        Map<Table, List<Long>> cold = new LinkedHashMap<>();
        List<Rule> rules = new ArrayList<>();
        List<Link> links = new ArrayList<>();
        for (Snapshot t : tgt) {
            Choice c = chosen.get(t);
            if (c == null) continue;
            List<Long> add = new ArrayList<>();
            for (int i = t.hot.nextSetBit(0); i >= 0; i = t.hot.nextSetBit(i + 1))
                if (!t.read.get(i)) add.add(t.tids[i]);
            extra.put(t.table, add);
            List<Long> left = new ArrayList<>();
            for (int i = t.superseded.nextSetBit(0); i >= 0; i = t.superseded.nextSetBit(i + 1)) left.add(t.tids[i]);
            if (!left.isEmpty()) cold.put(t.table, left);
            Rule r = c.rule;
            long selected = select(c.edge, c.kind, fixed).cardinality();
            rules.add(
                    new Rule(r.table(), r.kind(), r.via(), selected, add.size(), r.rows(), r.coverage(), left.size()));
            links.add(new Link(
                    c.kind,
                    c.edge.from.table,
                    c.edge.from.fields[c.edge.col],
                    c.edge.to.table,
                    c.edge.to.fields[c.edge.key]));
        }
        List<String> none = new ArrayList<>();
        for (Table table : tables) {
            if (!targets.contains(table) || !byTable.containsKey(table)) continue;
            Snapshot t = byTable.get(table);
            int late = t.late.cardinality();
            if (!tgt.contains(t))
                none.add(String.format(
                        Locale.ROOT,
                        "%s: no rule: the training's second half read %,d tuples its first half had not (at least %d"
                                + " are needed to judge one)",
                        table.name(),
                        late,
                        MIN_EVIDENCE));
            else if (!chosen.containsKey(t))
                none.add(String.format(
                        Locale.ROOT,
                        "%s: no rule: of the %,d tuples the training's second half read first, no reference foresaw"
                                + " %.0f%% while selecting at most %.0f%% of the table",
                        table.name(),
                        late,
                        100 * MIN_COVERAGE,
                        100 * MAX_SHARE));
        }
        return new Learned(extra, rules, none, links, cold);
    }

    /**
     * Of the tuples of {@code t} the training read, those its rule had sent cold by the split (§3.1): for "referenced
     * by {@code A.c}", the tuples an update of the training overwrote {@code A.c} away from and that no row of
     * {@code A} names now (the previously hot revision of an edited page); for a rule that follows another table's
     * hot set, the tuples that follow only superseded tuples of it (the slots of that revision, the content only it
     * names).
     */
    private static BitSet superseded(Snapshot t, Choice c, Map<String, BitSet> fixed) {
        Edge e = c.edge;
        BitSet out;
        switch (c.kind) {
            case REFERENCED -> {
                out = new BitSet(t.rows);
                Map<Long, Integer> key = e.to.keys.get(e.key);
                for (String before : e.from.table.overwritten(e.from.fields[e.col])) {
                    Integer i = key.get(number(before));
                    if (i != null) out.set(i);
                }
                out.andNot(select(e, c.kind, fixed)); // named again, or by another row: still hot
            }
            case REFERENCING_HOT -> {
                out = new BitSet(t.rows);
                Map<Long, Integer> key = e.to.keys.get(e.key);
                long[] v = e.from.values[e.col];
                for (int r = t.read.nextSetBit(0); r >= 0; r = t.read.nextSetBit(r + 1)) {
                    Integer i = key.get(v[r]);
                    if (i != null && e.to.superseded.get(i)) out.set(r);
                }
            }
            case REFERENCED_BY_HOT -> {
                out = referenced(e, e.from.superseded);
                out.andNot(referenced(e, e.from.hot));
            }
            default -> throw new IllegalStateException(c.kind.toString());
        }
        out.and(t.read);
        return out;
    }

    /** How a rule selects: by the references of a table, of its hot tuples, or to hot tuples. */
    public enum Kind {
        REFERENCED("referenced by"),
        REFERENCED_BY_HOT("referenced by hot"),
        REFERENCING_HOT("referencing hot");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** A rule and the tuples it selects. */
    private record Choice(Rule rule, Edge edge, Kind kind, BitSet selected) {}

    /** The tuples a rule selects, of the edge's target ({@code referenced}) or source ({@code referencing hot}). */
    private static BitSet select(Edge e, Kind kind, Map<String, BitSet> fixed) {
        return switch (kind) {
            // independent of the hot sets: computed once
            case REFERENCED -> fixed.computeIfAbsent(e.via(), k -> referenced(e, null));
            case REFERENCED_BY_HOT -> referenced(e, e.from.hot);
            case REFERENCING_HOT -> referencing(e);
        };
    }

    /** {@code best}, or this rule when the training confirms it and it scores higher. */
    private static Choice better(Snapshot t, Edge e, Kind kind, Map<String, BitSet> fixed, Choice best) {
        BitSet sel = select(e, kind, fixed);
        int n = sel.cardinality();
        if (n == 0) return best;
        BitSet foreseen = (BitSet) sel.clone();
        foreseen.and(t.late);
        double coverage = (double) foreseen.cardinality() / t.late.cardinality(), share = (double) n / t.rows;
        if (coverage < MIN_COVERAGE || share > MAX_SHARE || coverage < MIN_LIFT * share) return best;
        // What it foresees, less what it costs: a rule that selects half the table to foresee a little more loses.
        // Within a point of each other, the plainer rule wins, since a DBA reads it: "referenced by" (the data alone)
        // before a rule through another table's hot set; then a reference whose column names the table it refers to
        // (slot_revision_id -> revision rather than keys that happen to be equal in two tables); then the score.
        double score = coverage - share;
        if (best != null) {
            double bestScore = best.rule.coverage() - (double) best.rule.selected() / t.rows;
            if (Math.abs(score - bestScore) > TIE) {
                if (score < bestScore) return best;
            } else {
                int c = Integer.compare(kind.ordinal(), best.kind.ordinal());
                if (c == 0) c = Boolean.compare(best.edge.named(), e.named());
                if (c == 0) c = Double.compare(bestScore, score);
                if (c >= 0) return best;
            }
        }
        return new Choice(new Rule(t.table.name(), kind.label, e.via(), n, 0, t.rows, coverage, 0), e, kind, sel);
    }

    /** The tuples of {@code e.to} whose key some row of {@code e.from} (of {@code only}, when given) names. */
    private static BitSet referenced(Edge e, BitSet only) {
        BitSet out = new BitSet(e.to.rows);
        Map<Long, Integer> key = e.to.keys.get(e.key);
        long[] v = e.from.values[e.col];
        if (only == null) {
            for (long x : v) {
                Integer i = key.get(x);
                if (i != null) out.set(i);
            }
        } else {
            for (int r = only.nextSetBit(0); r >= 0; r = only.nextSetBit(r + 1)) {
                Integer i = key.get(v[r]);
                if (i != null) out.set(i);
            }
        }
        return out;
    }

    /** The tuples of {@code e.from} whose column names a hot tuple of {@code e.to}. */
    private static BitSet referencing(Edge e) {
        BitSet out = new BitSet(e.from.rows);
        Map<Long, Integer> key = e.to.keys.get(e.key);
        long[] v = e.from.values[e.col];
        for (int r = 0; r < v.length; r++) {
            Integer i = key.get(v[r]);
            if (i != null && e.to.hot.get(i)) out.set(r);
        }
        return out;
    }

    /** Whether at least {@link #CONTAINED} of a column's values (and at least two distinct ones) are keys. */
    private static boolean contained(long[] values, Map<Long, Integer> keys) {
        long nonNull = 0, in = 0;
        long first = NOT_A_NUMBER;
        boolean two = false;
        // A sample first: most pairs fail on their first values.
        int probe = Math.min(values.length, 2000);
        for (int i = 0; i < probe; i++) {
            if (values[i] == NOT_A_NUMBER) continue;
            nonNull++;
            if (keys.containsKey(values[i])) in++;
        }
        if (nonNull == 0 || in < CONTAINED * nonNull) return false;
        nonNull = 0;
        in = 0;
        for (long x : values) {
            if (x == NOT_A_NUMBER) continue;
            nonNull++;
            if (keys.containsKey(x)) in++;
            if (first == NOT_A_NUMBER) first = x;
            else if (x != first) two = true;
        }
        return two && in >= CONTAINED * nonNull;
    }
}

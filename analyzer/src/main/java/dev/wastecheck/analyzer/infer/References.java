package dev.wastecheck.analyzer.infer;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.report.Reference;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Names;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.load.ColumnFacts;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.RowStore;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The columns that hold the same identifiers: each single-column integer key with every column that
 * refers to it, found even where no FOREIGN KEY is declared, and the domains whose columns must
 * share one type (MediaWiki's {@code *_namespace}). A reference takes exactly its key's type, and
 * a key and its references change together or not at all (docs/analyze.md, "References and
 * domains").
 *
 * <p>A reference is found, strongest evidence first:
 * <ol>
 *   <li><b>declared</b>: a FOREIGN KEY or column-level REFERENCES in the DDL;</li>
 *   <li><b>by name</b>: the key's own name in another table ({@code staff.address_id}), a name
 *       ending in it ({@code manager_staff_id}, {@code ar_rev_id}), a name that names the key's
 *       table ({@code rev_page}, {@code wl_user}, {@code slot_revision_id}, {@code customer_id}),
 *       {@code parent_id} for the table's own key, and MediaWiki's conventions that no name
 *       rule can see ({@code pl_from} and every {@code *_from} is a page id, {@code page_latest} a
 *       revision id, {@code rev_text_id} a text id, {@code s_id}/{@code p_id}/{@code o_id} Semantic
 *       MediaWiki object ids);</li>
 *   <li><b>by values</b>: every distinct value of the column is in the key, checked exactly in
 *       DuckDB, where chance would not have put them all there: the key must have gaps over the
 *       column's range (a dense key 1..N contains any column of small numbers, which proves
 *       nothing). This check runs only for columns whose type it decides: integers with enough
 *       evidence that the inference would otherwise narrow.</li>
 * </ol>
 */
public final class References {
    /** Chance below which value containment counts as evidence: density^distinct, the odds that random values in range all hit the key. */
    static final double CHANCE = 1e-3;

    /** A column of a loaded table. */
    public record Col(LoadedTable table, int index) {
        public ColumnDef def() {
            return table.def().columns().get(index);
        }

        public String id() {
            return (table.def().name() + "." + def().name()).toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return table.def().name() + "." + def().name();
        }
    }

    /**
     * The columns that must take one integer type: a key with its references, or a domain.
     *
     * @param keys the key columns (empty for a domain)
     */
    public record Group(String name, boolean domain, List<Col> keys, List<Col> members) {}

    private final List<Reference> links = new ArrayList<>();
    private final Map<String, Group> groupOf = new HashMap<>();
    private final List<Group> groups = new ArrayList<>();

    /** No references and no groups: each column stands alone. */
    public static References none() {
        return new References();
    }

    /** Every reference found, in table order. */
    public List<Reference> links() {
        return List.copyOf(links);
    }

    public List<Group> groups() {
        return List.copyOf(groups);
    }

    /** The group of a column ({@code table.column}, any case), or null. */
    public Group groupOf(String table, String column) {
        return groupOf.get((table + "." + column).toLowerCase(Locale.ROOT));
    }

    /** The reference a column makes, or null. */
    public Reference referenceOf(String table, String column) {
        return links.stream()
                .filter(r -> r.table().equalsIgnoreCase(table) && r.column().equalsIgnoreCase(column))
                .findFirst()
                .orElse(null);
    }

    /**
     * @param wouldNarrow whether the inference would narrow a column that is neither a key nor
     *                    found to refer to one: only those are checked by values
     */
    public static References find(
            Collection<LoadedTable> tables,
            Map<String, List<ColumnProfile>> profiles,
            DdlCatalog catalog,
            RowStore db,
            BiPredicate<Col, ColumnProfile> wouldNarrow)
            throws SQLException {
        References r = new References();
        Map<String, Col> byId = new LinkedHashMap<>();
        Map<String, LoadedTable> byTable = new LinkedHashMap<>();
        for (LoadedTable t : tables) {
            byTable.put(t.def().key(), t);
            for (int i = 0; i < t.def().columns().size(); i++) {
                Col c = new Col(t, i);
                byId.put(c.id(), c);
            }
        }
        // The keys: a single-column integer primary key, or an auto-increment integer column.
        Map<String, Col> keyOfTable = new LinkedHashMap<>();
        for (LoadedTable t : tables) {
            Col k = keyOf(t);
            if (k != null) {
                keyOfTable.put(t.def().key(), k);
            }
        }
        Map<String, Col> keyByName = new HashMap<>();
        Set<String> sharedNames = new HashSet<>();
        for (Col k : keyOfTable.values()) {
            String n = k.def().name().toLowerCase(Locale.ROOT);
            if (keyByName.putIfAbsent(n, k) != null) {
                sharedNames.add(n); // several tables' keys are named alike (id): the name names no one key
            }
        }
        sharedNames.forEach(keyByName::remove);

        Map<String, Reference> found = new LinkedHashMap<>();
        // 1. Declared.
        for (DdlCatalog.ForeignKey fk : catalog.foreignKeys()) {
            List<String> refs = fk.refColumns();
            if (refs.isEmpty()) {
                TableDef ref = catalog.table(fk.refTable());
                refs = ref == null ? List.of() : ref.primaryKey();
            }
            for (int i = 0; i < Math.min(fk.columns().size(), refs.size()); i++) {
                Col from = byId.get(
                        (Names.simpleName(fk.table()) + "." + fk.columns().get(i)).toLowerCase(Locale.ROOT));
                Col to = byId.get((Names.simpleName(fk.refTable()) + "." + refs.get(i)).toLowerCase(Locale.ROOT));
                if (from != null
                        && to != null
                        && from.def().type().isInteger()
                        && to.def().type().isInteger()
                        && !from.id().equals(to.id())) {
                    found.putIfAbsent(
                            from.id(),
                            new Reference(
                                    from.table().def().name(),
                                    from.def().name(),
                                    to.table().def().name(),
                                    to.def().name(),
                                    Reference.Evidence.DECLARED));
                }
            }
        }
        // 2. By name.
        boolean mediaWiki = keyOfTable.containsKey("page")
                && keyOfTable.get("page").def().name().equalsIgnoreCase("page_id");
        for (Col c : byId.values()) {
            if (found.containsKey(c.id()) || !c.def().type().isInteger()) {
                continue;
            }
            Col key = keyOfTable.get(c.table().def().key());
            if (key != null && key.index() == c.index()) {
                continue; // the table's own key
            }
            Col to = mediaWiki ? mediaWikiKey(c, keyOfTable) : null;
            if (to == null) {
                to = byName(c, keyByName, keyOfTable);
            }
            if (to != null && !to.id().equals(c.id())) {
                found.put(
                        c.id(),
                        new Reference(
                                c.table().def().name(),
                                c.def().name(),
                                to.table().def().name(),
                                to.def().name(),
                                Reference.Evidence.NAME));
            }
        }
        // 3. By values, where the type depends on it.
        for (Col c : byId.values()) {
            if (found.containsKey(c.id())
                    || !c.def().type().isInteger()
                    || keyOfTable.values().stream().anyMatch(k -> k.id().equals(c.id()))) {
                continue;
            }
            ColumnProfile p = profiles.get(c.table().def().key()).get(c.index());
            if (p.minInt == null || p.distinct < 2 || !wouldNarrow.test(c, p)) {
                continue;
            }
            Reference best = null;
            double bestChance = CHANCE;
            for (Col k : keyOfTable.values()) {
                ColumnProfile kp = profiles.get(k.table().def().key()).get(k.index());
                if (kp.minInt == null
                        || p.minInt.compareTo(kp.minInt) < 0
                        || p.maxInt.compareTo(kp.maxInt) > 0
                        || p.distinct > kp.distinct
                        || everyValueAKey(db, k, kp)) {
                    continue;
                }
                long[] x = containment(db, c, k, p);
                if (x[1] != x[0]) {
                    continue;
                }
                double span = new BigDecimal(p.maxInt.subtract(p.minInt).add(BigInteger.ONE)).doubleValue();
                double density = Math.min(1.0, x[2] / span);
                double chance = Math.pow(density, x[0]);
                if (chance < bestChance) {
                    bestChance = chance;
                    best = new Reference(
                            c.table().def().name(),
                            c.def().name(),
                            k.table().def().name(),
                            k.def().name(),
                            Reference.Evidence.VALUES,
                            x[1],
                            x[0]);
                }
            }
            if (best != null) {
                found.put(c.id(), best);
            }
        }
        r.links.addAll(found.values());
        r.group(byId, keyOfTable);
        return r;
    }

    /** The table's single-column integer key: its primary key, or its auto-increment column. */
    static Col keyOf(LoadedTable t) {
        TableDef def = t.def();
        if (def.primaryKey().size() == 1) {
            int i = def.columnIndex(def.primaryKey().get(0));
            if (i >= 0 && def.columns().get(i).type().isInteger()) {
                return new Col(t, i);
            }
        }
        for (int i = 0; i < def.columns().size(); i++) {
            if (def.columns().get(i).autoIncrement()
                    && def.columns().get(i).type().isInteger()) {
                return new Col(t, i);
            }
        }
        return null;
    }

    /**
     * The key a column's name names: the key's own name ({@code address_id}), a name ending in it
     * ({@code manager_staff_id}), or a name whose last words name a table ({@code rev_page},
     * {@code slot_revision_id}, {@code customer_id}, {@code ArtistId}); {@code parent_id} names
     * the table's own key.
     */
    private static Col byName(Col c, Map<String, Col> keyByName, Map<String, Col> keyOfTable) {
        String name = c.def().name().toLowerCase(Locale.ROOT);
        if (ColumnNames.isCounter(c.table().def().name(), c.def().name()) || ColumnNames.isNamespace(name)) {
            return null; // cat_pages counts pages; it does not name one
        }
        Col k = keyByName.get(name);
        if (k != null
                && !name.equals("id")
                && !k.table().def().key().equals(c.table().def().key())) {
            return k;
        }
        Col longest = null;
        for (Map.Entry<String, Col> e : keyByName.entrySet()) {
            boolean named = e.getKey().indexOf('_') > 0 && name.endsWith("_" + e.getKey());
            if (named
                    && !e.getValue().table().def().key().equals(c.table().def().key())
                    && (longest == null
                            || e.getKey().length() > longest.def().name().length())) {
                longest = e.getValue();
            }
        }
        if (longest != null) {
            return longest;
        }
        List<String> w = ColumnNames.words(c.def().name());
        if (w.size() >= 2
                && (w.get(w.size() - 1).equals("parent")
                        || (w.get(w.size() - 1).equals("id")
                                && w.get(w.size() - 2).equals("parent")))) {
            return keyOfTable.get(c.table().def().key());
        }
        // The words before a final "id" (customer_id, ArtistId, slot_revision_id), or the word
        // after a prefix (rev_page, wl_user; two words only: page_is_redirect names no table):
        // a table's name, or its plural.
        List<String> candidates = new ArrayList<>();
        if (w.size() >= 2 && w.get(w.size() - 1).equals("id")) {
            candidates.add(String.join("_", w.subList(0, w.size() - 1)));
            candidates.add(w.get(w.size() - 2));
        } else if (w.size() == 2) {
            candidates.add(w.get(1));
        }
        for (String cand : candidates) {
            for (String table : List.of(cand, cand + "s", cand + "es")) {
                Col key = keyOfTable.get(table);
                if (key != null && !table.equals(c.table().def().key())) {
                    return key;
                }
            }
        }
        return null;
    }

    /** MediaWiki's references that no name rule sees, by column name pattern, to the key table's key. */
    private static final Map<Pattern, String> MEDIAWIKI = new LinkedHashMap<>();

    static {
        MEDIAWIKI.put(Pattern.compile("[a-z]+_from"), "page");
        MEDIAWIKI.put(
                Pattern.compile(
                        "page_latest|rev_parent_id|ar_parent_id|ar_rev_id|rc_this_oldid|rc_last_oldid|slot_origin"
                                + "|slot_revision_id|log_rev_id|ct_rev_id|ts_rev_id"),
                "revision");
        MEDIAWIKI.put(
                Pattern.compile("rc_cur_id|ar_page_id|log_page|pp_page|si_page|rev_page|wl_page|pr_page"), "page");
        MEDIAWIKI.put(Pattern.compile("rev_text_id|ar_text_id"), "text");
        MEDIAWIKI.put(Pattern.compile("rc_logid|ls_log_id|ct_log_id|ts_log_id"), "logging");
        MEDIAWIKI.put(Pattern.compile("rc_id|ct_rc_id|ts_rc_id"), "recentchanges");
        MEDIAWIKI.put(Pattern.compile("s_id|p_id|o_id|smw_proptable_hash_id"), "smw_object_ids");
        MEDIAWIKI.put(Pattern.compile("content_model"), "content_models");
        MEDIAWIKI.put(Pattern.compile("slot_role_id"), "slot_roles");
    }

    private static Col mediaWikiKey(Col c, Map<String, Col> keyOfTable) {
        String name = c.def().name().toLowerCase(Locale.ROOT);
        for (Map.Entry<Pattern, String> e : MEDIAWIKI.entrySet()) {
            if (e.getKey().matcher(name).matches()) {
                Col key = keyOfTable.get(e.getValue());
                return key == null
                                || key.table()
                                                .def()
                                                .key()
                                                .equals(c.table().def().key())
                                        && key.index() == c.index()
                        ? null
                        : key;
            }
        }
        return null;
    }

    /**
     * Whether the key holds every integer from its least value to its greatest (an exact count of
     * its distinct BIGINT values equal to the range's width), so that it holds every value in the
     * range of any column within it. Containment in such a key is no evidence: the key's values
     * fill the column's range (a density of 1), so the chance that random values in range all hit
     * the key is 1, never below {@link #CHANCE}, and {@link #containment}'s query, which would find
     * just that, is not run (MediaWiki's {@code rev_id} from 1 to its row count: three queries of
     * two distinct scans each, docs/benchmarks.md, issue 32).
     */
    static boolean everyValueAKey(RowStore db, Col k, ColumnProfile kp) {
        return !db.remote()
                && k.table().storage() != null
                && k.table().storage()[k.index()] == ColumnStorage.INT64
                && !kp.distinctEstimated
                && kp.minInt != null
                && kp.maxInt != null
                && BigInteger.valueOf(kp.distinct)
                        .equals(kp.maxInt.subtract(kp.minInt).add(BigInteger.ONE));
    }

    /** {distinct values of c, how many of them k holds, k's values within c's range}, exactly. */
    private static long[] containment(RowStore db, Col c, Col k, ColumnProfile p) throws SQLException {
        // two BIGINT columns whose values the loader kept as bits: counted from those, no SQL
        // (a left-out column is read nowhere else: DumpLoader leaves integers out past 250,000 rows)
        ColumnFacts cf = c.table().facts(c.index());
        ColumnFacts kf = k.table().facts(k.index());
        if (cf != null
                && kf != null
                && c.table().storage()[c.index()] == ColumnStorage.INT64
                && k.table().storage()[k.index()] == ColumnStorage.INT64) {
            long[] counted = cf.containment(kf);
            if (counted != null) {
                return counted;
            }
        }
        String cv = integer(db, c);
        String kv = integer(db, k);
        String sql = "WITH c AS (SELECT DISTINCT " + cv + " AS v FROM "
                + c.table().relation() + " WHERE " + cv + " IS NOT NULL),"
                // only the key's values within c's range can matter (c has no other): a key of
                // 11.4 M rows and a column of 50,000 customers took 1.4 s with the whole key's
                // distinct values, 0.1 s with those in range
                + " k AS (SELECT DISTINCT " + kv + " AS v FROM " + k.table().relation() + " WHERE " + kv
                + " BETWEEN " + p.minInt + " AND " + p.maxInt + ")"
                + " SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM c WHERE v IN (SELECT v FROM k)),"
                + " (SELECT count(*) FROM k)";
        try (Statement st = db.connection().createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            long[] out = {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
            RowStore.drain(rs);
            return out;
        }
    }

    /** A column's values as exact integers (NULL where a text is not one). */
    private static String integer(RowStore db, Col c) {
        String x = c.table().physicalColumn(c.index());
        // a server's integer column is compared as it is; text and loaded values go through the cast
        return db.remote() && c.table().storage()[c.index()] == ColumnStorage.INT64
                ? x
                : db.sql().tryInteger(x);
    }

    /** Key groups from the links (a reference to a reference joins its key's group), then the namespace domain. */
    private void group(Map<String, Col> byId, Map<String, Col> keyOfTable) {
        Map<String, String> parent = new HashMap<>();
        UnaryOperator<String> root = new UnaryOperator<>() {
            @Override
            public String apply(String x) {
                String p = parent.getOrDefault(x, x);
                if (p.equals(x)) {
                    return x;
                }
                String top = apply(p);
                parent.put(x, top);
                return top;
            }
        };
        for (Reference l : links) {
            String a = root.apply((l.table() + "." + l.column()).toLowerCase(Locale.ROOT));
            String b = root.apply((l.keyTable() + "." + l.keyColumn()).toLowerCase(Locale.ROOT));
            if (!a.equals(b)) {
                parent.put(a, b);
            }
        }
        Map<String, List<Col>> members = new LinkedHashMap<>();
        for (Col c : byId.values()) {
            boolean linked = parent.containsKey(c.id()) || parent.containsValue(c.id());
            if (linked) {
                members.computeIfAbsent(root.apply(c.id()), x -> new ArrayList<>())
                        .add(c);
            }
        }
        for (List<Col> m : members.values()) {
            List<Col> keys = m.stream()
                    .filter(c -> {
                        Col k = keyOfTable.get(c.table().def().key());
                        return k != null
                                && k.index() == c.index()
                                && links.stream().anyMatch(l -> l.to().equalsIgnoreCase(c.toString()));
                    })
                    .toList();
            Group g =
                    new Group(keys.isEmpty() ? m.get(0).toString() : keys.get(0).toString(), false, keys, m);
            groups.add(g);
            m.forEach(c -> groupOf.put(c.id(), g));
        }
        List<Col> namespaces = byId.values().stream()
                .filter(c -> c.def().type().isInteger()
                        && ColumnNames.isNamespace(c.def().name())
                        && !groupOf.containsKey(c.id()))
                .toList();
        if (namespaces.size() > 1) {
            Group g = new Group("namespace", true, List.of(), namespaces);
            groups.add(g);
            namespaces.forEach(c -> groupOf.put(c.id(), g));
        }
    }
}

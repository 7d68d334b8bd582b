package dev.wastecheck.autotune;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.replay.ReplaySource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What applies a recommendation: the schema changes as statements in the source's dialect (tight
 * types as column type changes, a vertical split as a second table keyed like the first), and the
 * rest as the engine settings {@code replay --config} takes (page layout, index cache, clustering
 * and the hot partition have no DDL in MySQL or PostgreSQL: they are how a storage engine keeps
 * the table, and the report says so rather than pretend).
 */
final class Ddl {
    private Ddl() {}

    static List<String> of(
            ReplaySource src,
            List<AutotuneReport.TableChoice> choices,
            Map<String, TableDesign> designs,
            String config) {
        Dialect dialect = src.session().dialect();
        List<String> out = new ArrayList<>();
        boolean typeChanges = false;
        for (AutotuneReport.TableChoice c : choices) {
            TableDesign d = designs.get(c.table());
            TableDef def = src.schema().table(c.table()).orElse(null);
            if (def == null || d == null) continue;
            String t = quote(def.name(), dialect);
            for (String[] change : c.tightChanges()) {
                String col = quote(change[0], dialect);
                String type = change[2].isEmpty() ? change[3] : change[2];
                if (type.equalsIgnoreCase(change[1])) {
                    // the engine's own encoding (a dictionary, a day or second count) with no narrower SQL type the
                    // analyzer would
                    // suggest for it: say what it is rather than emit a statement that changes nothing
                    out.add("-- " + def.name() + "." + change[0] + " (" + change[1] + "): the engine keeps it as "
                            + change[3]
                            + (change[3].startsWith("dictionary")
                                    ? "; an ENUM of its values does the same in MySQL"
                                    : ""));
                    continue;
                }
                // Not a bare ALTER: MODIFY would drop the column's NOT NULL, DEFAULT and the rest, and nothing would
                // check the live rows first. tune writes that migration (restated columns, guards, a rollback).
                out.add("-- " + def.name() + "." + change[0] + ": " + change[1] + " -> " + type
                        + " (the engine stores it as " + change[3] + ")");
                typeChanges = true;
            }
            if (!c.apart().isEmpty()) {
                if (def.primaryKey().isEmpty()) {
                    out.add("-- " + def.name()
                            + ": a vertical split needs a primary key to join the two parts by; it has none");
                } else {
                    String apart = quote(def.name() + "_apart", dialect);
                    List<String> cols = new ArrayList<>();
                    def.primaryKey().forEach(k -> cols.add(quote(k, dialect)));
                    c.apart().forEach(a -> cols.add(quote(a, dialect)));
                    List<String> pk = def.primaryKey().stream()
                            .map(k -> quote(k, dialect))
                            .toList();
                    out.add("CREATE TABLE " + apart + " AS SELECT " + String.join(", ", cols) + " FROM " + t
                            + "; -- §3.2: the columns the training never read (or kept updating) apart");
                    out.add("ALTER TABLE " + apart + " ADD PRIMARY KEY (" + String.join(", ", pk) + ");");
                    List<String> drops = c.apart().stream()
                            .map(a -> "DROP COLUMN " + quote(a, dialect))
                            .toList();
                    out.add("ALTER TABLE " + t + " " + String.join(", ", drops) + ";");
                }
            }
            List<String> engine = new ArrayList<>();
            if (!c.layout().equals("nsm")) engine.add("layout=" + c.layout());
            if (d.cache() != CachePolicy.OFF)
                engine.add("an index cache in the leaves' free space"
                        + (c.cacheFields().isEmpty() ? "" : " (" + String.join(", ", c.cacheFields()) + ")"));
            if (d.partition())
                engine.add("a hot partition"
                        + (d.demoteAfter() > 0
                                ? " kept up to date (idle tuples demoted after " + d.demoteAfter() + " events)"
                                : ""));
            else if (d.clusterFraction() > 0) engine.add("hot tuples clustered together");
            if (!engine.isEmpty())
                out.add("-- " + def.name() + ": storage-engine settings, no DDL: " + String.join("; ", engine));
        }
        out.add("-- engine settings: wastecheck replay --config '" + config + "'");
        if (typeChanges) {
            out.add(
                    0,
                    "-- the type changes below: `wastecheck tune " + src.data()
                            + "` writes their migration (each column"
                            + " restated whole, a guard on the live rows, a rollback); the same types as analyze suggests");
        }
        return out;
    }

    private static String quote(String id, Dialect d) {
        return d == Dialect.MYSQL ? "`" + id.replace("`", "``") + "`" : "\"" + id.replace("\"", "\"\"") + "\"";
    }
}

package dev.wastecheck.analyzer.index;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.Names;
import dev.wastecheck.model.schema.TableDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The indexes a dump or a database file declares, as the DDL reader read them ({@link IndexDef}):
 * columns in order with MySQL prefix lengths, unique or not, B-tree or FULLTEXT/SPATIAL. The
 * reader keeps no direction or collation, so two key parts compare by column and prefix only. On a
 * PostgreSQL dump a unique index may be a UNIQUE constraint's (the reader does not tell them apart):
 * it is treated as one, never dropped.
 */
public final class DeclaredIndexes {
    private DeclaredIndexes() {}

    public static ServerIndexes.Catalog of(List<TableDef> tables, DdlCatalog catalog, Dialect dialect) {
        List<IndexEntry> out = new ArrayList<>();
        for (TableDef t : tables) {
            for (IndexDef ix : t.allIndexes()) {
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < ix.columns().size(); i++) {
                    int prefix = ix.prefixes().get(i);
                    keys.add(ix.columns().get(i).toLowerCase(Locale.ROOT) + (prefix > 0 ? "(" + prefix + ")" : ""));
                }
                boolean primary = ix.isPrimary();
                String constraint =
                        primary ? "primary key" : ix.unique() && dialect == Dialect.POSTGRESQL ? "unique" : null;
                out.add(new IndexEntry(
                        t.name(),
                        ix.name(),
                        keys,
                        ix.columns(),
                        ix.include().stream()
                                .map(c -> c.toLowerCase(Locale.ROOT))
                                .toList(),
                        ix.unique(),
                        primary,
                        constraint,
                        ix.method(),
                        ix.predicate(),
                        definition(t, ix, dialect),
                        -1,
                        false));
            }
        }
        Map<String, List<List<String>>> fks = new LinkedHashMap<>();
        for (DdlCatalog.ForeignKey fk : catalog.foreignKeys()) {
            fks.computeIfAbsent(Names.simpleName(fk.table()).toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(fk.columns());
        }
        return new ServerIndexes.Catalog(out, fks);
    }

    private static String definition(TableDef t, IndexDef ix, Dialect dialect) {
        List<String> cols = new ArrayList<>();
        for (int i = 0; i < ix.columns().size(); i++) {
            int prefix = ix.prefixes().get(i);
            String c = dialect == Dialect.MYSQL
                    ? ServerIndexes.quote(ix.columns().get(i))
                    : "\"" + ix.columns().get(i).replace("\"", "\"\"") + "\"";
            cols.add(c + (prefix > 0 ? "(" + prefix + ")" : ""));
        }
        if (dialect == Dialect.MYSQL) {
            String kind = ix.kind() == IndexDef.Kind.BTREE
                    ? (ix.unique() ? "UNIQUE " : "")
                    : ix.kind().name() + " ";
            return "ALTER TABLE " + ServerIndexes.quote(t.name()) + " ADD " + kind + "INDEX "
                    + ServerIndexes.quote(ix.name()) + " (" + String.join(", ", cols) + ")";
        }
        if (ix.definition() != null) {
            return ix.definition(); // the dump's own CREATE INDEX: method, operator classes, INCLUDE, WHERE and all
        }
        return "CREATE " + (ix.unique() ? "UNIQUE " : "") + "INDEX \"" + ix.name() + "\" ON \"" + t.name() + "\" ("
                + String.join(", ", cols) + ")";
    }
}

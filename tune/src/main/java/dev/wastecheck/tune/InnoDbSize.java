package dev.wastecheck.tune;

import dev.wastecheck.analyzer.storage.InnoDbModel;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The migration's InnoDB sizes before and after, table by table, from the one InnoDB model
 * ({@link InnoDbModel}) that analyze uses too: this class only says which column takes which
 * tuned type.
 */
final class InnoDbSize {
    private InnoDbSize() {}

    /**
     * Every InnoDB table's size before and after the migration's changes ([before, after] bytes),
     * keyed by table name. Tables of other engines (MyISAM, MEMORY) and tables with a FULLTEXT
     * index (whose auxiliary tables InnoDB counts elsewhere) are left out.
     */
    static Map<String, long[]> estimate(
            ProfilingDatabase db,
            LoadedSource session,
            List<Tuner.TableResult> results,
            Map<String, String> copies,
            Progress progress)
            throws SQLException {
        Map<String, long[]> out = new LinkedHashMap<>();
        DdlCatalog catalog = session.catalog();
        progress.begin("innodb", session.tables().size());
        int done = 0;
        for (LoadedTable t : session.tables().values()) {
            progress.advance(++done);
            String engine = catalog.engineOf(t.def().name());
            if (engine != null && !engine.equalsIgnoreCase("innodb")
                    || t.def().indexes().stream().anyMatch(i -> i.kind() == IndexDef.Kind.FULLTEXT)) {
                continue;
            }
            Tuner.TableResult r = results.stream()
                    .filter(x -> x.name().equalsIgnoreCase(t.def().name()))
                    .findFirst()
                    .orElse(null);
            Map<Integer, SqlType> tuned = new HashMap<>();
            for (Tuner.Checked c : r == null ? List.<Tuner.Checked>of() : r.applied()) {
                int i = t.def().columnIndex(c.conversion().column().name());
                if (i >= 0) {
                    tuned.put(i, Tuner.tunedType(c.conversion(), Dialect.MYSQL));
                }
            }
            InnoDbModel.TableBytes bytes =
                    InnoDbModel.table(db, t, catalog, tuned, copies.get(t.def().name()));
            out.put(t.def().name(), new long[] {bytes.before(), bytes.after()});
        }
        progress.end();
        return out;
    }
}

package dev.wastecheck.sources.load;

import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.sources.LiveSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A live database whose rows stay where they are: its catalog is read, and the profile runs
 * on the server as queries in its dialect, in one read-only snapshot; only aggregates (and the few
 * distinct values of ENUM candidates) come back.
 */
final class RemoteSourceLoader implements SourceLoader {
    private final LiveSource source;
    private final LoadOptions options;
    private final Map<String, String> env;

    RemoteSourceLoader(LiveSource source, LoadOptions options, Map<String, String> env) {
        this.source = source;
        this.options = options;
        this.env = env;
    }

    /** {@code keepOrder} does not apply: no row is read here. */
    @Override
    public LoadedSource load(boolean keepOrder, Progress progress) throws IOException, SQLException {
        long started = System.nanoTime();
        DdlCatalog catalog = new DdlCatalog(source.dialect());
        LoadStats stats = new LoadStats();
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        ProfilingDatabase db = new ProfilingDatabase(options.profiling());
        Connection c = null;
        try {
            c = LiveLoader.connect(source, env);
            LiveLoader live = new LiveLoader(db, stats, loaded);
            live.describe(source, c, catalog, source.profileDialect(), progress);
            LoadedSource s = new LoadedSource(
                    db,
                    List.of(source.display()),
                    source.dialect(),
                    catalog,
                    stats,
                    loaded,
                    new ArrayList<>(),
                    started);
            s.measuredBy(live);
            s.rowsOnServer(new RowStore(c, source.profileDialect(), true));
            s.keepServer(c, Map.of()); // closed with the source
            return s;
        } catch (SQLException | RuntimeException e) {
            db.close();
            if (c != null) {
                c.close();
            }
            throw e;
        }
    }
}

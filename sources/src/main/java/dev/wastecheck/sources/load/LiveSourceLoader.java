package dev.wastecheck.sources.load;

import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.sources.LiveSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A live database read here: its schema from the server's catalog, its rows (all, or a sample)
 * over one read-only session, into a profiling database that stays open. A sampled source keeps
 * the session open, in its snapshot, for the sample's checks on the server.
 */
final class LiveSourceLoader implements SourceLoader {
    private final LiveSource source;
    private final LoadOptions options;
    private final Map<String, String> env;

    LiveSourceLoader(LiveSource source, LoadOptions options, Map<String, String> env) {
        this.source = source;
        this.options = options;
        this.env = env;
    }

    @Override
    public LoadedSource load(boolean keepOrder, Progress progress) throws IOException, SQLException {
        long started = System.nanoTime();
        DdlCatalog catalog = new DdlCatalog(source.dialect());
        LoadStats stats = new LoadStats();
        stats.maxBad(options.maxBad());
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        ProfilingDatabase db =
                new ProfilingDatabase(keepOrder ? options.profiling().keepingOrder() : options.profiling());
        Connection c = null;
        try {
            c = LiveLoader.connect(source, env);
            // before our own statements run, so that they are not part of it
            List<LiveWorkload.Entry> recorded =
                    options.serverWorkload() ? LiveWorkload.read(c, source.dialect(), source.display()) : List.of();
            LiveLoader live = new LiveLoader(db, stats, loaded);
            if (options.sampling()) {
                live.sample(options.samplePercent(), options.sampleSeed()).keepTransaction();
            }
            live.load(source, c, catalog, progress);
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
            if (options.serverWorkload()) {
                Path dir = Files.createTempDirectory("wastecheck-server-workload");
                Path file = dir.resolve("workload.sql");
                long written = LiveWorkload.write(recorded, file);
                long calls =
                        recorded.stream().mapToLong(LiveWorkload.Entry::calls).sum();
                s.serverTrace(
                        file,
                        LiveWorkload.sourceName(source.dialect()) + " of " + source.display() + " ("
                                + recorded.size() + " statements, " + calls + " calls"
                                + (written < calls ? ", read as " + written + " in proportion" : "") + ")");
            }
            if (options.sampling()) {
                s.keepServer(c, live.relations()); // the sample's checks run in the same snapshot
            } else {
                c.close();
            }
            return s;
        } catch (IOException | SQLException | RuntimeException e) {
            db.close();
            if (c != null) {
                c.close();
            }
            throw e;
        }
    }
}

package dev.wastecheck.replay;

import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.replay.sql.SqlEngine;
import dev.wastecheck.replay.sql.SqlEngineReplay;
import dev.wastecheck.replay.sql.SqlReplayResult;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import java.sql.SQLException;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code replay --compare}: the same events on SQLite or DuckDB, and whether they return what our engine returned. */
final class SqlComparison {
    private SqlComparison() {}

    static ReplayReport.SqlRun run(
            String engine,
            LoadedSource session,
            DatabaseSchema schema,
            List<AccessEvent> events,
            ExecutionResult first,
            Progress progress)
            throws SQLException {
        Map<String, String> relations = new LinkedHashMap<>();
        for (LoadedTable t : session.tables().values()) {
            String rel = session.namedRelation(t);
            if (rel != null) {
                relations.put(t.def().name(), rel);
            }
        }
        SqlEngine e = engine.equals("sqlite") ? SqlEngine.SQLITE : SqlEngine.DUCKDB;
        progress.begin("replay on " + engine, events.size());
        SqlReplayResult r =
                SqlEngineReplay.run(e, session.database().connection(), relations, schema, events, progress::advance);
        progress.end();
        // Engine time per query, as our runs report it (statement preparation and binding excluded).
        double qps = r.meanUs() == 0 ? 0 : 1e6 / r.meanUs();
        return new ReplayReport.SqlRun(
                engine,
                r.queries(),
                r.skipped(),
                qps,
                r.p50Us(),
                r.p95Us(),
                r.p99Us(),
                r.meanUs(),
                r.loadMillis(),
                mismatches(first, r));
    }

    /** Events both executed whose results differ; each event executed by one side only counts as a difference too. */
    private static long mismatches(ExecutionResult first, SqlReplayResult r) {
        long[] ours = first.digests();
        BitSet executed = r.executedEvents();
        long n = 0;
        int j = 0;
        for (int i = 0; i < ours.length; i++) {
            boolean a = first.executedEvents().get(i), b = executed.get(i);
            if (a != b) {
                n++;
            } else if (a && ours[i] != r.digests()[j]) {
                n++;
            }
            if (b) {
                j++;
            }
        }
        return n;
    }
}

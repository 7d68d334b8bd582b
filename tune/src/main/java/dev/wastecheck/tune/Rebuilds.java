package dev.wastecheck.tune;

import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableSpace;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.Sources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rebuilds that give a live database's empty page space back ("No Bits Left Behind" §1:
 * "most systems leave a great deal of empty space in ... index pages, and data pages"), each with
 * the bytes it is predicted to free, written beside the migration as {@code
 * migration.rebuild.sql}:
 *
 * <ul>
 *   <li>MySQL/MariaDB: {@code OPTIMIZE TABLE} (InnoDB rebuilds the table and its indexes, online),
 *       for a table whose {@code data_length + index_length + data_free} exceeds what the InnoDB
 *       model ({@code analyzer/storage/InnoDbModel}) says the rebuild leaves by the threshold;
 *   <li>PostgreSQL: {@code VACUUM FULL} for a table whose heap (pgstattuple: free and dead space
 *       beyond its live tuples packed) and indexes (pgstatindex, entries of live rows refilled to
 *       90%) hold that much, named with the ACCESS EXCLUSIVE lock it takes and pg_repack as the way
 *       without it; else {@code REINDEX INDEX CONCURRENTLY} for each index that alone does.
 * </ul>
 *
 * A rebuild changes no value and no definition: it needs no rollback.
 */
final class Rebuilds {
    /** A share of a table's or an index's bytes that, free, is worth a rebuild. */
    static final double THRESHOLD = 0.20;
    /** Less than this is never worth one, whatever its share. */
    static final long MIN_BYTES = 64 * 1024;

    /** One rebuild: its statement and what it frees. */
    record Rebuild(String table, String index, String sql, long bytesBefore, long freedBytes, String why) {}

    private Rebuilds() {}

    /** The rebuilds a live source's space calls for; none for files and dumps, which hold no empty pages to give back. */
    static List<Rebuild> plan(Tuner.Result r, Sources from, Map<String, String> env) throws SQLException, IOException {
        LiveSource live = from.live();
        if (live == null || (live.dialect() != Dialect.POSTGRESQL && live.dialect() != Dialect.MYSQL)) {
            return List.of();
        }
        Map<String, TableSpace> space = SpaceAnalysis.measureLive(live, true, env);
        List<Rebuild> out = new ArrayList<>();
        for (TableSpace s : space.values()) {
            if (live.dialect() == Dialect.MYSQL) {
                long[] model = r.innodb().entrySet().stream()
                        .filter(e -> e.getKey().equalsIgnoreCase(s.table()))
                        .map(Map.Entry::getValue)
                        .findFirst()
                        .orElse(null);
                if (model == null) {
                    continue;
                }
                long freed = s.engineBytes() - model[0];
                if (worth(freed, s.engineBytes())) {
                    out.add(new Rebuild(
                            s.table(),
                            null,
                            "OPTIMIZE TABLE `" + s.table().replace("`", "``") + "`",
                            s.engineBytes(),
                            freed,
                            String.format(
                                    Locale.ROOT,
                                    "data_length + index_length + data_free %,d; rebuilt, the InnoDB model gives %,d",
                                    s.engineBytes(),
                                    model[0])));
                }
            } else {
                long heapFreed = s.rowBytes() >= 0 ? Math.max(0, s.dataBytes() - s.rowBytes()) : 0;
                long indexBytes =
                        s.indexes().stream().mapToLong(IndexSpace::bytes).sum();
                long indexFreed = s.indexes().stream()
                        .mapToLong(ix -> Math.max(0, ix.freeBytes()))
                        .sum();
                long before = s.dataBytes() + indexBytes;
                if (worth(heapFreed + indexFreed, before) && worth(heapFreed, s.dataBytes())) {
                    out.add(new Rebuild(
                            s.table(),
                            null,
                            "VACUUM FULL " + quotePg(s.table()),
                            before,
                            heapFreed + indexFreed,
                            String.format(
                                    Locale.ROOT,
                                    "heap %,d with %,d free and %,d dead (%s), indexes %,d of which a rebuild frees %,d;"
                                            + " takes an ACCESS EXCLUSIVE lock: reads and writes of the table wait"
                                            + " until it ends (pg_repack --table %s rebuilds it without that lock)",
                                    s.dataBytes(),
                                    s.freeBytes(),
                                    s.deadBytes(),
                                    s.method(),
                                    indexBytes,
                                    indexFreed,
                                    s.table())));
                    continue;
                }
                for (IndexSpace ix : s.indexes()) {
                    if (worth(ix.freeBytes(), ix.bytes())) {
                        out.add(new Rebuild(
                                s.table(),
                                ix.name(),
                                "REINDEX INDEX CONCURRENTLY " + quotePg(ix.name()),
                                ix.bytes(),
                                ix.freeBytes(),
                                String.format(
                                        Locale.ROOT,
                                        "%,d bytes; pgstatindex: rebuilt at the 90%% leaf fill, %,d",
                                        ix.bytes(),
                                        ix.bytes() - ix.freeBytes())));
                    }
                }
            }
        }
        return out;
    }

    private static boolean worth(long freed, long of) {
        return freed >= MIN_BYTES && freed >= THRESHOLD * Math.max(1, of);
    }

    private static String quotePg(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** The rebuilds as a script, each statement with what it frees after it. */
    static SqlScript script(List<Rebuild> rebuilds, Dialect dialect) {
        SqlScript s = new SqlScript();
        s.comment("wastecheck tune: rebuilds that give empty page space back, each with the bytes it frees");
        s.comment("(" + (dialect == Dialect.MYSQL ? "OPTIMIZE TABLE" : "VACUUM FULL, REINDEX CONCURRENTLY")
                + " change no value and no definition: nothing to roll back)");
        for (Rebuild b : rebuilds) {
            s.blank();
            s.comment(b.why());
            s.statement(
                    SqlScript.Role.CHANGE, b.sql(), String.format(Locale.ROOT, " -- frees %,d bytes", b.freedBytes()));
        }
        return s;
    }

    /**
     * Plans the rebuilds, writes them beside the migration ({@code migration.rebuild.sql}) when
     * there is a migration file, and adds a sentence to {@code summary}; returns them, each with its file. A failure to measure is a
     * sentence too: the migration stands without its rebuilds.
     */
    static List<TuneReport.Rebuild> write(Tuner.Result r, Sources from, Path migrationFile, List<String> summary)
            throws IOException {
        List<Rebuild> plan;
        try {
            plan = plan(r, from, System.getenv());
        } catch (SQLException e) {
            summary.add("wastecheck tune: the free space was not measured, so no rebuild is suggested: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            return List.of();
        }
        if (plan.isEmpty()) {
            return List.of();
        }
        long freed = plan.stream().mapToLong(Rebuild::freedBytes).sum();
        Path file = migrationFile == null ? null : Tune.beside(migrationFile, TuneReport.Rebuild.SCRIPT);
        if (file != null) {
            Files.writeString(file, script(plan, r.dialect()).toString(), StandardCharsets.UTF_8);
        }
        summary.add(String.format(
                Locale.ROOT,
                "wastecheck tune: %d %s free %,d bytes of empty page space: %s",
                plan.size(),
                plan.size() == 1 ? "rebuild" : "rebuilds",
                freed,
                file != null ? file.toString() : "-o FILE writes them to FILE.rebuild.sql"));
        return plan.stream()
                .map(b -> new TuneReport.Rebuild(
                        b.table(),
                        b.index(),
                        b.sql(),
                        b.bytesBefore(),
                        b.freedBytes(),
                        b.why(),
                        file == null ? null : file.toString()))
                .toList();
    }
}

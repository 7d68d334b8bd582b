package dev.wastecheck.sources.load;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Sources loaded into an open profiling database (or, for a profile pushed down, described where
 * they are on a live server): the tables with their declarations, the DDL read, what went wrong
 * while reading. What analyze profiles, tune tunes a copy of and replay loads into the engine.
 * Close it to free the database and its spill files (and a live session's connection).
 */
public final class LoadedSource implements AutoCloseable {
    private final ProfilingDatabase db;
    /** Where the rows are queried: the profiling database, or the live server for a pushed-down profile. */
    private RowStore rows;

    private final List<String> names;
    private final Dialect dialect;
    private final DdlCatalog catalog;
    private final LoadStats stats;
    private final Map<String, LoadedTable> loaded;
    private final List<String> warnings;
    private final long started;
    private final long loadedAt;
    private Map<String, Long> serverBytes = Map.of();
    private Map<String, long[]> serverSpace = Map.of();
    /** The server's recorded workload written as a trace ({@code --server-workload}), or null; and its name. */
    private Path serverTrace;

    private String serverTraceName;
    /** A sampled or described live session's connection, still in its read-only snapshot; else null. */
    private Connection server;

    private Map<String, String> relations = Map.of();

    /**
     * Checks the share of bad rows, gives the loaded tables the declarations DDL after their rows
     * made final, and collects the catalog's and the loader's warnings after {@code warnings}.
     */
    LoadedSource(
            ProfilingDatabase db,
            List<String> names,
            Dialect dialect,
            DdlCatalog catalog,
            LoadStats stats,
            Map<String, LoadedTable> loaded,
            List<String> warnings,
            long started) {
        stats.checkMaxBad(loaded.values().stream().mapToLong(LoadedTable::rows).sum());
        refreshDefinitions(loaded, catalog);
        warnings.addAll(catalog.warnings());
        warnings.addAll(stats.warnings());
        this.db = db;
        this.rows = RowStore.local(db.connection());
        this.names = names;
        this.dialect = dialect;
        this.catalog = catalog;
        this.stats = stats;
        this.loaded = loaded;
        this.warnings = warnings;
        this.started = started;
        this.loadedAt = System.nanoTime();
    }

    /**
     * DDL after the rows (pg_dump adds keys and sequence defaults at the end) changes what a table
     * is: the loaded tables take their final declarations when the columns are the same.
     */
    private static void refreshDefinitions(Map<String, LoadedTable> loaded, DdlCatalog catalog) {
        for (Map.Entry<String, LoadedTable> e : loaded.entrySet()) {
            LoadedTable t = e.getValue();
            TableDef latest = catalog.table(t.def().name());
            if (latest != null
                    && latest != t.def()
                    && latest.columns().size() == t.def().columns().size()) {
                // a table with columns left out keeps the facts that stand for them (the same values)
                e.setValue(
                        t.absent() == null
                                ? new LoadedTable(latest, t.relation(), t.rows(), t.storage())
                                : new LoadedTable(latest, t.relation(), t.rows(), t.storage(), t.facts(), t.absent()));
            }
        }
    }

    public ProfilingDatabase database() {
        return db;
    }

    /** Where the profile's queries run: the local DuckDB, or the live server for a pushed-down profile. */
    public RowStore rows() {
        return rows;
    }

    /** The sources' names as the report shows them (a live URL without its password). */
    public List<String> names() {
        return names;
    }

    public Dialect dialect() {
        return dialect;
    }

    /** The loaded tables, keyed by lower-case name, in load order. */
    public Map<String, LoadedTable> tables() {
        return Collections.unmodifiableMap(loaded);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The views the sources created, in their order. */
    public List<DdlCatalog.ViewDef> views() {
        return catalog.views();
    }

    /** The DDL the sources declared: keys, partitions, counters. */
    public DdlCatalog catalog() {
        return catalog;
    }

    /** What went wrong while reading, per table. */
    public LoadStats stats() {
        return stats;
    }

    /** When reading began and ended ({@link System#nanoTime}). */
    public long startedAt() {
        return started;
    }

    public long loadedAt() {
        return loadedAt;
    }

    /** A live server's own size of each table (bytes), as its catalog reports it; empty for files. */
    public Map<String, Long> serverBytes() {
        return serverBytes;
    }

    /** A live PostgreSQL's dead and free bytes per table (pgstattuple), where installed. */
    public Map<String, long[]> serverSpace() {
        return serverSpace;
    }

    /** The workload the server recorded, written as a trace, or null; and its name for the report. */
    public Path serverTrace() {
        return serverTrace;
    }

    public String serverTraceName() {
        return serverTraceName;
    }

    /** A sampled live session's connection, in the snapshot the sample was read in; null otherwise. */
    public Connection server() {
        return server;
    }

    /** Each live table's relation on the server, by lower-case name. */
    public Map<String, String> relations() {
        return relations;
    }

    /**
     * A relation holding table {@code t}'s rows with its real column names in declared order
     * (BIGINT, VARCHAR or BLOB as loaded), or null when the table has no rows.
     */
    public String namedRelation(LoadedTable t) {
        if (t.relation() == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder("(SELECT ");
        for (int i = 0; i < t.def().columns().size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(t.physicalColumn(i))
                    .append(" AS ")
                    .append(ProfilingDatabase.quote(t.def().columns().get(i).name()));
        }
        return sb.append(" FROM ").append(t.relation()).append(")").toString();
    }

    /** The server's own sizes and space (pgstattuple) of the tables, as the live loader read them. */
    void measuredBy(LiveLoader live) {
        serverBytes = live.serverBytes();
        serverSpace = live.serverSpace();
    }

    void serverTrace(Path file, String name) {
        serverTrace = file;
        serverTraceName = name;
    }

    /** The connection stays open with the source and closes with it. */
    void keepServer(Connection c, Map<String, String> relations) {
        this.server = c;
        this.relations = relations;
    }

    /** The profile runs on the server, over {@code c}, in its dialect. */
    void rowsOnServer(RowStore rows) {
        this.rows = rows;
    }

    @Override
    public void close() throws SQLException, IOException {
        try {
            db.close();
            if (serverTrace != null) {
                Files.deleteIfExists(serverTrace);
                Files.deleteIfExists(serverTrace.getParent());
            }
        } finally {
            if (server != null) {
                try {
                    server.rollback(); // read-only: nothing to keep
                } finally {
                    server.close();
                }
            }
        }
    }
}

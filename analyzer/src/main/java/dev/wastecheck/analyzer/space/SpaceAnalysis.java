package dev.wastecheck.analyzer.space;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import dev.wastecheck.analyzer.storage.IndexEntries;
import dev.wastecheck.analyzer.storage.InnoDbModel;
import dev.wastecheck.analyzer.storage.PgHeap;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The space a database holds outside its column values ("No Bits Left Behind" §1: "most systems
 * leave a great deal of empty space in tuples, index pages, and data pages"; §5 names unused space
 * as one of the three classes of waste): every index's bytes, the free and dead space in pages, the
 * counters' headroom, and one account per table that adds the column values, the row format's
 * overhead, the indexes and the empty space up to what the engine reports.
 *
 * <p>Each index's bytes are predicted from the profile's per-column bytes by the engine's entry
 * format ({@link IndexEntries}; for a MySQL dump, walked row by row by {@link InnoDbModel}), with
 * the declared and the suggested types: a narrower column narrows every index holding it, and
 * every InnoDB secondary index holds the primary key. A live server ({@link PostgresSpace}, {@link
 * MysqlSpace}) or a database file ({@link SqliteSpace}, {@link DuckDbSpace}) adds what the engine
 * measures.
 */
public final class SpaceAnalysis {
    /** The key of the database file's own entry: pages no table holds (SQLite freelist, DuckDB free blocks). */
    public static final String FILE = "(file)";

    /**
     * @param exact        read every page for free space (PostgreSQL {@code pgstattuple} and {@code
     *                     pgstatindex}) instead of the estimate
     * @param rebuildShare the share of a table's or an index's bytes that, free, makes a finding
     *                     (and tune's rebuild)
     */
    public record Options(boolean exact, double rebuildShare) {
        public static Options defaults() {
            return new Options(false, 0.20);
        }
    }

    /** A counter past this share of its range is a finding (Skeema's lint-auto-inc threshold). */
    static final double HEADROOM_WARNING = 80.0;
    /** Less than this is not worth a rebuild, whatever its share (eight 8 kB pages). */
    static final long MIN_FREE_BYTES = 64 * 1024;

    private SpaceAnalysis() {}

    /**
     * The report with each table's space ({@link AnalysisReport#withSpace}). A failure to measure
     * (the server refused a catalog query) is a warning, never the end of the analysis.
     */
    public static AnalysisReport add(
            AnalysisReport report,
            LoadedSource source,
            Sources sources,
            Options options,
            Map<String, String> env,
            Consumer<String> warnings) {
        Dialect dialect = source.dialect();
        Map<String, Measured> measured = Map.of();
        try {
            measured = measure(sources, dialect, options, env);
        } catch (SQLException | IOException e) {
            warnings.accept("the space outside the columns was not measured: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
        Map<String, TableSpace> space = new LinkedHashMap<>();
        for (TableReport t : report.tables()) {
            String key = t.name().toLowerCase(Locale.ROOT);
            LoadedTable loaded = source.tables().values().stream()
                    .filter(l -> l.def().name().equalsIgnoreCase(t.name()))
                    .findFirst()
                    .orElse(null);
            Measured m = measured.get(key);
            if (loaded == null && m == null) {
                continue;
            }
            try {
                space.put(key, table(t, loaded, m, source, dialect, options));
            } catch (SQLException e) {
                warnings.accept(t.name() + ": its space was not predicted: " + e.getMessage());
            }
        }
        Measured file = measured.get(FILE);
        if (file != null) {
            space.put(FILE, fileSpace(file, options));
        }
        return report.withSpace(space);
    }

    /**
     * What a live PostgreSQL or MySQL/MariaDB measures of each table's space, without a profile:
     * its data, free and dead bytes, its indexes' measured bytes and what a rebuild of each gives
     * back (PostgreSQL with {@code exact}: pgstatindex), keyed by lower-case table name. What tune
     * rebuilds is chosen from this. Empty for other engines.
     */
    public static Map<String, TableSpace> measureLive(LiveSource live, boolean exact, Map<String, String> env)
            throws SQLException, IOException {
        Map<String, TableSpace> out = new LinkedHashMap<>();
        measure(new Sources(List.of(), live), live.dialect(), new Options(exact, 0), env)
                .forEach((k, m) -> out.put(
                        k,
                        new TableSpace(
                                m.table,
                                m.dataBytes,
                                m.rowBytes,
                                m.freeBytes,
                                m.deadBytes,
                                m.method,
                                m.estimated,
                                m.caveat,
                                m.indexes,
                                m.engineBytes,
                                m.headroom,
                                List.of())));
        return out;
    }

    private static Map<String, Measured> measure(
            Sources sources, Dialect dialect, Options options, Map<String, String> env)
            throws SQLException, IOException {
        LiveSource live = sources.live();
        if (live != null) {
            if (dialect != Dialect.POSTGRESQL && dialect != Dialect.MYSQL) {
                return Map.of();
            }
            DriverManager.setLoginTimeout(30);
            try (Connection c = DriverManager.getConnection(live.driverUrl(), live.properties(env))) {
                c.setReadOnly(true);
                return dialect == Dialect.POSTGRESQL
                        ? PostgresSpace.measure(c, options.exact())
                        : MysqlSpace.measure(c);
            }
        }
        if (sources.files().size() == 1 && Files.isRegularFile(sources.files().get(0))) {
            Path f = sources.files().get(0);
            String head = header(f);
            if (head.startsWith("SQLite format 3")) {
                return SqliteSpace.measure(f);
            }
            if (head.length() >= 12 && head.substring(8, 12).equals("DUCK")) {
                return DuckDbSpace.measure(f);
            }
        }
        return Map.of();
    }

    private static String header(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            return new String(in.readNBytes(16), StandardCharsets.ISO_8859_1);
        }
    }

    /** One table's space: the engine's figures where measured, the model's predictions beside them. */
    private static TableSpace table(
            TableReport t, LoadedTable loaded, Measured m, LoadedSource source, Dialect dialect, Options options)
            throws SQLException {
        boolean dump = m == null;
        if (m == null) {
            m = new Measured(t.name());
            m.method = "load";
            m.estimated = true;
        }
        TableDef def = loaded == null ? null : loaded.def();
        // The indexes: the engine's list when measured, else the declared ones.
        List<IndexSpace> indexes = new ArrayList<>(m.indexes);
        if (dump && def != null) {
            if (!def.primaryKey().isEmpty()) {
                indexes.add(new IndexSpace(
                        dialect == Dialect.POSTGRESQL ? t.name() + "_pkey" : IndexDef.PRIMARY,
                        def.primaryKey(),
                        true,
                        true,
                        dialect == Dialect.MYSQL,
                        -1,
                        -1,
                        -1,
                        -1,
                        IndexSpace.Use.NEEDED,
                        null));
            }
            for (IndexDef ix : def.indexes()) {
                if (!ix.isPrimary() && ix.kind() == IndexDef.Kind.BTREE) {
                    indexes.add(new IndexSpace(
                            ix.name(),
                            ix.columns(),
                            false,
                            ix.unique(),
                            false,
                            -1,
                            -1,
                            -1,
                            -1,
                            IndexSpace.Use.NEEDED,
                            null));
                }
            }
        }
        List<String> pk = def != null && !def.primaryKey().isEmpty()
                ? def.primaryKey()
                : indexes.stream()
                        .filter(IndexSpace::primary)
                        .findFirst()
                        .map(IndexSpace::columns)
                        .orElse(List.of());
        // Predictions from the profile's per-column bytes, declared and tight.
        Map<String, InnoDbModel.IndexBytes> walked = new LinkedHashMap<>();
        long rowBytes = m.rowBytes;
        // the rows walked by the storage model where they were read here (a dump, a file, --fetch-rows)
        // and asked for (exact: a sorted pass over every index's rows)
        if (options.exact()
                && loaded != null
                && loaded.relation() != null
                && loaded.rows() > 0
                && !source.rows().remote()) {
            if (dialect == Dialect.MYSQL) {
                InnoDbModel.TableBytes b = InnoDbModel.table(source.database(), loaded, source.catalog());
                b.indexes().forEach(ix -> walked.put(ix.name().toLowerCase(Locale.ROOT), ix));
                rowBytes = b.dataBefore();
            } else if (dialect == Dialect.POSTGRESQL) {
                rowBytes = pgHeap(source, loaded);
            }
        }
        List<IndexSpace> predicted = new ArrayList<>();
        for (IndexSpace ix : indexes) {
            if (ix.clustered()) {
                InnoDbModel.IndexBytes w = walked.get(ix.name().toLowerCase(Locale.ROOT));
                if (w == null && !walked.isEmpty()) {
                    w = walked.values().stream()
                            .filter(InnoDbModel.IndexBytes::clustered)
                            .findFirst()
                            .orElse(null);
                }
                // the walk's figure, else InnoDB's clustered index estimated from the column bytes
                long p = w != null ? w.before() : dialect == Dialect.MYSQL ? clusteredEstimate(t, pk) : -1;
                predicted.add(new IndexSpace(
                        ix.name(),
                        ix.columns(),
                        ix.primary(),
                        ix.unique(),
                        true,
                        p,
                        p,
                        ix.measuredBytes(),
                        ix.freeBytes(),
                        ix.use(),
                        ix.why()));
                continue;
            }
            long[] key = keyBytes(t, ix.columns(), pk, dialect);
            int n = ix.columns().size();
            // one column's distinct values: PostgreSQL folds its equal keys into posting lists
            long distinct = !ix.unique() && n == 1 && column(t, ix.columns().get(0)) != null
                    ? column(t, ix.columns().get(0)).distinct()
                    : -1;
            long declared = IndexEntries.bytes(dialect, t.rows(), key[0], n, key[2], distinct);
            long tight = IndexEntries.bytes(dialect, t.rows(), key[1], n, key[3], distinct);
            InnoDbModel.IndexBytes w = walked.get(ix.name().toLowerCase(Locale.ROOT));
            if (w != null) { // the row-by-row walk, and the tight types' saving by the entry model
                tight = Math.max(0, w.before() - (declared - tight));
                declared = w.before();
            }
            long free = ix.freeBytes();
            if (free < 0 && ix.measuredBytes() >= 0 && dialect == Dialect.MYSQL && w != null) {
                free = Math.max(0, ix.measuredBytes() - w.before()); // what OPTIMIZE gives back, by the model
            }
            predicted.add(new IndexSpace(
                    ix.name(),
                    ix.columns(),
                    ix.primary(),
                    ix.unique(),
                    false,
                    declared,
                    tight,
                    ix.measuredBytes(),
                    free,
                    ix.use(),
                    ix.why()));
        }
        long free = m.freeBytes;
        long data = m.dataBytes;
        String method = m.method;
        boolean estimated = m.estimated;
        if (dump) {
            if (rowBytes < 0) {
                rowBytes = dialect == Dialect.MYSQL
                        ? clusteredEstimate(t, pk)
                        : dialect == Dialect.POSTGRESQL ? heapEstimate(t) : t.declaredBytes();
            }
            data = rowBytes;
            // A dump loaded as the engine loads it: PostgreSQL's COPY fills heap pages; InnoDB's sorted
            // rebuild leaves 1/16 of each clustered page free (its reserve), counted as free.
            free = dialect == Dialect.MYSQL && rowBytes >= 0 ? rowBytes / 16 : 0;
            rowBytes = rowBytes >= 0 ? rowBytes - free : -1;
        } else if (dialect == Dialect.MYSQL) {
            // data_free is whole free extents; inside the pages, what the clustered index holds
            // beyond the model's rows at the fill OPTIMIZE TABLE leaves
            long rows = rowBytes >= 0 ? rowBytes : clusteredEstimate(t, pk);
            free += Math.max(0, data - rows);
            method = rowBytes >= 0 ? "data_free + model" : "data_free + estimate";
            estimated = true;
            rowBytes = Math.min(rows, data);
        }
        List<Finding> findings = new ArrayList<>();
        long engine = m.engineBytes;
        TableSpace draft = new TableSpace(
                t.name(),
                data,
                rowBytes,
                free,
                m.deadBytes,
                method,
                estimated,
                m.caveat,
                predicted,
                engine,
                m.headroom,
                List.of());
        findings(t, draft, options, findings);
        return new TableSpace(
                t.name(),
                data,
                rowBytes,
                free,
                m.deadBytes,
                method,
                estimated,
                m.caveat,
                predicted,
                engine,
                m.headroom,
                findings);
    }

    /** PostgreSQL's heap for the loaded rows, packed as VACUUM FULL packs them ({@link PgHeap}). */
    private static long pgHeap(LoadedSource source, LoadedTable t) throws SQLException {
        List<PgHeap.Layout> layouts = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < t.def().columns().size(); i++) {
            ColumnDef col = t.def().columns().get(i);
            layouts.add(PgHeap.layout(col.type()));
            values.add("o." + t.physicalColumn(i));
        }
        return PgHeap.heapBytes(
                source.database().connection(),
                source.database().allocator(),
                List.of(new PgHeap.Variant(layouts, values)),
                t.relation() + " AS o")[0];
    }

    /**
     * An index entry's key bytes over all rows, declared and tight, and what InnoDB adds per entry
     * for the row (the primary key's columns not in the key, or a 6-byte DB_ROW_ID):
     * [declared key, tight key, declared pointer, tight pointer].
     */
    private static long[] keyBytes(TableReport t, List<String> columns, List<String> pk, Dialect dialect) {
        long[] out = new long[4];
        for (String c : columns) {
            ColumnReport cr = column(t, c);
            if (cr != null) {
                out[0] += cr.declaredBytes();
                out[1] += cr.tightBytes();
            }
        }
        if (dialect == Dialect.MYSQL) {
            if (pk.isEmpty()) {
                out[2] = out[3] = 6 * t.rows();
            }
            for (String c : pk) {
                ColumnReport cr = column(t, c);
                if (cr != null && columns.stream().noneMatch(c::equalsIgnoreCase)) {
                    out[2] += cr.declaredBytes();
                    out[3] += cr.tightBytes();
                }
            }
        }
        return out;
    }

    private static ColumnReport column(TableReport t, String name) {
        return t.columns().stream()
                .filter(c -> c.name().equalsIgnoreCase(name))
                .findFirst()
                .orElse(null);
    }

    /**
     * InnoDB's clustered index for the profiled rows without walking them: each record its values,
     * a 5-byte header, the NULL bitmap, the transaction id and roll pointer (and DB_ROW_ID without
     * a key), pages filled to 15/16 as OPTIMIZE TABLE fills them.
     */
    private static long clusteredEstimate(TableReport t, List<String> pk) {
        long perRow = 13 + (pk.isEmpty() ? 6 : 0);
        long bytes = IndexEntries.bytes(
                Dialect.MYSQL,
                t.rows(),
                t.declaredBytes() + perRow * t.rows(),
                t.columns().size(),
                0);
        return bytes * 16 / 15;
    }

    /**
     * PostgreSQL's heap for the profiled rows without walking them: each row a 24-byte header and
     * its values' bytes padded to 8, a 4-byte line pointer, packed into 8 kB pages.
     */
    private static long heapEstimate(TableReport t) {
        if (t.rows() <= 0) {
            return 0;
        }
        long tuple = 24 + (t.declaredBytes() / t.rows() + 7) / 8 * 8 + 4;
        long perPage = Math.max(1, (PgHeap.PAGE - PgHeap.PAGE_HEADER) / tuple);
        return (t.rows() + perPage - 1) / perPage * PgHeap.PAGE;
    }

    /** Free and dead space worth a rebuild, a counter near its end, and the account. */
    private static void findings(TableReport t, TableSpace s, Options o, List<Finding> out) {
        long total = s.engineBytes() > 0 ? s.engineBytes() : s.dataBytes();
        if (s.freeBytes() >= MIN_FREE_BYTES && s.freeBytes() >= o.rebuildShare() * Math.max(1, s.dataBytes())) {
            out.add(new Finding(
                    FindingKind.FREE_SPACE,
                    String.format(
                            Locale.ROOT,
                            "%,d of the table's %,d bytes are free space in its pages (%s%s): a rebuild gives them back",
                            s.freeBytes(),
                            s.dataBytes(),
                            s.method(),
                            s.estimated() ? ", estimated" : ""),
                    s.freeBytes()));
        }
        for (IndexSpace ix : s.indexes()) {
            if (ix.freeBytes() >= MIN_FREE_BYTES && ix.freeBytes() >= o.rebuildShare() * ix.bytes()) {
                out.add(new Finding(
                        FindingKind.FREE_SPACE,
                        String.format(
                                Locale.ROOT,
                                "index %s: %,d of its %,d bytes are free space a rebuild gives back",
                                ix.name(),
                                ix.freeBytes(),
                                ix.bytes()),
                        ix.freeBytes()));
            }
        }
        if (s.deadBytes() >= MIN_FREE_BYTES && s.deadBytes() >= 0.10 * Math.max(1, s.dataBytes())) {
            out.add(new Finding(
                    FindingKind.DEAD_SPACE,
                    String.format(
                            Locale.ROOT,
                            "%,d bytes of dead rows VACUUM has not reclaimed (%s)",
                            s.deadBytes(),
                            s.method()),
                    s.deadBytes()));
        }
        TableSpace.Headroom h = s.headroom();
        if (h != null && h.percentUsed() > HEADROOM_WARNING) {
            out.add(new Finding(
                    FindingKind.SEQUENCE_HEADROOM,
                    String.format(
                            Locale.ROOT,
                            "%s has given %.1f%% of its range (next %,d of at most %,d)",
                            h.counter(),
                            h.percentUsed(),
                            h.next(),
                            h.max()),
                    0));
        }
        if (s.engineBytes() > 0) {
            TableSpace.Account a = s.account(t);
            out.add(new Finding(
                    FindingKind.SPACE_ACCOUNT,
                    String.format(
                            Locale.ROOT,
                            "%,d tight + %,d encoding waste + %,d row overhead + %,d indexes + %,d free + %,d dead"
                                    + " = %,d bytes; the engine reports %,d (%+.1f%%)",
                            a.tightBytes(),
                            a.encodingWasteBytes(),
                            a.rowOverheadBytes(),
                            a.indexBytes(),
                            a.freeBytes(),
                            a.deadBytes(),
                            a.totalBytes(),
                            total,
                            100 * a.offBy()),
                    0));
        }
    }

    /** The database file's own entry: its pages, and those no table holds. */
    private static TableSpace fileSpace(Measured f, Options o) {
        List<Finding> findings = new ArrayList<>();
        if (f.freeBytes >= MIN_FREE_BYTES && f.freeBytes >= o.rebuildShare() * Math.max(1, f.dataBytes)) {
            findings.add(new Finding(
                    FindingKind.FREE_SPACE,
                    String.format(
                            Locale.ROOT,
                            "%,d of the file's %,d bytes are free pages (%s): VACUUM gives them back",
                            f.freeBytes,
                            f.dataBytes,
                            f.method),
                    f.freeBytes));
        }
        return new TableSpace(
                FILE, f.dataBytes, -1, f.freeBytes, 0, f.method, false, null, List.of(), f.engineBytes, null, findings);
    }
}

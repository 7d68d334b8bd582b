package dev.wastecheck.sources.load;

import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.DumpFormatException;
import dev.wastecheck.sources.SourceDetector;
import dev.wastecheck.sources.SourceDetector.DetectedFile;
import dev.wastecheck.sources.SourceKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Dump files, database files, CSV, Parquet and JSON (gzipped or not, or a folder of them): each
 * file's kind is detected from its first bytes, and each kind takes its own way into the profiling
 * database (SQL scripts through the streaming reader, database files and data files read by
 * DuckDB itself).
 */
final class FileSourceLoader implements SourceLoader {
    private final List<Path> sources;
    private final LoadOptions options;
    private final Consumer<String> notes;

    FileSourceLoader(List<Path> sources, LoadOptions options, Consumer<String> notes) {
        this.sources = sources;
        this.options = options;
        this.notes = notes;
    }

    @Override
    public LoadedSource load(boolean keepOrder, Progress progress) throws IOException, SQLException {
        long started = System.nanoTime();
        List<DetectedFile> files = SourceDetector.detectAll(sources, notes);
        Dialect dialect = files.get(0).dialect();
        List<String> warnings = new ArrayList<>();
        for (DetectedFile f : files) {
            if (f.dialect() != dialect) {
                warnings.add(f.name() + " reads as " + f.dialect().label() + " while "
                        + files.get(0).name() + " reads as " + dialect.label() + "; sizes and types are given for "
                        + dialect.label());
            }
        }
        DdlCatalog catalog = new DdlCatalog(dialect);
        LoadStats stats = new LoadStats();
        stats.maxBad(options.maxBad());
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        ProfilingDatabase db =
                new ProfilingDatabase(keepOrder ? options.profiling().keepingOrder() : options.profiling());
        try {
            long total = 0;
            for (DetectedFile f : files) {
                total += f.size();
            }
            progress.begin("reading", total);
            long before = 0;
            for (DetectedFile f : files) {
                load(db, f, catalog, stats, loaded, progress, before);
                before += f.size();
            }
            progress.end();
            if (loaded.isEmpty()) {
                throw new DumpFormatException(
                        String.join(", ", files.stream().map(DetectedFile::name).toList())
                                + ": no table found (no CREATE TABLE, rows or "
                                + "table in " + (files.size() == 1 ? "it" : "them")
                                + "); expected a dump, a database file or data files");
            }
            return new LoadedSource(
                    db,
                    files.stream().map(DetectedFile::name).toList(),
                    dialect,
                    catalog,
                    stats,
                    loaded,
                    warnings,
                    started);
        } catch (IOException | SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** One file, the way its kind is read. */
    private static void load(
            ProfilingDatabase db,
            DetectedFile f,
            DdlCatalog catalog,
            LoadStats stats,
            Map<String, LoadedTable> loaded,
            Progress progress,
            long before)
            throws IOException, SQLException {
        DatabaseFileLoader files = new DatabaseFileLoader(db, stats, loaded);
        String name = f.name().equals(SourceDetector.STDIN) ? "stdin" : DatabaseFileLoader.tableNameOf(f.path());
        switch (f.kind()) {
            case MYSQL_SCRIPT, POSTGRESQL_SCRIPT, SQLITE_SCRIPT -> {
                AtomicLong raw = new AtomicLong();
                try (SqlScriptReader reader =
                        new SqlScriptReader(f.open(raw), f.name(), f.kind() == SourceKind.MYSQL_SCRIPT)) {
                    new DumpLoader(db, catalog, stats, loaded, pos -> progress.advance(before + raw.get()))
                            .load(reader);
                }
            }
            case SQLITE_FILE -> files.loadSqlite(plain(db, f), f.name());
            case DUCKDB_FILE -> files.loadDuckDbFile(plain(db, f), f.name());
            case PARQUET -> files.loadFile(plain(db, f), f.name(), "read_parquet", name, false);
            case CSV -> files.loadCsv(f.path(), f.name(), name, f.gzip());
            case JSON -> files.loadJson(f, name);
        }
        progress.advance(before + f.size());
    }

    /** A database file or Parquet that came gzip-compressed: their readers seek, so it is decompressed beside the spill files first. */
    private static Path plain(ProfilingDatabase db, DetectedFile f) throws IOException {
        if (!f.gzip()) {
            return f.path();
        }
        Path out = Files.createTempFile(db.directory(), "gunzipped-", "");
        try (InputStream in = f.open(new AtomicLong());
                OutputStream o = Files.newOutputStream(out)) {
            in.transferTo(o);
        }
        return out;
    }
}

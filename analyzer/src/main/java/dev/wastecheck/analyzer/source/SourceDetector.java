package dev.wastecheck.analyzer.source;

import dev.wastecheck.model.schema.Dialect;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Tells what a SOURCE is from its first bytes, not its name: a SQL script and its dialect, a
 * SQLite or DuckDB database file, Parquet, CSV or JSON, gzipped or not; and expands folders.
 */
public final class SourceDetector {
    private static final int SNIFF = 256 * 1024;

    private SourceDetector() {
    }

    /** One input file and what it holds. */
    public record DetectedFile(Path path, SourceKind kind, boolean gzip, boolean declaresTables) {
        public Dialect dialect() {
            return switch (kind) {
                case MYSQL_SCRIPT -> Dialect.MYSQL;
                case POSTGRESQL_SCRIPT -> Dialect.POSTGRESQL;
                case SQLITE_SCRIPT, SQLITE_FILE -> Dialect.SQLITE;
                default -> Dialect.DUCKDB;
            };
        }
    }

    /**
     * Expands the arguments (files and folders) into files in reading order: within the given
     * order, scripts that declare tables come before scripts that only hold rows, so a schema
     * file and a data file can be given either way round.
     */
    public static List<DetectedFile> detectAll(List<Path> args) throws IOException {
        List<DetectedFile> out = new ArrayList<>();
        for (Path arg : args) {
            if (!Files.exists(arg)) {
                throw new DumpFormatException(arg + ": no such file or folder");
            }
            if (Files.isDirectory(arg)) {
                List<Path> files;
                try (Stream<Path> s = Files.list(arg)) {
                    files = s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
                            .filter(p -> !isDocument(p)).sorted().toList();
                }
                if (files.isEmpty()) {
                    throw new DumpFormatException(arg + ": the folder holds no data files");
                }
                for (Path f : files) {
                    out.add(detect(f));
                }
            } else {
                out.add(detect(arg));
            }
        }
        List<DetectedFile> sorted = new ArrayList<>(out);
        sorted.sort(Comparator.comparingInt(f -> f.declaresTables() ? 0 : 1));
        return sorted;
    }

    private static boolean isDocument(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".md") || n.endsWith(".txt") && n.startsWith("license") || n.equals("license")
                || n.startsWith("readme") || n.equals("source_commit");
    }

    public static DetectedFile detect(Path file) throws IOException {
        byte[] head;
        boolean gzip;
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            raw.mark(4);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            gzip = b0 == 0x1f && b1 == 0x8b;
            InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw;
            head = in.readNBytes(SNIFF);
        }
        if (head.length == 0) {
            throw new DumpFormatException(file + ": the file is empty");
        }
        if (startsWith(head, 0, "SQLite format 3\0")) {
            return new DetectedFile(file, SourceKind.SQLITE_FILE, gzip, false);
        }
        if (head.length >= 12 && startsWith(head, 8, "DUCK")) {
            return new DetectedFile(file, SourceKind.DUCKDB_FILE, gzip, false);
        }
        if (startsWith(head, 0, "PAR1")) {
            return new DetectedFile(file, SourceKind.PARQUET, gzip, false);
        }
        String text = new String(head, StandardCharsets.UTF_8);
        String lower = text.toLowerCase(Locale.ROOT);
        String trimmed = lower.stripLeading();
        if (trimmed.startsWith("{") || trimmed.startsWith("[{") || trimmed.startsWith("[\n") || trimmed.startsWith("[ ")) {
            return new DetectedFile(file, SourceKind.JSON, gzip, false);
        }
        if (looksLikeSql(lower)) {
            return new DetectedFile(file, sqlDialect(lower), gzip, lower.contains("create table"));
        }
        if (text.indexOf('\0') >= 0) {
            throw new DumpFormatException(file + ": not a format wastecheck reads (expected a SQL dump, a SQLite or "
                    + "DuckDB database, Parquet, CSV or JSON; found binary data)");
        }
        return new DetectedFile(file, SourceKind.CSV, gzip, false);
    }

    private static boolean looksLikeSql(String lower) {
        return lower.contains("create table") || lower.contains("insert into") || lower.contains("mysqldump")
                || lower.contains("postgresql database dump") || (lower.contains("copy ") && lower.contains("from stdin"));
    }

    /** The script kind of the dialect its head shows ({@link Dialect#ofScript}). */
    static SourceKind sqlDialect(String lower) {
        return switch (Dialect.ofScript(lower)) {
            case POSTGRESQL -> SourceKind.POSTGRESQL_SCRIPT;
            case SQLITE -> SourceKind.SQLITE_SCRIPT;
            default -> SourceKind.MYSQL_SCRIPT;
        };
    }

    private static boolean startsWith(byte[] b, int off, String ascii) {
        if (b.length < off + ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (b[off + i] != (byte) ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}

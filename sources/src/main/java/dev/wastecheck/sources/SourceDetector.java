package dev.wastecheck.sources;

import dev.wastecheck.model.SqlStatements;
import dev.wastecheck.model.schema.Dialect;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Tells what a SOURCE is from its first bytes, not its name: a SQL script and its dialect, a
 * SQLite or DuckDB database file, Parquet, CSV or JSON, gzipped or not; expands folders; reads
 * standard input ({@code -}, {@code /dev/stdin}, any pipe) once.
 *
 * <p>The rules cannot misread one format as another: a database file or Parquet by its magic
 * bytes; JSON by its first significant byte ({@code [} or {@code {}), validated when read; SQL by
 * its first statement keyword after comments; CSV only when none of those holds and the text has
 * no NUL byte. UTF-16 and binary data are refused with what was found.
 */
public final class SourceDetector {
    private static final int SNIFF = 256 * 1024;
    /** What names standard input in messages. */
    public static final String STDIN = "<stdin>";

    /** Words a SQL statement starts with ({@link SqlStatements#WORDS}). */
    public static final Set<String> STATEMENT_WORDS = SqlStatements.WORDS;

    private SourceDetector() {}

    /**
     * One input and what it holds.
     *
     * @param path           the file (for standard input that is not a script: the spooled copy)
     * @param name           how messages name it: the path as given, or {@value #STDIN}
     * @param gzip           the file is gzip-compressed (the kind is the content's)
     * @param declaresTables a script with CREATE TABLE statements in its first bytes
     * @param reason         why the kind was chosen, for the note printed when a name does not say it
     * @param stream         for a script read from standard input: the one stream to read (else null)
     */
    public record DetectedFile(
            Path path,
            String name,
            SourceKind kind,
            boolean gzip,
            boolean declaresTables,
            String reason,
            InputStream stream) {
        public Dialect dialect() {
            return switch (kind) {
                case MYSQL_SCRIPT -> Dialect.MYSQL;
                case POSTGRESQL_SCRIPT -> Dialect.POSTGRESQL;
                case SQLITE_SCRIPT, SQLITE_FILE -> Dialect.SQLITE;
                default -> Dialect.DUCKDB;
            };
        }

        /** Bytes on disk (compressed), for progress; 0 for a stream. */
        public long size() {
            try {
                return stream != null ? 0 : Files.size(path);
            } catch (IOException e) {
                return 0;
            }
        }

        /**
         * The content, decompressed, from its first byte. Damaged gzip data fails with a {@link
         * DumpFormatException} naming the input. {@code rawBytes} counts the bytes read from disk.
         */
        public InputStream open(AtomicLong rawBytes) throws IOException {
            if (stream != null) {
                return stream;
            }
            InputStream raw =
                    new CountingInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16), rawBytes);
            return gzip ? GzipInput.open(raw, name) : raw;
        }

        /** Whether the file's name says its kind (no note needed). */
        boolean nameSaysKind() {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.endsWith(".gz")) {
                n = n.substring(0, n.length() - 3);
            }
            return switch (kind) {
                case MYSQL_SCRIPT, POSTGRESQL_SCRIPT, SQLITE_SCRIPT ->
                    n.endsWith(".sql") || n.endsWith(".dump") || n.endsWith(".pgsql");
                case SQLITE_FILE -> n.endsWith(".db") || n.endsWith(".sqlite") || n.endsWith(".sqlite3");
                case DUCKDB_FILE -> n.endsWith(".duckdb") || n.endsWith(".db");
                case PARQUET -> n.endsWith(".parquet");
                case CSV -> n.endsWith(".csv") || n.endsWith(".tsv");
                case JSON -> n.endsWith(".json") || n.endsWith(".jsonl") || n.endsWith(".ndjson");
            };
        }
    }

    /** {@link #detectAll(List, Consumer)} without notes. */
    public static List<DetectedFile> detectAll(List<Path> args) throws IOException {
        return detectAll(args, note -> {});
    }

    /**
     * Expands the arguments (files, folders, {@code -}) into inputs in reading order: within the
     * given order, scripts that declare tables come before scripts that only hold rows, so a
     * schema file and a data file can be given either way round.
     *
     * @param notes told what was guessed or skipped, and why (one sentence each)
     */
    public static List<DetectedFile> detectAll(List<Path> args, Consumer<String> notes) throws IOException {
        if (args.stream()
                        .filter(a -> a.toString().equals("-") || isStandardInput(a))
                        .count()
                > 1) {
            throw new DumpFormatException("standard input is given twice as a SOURCE; it can be read once");
        }
        List<DetectedFile> out = new ArrayList<>();
        Set<Path> fromFolder = new HashSet<>();
        boolean stdinTaken = false;
        for (Path arg : args) {
            if (arg.toString().equals("-") || !Files.isRegularFile(arg) && isStandardInput(arg)) {
                if (stdinTaken) {
                    throw new DumpFormatException("standard input is given twice as a SOURCE; it can be read once");
                }
                stdinTaken = true;
                out.add(detectStream(System.in, STDIN));
            } else if (Files.isDirectory(arg)) {
                List<Path> files = folder(arg, notes);
                if (files.isEmpty()) {
                    throw new DumpFormatException(arg + ": the folder holds no data files");
                }
                for (Path f : files) {
                    out.add(detect(f));
                }
                fromFolder.addAll(files);
            } else if (Files.isRegularFile(arg)) {
                out.add(detect(arg));
            } else if (Files.exists(arg)) {
                // a named pipe or a device: read once, as standard input is
                out.add(detectStream(Files.newInputStream(arg), arg.toString()));
            } else if (Files.isSymbolicLink(arg)) {
                throw new DumpFormatException(arg + ": a symbolic link whose target does not exist (or that loops)");
            } else {
                throw new DumpFormatException(arg + ": no such file or folder");
            }
        }
        SourceSet.check(out, fromFolder); // the same dump twice, two dialects, a stray file in a folder
        for (DetectedFile f : out) {
            if (f.stream() != null || f.name().equals(STDIN) || !f.nameSaysKind()) {
                notes.accept(f.name() + ": read as " + describe(f) + " (" + f.reason() + ")");
            }
        }
        List<DetectedFile> sorted = new ArrayList<>(out);
        sorted.sort(Comparator.comparingInt(f -> f.declaresTables() ? 0 : 1));
        return sorted;
    }

    private static boolean isStandardInput(Path p) {
        String s = p.toString();
        return s.equals("/dev/stdin") || s.equals("/dev/fd/0") || s.equals("/proc/self/fd/0");
    }

    private static String describe(DetectedFile f) {
        String k = switch (f.kind()) {
            case MYSQL_SCRIPT -> "a MySQL script";
            case POSTGRESQL_SCRIPT -> "a PostgreSQL script";
            case SQLITE_SCRIPT -> "a SQLite script";
            case SQLITE_FILE -> "a SQLite database";
            case DUCKDB_FILE -> "a DuckDB database";
            case PARQUET -> "Parquet";
            case CSV -> "CSV";
            case JSON -> "JSON";
        };
        return f.gzip() ? k + ", gzip-compressed" : k;
    }

    /** A folder's data files, sorted; what is skipped and why goes to the notes. */
    private static List<Path> folder(Path dir, Consumer<String> notes) throws IOException {
        List<Path> entries;
        try (Stream<Path> s = Files.list(dir)) {
            entries = s.sorted().toList();
        }
        List<Path> files = new ArrayList<>();
        for (Path p : entries) {
            String n = p.getFileName().toString();
            if (n.startsWith(".") || isDocument(p)) {
                continue;
            }
            if (Files.isDirectory(p)) {
                notes.accept(p + ": skipped, a folder inside a folder (give it as its own SOURCE to read it)");
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else if (Files.isSymbolicLink(p) && !Files.exists(p)) {
                notes.accept(p + ": skipped, a symbolic link whose target does not exist (or that loops)");
            } else {
                notes.accept(p + ": skipped, not a regular file (a pipe or a device)");
            }
        }
        return files;
    }

    private static boolean isDocument(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".md")
                || n.endsWith(".txt") && n.startsWith("license")
                || n.equals("license")
                || n.startsWith("readme")
                || n.equals("source_commit");
    }

    public static DetectedFile detect(Path file) throws IOException {
        String name = file.toString();
        byte[] head;
        boolean gzip;
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            gzip = GzipInput.isGzip(raw);
            InputStream in = gzip ? GzipInput.open(raw, name) : raw;
            head = in.readNBytes(SNIFF);
        }
        Kind k = classify(head, name, gzip);
        return new DetectedFile(file, name, k.kind, gzip, k.declaresTables, k.reason, null);
    }

    /**
     * Standard input or a pipe: read once. A script streams straight into the reader (a dump of
     * any size, never held on disk); a database file, Parquet, CSV or JSON is copied to a
     * temporary file first, since their readers need to seek (removed when the JVM exits).
     */
    static DetectedFile detectStream(InputStream stream, String name) throws IOException {
        BufferedInputStream raw = new BufferedInputStream(stream, 1 << 16);
        boolean gzip = GzipInput.isGzip(raw);
        BufferedInputStream in = gzip ? new BufferedInputStream(GzipInput.open(raw, name), 1 << 16) : raw;
        in.mark(SNIFF + 1);
        byte[] head = in.readNBytes(SNIFF);
        in.reset();
        Kind k = classify(head, name, gzip);
        if (k.kind == SourceKind.MYSQL_SCRIPT
                || k.kind == SourceKind.POSTGRESQL_SCRIPT
                || k.kind == SourceKind.SQLITE_SCRIPT) {
            return new DetectedFile(Path.of(name), name, k.kind, gzip, k.declaresTables, k.reason, in);
        }
        Path spool = Files.createTempFile("wastecheck-stdin-", "");
        spool.toFile().deleteOnExit();
        try (OutputStream out = Files.newOutputStream(spool)) {
            in.transferTo(out);
        }
        return new DetectedFile(
                spool, name, k.kind, false, false, k.reason + "; copied to " + spool + " to be read", null);
    }

    private record Kind(SourceKind kind, boolean declaresTables, String reason) {}

    private static Kind classify(byte[] head, String name, boolean gzip) {
        if (head.length == 0) {
            throw new DumpFormatException(
                    name + ": " + (gzip ? "the gzip data decompresses to nothing" : "the file is empty"));
        }
        if (startsWith(head, 0, "SQLite format 3\0")) {
            return new Kind(SourceKind.SQLITE_FILE, false, "it starts with SQLite's header");
        }
        if (head.length >= 12 && startsWith(head, 8, "DUCK")) {
            return new Kind(SourceKind.DUCKDB_FILE, false, "it starts with DuckDB's header");
        }
        if (startsWith(head, 0, "PAR1")) {
            return new Kind(SourceKind.PARQUET, false, "it starts with Parquet's magic bytes");
        }
        int start = 0;
        if (head.length >= 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf) {
            start = 3; // a UTF-8 byte-order mark
        }
        if (head.length >= 2
                        && ((head[0] & 0xff) == 0xff && (head[1] & 0xff) == 0xfe
                                || (head[0] & 0xff) == 0xfe && (head[1] & 0xff) == 0xff)
                || looksUtf16(head)) {
            throw new DumpFormatException(name + ": UTF-16 text; wastecheck reads UTF-8 "
                    + "(convert it first, e.g. iconv -f UTF-16 -t UTF-8)");
        }
        String text = new String(head, start, head.length - start, StandardCharsets.UTF_8);
        int i = skipSqlComments(text);
        if (i >= text.length()) {
            return new Kind(SourceKind.MYSQL_SCRIPT, false, "it holds only SQL comments");
        }
        char c = text.charAt(i);
        if (c == '{' || c == '[') {
            return new Kind(SourceKind.JSON, false, "its first character is '" + c + "'");
        }
        String word = firstWord(text, i);
        boolean sqlStart = (STATEMENT_WORDS.contains(word)
                        && i + word.length() < text.length()
                        && !Character.isLetterOrDigit(text.charAt(i + word.length()))
                        && text.charAt(i + word.length()) != ','
                        && text.charAt(i + word.length()) != '\t')
                || c == '\\'
                || i > 0
                        && (text.stripLeading().startsWith("--")
                                || text.stripLeading().startsWith("/*"));
        if (sqlStart) {
            String lower = text.toLowerCase(Locale.ROOT);
            SourceKind kind = sqlDialect(lower);
            return new Kind(
                    kind,
                    lower.contains("create table"),
                    word.isEmpty()
                            ? "it starts with SQL comments"
                            : "its first statement starts with " + word.toUpperCase(Locale.ROOT));
        }
        if (startsWith(head, 0, "PGDMP")) {
            throw new DumpFormatException(name + ": a pg_dump archive in its custom format (pg_dump -Fc); wastecheck "
                    + "reads plain SQL: pg_restore -f - " + name + " | wastecheck analyze -");
        }
        int nul = indexOf(head, (byte) 0);
        if (nul >= 0) {
            long line = 1;
            for (int k = 0; k < nul; k++) {
                line += head[k] == '\n' ? 1 : 0;
            }
            throw new DumpFormatException(name + ":" + line
                    + ": not a format wastecheck reads (expected a SQL dump, a SQLite "
                    + "or DuckDB database, Parquet, CSV or JSON; found binary data, a NUL byte at offset " + nul + ")");
        }
        JsonScalars.refuse(text.substring(i), name);
        return new Kind(
                SourceKind.CSV,
                false,
                "not a database file, Parquet, JSON or a SQL statement at its start; "
                        + "DuckDB's CSV reader sniffs the delimiter and header");
    }

    /** UTF-16 without a byte-order mark: NUL in every other byte of ASCII text. */
    private static boolean looksUtf16(byte[] head) {
        int n = Math.min(head.length, 64) & ~1;
        if (n < 8) {
            return false;
        }
        int evenNul = 0;
        int oddNul = 0;
        for (int i = 0; i < n; i += 2) {
            evenNul += head[i] == 0 ? 1 : 0;
            oddNul += head[i + 1] == 0 ? 1 : 0;
        }
        return evenNul == n / 2 && oddNul == 0 || oddNul == n / 2 && evenNul == 0;
    }

    /** The index after leading white space and SQL comments ({@code --}, {@code #} lines, block comments). */
    static int skipSqlComments(String t) {
        int i = 0;
        int n = t.length();
        while (i < n) {
            char c = t.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (t.startsWith("--", i) || c == '#' && !t.startsWith("#!", i)) {
                int e = t.indexOf('\n', i);
                i = e < 0 ? n : e + 1;
            } else if (t.startsWith("/*", i) && !t.startsWith("/*!", i)) {
                int e = t.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (t.startsWith("/*!", i)) {
                i += 3; // a MySQL conditional comment: its content is code
                while (i < n && Character.isDigit(t.charAt(i))) {
                    i++;
                }
            } else {
                return i;
            }
        }
        return n;
    }

    private static String firstWord(String t, int i) {
        int e = i;
        while (e < t.length() && (Character.isLetter(t.charAt(e)) || t.charAt(e) == '_')) {
            e++;
        }
        return t.substring(i, e).toLowerCase(Locale.ROOT);
    }

    /** The script kind of the dialect its head shows ({@link Dialect#ofScript}). */
    static SourceKind sqlDialect(String lower) {
        return switch (Dialect.ofScript(lower)) {
            case POSTGRESQL -> SourceKind.POSTGRESQL_SCRIPT;
            case SQLITE -> SourceKind.SQLITE_SCRIPT;
            default -> SourceKind.MYSQL_SCRIPT;
        };
    }

    private static int indexOf(byte[] b, byte x) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
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

    /** Counts the bytes read from disk, for progress over compressed input. */
    private static final class CountingInputStream extends FilterInputStream {
        private final AtomicLong count;

        CountingInputStream(InputStream in, AtomicLong count) {
            super(in);
            this.count = count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count.addAndGet(n);
            }
            return n;
        }
    }
}

package dev.wastecheck.traces.read;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a trace file of any supported {@link TraceFormat}, detected from its first lines (gzip
 * too). Streaming: one line of look-ahead, whatever the file's size.
 *
 * <p>Malformed lines are counted with their line numbers ({@link #badLines()}); once more than
 * {@link TraceReadOptions#maxBadFraction()} of the lines read are bad (checked after {@link
 * TraceReadOptions#minLinesBeforeFailing()} lines and at the end), {@link #next()} throws a {@link
 * TraceFormatException} naming the first bad line and what was expected there.
 *
 * <pre>{@code
 * try (TraceReader r = TraceReader.open(Path.of("trace.log"), TraceReadOptions.defaults())) {
 *     while (r.hasNext()) { TraceRecord rec = r.next(); ... }
 * }
 * }</pre>
 */
public abstract class TraceReader implements Iterator<TraceRecord>, Closeable {
    private static final int SNIFF_LINES = 200;

    protected final Path file;
    private final TraceReadOptions options;
    private final BufferedReader in;
    private final BadLines bad = new BadLines();
    private final ArrayDeque<TraceRecord> queue = new ArrayDeque<>();
    private long lineNo;
    private String pushedBack;
    private boolean eof;
    private boolean finalChecked;
    private final Map<String, Long> skipped = new LinkedHashMap<>();

    protected TraceReader(Path file, BufferedReader in, TraceReadOptions options) {
        this.file = file;
        this.in = in;
        this.options = options;
    }

    public static TraceReader open(Path file) throws IOException {
        return open(file, TraceReadOptions.defaults());
    }

    public static TraceReader open(Path file, TraceReadOptions options) throws IOException {
        refuseBinary(file);
        TraceFormat format = detect(file);
        BufferedReader in = reader(file);
        return switch (format) {
            case WASTECHECK -> new GeneratorTraceReader(file, in, options);
            case WIKIBENCH -> new WikiBenchReader(file, in, options);
            case PAGEVIEW_COUNTS -> new PageviewCountsReader(file, in, options);
            case MYSQL_GENERAL_LOG -> new MysqlGeneralLogReader(file, in, options);
            case POSTGRESQL_LOG -> new PostgresLogReader(file, in, options);
            case SQL_STATEMENTS -> new SqlStatementsReader(file, in, options);
        };
    }

    /**
     * A trace is text: a NUL byte, or more than 1 in 10 bytes that are control characters, in
     * its first 64 KB is binary data, refused with the offset rather than read as 721 statements
     * of noise.
     */
    static void refuseBinary(Path file) throws IOException {
        byte[] head;
        try (InputStream s = raw(file)) {
            head = s.readNBytes(64 << 10);
        } catch (ZipException | EOFException e) {
            throw new TraceFormatException(file, 1, "a text trace", "damaged gzip data (" + e.getMessage() + ")");
        }
        int control = 0;
        long line = 1;
        for (int i = 0; i < head.length; i++) {
            int b = head[i] & 0xff;
            if (b == 0) {
                throw new TraceFormatException(
                        file,
                        line,
                        "a text trace (SQL, a server log, URLs or counts)",
                        "binary data (a NUL byte at offset " + i + ")");
            }
            if (b == '\n') {
                line++;
            } else if (b < 32 && b != '\t' && b != '\r' && b != '\f' || b == 127) {
                control++;
            }
        }
        if (head.length > 0 && control * 10 > head.length) {
            throw new TraceFormatException(
                    file,
                    1,
                    "a text trace (SQL, a server log, URLs or counts)",
                    "binary data (" + control + " control bytes in the first " + head.length + ")");
        }
    }

    private static InputStream raw(Path file) throws IOException {
        BufferedInputStream s = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        s.mark(2);
        int b0 = s.read();
        int b1 = s.read();
        s.reset();
        return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(s, 1 << 16) : s;
    }

    private static BufferedReader reader(Path file) throws IOException {
        InputStream s = raw(file);
        // lenient: logs carry whatever bytes clients sent; a malformed sequence becomes U+FFFD, not an error
        var decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        return new BufferedReader(new InputStreamReader(s, decoder), 1 << 20);
    }

    private static final Pattern PG_ENTRY =
            Pattern.compile("\\b(LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO|DETAIL|HINT|STATEMENT|CONTEXT):  ");
    private static final Pattern WIKIBENCH = Pattern.compile("^\\d+ \\d+(\\.\\d+)? \\S+ (-|save)$");
    private static final Pattern PAGEVIEWS = Pattern.compile("^\\S+ \\S+ \\d+ \\d+$");

    /** Detects the format from the first {@value #SNIFF_LINES} non-blank lines. */
    public static TraceFormat detect(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = reader(file)) {
            String l;
            while (lines.size() < SNIFF_LINES && (l = r.readLine()) != null) {
                if (!l.isBlank()) {
                    lines.add(l);
                }
            }
        }
        if (!lines.isEmpty() && lines.get(0).startsWith("-- wastecheck trace")) {
            return TraceFormat.WASTECHECK;
        }
        int pg = 0, mysql = 0, wb = 0, pv = 0;
        for (String l : lines) {
            if (PG_ENTRY.matcher(l).find()) {
                pg++;
            }
            if (MysqlGeneralLogReader.ENTRY.matcher(l).matches()
                    || l.contains(". started with:")
                    || l.startsWith("Time                 Id Command")) {
                mysql++;
            }
            if (WIKIBENCH.matcher(l).matches()) {
                wb++;
            }
            if (PAGEVIEWS.matcher(l).matches()) {
                pv++;
            }
        }
        int half = Math.max(1, lines.size() / 2);
        if (pg > 0 && pg >= mysql) {
            return TraceFormat.POSTGRESQL_LOG;
        }
        if (mysql > 0) {
            return TraceFormat.MYSQL_GENERAL_LOG;
        }
        if (wb >= half) {
            return TraceFormat.WIKIBENCH;
        }
        if (pv >= half) {
            return TraceFormat.PAGEVIEW_COUNTS;
        }
        return TraceFormat.SQL_STATEMENTS;
    }

    public abstract TraceFormat format();

    public Path file() {
        return file;
    }

    public BadLines badLines() {
        return bad;
    }

    /** Lines read so far. */
    public long lines() {
        return lineNo;
    }

    /** Well-formed lines that hold no request this tool models (images, special pages, connects), by reason. */
    public Map<String, Long> skipped() {
        return Map.copyOf(skipped);
    }

    protected void skip(String reason) {
        skipped.merge(reason, 1L, Long::sum);
    }

    /** Reads records into {@link #emit} until at least one is queued; returns false at the end of the file. */
    protected abstract boolean fill() throws IOException;

    protected final void emit(TraceRecord r) {
        queue.add(r);
        emitted++;
    }

    private long emitted;

    protected final String readLine() throws IOException {
        if (pushedBack != null) {
            String l = pushedBack;
            pushedBack = null;
            lineNo++;
            return l;
        }
        String l = in.readLine();
        if (l != null) {
            lineNo++;
        }
        return l;
    }

    protected final void unread(String line) {
        pushedBack = line;
        lineNo--;
    }

    protected final long lineNo() {
        return lineNo;
    }

    protected final void bad(long line, String text, String expected) {
        bad.add(line, text, expected);
        if (lineNo >= options.minLinesBeforeFailing()) {
            check();
        }
    }

    private void check() {
        if (bad.count() > 0 && bad.count() > options.maxBadFraction() * Math.max(1, lineNo)) {
            BadLines.Example first = bad.examples().get(0);
            throw new TraceFormatException(
                    file,
                    first.line(),
                    first.expected(),
                    String.format(
                            Locale.ROOT,
                            "found '%s' (%d of %d lines bad, more than the %.4g%% allowed; format %s)",
                            first.text(),
                            bad.count(),
                            lineNo,
                            options.maxBadFraction() * 100,
                            format()));
        }
    }

    @Override
    public boolean hasNext() {
        try {
            while (queue.isEmpty() && !eof) {
                if (!fill()) {
                    eof = true;
                }
            }
        } catch (ZipException | EOFException e) {
            throw new TraceFormatException(
                    file, lineNo, "more of the trace", "damaged gzip data (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (queue.isEmpty() && !finalChecked) {
            finalChecked = true;
            check();
            if (emitted == 0) {
                long skippedLines =
                        skipped.values().stream().mapToLong(Long::longValue).sum();
                throw new TraceFormatException(
                        file,
                        Math.max(1, lineNo),
                        "statements or requests (" + format() + ")",
                        lineNo == 0
                                ? "an empty file"
                                : "none in " + lineNo + " lines"
                                        + (bad.count() > 0 ? ", " + bad.count() + " of them bad" : "")
                                        + (skippedLines > 0 ? ", " + skippedLines + " skipped: " + skipped : ""));
            }
        }
        return !queue.isEmpty();
    }

    @Override
    public TraceRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return queue.poll();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    // ---- helpers shared by the URL-based readers -------------------------------------------------

    private static final Map<String, Integer> NAMESPACES = Map.ofEntries(
            Map.entry("talk", 1),
            Map.entry("user", 2),
            Map.entry("user_talk", 3),
            Map.entry("wikipedia", 4),
            Map.entry("project", 4),
            Map.entry("wikipedia_talk", 5),
            Map.entry("file", 6),
            Map.entry("image", 6),
            Map.entry("file_talk", 7),
            Map.entry("mediawiki", 8),
            Map.entry("template", 10),
            Map.entry("template_talk", 11),
            Map.entry("help", 12),
            Map.entry("category", 14),
            Map.entry("category_talk", 15),
            Map.entry("portal", 100),
            Map.entry("special", -1),
            Map.entry("media", -2));

    /** Namespace number and title of a decoded page name ({@code Talk:Foo bar} -> 1, {@code Foo_bar}); null title if not a page. */
    static Object[] pageName(String decoded) {
        String name = decoded.replace(' ', '_').strip();
        int ns = 0;
        int colon = name.indexOf(':');
        if (colon > 0) {
            Integer n = NAMESPACES.get(name.substring(0, colon).toLowerCase(Locale.ROOT));
            if (n != null) {
                ns = n;
                name = name.substring(colon + 1);
            }
        }
        if (ns < 0 || name.isEmpty()) {
            return new Object[] {ns, null};
        }
        int first = name.codePointAt(0);
        name = new String(Character.toChars(Character.toUpperCase(first))) + name.substring(Character.charCount(first));
        return new Object[] {ns, name};
    }

    static String urlDecode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

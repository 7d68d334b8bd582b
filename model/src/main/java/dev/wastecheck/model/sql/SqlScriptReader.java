package dev.wastecheck.model.sql;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.SqlStatements;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * A streaming reader of SQL scripts as dump tools write them: mysqldump, plain pg_dump, and the
 * hand-written scripts that ship sample databases (SQLite, SQL Server-style brackets).
 *
 * <p>It hands out one {@link Statement} at a time. DDL and other statements come back as text
 * (comments removed, MySQL conditional comments {@code /*!40101 ... *}{@code /} unwrapped the way a
 * current server runs them). An {@code INSERT ... VALUES} comes back as its header only; its
 * tuples are then pulled one at a time with {@link #nextTuple(ValueSink)}, straight from the byte
 * buffer into the sink, so a 1 GB extended INSERT never exists as a string. {@code COPY ... FROM
 * stdin} rows are pulled with {@link #nextCopyRow(ValueSink)} the same way.
 *
 * <p>Memory is the read buffer plus the largest single value. Lines are counted so every error
 * names {@code file:line}.
 */
public final class SqlScriptReader implements Closeable {

    /** Value kinds handed to a {@link ValueSink}. */
    public static final int NULL = 0;
    /** An unquoted numeric literal. */
    public static final int NUMBER = 1;
    /** A quoted string, escapes decoded. */
    public static final int STRING = 2;
    /** Bytes from {@code 0x..}, {@code X'..'}, {@code b'..'} or {@code _binary '..'}. */
    public static final int BINARY = 3;
    /** A bare word such as TRUE, FALSE, DEFAULT, or an expression kept as its text. */
    public static final int WORD = 4;

    /** Receives the values of one row. */
    public interface ValueSink {
        /**
         * Value number {@code index} of the current row; {@code bytes[off, off+len)} is valid only
         * during the call, and is read only: it may be the reader's own buffer.
         */
        void value(int index, int kind, byte[] bytes, int off, int len);

        /**
         * As {@link #value(int, int, byte[], int, int)}, with what the tokenizer saw while it read
         * the value: {@code ascii} when every byte is below 0x80 (so it is valid UTF-8 without
         * a second look); false says nothing.
         */
        default void value(int index, int kind, byte[] bytes, int off, int len, boolean ascii) {
            value(index, kind, bytes, off, len);
        }

        /** The row ended after {@code count} values. */
        void endRow(int count, long line);
    }

    /** A statement of the script. */
    public sealed interface Statement permits Other, Insert, Copy, Garbage {
        long line();
    }

    /**
     * Text where a statement should start that does not start one (a line of garbage, a NUL
     * byte): the reader has skipped to the next line that starts a statement.
     *
     * @param found      what was there, printable and short
     * @param resumeLine the line reading resumed at, or -1 at the end of the file
     */
    public record Garbage(String found, long line, long resumeLine) implements Statement {}

    /** Any statement but row data: its text with comments removed. */
    public record Other(String text, long line) implements Statement {}

    /** {@code INSERT INTO table [(columns)] VALUES}: tuples follow, read them with {@link #nextTuple}. */
    public record Insert(String table, List<String> columns, long line) implements Statement {}

    /** {@code COPY table [(columns)] FROM stdin}: rows follow, read them with {@link #nextCopyRow}. */
    public record Copy(String table, List<String> columns, long line) implements Statement {}

    private static final int BUFFER = 1 << 17;
    private static final int MAX_STATEMENT_TEXT = 64 << 20;

    private final InputStream in;
    private final String file;
    private final boolean backslashEscapes;
    private byte[] buf = new byte[BUFFER];
    private int pos;
    private int lim;
    private boolean eof;
    private long line = 1;
    private long consumedBefore;
    private byte[] delimiter = {';'};
    private int openConditionals;
    private byte[] value = new byte[256];
    private int valueLen;
    /**
     * Whether the current value's bytes are left in the read buffer, {@code buf[outOff, outOff +
     * valueLen)}, rather than in {@code value} from 0: a quoted string without escapes or a plain
     * number that lay whole in the buffer, handed to the sink from there, so that it is copied
     * once (by the sink), not twice. Before the buffer's bytes move ({@link #fill}) or the value
     * grows, {@link #unpin} copies it into {@code value}.
     */
    private boolean pinned;

    private int outOff;
    private long tuplesInStatement;
    /** Where the current INSERT or COPY began, for errors at the end of the file. */
    private long statementLine;

    /**
     * @param backslashEscapes MySQL's rule: {@code \n}, {@code \'} and friends are escapes inside
     *                         quotes. PostgreSQL and SQLite take backslashes literally except in
     *                         {@code E'...'}.
     */
    public SqlScriptReader(InputStream in, String file, boolean backslashEscapes) {
        this.in = in;
        this.file = file;
        this.backslashEscapes = backslashEscapes;
    }

    /** Bytes consumed so far (for progress). */
    public long position() {
        return consumedBefore + pos;
    }

    public long line() {
        return line;
    }

    public String file() {
        return file;
    }

    // ------------------------------------------------------------------ buffer

    private boolean fill(int need) throws IOException {
        if (lim - pos >= need) {
            return true;
        }
        if (eof) {
            return false;
        }
        if (pinned) {
            unpin(); // the buffer's bytes are about to move
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            consumedBefore += pos;
            lim -= pos;
            pos = 0;
        }
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
        }
        while (lim - pos < need) {
            int n = in.read(buf, lim, buf.length - lim);
            if (n < 0) {
                eof = true;
                return false;
            }
            lim += n;
        }
        return true;
    }

    /** The byte at the cursor, or -1 at end of input. */
    private int peek() throws IOException {
        if (pos < lim || fill(1)) {
            return buf[pos] & 0xff;
        }
        return -1;
    }

    private int peek(int ahead) throws IOException {
        if (pos + ahead < lim || fill(ahead + 1)) {
            return buf[pos + ahead] & 0xff;
        }
        return -1;
    }

    private int read() throws IOException {
        if (pos < lim || fill(1)) {
            byte b = buf[pos++];
            if (b == '\n') {
                line++;
            }
            return b & 0xff;
        }
        return -1;
    }

    private boolean startsWithIgnoreCase(String word) throws IOException {
        int n = word.length();
        if (!fill(n)) {
            if (lim - pos < n) {
                return false;
            }
        }
        for (int i = 0; i < n; i++) {
            int c = buf[pos + i] & 0xff;
            if (Character.toLowerCase(c) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private void skip(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            read();
        }
    }

    // ------------------------------------------------------------------ whitespace and comments

    /**
     * Skips spaces and comments. A MySQL conditional comment opener is skipped too and its
     * closing {@code *}{@code /} later, so its content reads as code (a current MySQL runs it).
     */
    private void skipSpace() throws IOException {
        // Rows are written value,value: most calls find a value's first byte and stop there.
        if (pos < lim && startsValue(buf[pos] & 0xff)) {
            return;
        }
        while (true) {
            int c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                read();
            } else if (c == '-' && peek(1) == '-' && isSpaceOrEnd(peek(2))) {
                skipLine();
            } else if (c == '/' && peek(1) == '*') {
                if (peek(2) == '!') {
                    skip(3);
                    while (isDigit(peek())) {
                        read();
                    }
                    openConditionals++;
                } else if (peek(2) == '+') {
                    skip(3); // optimizer hint: its content is not code we need
                    skipBlockCommentBody();
                } else {
                    skip(2);
                    skipBlockCommentBody();
                }
            } else if (c == '*' && peek(1) == '/' && openConditionals > 0) {
                skip(2);
                openConditionals--;
            } else {
                return;
            }
        }
    }

    /**
     * Whether byte {@code c} at the cursor is one {@link #skipSpace} stops at without a look
     * further: not a space or control byte, nor one that may open or close a comment.
     */
    private static boolean startsValue(int c) {
        return c > ' ' && c != '-' && c != '/' && c != '*';
    }

    private static boolean isSpaceOrEnd(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == -1;
    }

    private void skipBlockCommentBody() throws IOException {
        long start = line;
        while (true) {
            int c = read();
            if (c == -1) {
                throw error(start, "the end of a /* comment */", "the end of the file");
            }
            if (c == '*' && peek() == '/') {
                read();
                return;
            }
        }
    }

    private void skipLine() throws IOException {
        int c;
        do {
            c = read();
        } while (c != '\n' && c != -1);
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentChar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '_'
                || c == '$'
                || c >= 0x80;
    }

    // ------------------------------------------------------------------ statements

    private boolean started;

    /** The next statement, or null at the end of the script. */
    public Statement next() throws IOException {
        if (!started) {
            started = true;
            if (peek() == 0xef && peek(1) == 0xbb && peek(2) == 0xbf) {
                skip(3); // a UTF-8 byte-order mark
            }
        }
        while (true) {
            skipStatementSeparators();
            int c = peek();
            if (c == -1) {
                if (openConditionals > 0) {
                    openConditionals = 0;
                }
                return null;
            }
            long startLine = line;
            if (c == '\\') {
                skipLine(); // a psql meta-command such as \connect or \restrict
                continue;
            }
            if (c == '#') {
                skipLine(); // a MySQL comment line
                continue;
            }
            if (startsWithIgnoreCase("delimiter") && isSpaceOrEnd(peek(9))) {
                skip(9);
                String d = readRestOfLine().trim();
                if (d.isEmpty()) {
                    throw error(startLine, "a delimiter after DELIMITER", "nothing");
                }
                delimiter = d.getBytes(StandardCharsets.UTF_8);
                continue;
            }
            if (startsWithIgnoreCase("insert") && !isIdentChar(peek(6))) {
                return readInsertHeader(startLine);
            }
            if (startsWithIgnoreCase("replace") && !isIdentChar(peek(7))) {
                return readInsertHeader(startLine);
            }
            if (!atStatementStart()) {
                return garbage(startLine);
            }
            String text = readStatementText(startLine);
            if (text.isBlank()) {
                continue;
            }
            Copy copy = asCopyFromStdin(text, startLine);
            if (copy != null) {
                return copy;
            }
            return new Other(text, startLine);
        }
    }

    /** Whether the cursor is at a word that starts a SQL statement ({@link SqlStatements#WORDS}), or a '('. */
    private boolean atStatementStart() throws IOException {
        if (peek() == '(') {
            return true;
        }
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            int c = peek(i);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
                w.append((char) Character.toLowerCase(c));
            } else {
                return !isIdentChar(c) && SqlStatements.WORDS.contains(w.toString());
            }
        }
        return false;
    }

    /** Skips from a position that starts no statement to the next line that does (or the end). */
    private Garbage garbage(long startLine) throws IOException {
        StringBuilder found = new StringBuilder();
        int c;
        while ((c = peek()) != -1 && c != '\n' && found.length() < 60) {
            read();
            found.append(c < 32 || c == 127 ? String.format("\\x%02x", c) : String.valueOf((char) c));
        }
        String shown = "'" + new String(found.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)
                + (c != '\n' && c != -1 ? "..." : "") + "'";
        while (true) {
            skipLine();
            int d;
            while ((d = peek()) == ' ' || d == '\t' || d == '\r') {
                read();
            }
            if (peek() == -1) {
                return new Garbage(shown, startLine, -1);
            }
            if (atStatementStart()
                    || peek() == '\\'
                    || peek() == '#'
                    || peek() == '-' && peek(1) == '-'
                    || peek() == '/' && peek(1) == '*'
                    || atDelimiter()) {
                return new Garbage(shown, startLine, line);
            }
        }
    }

    private void skipStatementSeparators() throws IOException {
        while (true) {
            skipSpace();
            if (atDelimiter()) {
                skip(delimiter.length);
            } else if (peek() == ';') {
                read();
            } else {
                return;
            }
        }
    }

    private boolean atDelimiter() throws IOException {
        for (int i = 0; i < delimiter.length; i++) {
            if (peek(i) != (delimiter[i] & 0xff)) {
                return false;
            }
        }
        return true;
    }

    private String readRestOfLine() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int c;
        while ((c = peek()) != -1 && c != '\n') {
            out.write(read());
        }
        return out.toString(StandardCharsets.UTF_8).replace("\r", "");
    }

    /**
     * Reads up to the delimiter, keeping quotes intact and dropping comments. Conditional
     * comments are unwrapped.
     */
    private String readStatementText(long startLine) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        while (true) {
            int c = peek();
            if (c == -1) {
                if (!out.toString(StandardCharsets.UTF_8).isBlank()) {
                    throw error(
                            startLine,
                            "'" + new String(delimiter, StandardCharsets.UTF_8)
                                    + "' ending the statement that begins here",
                            "the end of the file (the file may be cut short)");
                }
                break;
            }
            if (atDelimiter()) {
                skip(delimiter.length);
                break;
            }
            if (out.size() > MAX_STATEMENT_TEXT) {
                throw error(
                        startLine,
                        "a statement shorter than 64 MB ending in '" + new String(delimiter, StandardCharsets.UTF_8)
                                + "'",
                        "more than 64 MB of text");
            }
            if (c == '\'' || c == '"' || c == '`') {
                copyQuoted(out, c, startLine);
            } else if (c == '$' && (out.size() == 0 || !isIdentChar(lastByte(out)))) {
                copyDollarQuoted(out, startLine);
            } else if (c == '-' && peek(1) == '-' && isSpaceOrEnd(peek(2))) {
                skipLine();
                out.write('\n');
            } else if (c == '/' && peek(1) == '*') {
                int before = openConditionals;
                skipSpace();
                if (openConditionals == before) {
                    out.write(' ');
                }
            } else if (c == '*' && peek(1) == '/' && openConditionals > 0) {
                skip(2);
                openConditionals--;
                out.write(' ');
            } else {
                out.write(read());
            }
        }
        return out.toString(StandardCharsets.UTF_8).trim();
    }

    private static int lastByte(ByteArrayOutputStream out) {
        byte[] b = out.toByteArray();
        return b.length == 0 ? ' ' : b[b.length - 1] & 0xff;
    }

    private void copyQuoted(ByteArrayOutputStream out, int quote, long startLine) throws IOException {
        long openedAt = line;
        out.write(read());
        int from = out.size();
        while (true) {
            int c = read();
            if (c == -1) {
                throw error(openedAt, "a closing " + (char) quote, "the end of the file");
            }
            out.write(c);
            if (c == '\\' && backslashEscapes && quote != '`') {
                int d = read();
                if (d == -1) {
                    throw error(openedAt, "a closing " + (char) quote, "the end of the file");
                }
                out.write(d);
            } else if (c == quote) {
                if (peek() == quote) {
                    out.write(read());
                } else {
                    if (line > openedAt) {
                        byte[] b = out.toByteArray();
                        checkSwallowed(b, from, b.length, quote, openedAt);
                    }
                    return;
                }
            }
        }
    }

    /** Statements a dump writes at the start of a line; a quoted string holding ";\n" and one of them swallowed it. */
    private static final Pattern SWALLOWED = Pattern.compile(
            ";[ \t\r]*\n[ \t\r]*(insert\s+into|create\s+table|copy\s|drop\s+table|lock\s+tables|unlock\s+tables|alter\s+table)",
            Pattern.CASE_INSENSITIVE);

    /**
     * A string that ran over a line end, past a ';', into what a dump writes as its next
     * statement: a quote is missing where the string began. Reported there, at once, rather
     * than thousands of lines later where the quotes stop pairing up.
     */
    private void checkSwallowed(byte[] b, int from, int to, int quote, long openedAt) {
        String text = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        Matcher m = SWALLOWED.matcher(text);
        if (m.find()) {
            long at = openedAt
                    + text.substring(0, m.start(1))
                            .chars()
                            .filter(ch -> ch == '\n')
                            .count();
            throw error(
                    openedAt,
                    "a closing " + (char) quote + " for the string that begins here",
                    "the string running on past ';' into '" + m.group(1).replaceAll("\\s+", " ") + " ...' at line " + at
                            + " (a quote is probably missing on line " + openedAt + ")");
        }
    }

    private void copyDollarQuoted(ByteArrayOutputStream out, long startLine) throws IOException {
        // $tag$ ... $tag$ (PostgreSQL function bodies); a lone $ or $1 is just copied.
        int i = 1;
        while (true) {
            int c = peek(i);
            if (c == '$') {
                break;
            }
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (i > 1 && isDigit(c)))) {
                out.write(read());
                return;
            }
            i++;
        }
        byte[] tag = new byte[i + 1];
        for (int k = 0; k <= i; k++) {
            tag[k] = (byte) read();
        }
        out.write(tag, 0, tag.length);
        long openedAt = line;
        while (true) {
            int c = peek();
            if (c == -1) {
                throw error(openedAt, "the closing " + new String(tag, StandardCharsets.UTF_8), "the end of the file");
            }
            boolean match = true;
            for (int k = 0; k < tag.length; k++) {
                if (peek(k) != (tag[k] & 0xff)) {
                    match = false;
                    break;
                }
            }
            if (match) {
                for (int k = 0; k < tag.length; k++) {
                    out.write(read());
                }
                return;
            }
            out.write(read());
        }
    }

    // ------------------------------------------------------------------ identifiers

    /** Reads a possibly qualified, possibly quoted name; returns its parts. */
    private List<String> readQualifiedName(long startLine) throws IOException {
        List<String> parts = new ArrayList<>(2);
        while (true) {
            skipSpace();
            parts.add(readIdentifier(startLine));
            skipSpace();
            if (peek() == '.') {
                read();
            } else {
                return parts;
            }
        }
    }

    private String readIdentifier(long startLine) throws IOException {
        int c = peek();
        StringBuilder sb = new StringBuilder();
        if (c == '`' || c == '"' || c == '[') {
            int close = c == '[' ? ']' : c;
            read();
            while (true) {
                int d = read();
                if (d == -1) {
                    throw error(startLine, "a closing " + (char) close, "the end of the file");
                }
                if (d == close) {
                    if (close != ']' && peek() == close) {
                        sb.append((char) read());
                        continue;
                    }
                    break;
                }
                sb.append((char) d);
            }
            return decodeLatin(sb);
        }
        while (isIdentChar(peek())) {
            sb.append((char) read());
        }
        if (sb.length() == 0) {
            throw error(line, "a name", describe(peek()));
        }
        return decodeLatin(sb);
    }

    private static String decodeLatin(StringBuilder sb) {
        byte[] b = new byte[sb.length()];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) sb.charAt(i);
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    static String tableName(List<String> parts) {
        if (parts.size() >= 2) {
            String schema = parts.get(parts.size() - 2).toLowerCase(Locale.ROOT);
            if (!schema.equals("public") && !schema.equals("dbo") && !schema.equals("main")) {
                // A database or schema qualifier: mysqldump never writes one, pg_dump writes public.
                return parts.get(parts.size() - 1);
            }
        }
        return parts.get(parts.size() - 1);
    }

    private List<String> readColumnList(long startLine) throws IOException {
        List<String> cols = new ArrayList<>();
        read(); // (
        while (true) {
            skipSpace();
            cols.add(readIdentifier(startLine));
            skipSpace();
            int c = read();
            if (c == ')') {
                return cols;
            }
            if (c != ',') {
                throw error(line, "',' or ')' in the column list", describe(c));
            }
        }
    }

    // ------------------------------------------------------------------ INSERT

    private Statement readInsertHeader(long startLine) throws IOException {
        // INSERT [LOW_PRIORITY | DELAYED | HIGH_PRIORITY] [IGNORE] [INTO] name [(cols)] VALUES
        readWord();
        while (true) {
            skipSpace();
            if (wordAhead("low_priority")
                    || wordAhead("delayed")
                    || wordAhead("high_priority")
                    || wordAhead("ignore")
                    || wordAhead("or")) {
                readWord();
                skipSpace();
                if (wordAhead("replace")
                        || wordAhead("ignore")
                        || wordAhead("abort")
                        || wordAhead("fail")
                        || wordAhead("rollback")) {
                    readWord();
                }
                continue;
            }
            break;
        }
        skipSpace();
        if (wordAhead("into")) {
            readWord();
        }
        List<String> name = readQualifiedName(startLine);
        skipSpace();
        List<String> columns = null;
        if (peek() == '(') {
            // Either a column list or, with no list, impossible: VALUES must come first.
            columns = readColumnList(startLine);
            skipSpace();
        }
        if (wordAhead("values") || wordAhead("value")) {
            readWord();
            skipSpace();
            tuplesInStatement = 0;
            statementLine = startLine;
            return new Insert(tableName(name), columns, startLine);
        }
        if (!(wordAhead("select")
                || wordAhead("with")
                || wordAhead("default")
                || wordAhead("table")
                || peek() == '(')) {
            throw error(
                    line,
                    "VALUES, SELECT or DEFAULT VALUES after INSERT INTO " + String.join(".", name),
                    describe(peek()));
        }
        // INSERT ... SELECT or DEFAULT VALUES: not row data we can read; keep its text for the report.
        String rest = readStatementText(startLine);
        return new Other("INSERT INTO " + String.join(".", name) + " " + rest, startLine);
    }

    private boolean wordAhead(String lower) throws IOException {
        return startsWithIgnoreCase(lower) && !isIdentChar(peek(lower.length()));
    }

    private String readWord() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (isIdentChar(peek())) {
            sb.append((char) read());
        }
        return sb.toString();
    }

    /**
     * Reads the next tuple of the current INSERT into the sink.
     *
     * @return false when the statement has ended (no tuple read)
     */
    public boolean nextTuple(ValueSink sink) throws IOException {
        if (!openRow()) {
            return false;
        }
        int index = 0;
        long rowLine = line;
        skipSpace();
        if (peek() == ')') {
            read();
            sink.endRow(0, rowLine);
            return true;
        }
        while (true) {
            int d;
            int p = pos;
            if (p + 4 < lim
                    && buf[p] == 'N'
                    && buf[p + 1] == 'U'
                    && buf[p + 2] == 'L'
                    && buf[p + 3] == 'L'
                    && ((d = buf[p + 4]) == ',' || d == ')')) {
                // NULL and its separator, the commonest value of wide sparse rows (ORM tables),
                // told here without readValue's call and checks: the same call on the sink
                pos = p + 5;
                valueLen = 0;
                pinned = false;
                sink.value(index++, NULL, value, 0, 0, false);
                if (d == ')') {
                    sink.endRow(index, rowLine);
                    return true;
                }
                continue;
            }
            int k = listedValue();
            sink.value(index++, k & ~SEEN_ASCII, pinned ? buf : value, outOff, valueLen, (k & SEEN_ASCII) != 0);
            pos++; // the ',' or ')' (in the buffer: peek saw it there), not a line break
            if (separator == ')') {
                sink.endRow(index, rowLine);
                return true;
            }
        }
    }

    /**
     * Reads rows of the current INSERT into {@code rows} until it is {@link RecordedRows#full()}
     * or the INSERT ends. Records what {@code rows.atLine(line()); nextTuple(rows)} a row at a
     * time records, word for word and byte for byte, but writes a row's NULLs (a run of them in
     * one loop), its plain numbers and its short plain quoted strings into {@code rows}' arrays
     * itself, without a sink call and readValue's calls a value: the per-value cost of wide
     * sparse rows (44 values, 33 of them NULL, in the ORM shape) and of narrow numeric ones
     * (docs/benchmarks.md, issue 32). Every other value takes the way {@link #nextTuple} takes.
     *
     * @return false when the statement has ended (its last {@code atLine} recorded, no tuple read)
     */
    public boolean nextTuples(RecordedRows rows) throws IOException {
        do {
            rows.atLine(line);
            if (!nextTupleInto(rows)) {
                return false;
            }
        } while (!rows.full());
        return true;
    }

    /** The bytes "NULL" as {@link MemoryUtil#getInt(byte[], int)} reads them (the machine's byte order). */
    private static final int NULL_WORD = MemoryUtil.getInt(new byte[] {'N', 'U', 'L', 'L'}, 0);
    /** A quoted string told in {@link #nextTupleInto}'s own loop has at most this many bytes. */
    private static final int SHORT_STRING = 48;
    /** Words read by {@link MemoryUtil#getLong(byte[], int)} have their first byte lowest. */
    private static final boolean LITTLE = MemoryUtil.LITTLE_ENDIAN;

    private static final long DOTS = 0x2e2e2e2e2e2e2e2eL; // '.' in every byte

    private boolean nextTupleInto(RecordedRows r) throws IOException {
        int index = 0;
        long rowLine;
        int at = pos;
        int first;
        if (tuplesInStatement > 0
                && at + 2 < lim
                && buf[at] == ','
                && buf[at + 1] == '('
                && startsValue(first = buf[at + 2] & 0xff)
                && first != ')') {
            // "),(" between rows as mysqldump writes them, and a value at once: openRow's and
            // skipSpace's work without their calls and peeks
            pos = at + 2;
            tuplesInStatement++;
            rowLine = line;
        } else {
            if (!openRow()) {
                return false;
            }
            rowLine = line;
            skipSpace();
            if (peek() == ')') {
                read();
                r.endRow(0, rowLine);
                return true;
            }
        }
        // the record's arrays and counts and the buffer's cursor in locals while the row's fast
        // paths run; stored back before anything else looks at them (a call, the row's end)
        long[] calls = r.calls;
        int n = r.ncalls;
        byte[] data = r.data;
        int nb = r.nbytes;
        byte[] b = buf;
        int p = pos;
        int end = lim;
        while (true) {
            int d = 0;
            int c = p < end ? b[p] : -1;
            if (c == 'N'
                    && p + 4 < end
                    && MemoryUtil.getInt(b, p) == NULL_WORD
                    && ((d = b[p + 4]) == ',' || d == ')')) {
                // NULL and its separator, and the NULLs right after it: a word each, no bytes
                do {
                    if (n == calls.length) {
                        r.ncalls = n;
                        calls = r.room(1);
                    }
                    calls[n++] = RecordedRows.VALUE | ((long) index++ << 32);
                    p += 5;
                } while (d == ','
                        && p + 4 < end
                        && MemoryUtil.getInt(b, p) == NULL_WORD
                        && ((d = b[p + 4]) == ',' || d == ')'));
                if (d == ')') {
                    break;
                }
                continue;
            }
            int from = -1; // a plain number's or short plain string's bytes: b[from, to), then the separator
            int to = 0;
            int k = NUMBER | RecordedRows.ASCII;
            if (c >= '0' && c <= '9' || c == '-') {
                // digits and points after an optional '-', then ',' or ')': what pinNumber and
                // the separator test take (a '-' not followed by a digit or point goes the long way:
                // a comment "-- " starts so)
                int q = c == '-' ? p + 1 : p;
                int digits = q;
                while (LITTLE && q + 8 <= end) {
                    // eight bytes a step: the first that is neither a digit nor '.' ends the number
                    long w = MemoryUtil.getLong(b, q);
                    long x = w & 0x7f7f7f7f7f7f7f7fL;
                    long other = ~(((x + 0x5050505050505050L) & ~(x + 0x4646464646464646L) & ~w) | zeroBytes(w ^ DOTS))
                            & HIGH_BITS;
                    if (other != 0) {
                        q += Long.numberOfTrailingZeros(other) >>> 3;
                        break;
                    }
                    q += 8;
                }
                while (q < end && ((d = b[q]) >= '0' && d <= '9' || d == '.')) {
                    q++; // the last bytes before the buffer's end (or none: the word found the end)
                }
                if (q > digits && q < end && ((d = b[q]) == ',' || d == ')')) {
                    from = p;
                    to = q;
                }
            } else if (c == '\'' || c == '"') {
                // a short string without escapes, doubled quotes or line breaks whose closing
                // quote and separator lie in the buffer: what readQuotedInto leaves pinned
                int q = p + 1;
                int stop = Math.min(end, q + SHORT_STRING);
                long quotes = BYTES_ONE * c;
                long high = 0;
                while (LITTLE && q + 8 <= stop) {
                    // eight bytes a step to the first quote, backslash or line break; the high
                    // bits of the bytes before it gathered
                    long w = MemoryUtil.getLong(b, q);
                    long stops = zeroBytes(w ^ quotes) | zeroBytes(w ^ BACKSLASHES) | zeroBytes(w ^ NEWLINES);
                    if (stops != 0) {
                        int t = Long.numberOfTrailingZeros(stops); // 8 * (bytes before it) + 7
                        high |= w & ((1L << (t - 7)) - 1);
                        q += t >>> 3;
                        break;
                    }
                    high |= w;
                    q += 8;
                }
                int bits = (high & HIGH_BITS) != 0 ? -1 : 0;
                d = 0;
                while (q < stop && (d = b[q]) != c && d != '\\' && d != '\n') {
                    bits |= d;
                    q++;
                }
                if (d == c && q + 1 < end && ((d = b[q + 1]) == ',' || d == ')')) {
                    from = p + 1;
                    to = q;
                    k = bits >= 0 ? STRING | RecordedRows.ASCII : STRING;
                    p = q + 1; // the separator's place, as after a number
                }
            }
            if (from >= 0) {
                // d is the separator, at b[to] after a number, b[p] = b[to + 1] after a string
                int len = to - from;
                if (n == calls.length) {
                    r.ncalls = n;
                    calls = r.room(1);
                }
                calls[n++] = RecordedRows.VALUE | ((long) index++ << 32) | ((long) k << 24) | len;
                if (nb + len > data.length) {
                    r.nbytes = nb;
                    data = r.dataRoom(len);
                }
                if (len <= 8) {
                    for (int i = 0; i < len; i++) {
                        data[nb + i] = b[from + i];
                    }
                } else {
                    System.arraycopy(b, from, data, nb, len);
                }
                nb += len;
                p = k == (NUMBER | RecordedRows.ASCII) ? to + 1 : p + 1;
                if (d == ')') {
                    break;
                }
                continue;
            }
            r.ncalls = n;
            r.nbytes = nb;
            pos = p;
            if (c == '\'' || c == '"') {
                // a longer string, or one with escapes: decoded into the record's bytes at once
                quotedIntoRecord(r, index++, c);
            } else {
                // any other value: nextTuple's way, through the record's value call
                int kind = listedValue();
                r.value(index++, kind & ~SEEN_ASCII, pinned ? buf : value, outOff, valueLen, (kind & SEEN_ASCII) != 0);
                pinned = false;
            }
            pos++; // the ',' or ')' (in the buffer: peek saw it there), not a line break
            calls = r.calls;
            n = r.ncalls;
            data = r.data;
            nb = r.nbytes;
            b = buf;
            p = pos;
            end = lim;
            if (separator == ')') {
                break;
            }
        }
        r.ncalls = n;
        r.nbytes = nb;
        pos = p;
        r.endRow(index, rowLine);
        return true;
    }

    /**
     * {@link #listedValue} and the record's value call for a quoted string at {@code pos}, with its
     * bytes decoded straight into the record's {@code data} rather than into {@code value} and
     * then copied there: a string with escapes (a backslash every 170 bytes or so in the text
     * shape) was copied twice. The record's array stands in for {@code value} while the string is
     * read ({@link #readQuotedInto} appends past its {@code nbytes}, and grows it as {@code
     * value} grows, keeping what it held). A string left pinned in the buffer (no escapes) is
     * copied by the value call, once, as before; one with anything but ',' or ')' right after
     * its closing quote (a cast, a space, an expression) has its bytes moved back into {@code
     * value} and ends as {@link #listedValue} ends it. Leaves {@code pos} at the separator, in
     * {@link #separator}.
     */
    private void quotedIntoRecord(RecordedRows r, int index, int quote) throws IOException {
        int nb = r.nbytes;
        byte[] own = value;
        byte[] data = r.data;
        value = data;
        valueLen = nb;
        valueBits = 0;
        pinned = false;
        outOff = 0;
        pos++; // the opening quote, in the buffer
        try {
            readQuotedInto(quote, backslashEscapes, true);
        } finally {
            if (value != data) {
                r.data = value; // grown, with the record's earlier bytes kept (stored only then: G1's
                // card marking takes a fence on each store of a reference into an old object)
            }
            value = own;
        }
        int len = pinned ? valueLen : valueLen - nb; // pinned: buf[outOff, outOff + valueLen), nothing appended
        boolean ascii = valueBits >= 0;
        int d = pos < lim ? buf[pos] : -1;
        if (d == ',' || d == ')') {
            separator = d;
            if (pinned) {
                r.value(index, STRING, buf, outOff, len, ascii);
                pinned = false;
            } else {
                r.recorded(index, STRING, len, ascii);
                valueLen = 0;
            }
            return;
        }
        // something after the string: its bytes into value, and listedValue's end
        valueLen = pinned ? len : 0;
        if (!pinned) {
            appendBytes(r.data, nb, len);
        }
        int kind = STRING;
        if (pos >= lim || (d = buf[pos]) != ',' && d != ')') {
            skipSpace();
            d = peek();
        }
        if (d != ',' && d != ')') {
            kind = readExpressionTail(kind);
            d = peek();
            ascii = false;
        }
        separator = d;
        r.value(index, kind, pinned ? buf : value, outOff, valueLen, ascii);
        pinned = false;
    }

    /** {@link #listedValue}'s flag beside the kind: the value's bytes are ASCII. */
    private static final int SEEN_ASCII = 0x80;
    /** The ',' or ')' after the value {@link #listedValue} read (left unread at {@code pos}). */
    private int separator;

    /**
     * Reads a value of a row, with any expression after it, up to the ',' or ')' that ends it
     * (left at {@code pos}, in {@link #separator}); the bytes in {@code value} or, {@link
     * #pinned}, the buffer.
     *
     * @return the kind, with {@link #SEEN_ASCII} when every byte is ASCII
     */
    private int listedValue() throws IOException {
        if (pos >= lim || !startsValue(buf[pos] & 0xff)) {
            skipSpace();
        }
        int kind = readValue();
        int d;
        // rows are written value,value: the byte after most values is ',' or ')', in the buffer
        if (pos >= lim || (d = buf[pos]) != ',' && d != ')') {
            skipSpace();
            d = peek();
        }
        // a number's bytes are ASCII by its grammar; a quoted string's, if none had the high bit
        boolean ascii = kind == NUMBER || kind == STRING && valueBits >= 0;
        if (d != ',' && d != ')') {
            kind = readExpressionTail(kind);
            d = peek();
            ascii = false;
        }
        separator = d;
        return ascii ? kind | SEEN_ASCII : kind;
    }

    /**
     * Steps to the next row of the current INSERT: past the ',' between rows and its '('.
     *
     * @return false when the statement has ended
     */
    private boolean openRow() throws IOException {
        skipSpace();
        int c = peek();
        if (c == ',' && tuplesInStatement > 0) {
            read();
            skipSpace();
            c = peek();
        } else if (c == '(' && tuplesInStatement > 0) {
            throw error(line, "',' between rows or the end of the INSERT", "'('");
        }
        if (c == '(') {
            tuplesInStatement++;
            read();
            return true;
        }
        if (c == -1) {
            throw error(
                    statementLine,
                    "';' ending the INSERT that begins here",
                    "the end of the file after row " + tuplesInStatement + " (the file may be cut short)");
        }
        if (atDelimiter() || c == ';') {
            skip(atDelimiter() ? delimiter.length : 1);
            return false;
        }
        if (wordAhead("on")) {
            // ON DUPLICATE KEY UPDATE / ON CONFLICT: not row data.
            readStatementText(line);
            return false;
        }
        throw error(line, "'(' starting a row, ',' or the end of the INSERT", describe(c));
    }

    /** Skips the remaining statement's rows, e.g. for a table the user excluded. */
    public void skipInsert() throws IOException {
        readStatementText(line);
    }

    private int readValue() throws IOException {
        valueLen = 0;
        valueBits = 0;
        pinned = false;
        outOff = 0;
        int c = pos < lim ? buf[pos] & 0xff : peek();
        if ((c == 'N' || c == 'n') && pos + 4 < lim) {
            // NULL, the commonest bare word, told from the buffer when its five bytes are there:
            // what isNullKeyword's seven peeks tell, without a call a byte
            int e = buf[pos + 4] & 0xff;
            if ((buf[pos + 1] | 0x20) == 'u'
                    && (buf[pos + 2] | 0x20) == 'l'
                    && (buf[pos + 3] | 0x20) == 'l'
                    && !isIdentChar(e)
                    && e != '('
                    && e != ':') {
                pos += 4;
                return NULL;
            }
        }
        switch (c) {
            case '\'':
                read();
                readQuotedInto('\'', backslashEscapes, true);
                return STRING;
            case '"':
                read();
                readQuotedInto('"', backslashEscapes, true);
                return STRING;
            case '(':
                readBalanced();
                return WORD;
            default:
                break;
        }
        if (isDigit(c) || c == '-' || c == '+' || c == '.') {
            if (c == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
                skip(2);
                readHexDigits();
                return BINARY;
            }
            if (pinNumber()) {
                return NUMBER;
            }
            while (true) {
                // digits and points straight from the buffer; the rest byte by byte below
                int p = pos;
                while (p < lim && (buf[p] >= '0' && buf[p] <= '9' || buf[p] == '.')) {
                    p++;
                }
                if (p > pos) {
                    appendBytes(buf, pos, p - pos);
                    pos = p;
                }
                int d = peek();
                if (isDigit(d)
                        || d == '.'
                        || d == 'e'
                        || d == 'E'
                        || ((d == '-' || d == '+')
                                && (valueLen == 0 || value[valueLen - 1] == 'e' || value[valueLen - 1] == 'E'))) {
                    append(read());
                } else {
                    break;
                }
            }
            return NUMBER;
        }
        if ((c == 'x' || c == 'X') && peek(1) == '\'') {
            skip(2);
            readHexDigits();
            if (read() != '\'') {
                throw error(line, "a closing ' after hex digits", describe(peek()));
            }
            return BINARY;
        }
        if ((c == 'b' || c == 'B') && peek(1) == '\'') {
            skip(2);
            long bits = 0;
            int n = 0;
            int d;
            while ((d = read()) == '0' || d == '1') {
                bits = (bits << 1) | (d - '0');
                n++;
            }
            int bytes = Math.max(1, (n + 7) / 8);
            for (int i = bytes - 1; i >= 0; i--) {
                append((int) (bits >>> (8 * i)) & 0xff);
            }
            return BINARY;
        }
        if ((c == 'n' || c == 'N') && peek(1) == '\'') {
            skip(2);
            readQuotedInto('\'', backslashEscapes);
            return STRING;
        }
        if ((c == 'e' || c == 'E') && peek(1) == '\'') {
            skip(2);
            readQuotedInto('\'', true);
            return STRING;
        }
        if (c == '_') {
            // A character set introducer: _binary '...', _utf8mb4'...', _latin1 0x...
            String introducer = readWord().toLowerCase(Locale.ROOT);
            skipSpace();
            int kind = readValue();
            return introducer.equals("_binary") && kind == STRING ? BINARY : kind;
        }
        if ((c == 'N' || c == 'n') && isNullKeyword()) {
            skip(4); // NULL, the commonest bare word, without building a string
            return NULL;
        }
        if (isIdentChar(c)) {
            String word = readWord();
            append(word);
            skipSpace();
            if (peek() == '(') {
                readBalanced(); // a function call such as NOW() or ST_GeomFromText('...')
                return WORD;
            }
            if (word.equalsIgnoreCase("null")) {
                valueLen = 0;
                return NULL;
            }
            return WORD;
        }
        throw error(line, "a value (number, 'string', NULL, 0x..)", describe(c));
    }

    private boolean isNullKeyword() throws IOException {
        return (peek(1) | 0x20) == 'u'
                && (peek(2) | 0x20) == 'l'
                && (peek(3) | 0x20) == 'l'
                && !isIdentChar(peek(4))
                && peek(4) != '('
                && peek(4) != ':';
    }

    /**
     * A number whose sign, digits and points lie whole in the buffer, with the byte after them
     * there too and not one the number goes on with ({@code e}, {@code E}): left where it is
     * (at {@code buf[outOff, outOff + valueLen)}, {@link #pinned}) instead of copied into {@code value}.
     * The bytes are those the byte-by-byte loop in {@link #readValue} reads: after the digits a
     * sign ends the number, as there (it continues one only after an exponent's {@code e}).
     *
     * @return false, having read nothing, when the number is not such a one
     */
    private boolean pinNumber() {
        byte[] b = buf;
        int start = pos;
        int p = start;
        int end = lim;
        if (p < end && (b[p] == '-' || b[p] == '+')) {
            p++;
        }
        int digits = p;
        while (p < end && (b[p] >= '0' && b[p] <= '9' || b[p] == '.')) {
            p++;
        }
        if (p == digits || p >= end || b[p] == 'e' || b[p] == 'E') {
            return false;
        }
        pinned = true;
        outOff = start;
        valueLen = p - start;
        pos = p;
        return true;
    }

    /** Copies a value left in the read buffer into {@code value}, before the buffer moves or the value grows. */
    private void unpin() {
        if (pinned) {
            pinned = false;
            int off = outOff;
            int len = valueLen;
            outOff = 0;
            valueLen = 0;
            appendBytes(buf, off, len);
        }
    }

    /** After a value: a PostgreSQL cast {@code ::type} keeps it; anything else makes it an expression. */
    private int readExpressionTail(int kind) throws IOException {
        unpin();
        boolean cast = peek() == ':' && peek(1) == ':';
        int depth = 0;
        if (!cast) {
            append(' ');
        }
        while (true) {
            int c = peek();
            if (c == -1) {
                throw error(line, "',' or ')' after a value", "the end of the file");
            }
            if (depth == 0 && (c == ',' || c == ')')) {
                return cast ? kind : WORD;
            }
            if (c == '\'') {
                read();
                int mark = valueLen;
                readQuotedInto('\'', backslashEscapes);
                if (cast) {
                    valueLen = mark;
                }
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            int b = read();
            if (!cast) {
                append(b);
            }
        }
    }

    private void readBalanced() throws IOException {
        int depth = 0;
        long start = line;
        while (true) {
            int c = read();
            if (c == -1) {
                throw error(start, "a closing ')'", "the end of the file");
            }
            if (c == '\'') {
                append(c);
                readQuotedInto('\'', backslashEscapes);
                append('\'');
                continue;
            }
            append(c);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth == 0) {
                    return;
                }
            }
        }
    }

    private void readHexDigits() throws IOException {
        int hi = -1;
        while (true) {
            int c = peek();
            int v = Character.digit(c, 16);
            if (c == -1 || v < 0) {
                break;
            }
            read();
            if (hi < 0) {
                hi = v;
            } else {
                append((hi << 4) | v);
                hi = -1;
            }
        }
        if (hi >= 0) {
            // An odd number of digits: MySQL pads on the left.
            byte[] copy = Arrays.copyOf(value, valueLen);
            valueLen = 0;
            int carry = hi;
            append(carry);
            for (byte b : copy) {
                append(b & 0xff);
            }
        }
    }

    private static final long BYTES_ONE = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long BACKSLASHES = BYTES_ONE * '\\';
    private static final long NEWLINES = BYTES_ONE * '\n';

    /** The high bit of each byte of {@code w} that is zero, no other bit (no borrow between bytes). */
    private static long zeroBytes(long w) {
        return ~(((w & 0x7f7f7f7f7f7f7f7fL) + 0x7f7f7f7f7f7f7f7fL) | w | 0x7f7f7f7f7f7f7f7fL);
    }

    /** Reads a quoted string's content (the opening quote already consumed), decoding escapes. */
    private void readQuotedInto(int quote, boolean escapes) throws IOException {
        readQuotedInto(quote, escapes, false);
    }

    /**
     * As {@link #readQuotedInto(int, boolean)}; with {@code pin}, a string without escapes or a
     * doubled quote whose closing quote, and the byte after it, lie in the buffer is left where
     * it is (at {@code buf[outOff, outOff + valueLen)}, {@link #pinned}): the sink copies it,
     * once. {@code pin} only where nothing is in {@code value} yet.
     */
    private void readQuotedInto(int quote, boolean escapes, boolean pin) throws IOException {
        long openedAt = line;
        int from = valueLen;
        while (true) {
            // Fast path: copy a run of plain bytes straight from the buffer.
            if (pos >= lim && !fill(1)) {
                throw error(openedAt, "a closing " + (char) quote, "the end of the file");
            }
            int start = pos;
            int end = lim;
            byte[] b = buf;
            int i = start;
            int newlines = 0;
            int bits = 0;
            // eight bytes a word to the quote or (with escapes) a backslash: the newlines counted
            // and the high bits gathered a word at a time, the word read by MemoryUtil.getLong (one
            // load under C1, which inlines no byte-array VarHandle). One test a word tells whether
            // any byte is a quote, a backslash or a newline: (x - 0x01..) & ~x & 0x80.. is not zero
            // exactly when x has a zero byte, and its lowest bit set is the first zero byte's high
            // bit (a borrow can mark bytes after it, never before), three operations where
            // zeroBytes, exact in every byte, takes five; zeroBytes counts the newlines, which a
            // dump's strings seldom hold unescaped. The first quote or backslash is found in the
            // word, not again byte by byte: a backslash every 170 bytes or so in the text shape.
            long quotes = BYTES_ONE * quote;
            long stops = escapes ? BACKSLASHES : quotes;
            long high = 0;
            while (LITTLE && i + 8 <= end) {
                long w = MemoryUtil.getLong(b, i);
                long q = w ^ quotes;
                long s = w ^ stops;
                long n = w ^ NEWLINES;
                long stop = ((q - BYTES_ONE) & ~q) | ((s - BYTES_ONE) & ~s);
                if (((stop | ((n - BYTES_ONE) & ~n)) & HIGH_BITS) != 0) {
                    stop &= HIGH_BITS;
                    if (stop != 0) {
                        int t = Long.numberOfTrailingZeros(stop); // 8 * (bytes before it) + 7
                        long before = (1L << (t - 7)) - 1;
                        newlines += Long.bitCount(zeroBytes(n) & before);
                        high |= w & before;
                        i += t >>> 3;
                        break; // at the quote or backslash: the byte loop below stops at once
                    }
                    newlines += Long.bitCount(zeroBytes(n));
                }
                high |= w;
                i += 8;
            }
            if ((high & HIGH_BITS) != 0) {
                bits = -1;
            }
            while (i < end) {
                byte x = b[i];
                if (x == quote || (x == '\\' && escapes)) {
                    break;
                }
                if (x == '\n') {
                    newlines++;
                }
                bits |= x; // negative once a byte has the high bit
                i++;
            }
            valueBits |= bits;
            if (pin && i + 1 < end && b[i] == quote && b[i + 1] != quote) {
                line += newlines;
                pos = i + 1;
                if (line > openedAt) {
                    checkSwallowed(b, start, i, quote, openedAt);
                }
                pinned = true;
                outOff = start;
                valueLen = i - start;
                return;
            }
            pin = false; // past the first run of plain bytes, the string is decoded into value
            if (i > start) {
                appendBytes(b, start, i - start);
                pos = i;
                line += newlines;
            }
            if (i == end) {
                continue;
            }
            if (i + 1 < end && b[i] == '\\') {
                // a backslash with its escaped byte in the buffer (the scan stops at one only with
                // escapes): decoded from the buffer, without read()'s two calls, then the next run
                int d = b[i + 1];
                pos = i + 2;
                switch (d) {
                    case '0' -> append(0);
                    case 'b' -> append('\b');
                    case 'n' -> append('\n');
                    case 'r' -> append('\r');
                    case 't' -> append('\t');
                    case 'Z' -> append(26);
                    case '%', '_' -> {
                        append('\\');
                        append(d);
                    }
                    default -> {
                        if (d == '\n') {
                            line++; // as read() counts it
                        }
                        append(d);
                        valueBits |= d; // d is the signed byte: negative when not ASCII
                    }
                }
                continue;
            }
            int c = read();
            if (c == quote) {
                if (peek() == quote) {
                    read();
                    append(quote);
                    continue;
                }
                if (line > openedAt) {
                    checkSwallowed(value, from, valueLen, quote, openedAt);
                }
                return;
            }
            // backslash escape (MySQL rules)
            int d = read();
            switch (d) {
                case -1 -> throw error(openedAt, "a closing " + (char) quote, "the end of the file");
                case '0' -> append(0);
                case 'b' -> append('\b');
                case 'n' -> append('\n');
                case 'r' -> append('\r');
                case 't' -> append('\t');
                case 'Z' -> append(26);
                case '%', '_' -> {
                    append('\\');
                    append(d);
                }
                default -> {
                    append(d);
                    valueBits |= (byte) d;
                }
            }
        }
    }

    /** The bytes of the quoted text read into {@code value}, OR-ed as signed bytes: negative if any is not ASCII. */
    private int valueBits;

    private void append(int b) {
        if (valueLen == value.length) {
            value = Arrays.copyOf(value, value.length * 2);
        }
        value[valueLen++] = (byte) b;
    }

    private void append(String s) {
        for (int i = 0; i < s.length(); i++) {
            append(s.charAt(i));
        }
    }

    private void appendBytes(byte[] src, int off, int len) {
        if (valueLen + len > value.length) {
            value = Arrays.copyOf(value, Math.max(value.length * 2, valueLen + len));
        }
        System.arraycopy(src, off, value, valueLen, len);
        valueLen += len;
    }

    // ------------------------------------------------------------------ COPY

    /**
     * {@code COPY name [(col, ...)] FROM stdin ...}, read with the same identifier rules as a
     * CREATE TABLE ({@code "a""b"}, {@code "x;y"}, a quoted newline), or null for any other COPY.
     */
    private Copy asCopyFromStdin(String text, long startLine) {
        if (!text.regionMatches(true, 0, "copy", 0, 4)
                || text.length() < 5
                || !Character.isWhitespace(text.charAt(4))) {
            return null;
        }
        int[] at = {4};
        List<String> parts = new ArrayList<>();
        do {
            skipBlank(text, at);
            String part = identifierAt(text, at);
            if (part == null) {
                return null;
            }
            parts.add(part);
            skipBlank(text, at);
        } while (at[0] < text.length() && text.charAt(at[0]) == '.' && ++at[0] > 0);
        List<String> cols = null;
        if (at[0] < text.length() && text.charAt(at[0]) == '(') {
            at[0]++;
            cols = new ArrayList<>();
            while (true) {
                skipBlank(text, at);
                String col = identifierAt(text, at);
                if (col == null) {
                    return null;
                }
                cols.add(col);
                skipBlank(text, at);
                if (at[0] >= text.length()) {
                    return null;
                }
                char c = text.charAt(at[0]++);
                if (c == ')') {
                    break;
                }
                if (c != ',') {
                    return null;
                }
            }
            skipBlank(text, at);
        }
        String rest = text.substring(at[0]).toLowerCase(Locale.ROOT);
        if (!rest.matches("(?s)from\\s+stdin\\b.*")) {
            return null;
        }
        // The data starts on the line after the statement.
        try {
            int c;
            while ((c = peek()) == ' ' || c == '\t' || c == '\r') {
                read();
            }
            if (peek() == '\n') {
                read();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        statementLine = startLine;
        return new Copy(tableName(parts), cols, startLine);
    }

    private static void skipBlank(String t, int[] at) {
        while (at[0] < t.length() && Character.isWhitespace(t.charAt(at[0]))) {
            at[0]++;
        }
    }

    /** A quoted ({@code "..."} with {@code ""} for a quote) or plain identifier at {@code at}, or null. */
    private static String identifierAt(String t, int[] at) {
        int i = at[0];
        if (i >= t.length()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        if (t.charAt(i) == '"') {
            i++;
            while (true) {
                if (i >= t.length()) {
                    return null;
                }
                char c = t.charAt(i++);
                if (c == '"') {
                    if (i < t.length() && t.charAt(i) == '"') {
                        sb.append('"');
                        i++;
                        continue;
                    }
                    break;
                }
                sb.append(c);
            }
        } else {
            while (i < t.length()
                    && (Character.isLetterOrDigit(t.charAt(i)) || t.charAt(i) == '_' || t.charAt(i) == '$')) {
                sb.append(t.charAt(i++));
            }
            if (sb.length() == 0) {
                return null;
            }
        }
        at[0] = i;
        return sb.toString();
    }

    /**
     * Reads one line of COPY text format: tab-separated, {@code \N} for NULL, backslash escapes
     * ({@code \b \f \n \r \t \v \\}, octal {@code \NNN}, hex {@code \xHH}).
     *
     * @return false at the end-of-data marker {@code \.} (or the end of the file)
     */
    public boolean nextCopyRow(ValueSink sink) throws IOException {
        int c = peek();
        if (c == -1) {
            throw error(
                    statementLine,
                    "the end-of-data marker \\. closing the COPY that begins here",
                    "the end of the file (the file may be cut short)");
        }
        if (c == '\\' && peek(1) == '.' && (peek(2) == '\n' || peek(2) == '\r' || peek(2) == -1)) {
            skipLine();
            return false;
        }
        long rowLine = line;
        int index = 0;
        while (true) {
            valueLen = 0;
            boolean isNull = false;
            while (true) {
                if (pos >= lim && !fill(1)) {
                    break;
                }
                // Fast path over plain bytes.
                int i = pos;
                byte[] b = buf;
                int end = lim;
                while (i < end) {
                    byte x = b[i];
                    if (x == '\t' || x == '\n' || x == '\\' || x == '\r') {
                        break;
                    }
                    i++;
                }
                if (i > pos) {
                    appendBytes(b, pos, i - pos);
                    pos = i;
                }
                if (i == end) {
                    continue;
                }
                int d = b[i];
                if (d == '\t' || d == '\n') {
                    break;
                }
                if (d == '\r') {
                    read();
                    if (peek() == '\n') {
                        break;
                    }
                    append('\r');
                    continue;
                }
                read(); // backslash
                int e = read();
                switch (e) {
                    case 'N' -> isNull = valueLen == 0;
                    case 'b' -> append('\b');
                    case 'f' -> append('\f');
                    case 'n' -> append('\n');
                    case 'r' -> append('\r');
                    case 't' -> append('\t');
                    case 'v' -> append(11);
                    case 'x' -> {
                        int v = 0;
                        int n = 0;
                        while (n < 2 && Character.digit(peek(), 16) >= 0) {
                            v = v * 16 + Character.digit(read(), 16);
                            n++;
                        }
                        append(v);
                    }
                    case -1 -> throw error(rowLine, "an escaped character after '\\'", "the end of the file");
                    default -> {
                        if (e >= '0' && e <= '7') {
                            int v = e - '0';
                            for (int n = 0; n < 2 && peek() >= '0' && peek() <= '7'; n++) {
                                v = v * 8 + (read() - '0');
                            }
                            append(v & 0xff);
                        } else {
                            append(e);
                        }
                    }
                }
            }
            int end = read();
            if (end == -1) {
                throw error(
                        rowLine,
                        "a COPY row ending in a line break, then the end-of-data marker \\.",
                        "the end of the file in the middle of the row (the file may be cut short)");
            }
            sink.value(index++, isNull ? NULL : STRING, value, 0, valueLen);
            if (end == '\n') {
                sink.endRow(index, rowLine);
                return true;
            }
        }
    }

    // ------------------------------------------------------------------ errors

    private static String describe(int c) {
        if (c == -1) {
            return "the end of the file";
        }
        if (c < 32) {
            return String.format("byte 0x%02x", c);
        }
        return "'" + (char) c + "'";
    }

    private BadInputException error(long at, String expected, String found) {
        return new BadInputException(file, at, expected, found);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}

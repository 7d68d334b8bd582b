package dev.wastecheck.traces.read;

import dev.wastecheck.model.SqlStatements;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A plain file of {@code ;}-terminated statements (several per line or one over many lines). A
 * leading {@code /* ISO-8601 time *&#47;} comment, as {@code trace generate} writes, gives the time.
 */
final class SqlStatementsReader extends TraceReader {
    private static final int MAX_STATEMENT_CHARS = 16 << 20;

    SqlStatementsReader(Path file, BufferedReader in, TraceReadOptions options) {
        super(file, in, options);
    }

    private static boolean endsWithSemicolon(StringBuilder text) {
        int i = text.length() - 1;
        while (i >= 0 && Character.isWhitespace(text.charAt(i))) {
            i--;
        }
        return i >= 0 && text.charAt(i) == ';';
    }

    @Override
    public TraceFormat format() {
        return TraceFormat.SQL_STATEMENTS;
    }

    @Override
    protected boolean fill() throws IOException {
        StringBuilder text = new StringBuilder();
        long start = -1;
        String l;
        while ((l = readLine()) != null) {
            if (text.length() == 0
                    && (l.isBlank()
                            || l.stripLeading().startsWith("--")
                            || l.stripLeading().startsWith("#"))) {
                continue;
            }
            String lead = l.stripLeading();
            if (text.length() == 0 && !lead.startsWith("/*") && !SqlStatements.startsStatement(lead, 0)) {
                bad(lineNo(), l, "a SQL statement (SELECT, INSERT, UPDATE, ...)");
                continue;
            }
            if (text.length() > 0
                    && endsWithSemicolon(text)
                    && SqlStatements.startsStatement(lead, 0)
                    && StatementSplitter.endsOpen(text.toString(), true)) {
                // The previous statement ended its line with ';' inside an open quote, and this line
                // starts a statement: a quote is missing there. It is the bad line; this one is read.
                bad(
                        start,
                        text.substring(0, Math.min(text.length(), 120)).strip(),
                        "a closing quote before the end of the statement's line");
                text.setLength(0);
                start = -1;
            }
            if (start < 0) {
                start = lineNo();
            }
            text.append(l).append('\n');
            if (text.length() > MAX_STATEMENT_CHARS) {
                // no terminating ';' in sight: not a statement file, or a runaway quote; stay bounded
                bad(
                        start,
                        text.substring(0, 80),
                        "a ';' within " + MAX_STATEMENT_CHARS / (1 << 20) + " MiB of a statement's start");
                text.setLength(0);
                start = -1;
                continue;
            }
            String t = l.stripTrailing();
            if (t.endsWith(";") && !StatementSplitter.endsOpen(text.toString(), true)) {
                break;
            }
        }
        if (text.length() == 0) {
            return false;
        }
        for (String s : StatementSplitter.split(text.toString(), true)) {
            long time = -1;
            if (s.startsWith("/* ")) {
                int close = s.indexOf(" */", 2);
                if (close > 3) { // "/* */" holds no time (found by TraceReadersFuzzTest)
                    try {
                        time = Instant.parse(s.substring(3, close)).toEpochMilli();
                    } catch (DateTimeParseException e) {
                        time = -1;
                    }
                }
            }
            emit(new SqlStatement(s, null, start, time));
        }
        return true;
    }
}

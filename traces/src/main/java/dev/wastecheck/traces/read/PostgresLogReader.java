package dev.wastecheck.traces.read;

import dev.wastecheck.model.schema.Dialect;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL server log (stderr format, any {@code log_line_prefix}) with {@code
 * log_statement = all} and/or {@code log_min_duration_statement}. Statements come from {@code
 * LOG:  statement: ...}, {@code LOG:  duration: ... ms  statement: ...} and, for the extended
 * protocol (JDBC prepared statements), {@code LOG:  execute <name>: ...} whose {@code $n} are
 * replaced by the values of the following {@code DETAIL:  Parameters: $1 = '...'} line. A message
 * continues on the following lines, which PostgreSQL indents with a tab. Other messages
 * (connections, checkpoints, parse and bind durations, errors) are skipped. Times are read from the
 * prefix's {@code %m}/{@code %t} stamp and taken as UTC.
 */
final class PostgresLogReader extends TraceReader {
    private static final Pattern ENTRY = Pattern.compile(
            "^(.*?)\\b(LOG|ERROR|FATAL|PANIC|WARNING|NOTICE|INFO|DEBUG\\d?|DETAIL|HINT|STATEMENT|CONTEXT|QUERY|LOCATION):  (.*)$");
    private static final Pattern TIME = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d) (\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?)");
    private static final Pattern STATEMENT =
            Pattern.compile("^(?:duration: [\\d.]+ ms\\s+)?(statement|execute [^:]*): (.*)$", Pattern.DOTALL);
    private static final Pattern PARAM = Pattern.compile("\\$(\\d+) = ('(?:[^']|'')*'|NULL)");
    private static final Pattern DOLLAR = Pattern.compile("\\$(\\d+)(?!\\d)");

    private String pendingSql;
    private long pendingLine;
    private long pendingTime;

    PostgresLogReader(Path file, BufferedReader in, TraceReadOptions options) {
        super(file, in, options);
    }

    @Override
    public TraceFormat format() {
        return TraceFormat.POSTGRESQL_LOG;
    }

    @Override
    protected boolean fill() throws IOException {
        String l;
        while ((l = readLine()) != null) {
            if (l.isBlank()) {
                continue;
            }
            Matcher m = ENTRY.matcher(l);
            if (!m.matches()) {
                bad(lineNo(), l, "a log entry '<prefix> LEVEL:  message' or a tab-indented continuation");
                continue;
            }
            long line = lineNo();
            long time = time(m.group(1));
            String level = m.group(2);
            StringBuilder msg = new StringBuilder(m.group(3));
            String next;
            while ((next = readLine()) != null) {
                if (next.startsWith("\t")) {
                    msg.append('\n').append(next, 1, next.length());
                } else if (!ENTRY.matcher(next).matches()
                        && !next.isBlank()
                        && !TIME.matcher(next).lookingAt()) {
                    // PostgreSQL indents every continuation line of a message with a tab (elog.c,
                    // append_with_tabs): a line that is neither an entry nor indented is not part of
                    // the message. Counted, never glued onto the statement.
                    bad(lineNo(), next, "a log entry '<prefix> LEVEL:  message' or a tab-indented continuation");
                } else {
                    unread(next);
                    break;
                }
            }
            String text = msg.toString();
            if (level.equals("DETAIL") && text.regionMatches(true, 0, "parameters: ", 0, 12)) {
                if (pendingSql != null) {
                    Map<String, String> values = new HashMap<>();
                    Matcher p = PARAM.matcher(text);
                    while (p.find()) {
                        values.put(p.group(1), p.group(2));
                    }
                    String sql = DOLLAR.matcher(pendingSql)
                            .replaceAll(r -> Matcher.quoteReplacement(values.getOrDefault(r.group(1), r.group())));
                    pendingSql = sql;
                    flush();
                    return true;
                }
                continue;
            }
            boolean hadPending = pendingSql != null;
            flush();
            if (level.equals("LOG")) {
                Matcher s = STATEMENT.matcher(text);
                if (s.matches()) {
                    pendingSql = s.group(2);
                    pendingLine = line;
                    pendingTime = time;
                } else {
                    skip(
                            text.startsWith("duration:")
                                    ? "duration of parse, bind or an earlier statement"
                                    : "LOG message without a statement");
                }
            } else {
                skip(level + " message");
            }
            if (hadPending) {
                return true;
            }
        }
        boolean had = pendingSql != null;
        flush();
        return had;
    }

    private void flush() {
        if (pendingSql != null) {
            for (String s : StatementSplitter.split(pendingSql, false)) {
                emit(new SqlStatement(s, Dialect.POSTGRESQL, pendingLine, pendingTime));
            }
            pendingSql = null;
        }
    }

    private static long time(String prefix) {
        Matcher t = TIME.matcher(prefix);
        if (!t.find()) {
            return -1;
        }
        try {
            return LocalDateTime.parse(t.group(1) + "T" + t.group(2))
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}

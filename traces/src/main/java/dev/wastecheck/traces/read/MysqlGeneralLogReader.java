package dev.wastecheck.traces.read;

import dev.wastecheck.model.schema.Dialect;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL's general query log. An entry is {@code [time] id Command\targument}; the time is ISO-8601
 * in 5.7+ ({@code 2024-01-01T10:00:00.123456Z}) and {@code YYMMDD HH:MM:SS} in 5.5/5.6, where it is
 * left out when unchanged. A Query or Execute argument may continue over the following lines. The
 * header MySQL writes at each start ({@code ... started with:}, {@code Tcp port:}, {@code Time Id
 * Command Argument}) is skipped.
 */
final class MysqlGeneralLogReader extends TraceReader {
    static final Pattern ENTRY = Pattern.compile(
            "^(\\d{4}-\\d\\d-\\d\\dT\\S+|\\d{6}\\s+\\d{1,2}:\\d\\d:\\d\\d)?\\s+(\\d+)\\s+(Query|Execute|Connect|Quit|Init DB|Prepare|Close stmt|Field List|Statistics|Ping|Sleep|Reset stmt|Fetch|Binlog Dump|Change user|Refresh|Shutdown|Kill|Debug|Set option|Long Data|Processlist|Register Slave|Daemon)(?:\\t(.*))?$");
    private static final DateTimeFormatter OLD = DateTimeFormatter.ofPattern("yyMMdd H:mm:ss");

    private long lastTime = -1;

    MysqlGeneralLogReader(Path file, BufferedReader in, TraceReadOptions options) {
        super(file, in, options);
    }

    @Override
    public TraceFormat format() {
        return TraceFormat.MYSQL_GENERAL_LOG;
    }

    private static boolean header(String l) {
        return l.contains(", Version: ")
                || l.startsWith("Tcp port:")
                || l.startsWith("Time ")
                || l.startsWith("Time\t");
    }

    @Override
    protected boolean fill() throws IOException {
        String l;
        while ((l = readLine()) != null) {
            if (l.isBlank() || header(l)) {
                continue;
            }
            Matcher m = ENTRY.matcher(l);
            if (!m.matches()) {
                bad(lineNo(), l, "a general log entry '[time] id Command<TAB>argument'");
                continue;
            }
            if (m.group(1) != null) {
                lastTime = time(m.group(1));
            }
            String command = m.group(3);
            if (!command.equals("Query") && !command.equals("Execute")) {
                skip("not a statement: " + command);
                continue;
            }
            long start = lineNo();
            StringBuilder sql = new StringBuilder(m.group(4) == null ? "" : m.group(4));
            String next;
            while ((next = readLine()) != null) {
                if (ENTRY.matcher(next).matches() || header(next)) {
                    unread(next);
                    break;
                }
                sql.append('\n').append(next);
            }
            for (String s : StatementSplitter.split(sql.toString(), true)) {
                emit(new SqlStatement(s, Dialect.MYSQL, start, lastTime));
            }
            return true;
        }
        return false;
    }

    private static long time(String t) {
        try {
            if (t.indexOf('T') > 0) {
                return Instant.parse(t.endsWith("Z") ? t : t + "Z").toEpochMilli();
            }
            return LocalDateTime.parse(t.replaceAll("\\s+", " "), OLD)
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}

package dev.wastecheck.traces.read;

import dev.wastecheck.model.schema.Dialect;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** {@code trace generate}'s format: {@code -- } comment lines, then {@code /* 2016-06-01T00:00:00.020Z *&#47; STATEMENT;} per line. */
final class GeneratorTraceReader extends TraceReader {
    private String lastStamp;
    private long lastTime;

    /** {@code 2016-06-01T00:00:00.020Z} without DateTimeFormatter (the reader's hot path); anything else via Instant.parse. */
    static long parseInstant(String s) {
        int n = s.length();
        if ((n == 24 || n == 20)
                && s.charAt(4) == '-'
                && s.charAt(7) == '-'
                && s.charAt(10) == 'T'
                && s.charAt(13) == ':'
                && s.charAt(16) == ':'
                && s.charAt(n - 1) == 'Z'
                && (n == 20 || s.charAt(19) == '.')) {
            try {
                long day =
                        LocalDate.of(num(s, 0, 4), num(s, 5, 2), num(s, 8, 2)).toEpochDay();
                long sec = day * 86_400 + num(s, 11, 2) * 3600L + num(s, 14, 2) * 60L + num(s, 17, 2);
                return sec * 1000 + (n == 24 ? num(s, 20, 3) : 0);
            } catch (RuntimeException e) {
                // fall through to the strict parser, which names the problem
            }
        }
        return Instant.parse(s).toEpochMilli();
    }

    private static int num(String s, int at, int len) {
        int v = 0;
        for (int i = at; i < at + len; i++) {
            int d = s.charAt(i) - '0';
            if (d < 0 || d > 9) {
                throw new NumberFormatException(s);
            }
            v = v * 10 + d;
        }
        return v;
    }

    GeneratorTraceReader(Path file, BufferedReader in, TraceReadOptions options) {
        super(file, in, options);
    }

    @Override
    public TraceFormat format() {
        return TraceFormat.WASTECHECK;
    }

    @Override
    protected boolean fill() throws IOException {
        String l;
        while ((l = readLine()) != null) {
            if (l.isBlank() || l.startsWith("--")) {
                continue;
            }
            // after "/* ": in "/* */ x;" the comment closes inside the opening (found by TraceReadersFuzzTest)
            int close = l.indexOf(" */ ", 3);
            if (!l.startsWith("/* ") || close < 0 || !l.endsWith(";")) {
                bad(lineNo(), l, "'/* <ISO-8601 time> */ <statement>;'");
                continue;
            }
            long time;
            try {
                String stamp = l.substring(3, close);
                if (!stamp.equals(lastStamp)) {
                    lastTime = parseInstant(stamp);
                    lastStamp = stamp;
                }
                time = lastTime;
            } catch (DateTimeParseException e) {
                bad(lineNo(), l, "an ISO-8601 time such as 2016-06-01T00:00:00.020Z inside the leading comment");
                continue;
            }
            emit(new SqlStatement(l.substring(close + 4, l.length() - 1), Dialect.MYSQL, lineNo(), time));
            return true;
        }
        return false;
    }
}

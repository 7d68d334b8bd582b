package dev.wastecheck.sources;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.sql.RecordedRows;
import dev.wastecheck.model.sql.SqlScriptReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * What every tokenizer fuzz target asserts: whatever the bytes, {@link SqlScriptReader} either
 * hands out statements and rows or stops with a {@link BadInputException} (exit 2 with file and
 * line); any other exception, or a row whose values do not arrive in order, is a finding.
 */
final class TokenizerFuzzing {
    private TokenizerFuzzing() {}

    /** Reads every statement, row and value of {@code script}; returns the rows read. */
    static long readAll(byte[] script, boolean mysql) throws IOException {
        long rows = 0;
        try (SqlScriptReader r = new SqlScriptReader(new ByteArrayInputStream(script), "fuzz.sql", mysql)) {
            Counting sink = new Counting();
            SqlScriptReader.Statement st;
            while ((st = r.next()) != null) {
                if (st instanceof SqlScriptReader.Insert) {
                    while (r.nextTuple(sink)) {
                        rows++;
                    }
                } else if (st instanceof SqlScriptReader.Copy) {
                    while (r.nextCopyRow(sink)) {
                        rows++;
                    }
                }
            }
        } catch (BadInputException expected) {
            if (!expected.getMessage().startsWith("fuzz.sql:")
                    && !expected.getMessage().startsWith("fuzz.sql ")) {
                throw new AssertionError("a bad-input message that does not name the file: " + expected.getMessage());
            }
        }
        String[] errors = new String[2];
        RecordedRows oneByOne = record(script, mysql, false, errors, 0);
        RecordedRows inLoop = record(script, mysql, true, errors, 1);
        if (!inLoop.sameAs(oneByOne) || !java.util.Objects.equals(errors[0], errors[1])) {
            throw new AssertionError("nextTuples recorded other calls than nextTuple a row a call (errors: " + errors[1]
                    + " against " + errors[0] + ")");
        }
        return rows;
    }

    /**
     * Records every INSERT's rows of {@code script} into a {@link RecordedRows}, a row a call
     * ({@code atLine}, {@code nextTuple}) or, {@code inLoop}, by {@code nextTuples}, which writes
     * NULLs, numbers and short strings itself; a bad input's message goes to {@code errors[at]}.
     */
    private static RecordedRows record(byte[] script, boolean mysql, boolean inLoop, String[] errors, int at)
            throws IOException {
        RecordedRows into = new RecordedRows();
        try (SqlScriptReader r = new SqlScriptReader(new ByteArrayInputStream(script), "fuzz.sql", mysql)) {
            SqlScriptReader.Statement st;
            while ((st = r.next()) != null) {
                if (st instanceof SqlScriptReader.Insert) {
                    if (inLoop) {
                        while (r.nextTuples(into)) {
                            // full (1 MB of values): kept growing here
                        }
                    } else {
                        do {
                            into.atLine(r.line());
                        } while (r.nextTuple(into));
                    }
                }
            }
        } catch (BadInputException e) {
            errors[at] = e.getMessage();
        }
        return into;
    }

    /** Checks that values arrive numbered 0, 1, 2, ... and that a row's count is the values it got. */
    static final class Counting implements SqlScriptReader.ValueSink {
        int next;

        @Override
        public void value(int index, int kind, byte[] bytes, int off, int len) {
            if (index != next++ || len < 0 || off < 0 || (len > 0 && off + len > bytes.length)) {
                throw new AssertionError("value " + index + " out of order or out of its buffer");
            }
        }

        @Override
        public void endRow(int count, long line) {
            if (count != next || line < 1) {
                throw new AssertionError("row of " + count + " values after " + next + " values, line " + line);
            }
            next = 0;
        }
    }
}

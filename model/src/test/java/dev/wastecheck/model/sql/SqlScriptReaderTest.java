package dev.wastecheck.model.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.model.BadInputException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The dump tokenizer: what each value of a tuple or a COPY line decodes to. */
class SqlScriptReaderTest {

    /** Collects rows as lists of "kind:text" for assertions. */
    static class Rows implements SqlScriptReader.ValueSink {
        final List<List<String>> rows = new ArrayList<>();
        final List<Long> lines = new ArrayList<>();
        private final List<String> current = new ArrayList<>();

        @Override
        public void value(int index, int kind, byte[] bytes, int off, int len) {
            String k = switch (kind) {
                case SqlScriptReader.NULL -> "null";
                case SqlScriptReader.NUMBER -> "num";
                case SqlScriptReader.STRING -> "str";
                case SqlScriptReader.BINARY -> "bin";
                default -> "word";
            };
            String text = kind == SqlScriptReader.BINARY
                    ? hex(bytes, off, len)
                    : new String(bytes, off, len, StandardCharsets.UTF_8);
            current.add(kind == SqlScriptReader.NULL ? "null" : k + ":" + text);
        }

        @Override
        public void endRow(int count, long line) {
            rows.add(new ArrayList<>(current));
            lines.add(line);
            current.clear();
        }

        private static String hex(byte[] b, int off, int len) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < len; i++) {
                sb.append(String.format("%02x", b[off + i]));
            }
            return sb.toString();
        }
    }

    /** {@code bytes} handed out at most {@code n} a read: the read buffer's end falls everywhere. */
    private static InputStream chunked(byte[] bytes, int n) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, n));
            }
        };
    }

    private static SqlScriptReader reader(String script, boolean mysql) {
        return new SqlScriptReader(new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8)), "t.sql", mysql);
    }

    private static Rows insertRows(String script, boolean mysql) throws IOException {
        SqlScriptReader r = reader(script, mysql);
        Rows rows = new Rows();
        SqlScriptReader.Statement st;
        while ((st = r.next()) != null) {
            if (st instanceof SqlScriptReader.Insert) {
                while (r.nextTuple(rows)) {
                    // collect
                }
            } else if (st instanceof SqlScriptReader.Copy) {
                while (r.nextCopyRow(rows)) {
                    // collect
                }
            }
        }
        return rows;
    }

    @Test
    void mysqlExtendedInsertDecodesEveryLiteralForm() throws IOException {
        Rows rows = insertRows(
                "INSERT INTO `t` VALUES (1,-2.5e3,'it\\'s a \\\"q\\\"\\n\\\\','a''b',NULL),"
                        + "(0x4142,X'43',_binary 'x\\0y',N'Ünï',b'101'),(TRUE,DEFAULT,NOW(),'x'::text,_utf8mb4'z');",
                true);
        assertThat(rows.rows)
                .containsExactly(
                        List.of("num:1", "num:-2.5e3", "str:it's a \"q\"\n\\", "str:a'b", "null"),
                        List.of("bin:4142", "bin:43", "bin:780079", "str:Ünï", "bin:05"),
                        List.of("word:TRUE", "word:DEFAULT", "word:NOW()", "str:x", "str:z"));
    }

    @Test
    void nullIsTheKeywordOnlyWhenNoNameOrCallGoesOn() throws IOException {
        String script = "INSERT INTO t VALUES (NULL,null,NuLl ,NULLS,NULL_X,NULL$,NULLIF(1,2),NULL::text,NULL);";
        List<String> expected = List.of(
                "null", "null", "null", "word:NULLS", "word:NULL_X", "word:NULL$", "word:NULLIF(1,2)", "null", "null");
        // told from the buffer (the whole script arrives at once) and by peeks (a byte a read)
        assertThat(insertRows(script, true).rows).containsExactly(expected);
        byte[] bytes = script.getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
        SqlScriptReader r = new SqlScriptReader(trickle, "t.sql", true);
        r.next();
        Rows rows = new Rows();
        while (r.nextTuple(rows)) {
            // collect
        }
        assertThat(rows.rows).containsExactly(expected);
    }

    @Test
    void conditionalCommentsRunAsCodeAndOthersAreSkipped() throws IOException {
        SqlScriptReader r = reader(
                "/*!40101 SET NAMES utf8 */;\n-- a comment\n# another\n/* block; */\n"
                        + "CREATE TABLE a (x int, /*!50705 g GEOMETRY,*/ y int);\n"
                        + "INSERT INTO a VALUES (1,/*!50705 0x00,*/2);\n",
                true);
        SqlScriptReader.Statement set = r.next();
        assertThat(((SqlScriptReader.Other) set).text()).isEqualTo("SET NAMES utf8");
        SqlScriptReader.Statement create = r.next();
        assertThat(((SqlScriptReader.Other) create).text())
                .contains("g GEOMETRY,")
                .contains("y int");
        assertThat(create.line()).isEqualTo(5);
        SqlScriptReader.Statement ins = r.next();
        assertThat(ins).isInstanceOf(SqlScriptReader.Insert.class);
        Rows rows = new Rows();
        assertThat(r.nextTuple(rows)).isTrue();
        assertThat(rows.rows.get(0)).containsExactly("num:1", "bin:00", "num:2");
    }

    @Test
    void delimiterAndDollarQuotesDoNotSplitBodies() throws IOException {
        SqlScriptReader r = reader(
                "DELIMITER ;;\nCREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET x=1; END ;;\n"
                        + "DELIMITER ;\nCREATE FUNCTION f() RETURNS int AS $_$ SELECT 1; $_$ LANGUAGE sql;\nSELECT 2;",
                false);
        assertThat(((SqlScriptReader.Other) r.next()).text()).endsWith("END");
        assertThat(((SqlScriptReader.Other) r.next()).text()).contains("$_$ SELECT 1; $_$");
        assertThat(((SqlScriptReader.Other) r.next()).text()).isEqualTo("SELECT 2");
        assertThat(r.next()).isNull();
    }

    @Test
    void postgresCopyDecodesEscapesNullsAndEmptyStrings() throws IOException {
        Rows rows = insertRows(
                "COPY public.t (a, b, c) FROM stdin;\n"
                        + "1\t\\N\t\n2\ttab\\there\\nnew\\\\line\tocta\\101l\\x42\n\\.\nSELECT 1;\n",
                false);
        assertThat(rows.rows)
                .containsExactly(
                        List.of("str:1", "null", "str:"), List.of("str:2", "str:tab\there\nnew\\line", "str:octaAlB"));
        assertThat(rows.lines).containsExactly(2L, 3L);
    }

    @Test
    void standardStringsKeepBackslashesOutsideMysql() throws IOException {
        Rows rows = insertRows("INSERT INTO \"t\" (\"a\") VALUES ('C:\\temp'), (E'tab\\there');", false);
        assertThat(rows.rows).containsExactly(List.of("str:C:\\temp"), List.of("str:tab\there"));
    }

    @Test
    void columnListsAndBracketNamesAreRead() throws IOException {
        SqlScriptReader r = reader("INSERT INTO [Genre] ([GenreId], [Name]) VALUES (1, N'Rock');", false);
        SqlScriptReader.Insert ins = (SqlScriptReader.Insert) r.next();
        assertThat(ins.table()).isEqualTo("Genre");
        assertThat(ins.columns()).containsExactly("GenreId", "Name");
    }

    @Test
    void errorsNameTheLineWhereTheProblemStarts() {
        assertThatThrownBy(
                        () -> insertRows("CREATE TABLE t (a text);\n\nINSERT INTO t VALUES ('never closed);\n", true))
                .isInstanceOf(BadInputException.class)
                .hasMessage("t.sql:3: expected a closing ', found the end of the file");
        assertThatThrownBy(() -> insertRows("INSERT INTO t VALUES (1) (2);", true))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("t.sql:1: expected ',' between rows or the end of the INSERT, found '('");
    }

    @Test
    void valuesLongerThanTheReadBufferSurviveIntact() throws IOException {
        String big = "x".repeat(300_000) + "\\'" + "y".repeat(300_000);
        Rows rows = insertRows("INSERT INTO t VALUES ('" + big + "');", true);
        assertThat(rows.rows.get(0).get(0))
                .hasSize(4 + 600_001)
                .startsWith("str:xxx")
                .endsWith("yyy")
                .contains("x'y");
    }

    @Test
    void aValueLeftInTheReadBufferIsTheSameWhereverTheReadsEnd() throws IOException {
        // Quoted strings without escapes and plain numbers are handed out from the read buffer;
        // a space, a comment or an expression after one makes the reader fill (and move) the
        // buffer, or append, before the value reaches the sink. Every read length from 1 to 48
        // bytes puts the buffer's end at each of those places.
        String script = "INSERT INTO t VALUES ('plain',12 ,'spaced' , -3.25 /* c */,'it''s','a\\'b','two\nlines',"
                + "+7,.5,1e5,-2.5E-3,'x'::text,'a' COLLATE utf8mb4_bin,4 + 5,NULL,'ünï'  ),\n"
                + "('',0 ,'last' ),(99,'tail');";
        List<List<String>> expected = List.of(
                List.of(
                        "str:plain",
                        "num:12",
                        "str:spaced",
                        "num:-3.25",
                        "str:it's",
                        "str:a'b",
                        "str:two\nlines",
                        "num:+7",
                        "num:.5",
                        "num:1e5",
                        "num:-2.5E-3",
                        "str:x",
                        "word:a COLLATE utf8mb4_bin",
                        "word:4 + 5",
                        "null",
                        "str:ünï"),
                List.of("str:", "num:0", "str:last"),
                List.of("num:99", "str:tail"));
        assertThat(insertRows(script, true).rows).containsExactlyElementsOf(expected);
        byte[] bytes = script.getBytes(StandardCharsets.UTF_8);
        for (int step = 1; step <= 48; step++) {
            int n = step;
            SqlScriptReader r = new SqlScriptReader(chunked(bytes, n), "t.sql", true);
            r.next();
            Rows rows = new Rows();
            while (r.nextTuple(rows)) {
                // collect
            }
            assertThat(rows.rows).as("reads of %d bytes", n).containsExactlyElementsOf(expected);
            assertThat(rows.lines).as("reads of %d bytes", n).containsExactly(1L, 3L, 3L);
        }
    }

    @Test
    void quotedStringsScannedAWordAtATimeKeepTheirTextTheirLinesAndTheirAsciiFlag() throws IOException {
        // The scan for the closing quote takes eight bytes a step until one is the quote or a
        // backslash, counting newlines and high bits in the words it passes; the byte loop takes
        // the rest. Random strings put the quote, escapes, doubled quotes, line breaks and UTF-8
        // at every offset of a word, and every read length moves the buffer's end among them.
        java.util.Random random = new java.util.Random(32);
        String[] pieces = {
            "a", "bc", "defghij", "klmnopqrstu", "é", "東京", "\n", "\\'", "''", "\\\\", " ", "\\é", "\\\n", "\\n", "\\%"
        };
        String[] decoded = {
            "a", "bc", "defghij", "klmnopqrstu", "é", "東京", "\n", "'", "'", "\\", " ", "é", "\n", "\n", "\\%"
        };
        StringBuilder script = new StringBuilder("INSERT INTO t VALUES ");
        List<List<String>> expected = new ArrayList<>();
        List<Boolean> expectedAscii = new ArrayList<>();
        List<Long> expectedLines = new ArrayList<>();
        long line = 1;
        for (int row = 0; row < 400; row++) {
            StringBuilder raw = new StringBuilder();
            StringBuilder text = new StringBuilder();
            int n = random.nextInt(12);
            for (int k = 0; k < n; k++) {
                int p = random.nextInt(pieces.length);
                raw.append(pieces[p]);
                text.append(decoded[p]);
            }
            if (row > 0) {
                script.append(row % 3 == 0 ? ",\n" : ",");
                if (row % 3 == 0) {
                    line++;
                }
            }
            expectedLines.add(line);
            script.append('(').append(row).append(",'").append(raw).append("',NULL)");
            line += raw.chars().filter(c -> c == '\n').count();
            expected.add(List.of("num:" + row, "str:" + text, "null"));
            expectedAscii.add(text.chars().allMatch(c -> c < 0x80));
        }
        script.append(";\n");
        byte[] bytes = script.toString().getBytes(StandardCharsets.UTF_8);
        for (int step : new int[] {1, 3, 8, 13, 64, 1 << 16}) {
            SqlScriptReader r = new SqlScriptReader(chunked(bytes, step), "t.sql", true);
            r.next();
            List<Boolean> ascii = new ArrayList<>();
            Rows rows = new Rows() {
                @Override
                public void value(int index, int kind, byte[] b, int off, int len, boolean isAscii) {
                    if (kind == SqlScriptReader.STRING) {
                        ascii.add(isAscii);
                    }
                    value(index, kind, b, off, len);
                }
            };
            while (r.nextTuple(rows)) {
                // collect
            }
            assertThat(rows.rows).as("reads of %d bytes", step).containsExactlyElementsOf(expected);
            assertThat(rows.lines).as("reads of %d bytes", step).containsExactlyElementsOf(expectedLines);
            assertThat(ascii).as("ASCII flags, reads of %d bytes", step).containsExactlyElementsOf(expectedAscii);
        }
    }

    /**
     * {@link SqlScriptReader#nextTuples} writes NULLs (and runs of them), plain numbers and short
     * plain strings into the record itself: what it records must be, word for word and byte for
     * byte, what {@code atLine} and {@link SqlScriptReader#nextTuple} into the same record make,
     * and an error the same error. Random rows put every value form the fast paths take, and
     * every near miss they must leave to the long way, beside each other; every read length
     * moves the buffer's end among them.
     */
    @Test
    void rowsRecordedInTheReadersOwnLoopAreTheSinkCallsWordForWord() throws IOException {
        java.util.Random random = new java.util.Random(3232);
        String[] values = {
            "NULL",
            "NULL",
            "NULL",
            "null",
            "NuLl",
            "NULLS",
            "NULL_X",
            "NULL ",
            " NULL",
            "NULLIF(1,2)",
            "NULL::text",
            "0",
            "7",
            "-12",
            "123456789",
            "1234567890123456789",
            "3.25",
            "-0.15000000000000002",
            "1.5e3",
            "-2E-5",
            "+4",
            "7/",
            "9:",
            "1.",
            "5::int",
            "-7e",
            "7°",
            "12345678/",
            "1234567:",
            "123456789012345°",
            ".5",
            "-.",
            "-",
            "0x4142",
            "1+2",
            "- 3",
            "12 ",
            " 12",
            "1.2.3",
            "''",
            "'a'",
            "'value 4-328'",
            "'2020-09-13 12:26:40.000000'",
            "'über'",
            "'東京'",
            "'it\\'s'",
            "'a''b'",
            "'line\\nbreak'",
            "'line\nbreak'",
            "'tab\there'",
            "'" + "x".repeat(47) + "'",
            "'" + "y".repeat(48) + "'",
            "'" + "z".repeat(200) + "'",
            "'a' COLLATE utf8mb4_bin",
            "\"dq\"",
            "X'43'",
            "_binary 'x'",
            "TRUE",
            "DEFAULT",
            "NOW()",
            "'x'::text",
            "-- c\n5",
            "/* c */ 6",
            "'a\\\\'",
            "'" + "w\\'".repeat(40) + "'",
            "'" + "v".repeat(60) + "\\n" + "u".repeat(60) + "'",
            "'esc\\'d' COLLATE utf8mb4_bin",
            "'esc\\'d'::text",
            "'esc\\'d' ",
            "'bs\\\nnl'",
            "'pct\\%_\\_'",
            "'hi\\é \\0\\b\\r\\t\\Z'",
            "\"d\\\"q\""
        };
        for (int script = 0; script < 40; script++) {
            StringBuilder sql = new StringBuilder("CREATE TABLE t (a int);\n");
            int inserts = 1 + random.nextInt(3);
            for (int ins = 0; ins < inserts; ins++) {
                sql.append("INSERT INTO t VALUES ");
                int rows = 1 + random.nextInt(60);
                for (int row = 0; row < rows; row++) {
                    if (row > 0) {
                        sql.append(random.nextInt(4) == 0 ? ",\n" : ",");
                    }
                    sql.append('(');
                    int n = random.nextInt(random.nextInt(8) == 0 ? 1 : 30);
                    for (int v = 0; v < n; v++) {
                        if (v > 0) {
                            sql.append(random.nextInt(10) == 0 ? ", " : ",");
                        }
                        // NULL three times in the list: runs of it
                        sql.append(values[random.nextInt(values.length)]);
                    }
                    sql.append(')');
                }
                sql.append(";\n");
            }
            if (script % 5 == 4) {
                sql.setLength(sql.length() - 2 - random.nextInt(40)); // cut short: both must fail alike
            }
            // every other script in Latin-1, as old dumps are: '°' then one byte, 0xb0, a digit's low bits
            byte[] bytes =
                    sql.toString().getBytes(script % 2 == 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            for (int step : new int[] {1, 5, 8, 13, 64, 1 << 16}) {
                RecordedRows oneByOne = new RecordedRows();
                RecordedRows inLoop = new RecordedRows();
                String failed = recordRows(bytes, step, oneByOne, false);
                String failedInLoop = recordRows(bytes, step, inLoop, true);
                assertThat(failedInLoop)
                        .as("script %d, reads of %d bytes:\n%s", script, step, sql)
                        .isEqualTo(failed);
                assertThat(inLoop.sameAs(oneByOne))
                        .as("script %d, reads of %d bytes:\n%s", script, step, sql)
                        .isTrue();
                assertThat(inLoop.rows).isEqualTo(oneByOne.rows);
            }
        }
    }

    /** NULLs in runs, numbers and short strings fill whole rows: the record's arrays grow under the loop. */
    @Test
    void rowsRecordedInTheReadersOwnLoopGrowTheRecord() throws IOException {
        StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
        for (int row = 0; row < 3000; row++) {
            sql.append(row == 0 ? "(" : ",(")
                    .append(row)
                    .append(",'v")
                    .append(row)
                    .append('\'');
            sql.append(",NULL".repeat(40)).append(",12345678901.25)");
        }
        sql.append(";\n");
        byte[] bytes = sql.toString().getBytes(StandardCharsets.UTF_8);
        RecordedRows oneByOne = new RecordedRows();
        RecordedRows inLoop = new RecordedRows();
        assertThat(recordRows(bytes, 1 << 16, oneByOne, false)).isNull();
        assertThat(recordRows(bytes, 1 << 16, inLoop, true)).isNull();
        assertThat(inLoop.ncalls).isGreaterThan(RecordedRows.ROWS * 12);
        assertThat(inLoop.sameAs(oneByOne)).isTrue();
    }

    /**
     * An escape's byte is the only byte with the high bit in a Latin-1 string: the value is not
     * ASCII, read a row a call or in the reader's own loop.
     */
    @Test
    void anEscapedHighByteMakesTheStringNotAscii() throws IOException {
        byte[] bytes =
                "INSERT INTO t VALUES ('\\\u00e9x'),('a\\'b'),('\\\u00e9')\n;\n".getBytes(StandardCharsets.ISO_8859_1);
        for (boolean inLoop : new boolean[] {false, true}) {
            RecordedRows into = new RecordedRows();
            assertThat(recordRows(bytes, 1 << 16, into, inLoop)).isNull();
            List<Boolean> ascii = new ArrayList<>();
            for (int i = 0; i < into.ncalls; i++) {
                long w = into.calls[i];
                if ((w & RecordedRows.TAG) == RecordedRows.VALUE) {
                    ascii.add((((w >>> 24) & 0xFF) & RecordedRows.ASCII) != 0);
                } else if ((w & RecordedRows.TAG) == RecordedRows.END) {
                    i++;
                }
            }
            assertThat(ascii).as("in the loop: %s", inLoop).containsExactly(false, true, false);
        }
    }

    /**
     * A string with escapes is decoded straight into the record's bytes: one longer than the
     * record's array, after rows that already hold bytes there, grows it and keeps them; so do
     * the rows after it.
     */
    @Test
    void escapedStringsDecodedIntoTheRecordGrowItAndKeepWhatItHeld() throws IOException {
        StringBuilder sql = new StringBuilder("INSERT INTO t VALUES ");
        for (int row = 0; row < 40; row++) {
            sql.append(row == 0 ? "(" : ",(").append(row).append(",'");
            int repeat = row == 20 ? 400_000 : 3 + row;
            sql.append("a\\'b\\\\c\\n".repeat(repeat)).append("')");
        }
        sql.append(";\n");
        byte[] bytes = sql.toString().getBytes(StandardCharsets.UTF_8);
        assertThat(bytes.length).isGreaterThan(RecordedRows.BYTES * 2);
        for (int step : new int[] {7, 1 << 16}) {
            RecordedRows oneByOne = new RecordedRows();
            RecordedRows inLoop = new RecordedRows();
            assertThat(recordRows(bytes, step, oneByOne, false)).isNull();
            assertThat(recordRows(bytes, step, inLoop, true)).isNull();
            assertThat(inLoop.rows).isEqualTo(40);
            assertThat(inLoop.nbytes).isGreaterThan(RecordedRows.BYTES * 2);
            assertThat(inLoop.sameAs(oneByOne)).as("reads of %d bytes", step).isTrue();
        }
    }

    /**
     * Reads every INSERT of {@code script} into {@code into}, a row a call or, {@code inLoop}, by
     * {@link SqlScriptReader#nextTuples} (emptied whenever full, as the loader hands a chunk on);
     * returns the error's message, or null.
     */
    private static String recordRows(byte[] script, int step, RecordedRows into, boolean inLoop) throws IOException {
        try (SqlScriptReader r = new SqlScriptReader(chunked(script, step), "t.sql", true)) {
            SqlScriptReader.Statement st;
            while ((st = r.next()) != null) {
                if (st instanceof SqlScriptReader.Insert) {
                    if (inLoop) {
                        int handedOn = 0;
                        while (r.nextTuples(into)) {
                            // full: the loader would hand it on; here it keeps growing
                            handedOn += into.rows;
                            into.rows = 0;
                        }
                        into.rows += handedOn;
                    } else {
                        do {
                            into.atLine(r.line());
                        } while (r.nextTuple(into));
                    }
                }
            }
            return null;
        } catch (BadInputException e) {
            return e.getMessage();
        }
    }
}

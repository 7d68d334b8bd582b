package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The input contract, case by case: every hostile input is read exactly or refused clearly. The
 * inputs are made here, at test time, from the repository's own generators (SyntheticDump's
 * mysqldump, pg_dump, CSV and SQLite file; {@code trace generate}'s dump and trace) and from small
 * dumps written below: truncations at many offsets in every format, encodings, NUL bytes,
 * BOM/CRLF/UTF-16, huge values and lines, rows of the wrong shape, values outside their declared
 * type, damaged containers, mixed folders, symbolic-link loops, odd file names and identifiers,
 * hostile traces, standard input and bad option values.
 *
 * <p>Each case states its exact outcome: the rows read equal the rows written (and the bad rows
 * and values counted exactly), or exit 2 with a message that starts {@code wastecheck:}, names
 * the file (and the line where there is one) and carries no stack trace. Nothing exits 1.
 */
class HostileInputTest {
    private static Path dir;
    private static final int ROWS = 40;

    @BeforeAll
    static void fixtures() throws Exception {
        dir = Files.createTempDirectory("wastecheck-hostile-");
        SyntheticDump.writeMysqldump(dir.resolve("orders.sql"), ROWS, 7);
        SyntheticDump.writePgDump(dir.resolve("orders.pg.sql"), ROWS, 7);
        SyntheticDump.writeCsv(dir.resolve("orders.csv"), ROWS, 7);
        SyntheticDump.writeSqliteFile(dir.resolve("orders.sqlite"), ROWS, 7);
        assertThat(Cli.run(
                                "trace",
                                "generate",
                                "--scale",
                                "3",
                                "--seed",
                                "5",
                                "-o",
                                dir.resolve("wiki").toString())
                        .exitCode())
                .isZero();
    }

    @AfterAll
    static void cleanUp() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    // ------------------------------------------------------------------ what a case expects

    /** Exit 0 and, per table, rows read, bad rows and bad values. */
    private static void reads(String[] args, Map<String, long[]> tables) {
        List<String> a = new ArrayList<>(List.of("analyze", "--format", "json", "-q"));
        a.addAll(List.of(args));
        Cli.Result r = Cli.run(a.toArray(new String[0]));
        assertThat(r.exitCode()).as("exit of %s; stderr: %s", a, r.err()).isZero();
        JsonNode report = r.json();
        for (Map.Entry<String, long[]> e : tables.entrySet()) {
            JsonNode t = Cli.table(report, e.getKey());
            long[] want = e.getValue();
            assertThat(new long[] {
                        t.get("rows").asLong(),
                        t.get("bad_rows").asLong(),
                        t.get("bad_values").asLong()
                    })
                    .as("rows, bad rows, bad values of %s in %s", e.getKey(), a)
                    .containsExactly(want);
        }
    }

    private static Map<String, long[]> table(String name, long rows, long badRows, long badValues) {
        Map<String, long[]> m = new LinkedHashMap<>();
        m.put(name, new long[] {rows, badRows, badValues});
        return m;
    }

    /** Exit 2: one message on stderr starting "wastecheck:", holding every fragment, no stack trace. */
    private static Cli.Result refuses(String[] args, String... fragments) {
        Cli.Result r = Cli.run(args);
        assertThat(r.exitCode())
                .as("exit of %s; stderr: %s", Arrays.toString(args), r.err())
                .isEqualTo(2);
        assertThat(r.err()).startsWith("wastecheck:").doesNotContain("\tat ").doesNotContain("internal error");
        for (String f : fragments) {
            assertThat(r.err()).as("stderr of %s", Arrays.toString(args)).contains(f);
        }
        return r;
    }

    private static String[] analyze(Object... sources) {
        List<String> a = new ArrayList<>(List.of("analyze", "--format", "json", "-q"));
        for (Object s : sources) {
            a.add(s.toString());
        }
        return a.toArray(new String[0]);
    }

    private static Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private static Path write(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
        return p;
    }

    private static byte[] bytes(Path p) throws IOException {
        return Files.readAllBytes(p);
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        }
        return out.toByteArray();
    }

    private static long lineOf(byte[] b, int offset) {
        long line = 1;
        for (int i = 0; i < offset && i < b.length; i++) {
            line += b[i] == '\n' ? 1 : 0;
        }
        return line;
    }

    private static int indexOf(byte[] b, String s, int from) {
        byte[] n = s.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = Math.max(0, from); i <= b.length - n.length; i++) {
            for (int k = 0; k < n.length; k++) {
                if (b[i + k] != n[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static DynamicTest test(String name, Executable body) {
        return DynamicTest.dynamicTest(name, () -> body.run());
    }

    private interface Executable {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------ the corpus

    @TestFactory
    Stream<DynamicTest> corpus() {
        List<DynamicTest> cases = new ArrayList<>();
        truncations(cases);
        encodings(cases);
        shapesAndValues(cases);
        containers(cases);
        folders(cases);
        names(cases);
        traces(cases);
        standardInput(cases);
        options(cases);
        assertThat(cases).hasSizeGreaterThanOrEqualTo(100);
        return cases.stream();
    }

    /** A generated dump cut short at many offsets, in every format. */
    private void truncations(List<DynamicTest> cases) {
        // mysqldump: one INSERT of 40 rows; cut after k complete rows, inside a string, inside the CREATE TABLE
        for (int k : new int[] {1, 2, 5, 13, 21, 39}) {
            cases.add(test("mysqldump cut after row " + k + " of the INSERT", () -> {
                byte[] b = bytes(dir.resolve("orders.sql"));
                int at = indexOf(b, "INSERT INTO", 0);
                for (int i = 0; i < k; i++) {
                    at = indexOf(b, "),(", at + 1);
                }
                Path cut = write("cut/my-row" + k + ".sql", Arrays.copyOf(b, at + 2));
                refuses(analyze(cut), cut + ":" + lineOf(b, indexOf(b, "INSERT INTO", 0)) + ":", "the end of the file");
            }));
        }
        for (int k : new int[] {3, 17, 33}) {
            cases.add(test("mysqldump cut inside the string of row " + k, () -> {
                byte[] b = bytes(dir.resolve("orders.sql"));
                int at = indexOf(b, "INSERT INTO", 0);
                for (int i = 0; i < k; i++) {
                    at = indexOf(b, "),(", at + 1);
                }
                int quote = indexOf(b, ",'", at + 3);
                Path cut = write("cut/my-str" + k + ".sql", Arrays.copyOf(b, quote + 3));
                refuses(analyze(cut), cut + ":", "closing '", "the end of the file");
            }));
        }
        for (String marker : new String[] {"`customer_id`", "PRIMARY KEY", "ENGINE=InnoDB"}) {
            cases.add(test("mysqldump cut inside CREATE TABLE at " + marker, () -> {
                byte[] b = bytes(dir.resolve("orders.sql"));
                int at = indexOf(b, marker, 0);
                Path cut = write("cut/my-ddl-" + marker.replaceAll("\\W", "") + ".sql", Arrays.copyOf(b, at + 3));
                // inside a quoted name the error is where the quote opened, else where the statement began
                long line = marker.startsWith("`") ? lineOf(b, at) : lineOf(b, indexOf(b, "CREATE TABLE", 0));
                refuses(analyze(cut), cut + ":" + line + ":", "the end of the file");
            }));
        }
        cases.add(test("mysqldump cut right after the INSERT's ';' reads every row", () -> {
            byte[] b = bytes(dir.resolve("orders.sql"));
            int end = indexOf(b, ");\n", indexOf(b, "INSERT INTO", 0)) + 3;
            reads(
                    new String[] {
                        write("cut/my-stmt.sql", Arrays.copyOf(b, end)).toString()
                    },
                    table("orders", ROWS, 0, 0));
        }));
        // pg_dump: COPY rows one per line; cut after k lines, mid-row, before and after the end marker
        for (int k : new int[] {0, 1, 7, 20, 39, 40}) {
            cases.add(test("pg_dump cut after COPY row " + k + " (no \\.)", () -> {
                byte[] b = bytes(dir.resolve("orders.pg.sql"));
                int copy = indexOf(b, "COPY public.orders", 0);
                int at = indexOf(b, "\n", copy) + 1;
                for (int i = 0; i < k; i++) {
                    at = indexOf(b, "\n", at) + 1;
                }
                Path cut = write("cut/pg-row" + k + ".sql", Arrays.copyOf(b, at));
                refuses(analyze(cut), cut + ":" + lineOf(b, copy) + ":", "end-of-data marker");
            }));
        }
        for (int k : new int[] {0, 9, 25}) {
            cases.add(test("pg_dump cut in the middle of COPY row " + (k + 1), () -> {
                byte[] b = bytes(dir.resolve("orders.pg.sql"));
                int copy = indexOf(b, "COPY public.orders", 0);
                int at = indexOf(b, "\n", copy) + 1;
                for (int i = 0; i < k; i++) {
                    at = indexOf(b, "\n", at) + 1;
                }
                int mid = indexOf(b, "\t", at + 1) + 2;
                Path cut = write("cut/pg-mid" + k + ".sql", Arrays.copyOf(b, mid));
                refuses(analyze(cut), cut + ":" + lineOf(b, at) + ":", "in the middle of the row");
            }));
        }
        cases.add(test("pg_dump cut right after \\. reads every row", () -> {
            byte[] b = bytes(dir.resolve("orders.pg.sql"));
            int end = indexOf(b, "\\.\n", 0) + 3;
            reads(
                    new String[] {write("cut/pg-end.sql", Arrays.copyOf(b, end)).toString()},
                    table("orders", ROWS, 0, 0));
        }));
        // CSV cut mid-row: the last row is short, counted as bad with its line
        for (int k : new int[] {3, 19, 38}) {
            cases.add(test("CSV cut in the middle of row " + (k + 1), () -> {
                StringBuilder csv = new StringBuilder("id,name,amount\n");
                for (int i = 1; i <= ROWS; i++) {
                    csv.append(i)
                            .append(",name ")
                            .append(i)
                            .append(',')
                            .append(i * 3)
                            .append(".5\n");
                }
                byte[] b = csv.toString().getBytes(StandardCharsets.UTF_8);
                int at = 0;
                for (int i = 0; i <= k; i++) {
                    at = indexOf(b, "\n", at) + 1;
                }
                int mid = indexOf(b, ",", at) + 1;
                Path cut = write("cut/csv-mid" + k + ".csv", Arrays.copyOf(b, mid));
                reads(new String[] {"--max-bad", "1", cut.toString()}, table("csv-mid" + k, k, 1, 0));
                refuses(analyze(cut), cut + ":" + (k + 2) + ":", "--max-bad");
            }));
        }
        // gzip cut short or corrupted: the file is named, with how far it got
        for (double share : new double[] {0.1, 0.5, 0.9}) {
            cases.add(test("gzip of the mysqldump cut at " + share, () -> {
                byte[] gz = gzip(bytes(dir.resolve("orders.sql")));
                Path cut = write("cut/my-" + share + ".sql.gz", Arrays.copyOf(gz, (int) (gz.length * share)));
                refuses(analyze(cut), cut.toString(), "gzip");
            }));
        }
        cases.add(test("gzip with a corrupted body", () -> {
            byte[] gz = gzip(bytes(dir.resolve("orders.pg.sql")));
            for (int i = gz.length / 3; i < gz.length / 3 + 40; i++) {
                gz[i] ^= 0x5a;
            }
            Path bad = write("cut/pg-corrupt.sql.gz", gz);
            refuses(analyze(bad), bad.toString());
        }));
        cases.add(test(
                "gzip intact reads every row",
                () -> reads(
                        new String[] {
                            write("cut/pg-whole.sql.gz", gzip(bytes(dir.resolve("orders.pg.sql"))))
                                    .toString()
                        },
                        table("orders", ROWS, 0, 0))));
        // the generator's own MediaWiki dump, cut at statement boundaries and inside statements
        for (int k : new int[] {3, 8, 15}) {
            cases.add(test("trace generate's dump cut inside statement " + k, () -> {
                byte[] b = bytes(dir.resolve("wiki/dump.sql"));
                int at = 0;
                for (int i = 0; i < k; i++) {
                    at = indexOf(b, ";\n", at) + 2;
                }
                int inside = indexOf(b, "INSERT INTO", at);
                if (inside < 0) {
                    inside = at + 10;
                }
                Path cut = write("cut/wiki-" + k + ".sql", Arrays.copyOf(b, inside + 40));
                refuses(analyze(cut), cut + ":", "the end of the file");
            }));
        }
    }

    /** BOM, CRLF, UTF-16, Latin-1 and NUL bytes. */
    private void encodings(List<DynamicTest> cases) {
        String dump =
                "CREATE TABLE t (id int NOT NULL, name varchar(20));\nINSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c');\n";
        cases.add(test("UTF-8 byte-order mark before a dump", () -> {
            byte[] b = ("\ufeff" + dump).getBytes(StandardCharsets.UTF_8);
            reads(new String[] {write("enc/bom.sql", b).toString()}, table("t", 3, 0, 0));
        }));
        cases.add(test(
                "CRLF line ends in a dump",
                () -> reads(
                        new String[] {
                            write("enc/crlf.sql", dump.replace("\n", "\r\n")).toString()
                        },
                        table("t", 3, 0, 0))));
        cases.add(test("CRLF line ends in a pg_dump COPY", () -> {
            String pg = new String(bytes(dir.resolve("orders.pg.sql")), StandardCharsets.UTF_8).replace("\n", "\r\n");
            reads(new String[] {write("enc/crlf.pg.sql", pg).toString()}, table("orders", ROWS, 0, 0));
        }));
        cases.add(test("UTF-16LE with a byte-order mark is refused", () -> {
            byte[] b = ("\ufeff" + dump).getBytes(StandardCharsets.UTF_16LE);
            Path p = write("enc/utf16le.sql", b);
            refuses(analyze(p), p.toString(), "UTF-16");
        }));
        cases.add(test("UTF-16BE without a byte-order mark is refused", () -> {
            Path p = write("enc/utf16be.sql", dump.getBytes(StandardCharsets.UTF_16BE));
            refuses(analyze(p), p.toString(), "UTF-16");
        }));
        cases.add(test("Latin-1 bytes in strings are kept (recoded), rows exact", () -> {
            byte[] b =
                    "CREATE TABLE t (id int, name varchar(20));\nINSERT INTO t VALUES (1,'caf\u00e9'),(2,'na\u00efve');\n"
                            .getBytes(StandardCharsets.ISO_8859_1);
            reads(new String[] {write("enc/latin1.sql", b).toString()}, table("t", 2, 0, 0));
        }));
        cases.add(test("a NUL byte between INSERTs is counted and the next INSERT still read", () -> {
            Path p = write("enc/nul.sql", dump + "\0\nINSERT INTO t VALUES (4,'d');\n");
            reads(new String[] {"--max-bad", "1", p.toString()}, table("t", 4, 0, 0));
            refuses(analyze(p), p + ":3:", "expected a SQL statement", "\\x00");
        }));
        cases.add(test("a line of garbage between INSERTs is counted, not swallowed", () -> {
            Path p = write("enc/garbage.sql", dump + "this is not sql\nINSERT INTO t VALUES (4,'d'),(5,'e');\n");
            reads(new String[] {"--max-bad", "1", p.toString()}, table("t", 5, 0, 0));
            refuses(analyze(p), p + ":3:", "'this is not sql'", "line 4");
        }));
        cases.add(test(
                "an escaped NUL inside a MySQL string is a value",
                () -> reads(
                        new String[] {
                            write(
                                            "enc/nulstr.sql",
                                            "CREATE TABLE t (id int, b varbinary(8));\nINSERT INTO t VALUES (1,'a\\0b');\n")
                                    .toString()
                        },
                        table("t", 1, 0, 0))));
        cases.add(test("a raw NUL in a CSV is binary data, refused with its line", () -> {
            Path p = write("enc/nul.csv", "a,b\n1,x\n2,y\0z\n".getBytes(StandardCharsets.UTF_8));
            refuses(analyze(p), p + ":3:", "NUL");
        }));
        cases.add(test(
                "a CSV with a byte-order mark and CRLF",
                () -> reads(
                        new String[] {
                            write("enc/bomcrlf.csv", "\ufeffa,b\r\n1,x\r\n2,y\r\n")
                                    .toString()
                        },
                        table("bomcrlf", 2, 0, 0))));
        cases.add(test("a file of only SQL comments and SET NAMES holds no table", () -> {
            Path p = write("enc/comments.sql", "-- MySQL dump\n/*!40101 SET NAMES utf8mb4 */;\nSET NAMES utf8mb4;\n");
            refuses(analyze(p), p.toString(), "no table found");
        }));
        cases.add(test("an empty file", () -> {
            Path p = write("enc/empty.sql", "");
            refuses(analyze(p), p.toString(), "empty");
        }));
        cases.add(test("a gzip of nothing", () -> {
            Path p = write("enc/nothing.sql.gz", gzip(new byte[0]));
            refuses(analyze(p), p.toString(), "decompresses to nothing");
        }));
        cases.add(test("random bytes", () -> {
            byte[] b = new byte[4096];
            new java.util.Random(3).nextBytes(b);
            b[7] = 0;
            Path p = write("enc/random.bin", b);
            refuses(analyze(p), p.toString());
        }));
    }

    /** Rows of the wrong shape, huge values and lines, values outside their declared type. */
    private void shapesAndValues(List<DynamicTest> cases) {
        String head = "CREATE TABLE t (id int, name varchar(10));\n";
        cases.add(test("a row with an extra value and a row with one missing are counted", () -> {
            Path p = write(
                    "rows/ragged.sql",
                    head + "INSERT INTO t VALUES (1,'a'),(2,'b','x'),(3);\nINSERT INTO t VALUES (4,'d');\n");
            reads(new String[] {"--max-bad", "1", p.toString()}, table("t", 2, 2, 0));
            refuses(analyze(p), p + ":2:", "a row of 2 values");
        }));
        cases.add(test("a ragged CSV row is counted with its line, columns stay the header's", () -> {
            Path p = write("rows/ragged.csv", "a,b,c\n1,2,3\n4,5,6,7,8\n9,10,11\n");
            reads(new String[] {"--max-bad", "1", p.toString()}, table("ragged", 2, 1, 0));
            refuses(analyze(p), p + ":3:", "too many columns");
        }));
        cases.add(test("a CSV quote opened at row 100 and never closed is refused at its line", () -> {
            StringBuilder sb = new StringBuilder("id,name,v\n");
            for (int i = 1; i < 300; i++) {
                sb.append(i)
                        .append(i == 100 ? ",\"unterminated," : ",name" + i + ",")
                        .append(i)
                        .append('\n');
            }
            Path p = write("rows/openquote.csv", sb.toString());
            refuses(analyze(p), p + ":101:", "closing quote", "never closed");
        }));
        cases.add(test("CSV quotes across lines, doubled, and a quote inside a bare value read", () -> {
            Path p = write("rows/quotes.csv", "a,b\n1,\"x \"\"y\"\"\nz\"\n2,5'11\"\n3, \"spaced\"\n");
            reads(new String[] {p.toString()}, table("quotes", 3, 0, 0));
        }));
        cases.add(test("a CSV value that does not fit the sniffed type reads the column as text", () -> {
            StringBuilder sb = new StringBuilder("a,b\n");
            for (int i = 0; i < 25_000; i++) {
                sb.append(i).append(',').append(i).append('\n');
            }
            sb.append("25000,hello\n");
            reads(new String[] {write("rows/latecast.csv", sb.toString()).toString()}, table("latecast", 25_001, 0, 0));
        }));
        cases.add(test("garbage between rows of an INSERT", () -> {
            Path p = write("rows/between.sql", head + "INSERT INTO t VALUES (1,'a'),\n(2,'b') xyz (3,'c');\n");
            refuses(analyze(p), p + ":3:", "expected");
        }));
        cases.add(test("INSERT naming a column the table lacks", () -> {
            Path p = write("rows/nocol.sql", head + "INSERT INTO t (id, nope) VALUES (1,'a');\n");
            refuses(analyze(p), p.toString(), "nope");
        }));
        cases.add(test("INSERT with garbage instead of VALUES", () -> {
            Path p = write("rows/novalues.sql", head + "INSERT INTO t garbage;\n");
            refuses(analyze(p), p + ":2:", "VALUES, SELECT or DEFAULT VALUES");
        }));
        cases.add(test("a removed quote is reported where the string began", () -> {
            StringBuilder sb = new StringBuilder(head);
            for (int i = 1; i <= 50; i++) {
                sb.append("INSERT INTO t VALUES (").append(i).append(i == 20 ? ",'x);\n" : ",'x');\n");
            }
            Path p = write("rows/quote.sql", sb.toString());
            refuses(analyze(p), p + ":21:", "quote is probably missing on line 21");
        }));
        cases.add(test("an unterminated string names the line where it began", () -> {
            Path p = write("rows/unterminated.sql", head + "INSERT INTO t VALUES (1,'a'),\n(2,'b);\n\n\n");
            refuses(analyze(p), p + ":3:", "closing '");
        }));
        cases.add(test("a 4 MB value in one row", () -> {
            String big = "x".repeat(4 << 20);
            Path p = write(
                    "rows/big.sql",
                    "CREATE TABLE t (id int, body longtext);\nINSERT INTO t VALUES (1,'" + big + "'),(2,'y');\n");
            reads(new String[] {p.toString()}, table("t", 2, 0, 0));
        }));
        cases.add(test("a 1 MB CSV line", () -> {
            Path p = write("rows/longline.csv", "a,b\n1," + "z".repeat(1 << 20) + "\n2,y\n");
            reads(new String[] {p.toString()}, table("longline", 2, 0, 0));
        }));
        cases.add(test("a statement longer than 64 MB of text is refused", () -> {
            Path p = dir.resolve("rows/hugecreate.sql");
            try (var w = Files.newBufferedWriter(p)) {
                w.write("CREATE TABLE t (id int COMMENT '");
                char[] chunk = new char[1 << 20];
                Arrays.fill(chunk, 'c');
                for (int i = 0; i < 66; i++) {
                    w.write(chunk);
                }
                w.write("');\n");
            }
            refuses(analyze(p), p + ":1:", "64 MB");
        }));
        cases.add(test(
                "DOUBLE beyond FLOAT's range, in a dump",
                () -> reads(
                        new String[] {
                            write(
                                            "rows/dbl.sql",
                                            "CREATE TABLE t (a int, b double);\nINSERT INTO t VALUES (1,1e300),(2,3.5),(3,-1.7e308);\n")
                                    .toString()
                        },
                        table("t", 3, 0, 0))));
        cases.add(test(
                "DOUBLE beyond FLOAT's range, in a CSV",
                () -> reads(
                        new String[] {
                            write("rows/dbl.csv", "a,b\n1,1e300\n2,3.5\n").toString()
                        },
                        table("dbl", 2, 0, 0))));
        cases.add(test(
                "DOUBLE beyond FLOAT's range, in a pg_dump",
                () -> reads(
                        new String[] {
                            write(
                                            "rows/dbl.pg.sql",
                                            "--\n-- PostgreSQL database dump\n--\nCREATE TABLE public.t (a integer, b double precision);\n"
                                                    + "COPY public.t (a, b) FROM stdin;\n1\t1e300\n2\t3.5\n\\.\n")
                                    .toString()
                        },
                        table("t", 2, 0, 0))));
        cases.add(test("DOUBLE beyond FLOAT's range, in a SQLite REAL", () -> {
            Path p = dir.resolve("rows/dbl.sqlite");
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p);
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (a INTEGER, b REAL)");
                st.execute("INSERT INTO t VALUES (1, 1e300), (2, 3.5)");
            }
            reads(new String[] {p.toString()}, table("t", 2, 0, 0));
        }));
        cases.add(test("nested JSON objects and arrays are profiled as JSON", () -> {
            Path p = write(
                    "rows/nested.json", "{\"a\":1,\"b\":{\"c\":2},\"d\":[1,2]}\n{\"a\":2,\"b\":{\"c\":3},\"d\":[]}\n");
            reads(new String[] {p.toString()}, table("nested", 2, 0, 0));
            JsonNode r = Cli.analyzeJson(p);
            assertThat(Cli.column(r, "nested", "b").get("declared_type").asText())
                    .isEqualTo("JSON");
        }));
        cases.add(test("a JSON array of flat objects is JSON, not CSV", () -> {
            Path p = write("rows/array.json", "[\n  {\"a\": 1, \"b\": \"x\"},\n  {\"a\": 2, \"b\": \"y\"}\n]\n");
            reads(new String[] {p.toString()}, table("array", 2, 0, 0));
            assertThat(Cli.column(Cli.analyzeJson(p), "array", "b").get("name").asText())
                    .isEqualTo("b");
        }));
        cases.add(test("JSON with a trailing comma is refused at its line and column", () -> {
            Path p = write("rows/comma.json", "[{\"a\":1},\n{\"a\":2,}\n]");
            refuses(analyze(p), p + ":2:8:", "invalid JSON");
        }));
        cases.add(test("JSON nested 100,000 arrays deep is refused", () -> {
            Path p = write("rows/deep.json", "[".repeat(100_000) + "]".repeat(100_000));
            refuses(analyze(p), p + ":1:");
        }));
        cases.add(test("JSON objects nested 10,000 deep are refused", () -> {
            Path p = write("rows/deepobj.json", "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000));
            refuses(analyze(p), p + ":1:", "nested at most 128");
        }));
        cases.add(test("JSON cut short", () -> {
            Path p = write("rows/cutjson.json", "[{\"a\":1},{\"a\":");
            refuses(analyze(p), p + ":1:");
        }));
        cases.add(test("a JSON file that is a bare number is refused, not read as CSV", () -> {
            Path p = write("rows/scalar.json", "42\n");
            refuses(analyze(p), p + ":1:", "expected a JSON array of objects", "a bare JSON number");
        }));
        cases.add(test("a JSON file of bare strings is refused", () -> {
            Path p = write("rows/strings.jsonl", "\"a\"\n\"b\"\n");
            refuses(analyze(p), p + ":1:", "a bare JSON string");
        }));
        cases.add(test("a .json file holding CSV is read as CSV, as its content says", () -> {
            Path p = write("rows/csvjson.json", "a,b\n1,2\n3,4\n");
            reads(new String[] {p.toString()}, table("csvjson", 2, 0, 0));
        }));
        cases.add(test("an empty JSON array", () -> {
            Path p = write("rows/emptyarr.json", "[]");
            refuses(analyze(p), p.toString(), "no records");
        }));
        // values outside their declared type: counted per column, kept, and the suggestion holds them
        String[][] outside = {
            {"300 in TINYINT UNSIGNED", "a tinyint unsigned", "300", "SMALLINT UNSIGNED"},
            {"-5 in SMALLINT UNSIGNED", "a smallint unsigned", "-5", "TINYINT"},
            {"a non-member in an ENUM", "a enum('x','y')", "'z'", "enum('x','y','z')"},
            {"2023-02-30 in a DATE", "a date", "'2023-02-30'", "date"},
            {"2023-02-30 10:00:00 in a DATETIME", "a datetime", "'2023-02-30 10:00:00'", "datetime"},
            {"123456789012.345 in DECIMAL(10,2)", "a decimal(10,2)", "123456789012.345", "DECIMAL(15,3)"},
            {"eleven characters in VARCHAR(10)", "a varchar(10)", "'abcdefghijk'", "VARCHAR(11)"},
            {"1e39 in a 4-byte FLOAT", "a float", "1e39", "double"},
            {"a non-member in a SET", "a set('x','y')", "'x,q'", "set('x','y','q')"},
            {"70000 in SMALLINT", "a smallint", "70000", "MEDIUMINT"},
        };
        for (String[] o : outside) {
            cases.add(test("value outside its type: " + o[0], () -> {
                Path p = write(
                        "values/" + o[0].replaceAll("\\W+", "_") + ".sql",
                        "CREATE TABLE t (id int, " + o[1] + ");\n" + "INSERT INTO t VALUES (1," + o[2]
                                + ");\nINSERT INTO t VALUES (2,NULL);\n");
                Cli.Result r = Cli.run(analyze(p));
                assertThat(r.exitCode()).as(r.err()).isZero();
                JsonNode col = Cli.column(r.json(), "t", "a");
                assertThat(col.get("bad_values").asLong()).isEqualTo(1);
                assertThat(col.get("first_bad_value").asText()).startsWith(p + ":2: column a:");
                assertThat(col.get("suggested_type").asText()).isEqualToIgnoringCase(o[3]);
                assertThat(Cli.kinds(col)).contains("out_of_type");
            }));
        }
        String[][] inside = {
            {"MySQL's zero date", "a date", "'0000-00-00'"},
            {"29 February of a leap year", "a date", "'2024-02-29'"},
            {"Chinook's 2021/1/1", "a datetime", "'2021/1/1'"},
            {"BIGINT UNSIGNED's largest value", "a bigint unsigned", "18446744073709551615"},
            {"the empty ENUM member", "a enum('x','y')", "''"},
            {"255 in TINYINT UNSIGNED", "a tinyint unsigned", "255"},
            {"12345678.99 in DECIMAL(10,2)", "a decimal(10,2)", "12345678.99"},
        };
        for (String[] o : inside) {
            cases.add(test("value inside its type: " + o[0], () -> {
                Path p = write(
                        "values/in_" + o[0].replaceAll("\\W+", "_") + ".sql",
                        "CREATE TABLE t (id int, " + o[1] + ");\n" + "INSERT INTO t VALUES (1," + o[2] + ");\n");
                reads(new String[] {p.toString()}, table("t", 1, 0, 0));
            }));
        }
        cases.add(test(
                "text in an INT column is a bad value loaded as NULL",
                () -> reads(
                        new String[] {
                            write(
                                            "values/text-in-int.sql",
                                            "CREATE TABLE t (id int, a int);\nINSERT INTO t VALUES (1,'five'),(2,2);\n")
                                    .toString()
                        },
                        table("t", 2, 0, 1))));
    }

    /** SQLite, DuckDB, Parquet and gzip files that are damaged. */
    private void containers(List<DynamicTest> cases) {
        cases.add(test("SQLite file cut in half", () -> {
            byte[] b = bytes(dir.resolve("orders.sqlite"));
            Path p = write("box/half.sqlite", Arrays.copyOf(b, b.length / 2));
            refuses(analyze(p), p.toString(), "SQLite database is damaged");
        }));
        cases.add(test("SQLite file with a corrupted page", () -> {
            byte[] b = bytes(dir.resolve("orders.sqlite"));
            int page = 4096;
            for (int i = page; i < Math.min(b.length, page + 64); i++) {
                b[i] = (byte) 0xa5;
            }
            Path p = write("box/corrupt.sqlite", b);
            refuses(analyze(p), p.toString(), "SQLite database");
        }));
        cases.add(test("SQLite header claiming 2^31 pages", () -> {
            byte[] b = bytes(dir.resolve("orders.sqlite"));
            b[28] = (byte) 0x80;
            b[29] = 0;
            b[30] = 0;
            b[31] = 0;
            b[92] = b[24]; // the change counter that makes the size valid
            b[93] = b[25];
            b[94] = b[26];
            b[95] = b[27];
            Path p = write("box/pages.sqlite", b);
            Cli.Result r = Cli.run(analyze(p));
            if (r.exitCode() == 0) {
                assertThat(Cli.table(r.json(), "orders").get("rows").asLong()).isEqualTo(ROWS);
            } else {
                refuses(analyze(p), p.toString(), "SQLite");
            }
        }));
        cases.add(test(
                "SQLite file intact, gzipped",
                () -> reads(
                        new String[] {
                            write("box/orders.sqlite.gz", gzip(bytes(dir.resolve("orders.sqlite"))))
                                    .toString()
                        },
                        table("orders", ROWS, 0, 0))));
        cases.add(test("SQLite header and nothing else", () -> {
            Path p = write("box/header.sqlite", Arrays.copyOf(bytes(dir.resolve("orders.sqlite")), 100));
            refuses(analyze(p), p.toString(), "SQLite");
        }));
        cases.add(test("Parquet cut short", () -> {
            Path parquet = dir.resolve("box/orders.parquet");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                    Statement st = c.createStatement()) {
                st.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("orders.csv") + "')) TO '" + parquet
                        + "' (FORMAT parquet)");
            }
            reads(new String[] {parquet.toString()}, table("orders", ROWS, 0, 0));
            byte[] b = bytes(parquet);
            Path p = write("box/cut.parquet", Arrays.copyOf(b, b.length - 20));
            refuses(analyze(p), p.toString());
        }));
        cases.add(test("DuckDB file cut short", () -> {
            Path db = dir.resolve("box/shop.duckdb");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db);
                    Statement st = c.createStatement()) {
                st.execute("CREATE TABLE orders AS SELECT * FROM read_csv('" + dir.resolve("orders.csv") + "')");
            }
            byte[] b = bytes(db);
            Path p = write("box/cut.duckdb", Arrays.copyOf(b, 12288));
            refuses(analyze(p), p.toString());
        }));
    }

    /** Folders: mixed dialects, one table twice, documents and subfolders, emptiness, link loops. */
    private void folders(List<DynamicTest> cases) {
        cases.add(test("the same table defined differently in two files", () -> {
            write(
                    "fold/twice/a.sql",
                    "CREATE TABLE t (a int, b int, c int, d int, e int);\nINSERT INTO t VALUES (1,2,3,4,5);\n");
            write("fold/twice/b.sql", "CREATE TABLE t (a int, b int);\nINSERT INTO t VALUES (1,2);\n");
            refuses(analyze(dir.resolve("fold/twice")), "defined twice", "a.sql", "b.sql");
        }));
        cases.add(test("the same table defined the same way in two files appends its rows", () -> {
            write("fold/same/a.sql", "CREATE TABLE t (a int, b int);\nINSERT INTO t VALUES (1,2);\n");
            write("fold/same/b.sql", "CREATE TABLE t (a int, b int);\nINSERT INTO t VALUES (3,4),(5,6);\n");
            reads(new String[] {dir.resolve("fold/same").toString()}, table("t", 3, 0, 0));
        }));
        cases.add(test("a CSV and its gzip name the same table", () -> {
            write("fold/dup/orders.csv", bytes(dir.resolve("orders.csv")));
            write("fold/dup/orders.csv.gz", gzip(bytes(dir.resolve("orders.csv"))));
            refuses(analyze(dir.resolve("fold/dup")), "two sources", "orders.csv");
        }));
        cases.add(test("a folder of a schema, data, a README and a subfolder", () -> {
            write("fold/mixed/1-schema.sql", "CREATE TABLE t (a int, b varchar(3));\n");
            write("fold/mixed/2-data.sql", "INSERT INTO t VALUES (1,'x'),(2,'y');\n");
            write("fold/mixed/README.md", "# not data\n");
            write("fold/mixed/sub/other.sql", "CREATE TABLE u (a int);\n");
            reads(new String[] {dir.resolve("fold/mixed").toString()}, table("t", 2, 0, 0));
            assertThat(Cli.run(analyze(dir.resolve("fold/mixed"))).err()).contains("sub: skipped");
        }));
        cases.add(test(
                "MySQL and PostgreSQL dumps in one folder are refused (issue 31: one database, one dialect)", () -> {
                    write("fold/dialects/a.sql", bytes(dir.resolve("orders.sql")));
                    write(
                            "fold/dialects/b.sql",
                            new String(bytes(dir.resolve("orders.pg.sql")), StandardCharsets.UTF_8)
                                    .replace("public.orders", "public.orders_pg")
                                    .replace("orders_pkey", "orders_pg_pkey"));
                    refuses(
                            analyze(dir.resolve("fold/dialects")),
                            "a.sql is a MySQL dump",
                            "b.sql a PostgreSQL dump",
                            "one at a time");
                }));
        cases.add(test("an empty folder", () -> {
            Files.createDirectories(dir.resolve("fold/empty"));
            refuses(analyze(dir.resolve("fold/empty")), "fold/empty", "no data files");
        }));
        cases.add(test("a symbolic-link loop as the SOURCE", () -> {
            Path a = dir.resolve("fold/loop-a");
            Path b = dir.resolve("fold/loop-b");
            Files.createSymbolicLink(a, b);
            Files.createSymbolicLink(b, a);
            refuses(analyze(a), "loop-a", "symbolic link");
        }));
        cases.add(test("a symbolic-link loop inside a folder is skipped, the rest read", () -> {
            Path f = dir.resolve("fold/withloop");
            write("fold/withloop/t.sql", "CREATE TABLE t (a int);\nINSERT INTO t VALUES (1);\n");
            Files.createSymbolicLink(f.resolve("x"), f.resolve("y"));
            Files.createSymbolicLink(f.resolve("y"), f.resolve("x"));
            reads(new String[] {f.toString()}, table("t", 1, 0, 0));
        }));
        cases.add(test("a missing file", () -> refuses(analyze(dir.resolve("nope.sql")), "nope.sql", "no such file")));
        cases.add(test("rows for a table no file declares", () -> {
            Path p = write("fold/orphan.sql", "INSERT INTO orphan VALUES (1,2);\n");
            refuses(analyze(p), p + ":1:", "CREATE TABLE for orphan");
        }));
    }

    /** Odd file names and identifiers. */
    private void names(List<DynamicTest> cases) {
        for (String name :
                new String[] {"with space.sql", "ünïcödé.sql", "-dash.sql", "no-extension", "quote'name.sql"}) {
            cases.add(test("a file named " + name, () -> {
                Path p = write("names/" + name, "CREATE TABLE t (a int);\nINSERT INTO t VALUES (1),(2);\n");
                reads(new String[] {"--", p.toString()}, table("t", 2, 0, 0));
            }));
        }
        cases.add(test("a .sql file that holds CSV is read as CSV and says so", () -> {
            Path p = write("names/really-csv.sql", "a,b\n1,2\n3,4\n");
            reads(new String[] {p.toString()}, table("really-csv.sql", 2, 0, 0));
            assertThat(Cli.run(analyze(p)).err()).contains("read as CSV");
        }));
        cases.add(test("a .csv file that holds JSON is read as JSON and says so", () -> {
            Path p = write("names/really-json.csv", "[{\"a\":1},{\"a\":2}]");
            reads(new String[] {p.toString()}, table("really-json", 2, 0, 0));
            assertThat(Cli.run(analyze(p)).err()).contains("read as JSON");
        }));
        String[][] mysqlNames = {
            {"a backtick in a table name", "`we``ird`", "we`ird"},
            {"a semicolon in a table name", "`semi;colon`", "semi;colon"},
            {"a reserved word as a table name", "`select`", "select"},
            {"unicode in a table name", "`tàblé_ñ`", "tàblé_ñ"},
            {"a double quote in a table name", "`dq\"name`", "dq\"name"},
        };
        for (String[] n : mysqlNames) {
            cases.add(test("MySQL: " + n[0], () -> {
                Path p = write(
                        "names/my-" + Math.abs(n[0].hashCode()) + ".sql",
                        "CREATE TABLE " + n[1] + " (`or``der` int, `from` varchar(5), `ç;l` int);\nINSERT INTO " + n[1]
                                + " VALUES (1,'x',2),(3,'y',4);\n");
                JsonNode r = Cli.analyzeJson(p);
                assertThat(Cli.table(r, n[2]).get("rows").asLong()).isEqualTo(2);
                assertThat(Cli.table(r, n[2]).get("columns").findValuesAsText("name"))
                        .containsExactly("or`der", "from", "ç;l");
            }));
        }
        cases.add(test("MySQL: a 300-character table name is refused (MySQL's limit is 64)", () -> {
            String name = "t".repeat(300);
            Path p = write(
                    "names/long-table.sql",
                    "-- MySQL dump 10.13\nCREATE TABLE `" + name + "` (`id` int);\nINSERT INTO `" + name
                            + "` VALUES (1),(2);\n");
            refuses(analyze(p), p + ":2:", "at most 64 characters", "one of 300 characters");
        }));
        cases.add(test("MySQL: a 65-character column name is refused", () -> {
            Path p = write(
                    "names/long-column.sql", "-- MySQL dump 10.13\nCREATE TABLE `t` (`" + "c".repeat(65) + "` int);\n");
            refuses(analyze(p), p + ":2:", "column name of at most 64", "one of 65 characters");
        }));
        cases.add(test("MySQL: 64-character names, the limit, are read", () -> {
            String name = "é".repeat(64);
            Path p = write(
                    "names/long64.sql",
                    "-- MySQL dump 10.13\nCREATE TABLE `" + name + "` (`" + "c".repeat(64) + "` int);\nINSERT INTO `"
                            + name + "` VALUES (1),(2);\n");
            reads(new String[] {p.toString()}, table(name, 2, 0, 0));
        }));
        String[][] pgNames = {
            {"a double quote in a table name", "\"a\"\"b\"", "a\"b"},
            {"a semicolon in a table name", "\"x;y\"", "x;y"},
            {"a newline in a table name", "\"line\nbreak\"", "line\nbreak"},
            {"a reserved word as a table name", "\"order\"", "order"},
            {"unicode in a table name", "\"τάβλε\"", "τάβλε"},
        };
        for (String[] n : pgNames) {
            cases.add(test("PostgreSQL: " + n[0] + ", in CREATE TABLE and COPY alike", () -> {
                Path p = write(
                        "names/pg-" + Math.abs(n[0].hashCode()) + ".sql",
                        "--\n-- PostgreSQL database dump\n--\n"
                                + "CREATE TABLE public." + n[1]
                                + " (\n    \"c\"\"1\" integer,\n    \"c;2\" text,\n    \"select\" integer\n);\n"
                                + "COPY public." + n[1]
                                + " (\"c\"\"1\", \"c;2\", \"select\") FROM stdin;\n1\tx\t2\n3\ty\t4\n\\.\n");
                JsonNode r = Cli.analyzeJson(p);
                JsonNode t = Cli.table(r, n[2]);
                assertThat(t.get("rows").asLong()).isEqualTo(2);
                assertThat(t.get("columns").findValuesAsText("name")).containsExactly("c\"1", "c;2", "select");
                assertThat(t.get("columns").get(0).get("declared_type").asText())
                        .isEqualTo("integer");
                assertThat(r.get("tables")).hasSize(1);
            }));
        }
    }

    /** Traces: binary, empty, garbage lines, unclosed quotes, unresolvable statements, damaged gzip. */
    private void traces(List<DynamicTest> cases) {
        cases.add(test("trace stats on a binary file", () -> {
            Path p = write("tr/binary.log", Arrays.copyOf(bytes(dir.resolve("orders.sqlite")), 8192));
            refuses(new String[] {"trace", "stats", p.toString()}, p.toString(), "binary data");
        }));
        cases.add(test("trace stats on an empty file", () -> {
            Path p = write("tr/empty.log", "");
            refuses(new String[] {"trace", "stats", p.toString()}, p.toString(), "empty file");
        }));
        cases.add(test("trace stats on blank lines and comments only", () -> {
            Path p = write("tr/blank.log", "\n-- nothing\n\n");
            refuses(new String[] {"trace", "stats", p.toString()}, p.toString(), "statements or requests");
        }));
        cases.add(test("the generator's trace reads whole", () -> {
            Cli.Result r =
                    Cli.run("trace", "stats", dir.resolve("wiki/trace.log").toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
        }));
        cases.add(test(
                "a PostgreSQL log with 5% garbage lines: every one counted, --max-bad over lines",
                () -> {
                    StringBuilder sb = new StringBuilder();
                    int bad = 0;
                    for (int i = 1; i <= 400; i++) {
                        if (i % 20 == 0) {
                            sb.append("#### garbage line ").append(i).append('\n');
                            bad++;
                        } else {
                            sb.append(
                                            "2024-01-01 10:00:00.000 UTC [42] LOG:  statement: SELECT page_id FROM page WHERE page_id = ")
                                    .append(i)
                                    .append(";\n");
                        }
                    }
                    Path p = write("tr/pg-garbage.log", sb.toString());
                    refuses(new String[] {"trace", "stats", p.toString()}, p + ":20:", bad + " of 400 lines bad");
                    Cli.Result ok = Cli.run("trace", "stats", "--max-bad", "0.06", p.toString());
                    assertThat(ok.exitCode()).as(ok.err()).isZero();
                    assertThat(ok.out()).contains(String.valueOf(bad));
                }));
        cases.add(test("garbage lines in a file of statements are counted each", () -> {
            Path p = write(
                    "tr/sql-garbage.sql",
                    "SELECT page_id FROM page WHERE page_id = 1;\nnot a statement\n"
                            + "SELECT page_id FROM page WHERE page_id = 2;\nstill not\n");
            refuses(new String[] {"trace", "stats", p.toString()}, p + ":2:", "2 of 4 lines bad");
        }));
        cases.add(test("an unclosed quote does not swallow the next statement", () -> {
            Path p = write(
                    "tr/quote.sql",
                    "SELECT page_id FROM page WHERE page_title = 'Main;\n"
                            + "SELECT page_id FROM page WHERE page_id = 2;\nSELECT page_id FROM page WHERE page_id = 3;\n");
            refuses(new String[] {"trace", "stats", p.toString()}, p + ":1:", "closing quote");
            Cli.Result r = Cli.run("trace", "stats", "--max-bad", "0.5", p.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
        }));
        cases.add(test("a trace whose statements name no known table says what is missing", () -> {
            Path p = write("tr/unknown.sql", "SELECT a FROM nowhere WHERE a = 1;\nSELECT b FROM elsewhere;\n");
            refuses(
                    new String[] {"trace", "stats", p.toString()},
                    p.toString(),
                    "none of the 2 statements resolved",
                    "--schema");
        }));
        cases.add(test("analyze --trace with an empty trace", () -> {
            Path p = write("tr/empty2.log", "");
            refuses(
                    new String[] {"analyze", "-q", dir.resolve("orders.sql").toString(), "--trace", p.toString()},
                    p.toString());
        }));
        cases.add(test("a gzip trace cut short", () -> {
            byte[] gz = gzip(bytes(dir.resolve("wiki/trace.log")));
            Path p = write("tr/cut.log.gz", Arrays.copyOf(gz, gz.length / 2));
            refuses(new String[] {"trace", "stats", p.toString()}, p.toString(), "gzip");
        }));
        cases.add(test(
                "a missing trace",
                () -> refuses(
                        new String[] {
                            "trace", "stats", dir.resolve("tr/none.log").toString()
                        },
                        "none.log",
                        "no such trace file")));
    }

    /** {@code analyze -} and pipes: a streamed dump, gzip too, and a CSV. */
    private void standardInput(List<DynamicTest> cases) {
        cases.add(test(
                "mysqldump on standard input",
                () -> withStdin(
                        bytes(dir.resolve("orders.sql")),
                        () -> reads(new String[] {"-"}, table("orders", ROWS, 0, 0)))));
        cases.add(test(
                "gzipped pg_dump on standard input",
                () -> withStdin(
                        gzip(bytes(dir.resolve("orders.pg.sql"))),
                        () -> reads(new String[] {"-"}, table("orders", ROWS, 0, 0)))));
        cases.add(test(
                "CSV on standard input",
                () -> withStdin(
                        bytes(dir.resolve("orders.csv")),
                        () -> reads(new String[] {"-"}, table("stdin", ROWS, 0, 0)))));
        cases.add(test("a truncated dump on standard input names <stdin>", () -> {
            byte[] b = bytes(dir.resolve("orders.pg.sql"));
            withStdin(
                    Arrays.copyOf(b, indexOf(b, "\\.", 0)),
                    () -> refuses(analyze("-"), "<stdin>:", "end-of-data marker"));
        }));
        cases.add(test(
                "standard input given twice", () -> withStdin(new byte[0], () -> refuses(analyze("-", "-"), "twice"))));
    }

    private static void withStdin(byte[] content, Executable body) throws Exception {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(content));
        try {
            body.run();
        } finally {
            System.setIn(saved);
        }
    }

    /** Every bad option value exits 2 with a message naming the option. */
    private void options(List<DynamicTest> cases) {
        String dump = dir.resolve("orders.sql").toString();
        String trace = dir.resolve("wiki/trace.log").toString();
        String[][] bad = {
            {"--memory-limit", "analyze", "--memory-limit", "lots", dump},
            {"--threads", "analyze", "--threads", "-1", dump},
            {"--max-bad", "analyze", "--max-bad", "2", dump},
            {"--headroom", "analyze", "--headroom", "0.5", dump},
            {"--format", "analyze", "--format", "yaml", dump},
            {"--top", "analyze", "--top", "-3", dump},
            {"--max-bad", "trace", "stats", "--max-bad", "-1", trace},
            {"--scale", "trace", "generate", "--scale", "0", "-o", "x"},
            {"--edit-share", "trace", "generate", "--scale", "1", "--edit-share", "1.5", "-o", "x"},
            {"--memory", "replay", "--data", dump, "--trace", trace, "--memory", "lots"},
            {"--warmup", "replay", "--data", dump, "--trace", trace, "--warmup", "1.5"},
            {"--dialect", "tune", "--dialect", "oracle", dump},
        };
        for (String[] b : bad) {
            cases.add(test(
                    "bad option value "
                            + String.join(" ", Arrays.copyOfRange(b, 1, b.length))
                                    .replace(dir.toString(), ""),
                    () -> refuses(Arrays.copyOfRange(b, 1, b.length), b[0])));
        }
    }
}

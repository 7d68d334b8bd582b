package dev.wastecheck.sources;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wastecheck.model.sql.SqlScriptReader;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz target: the streaming tokenizer on MySQL dumps. Half the inputs are raw bytes after a
 * mysqldump-like header (no crash, no hang, errors are bad input naming the file); the other half
 * are rows of fuzzed values written with mysqldump's escaping, which must read back exactly
 * (every byte of every value, the row count).
 */
class MysqlDumpTokenizerFuzzTest {
    private static final byte[] HEAD = ("-- MySQL dump\nCREATE TABLE `t` (`a` int, `b` varchar(200), `c` blob);\n"
                    + "INSERT INTO `t` VALUES ")
            .getBytes(StandardCharsets.UTF_8);

    @FuzzTest(maxDuration = "3s")
    void tokenizer(FuzzedDataProvider data) throws Exception {
        if (data.consumeBoolean()) {
            byte[] tail = data.consumeRemainingAsBytes();
            byte[] script = new byte[HEAD.length + tail.length];
            System.arraycopy(HEAD, 0, script, 0, HEAD.length);
            System.arraycopy(tail, 0, script, HEAD.length, tail.length);
            TokenizerFuzzing.readAll(script, true);
            return;
        }
        int rows = data.consumeInt(1, 8);
        List<byte[]> written = new ArrayList<>();
        StringBuilder sql = new StringBuilder("INSERT INTO `t` VALUES ");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(HEAD, 0, HEAD.length - "INSERT INTO `t` VALUES ".length());
        out.write(sql.toString().getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < rows; i++) {
            byte[] v = data.consumeBytes(data.consumeInt(0, 64));
            written.add(v);
            out.write((i > 0 ? ",(" : "(").getBytes(StandardCharsets.US_ASCII));
            out.write(Integer.toString(i).getBytes(StandardCharsets.US_ASCII));
            out.write(",'".getBytes(StandardCharsets.US_ASCII));
            for (byte b : v) {
                switch (b) {
                    case 0 -> out.write(new byte[] {'\\', '0'});
                    case '\n' -> out.write(new byte[] {'\\', 'n'});
                    case '\r' -> out.write(new byte[] {'\\', 'r'});
                    case 26 -> out.write(new byte[] {'\\', 'Z'});
                    case '\'' -> out.write(new byte[] {'\\', '\''});
                    case '\\' -> out.write(new byte[] {'\\', '\\'});
                    default -> out.write(b);
                }
            }
            out.write("',NULL)".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(";\n".getBytes(StandardCharsets.US_ASCII));
        List<byte[]> read = new ArrayList<>();
        try (SqlScriptReader r = new SqlScriptReader(new ByteArrayInputStream(out.toByteArray()), "fuzz.sql", true)) {
            SqlScriptReader.Statement st;
            while ((st = r.next()) != null) {
                if (st instanceof SqlScriptReader.Insert) {
                    while (r.nextTuple(new SqlScriptReader.ValueSink() {
                        @Override
                        public void value(int index, int kind, byte[] bytes, int off, int len) {
                            if (index == 1) {
                                read.add(java.util.Arrays.copyOfRange(bytes, off, off + len));
                            }
                        }

                        @Override
                        public void endRow(int count, long line) {
                            assertThat(count).isEqualTo(3);
                        }
                    })) {
                        // each row checked in the sink
                    }
                }
            }
        }
        assertThat(read).hasSize(rows);
        for (int i = 0; i < rows; i++) {
            assertThat(read.get(i)).as("value of row %d", i).isEqualTo(written.get(i));
        }
    }
}

package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.BlockTransformer;
import dev.wastecheck.engine.export.PgWireServer;
import dev.wastecheck.engine.export.VectorizedBatch;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.TupleSlot;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * The two wire-protocol export methods of §6.3 served from Arrow blocks by {@link PgWireServer}, read
 * through real PostgreSQL clients: pgjdbc (rows, and the vectorized chunks through its COPY API) and
 * psql. Every row of a table with frozen and hot blocks, NULLs, integers of three widths, doubles,
 * booleans and text comes back exactly as the table's own snapshot has it.
 */
class PgWireExportTest {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.nullable("qty", FieldType.INT32),
            Field.of("small", FieldType.INT16),
            Field.of("amount", FieldType.FLOAT64),
            Field.nullable("flag", FieldType.BIT),
            Field.nullable("note", FieldType.VARLEN));

    static TransactionManager tm;
    static ArrowTable table;
    static PgWireServer server;
    static List<String> expected;

    @BeforeAll
    static void serve() throws IOException {
        tm = new TransactionManager();
        GarbageCollector gc = new GarbageCollector(tm);
        table = new ArrowTable("orders", SCHEMA, tm, 16 * 1024, ArrowTable.FreezeMode.GATHER);
        Transaction t = tm.begin();
        Record r = new Record(SCHEMA);
        for (int i = 0; i < 3_000; i++) {
            r.setLong(0, i);
            if (i % 11 == 0) r.setNull(1);
            else r.setLong(1, i * 7 - 5000);
            r.setLong(2, (short) (i * 13));
            r.setDouble(3, i / 8.0 - 17.125);
            if (i % 5 == 0) r.setNull(4);
            else r.setLong(4, i % 2);
            if (i % 9 == 0) r.setNull(5);
            else r.setString(5, i % 3 == 0 ? "é" + i : "a longer note, number " + i + ", with a comma");
            table.insert(t, r);
        }
        tm.commit(t);
        new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 50);
        // thaw one block so that both kinds are served
        Transaction w = tm.begin();
        long slot = TupleSlot.of(table.blocks().get(1).id(), 0);
        table.select(w, slot, r);
        table.update(w, slot, new int[] {2}, r.setLong(2, 99));
        tm.commit(w);
        assertThat(table.blocks().stream().filter(b -> b.state() == ArrowBlock.FROZEN))
                .hasSizeBetween(1, table.blockCount() - 1);
        expected = new ArrayList<>();
        Transaction s = tm.begin();
        table.scan(s, (sl, x) -> expected.add(text(x)));
        tm.commit(s);
        server = new PgWireServer(List.of(table), "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    /** A row as psql prints it unaligned with a '|' separator (NULL as empty). */
    static String text(Record r) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < SCHEMA.fieldCount(); c++) {
            if (c > 0) sb.append('|');
            if (r.isNull(c)) continue;
            switch (SCHEMA.type(c)) {
                case FLOAT64 -> sb.append(format(r.getDouble(c)));
                case BIT -> sb.append(r.getLong(c) != 0 ? 't' : 'f');
                case VARLEN -> sb.append(r.getString(c));
                default -> sb.append(r.getLong(c));
            }
        }
        return sb.toString();
    }

    static String format(double d) {
        return Double.toString(d);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.port() + "/wastecheck?preferQueryMode=simple", "me", "");
    }

    @Test
    void theRowProtocolReturnsEveryRowThroughPgjdbc() throws Exception {
        List<String> got = new ArrayList<>();
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM orders")) {
            assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("int8");
            assertThat(rs.getMetaData().getColumnTypeName(2)).isEqualTo("int4");
            assertThat(rs.getMetaData().getColumnTypeName(6)).isEqualTo("text");
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                sb.append(rs.getLong(1)).append('|');
                long qty = rs.getLong(2);
                if (!rs.wasNull()) sb.append(qty);
                sb.append('|')
                        .append(rs.getShort(3))
                        .append('|')
                        .append(format(rs.getDouble(4)))
                        .append('|');
                boolean flag = rs.getBoolean(5);
                if (!rs.wasNull()) sb.append(flag ? 't' : 'f');
                sb.append('|');
                String note = rs.getString(6);
                if (note != null) sb.append(note);
                got.add(sb.toString());
            }
        }
        assertThat(got).containsExactlyElementsOf(expected);
    }

    @Test
    void theVectorizedProtocolReturnsEveryRowInColumnChunksThroughPgjdbcsCopyApi() throws Exception {
        List<String> got = new ArrayList<>();
        int chunks = 0;
        try (Connection c = connect()) {
            CopyOut copy =
                    c.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY orders TO STDOUT (FORMAT vectorized)");
            RecordSchema schema = VectorizedBatch.readHeader(copy.readFromCopy());
            assertThat(schema.fieldCount()).isEqualTo(6);
            assertThat(schema.type(3)).isEqualTo(FieldType.FLOAT64);
            VectorizedBatch.Reader reader = new VectorizedBatch.Reader(schema);
            for (byte[] m; (m = copy.readFromCopy()) != null; ) {
                reader.read(m);
                chunks++;
                for (int i = 0; i < reader.rows; i++) {
                    StringBuilder sb = new StringBuilder();
                    for (int col = 0; col < 6; col++) {
                        if (col > 0) sb.append('|');
                        if (reader.isNull(col, i)) continue;
                        switch (schema.type(col)) {
                            case FLOAT64 -> sb.append(format(Double.longBitsToDouble(reader.values[col][i])));
                            case BIT -> sb.append(reader.values[col][i] != 0 ? 't' : 'f');
                            case VARLEN ->
                                sb.append(new String(
                                        reader.bytes[col],
                                        reader.starts[col][i],
                                        reader.lengths[col][i],
                                        StandardCharsets.UTF_8));
                            default -> sb.append(reader.values[col][i]);
                        }
                    }
                    got.add(sb.toString());
                }
            }
            assertThat(copy.getHandledRowCount()).isEqualTo(expected.size());
        }
        assertThat(chunks).as("a chunk per block").isEqualTo(table.blockCount());
        assertThat(got).containsExactlyElementsOf(expected);
    }

    @Test
    void anUnknownStatementIsAnErrorAndTheConnectionGoesOn() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeQuery("SELECT id FROM orders WHERE id = 1"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("not understood");
            assertThatThrownBy(() -> st.executeQuery("SELECT * FROM nothing"))
                    .hasMessageContaining("relation \"nothing\" does not exist");
            try (ResultSet rs = st.executeQuery("SELECT * FROM orders")) {
                assertThat(rs.next()).isTrue();
            }
        }
    }

    @Test
    void psqlReadsTheSameRows() throws Exception {
        Path psql = Path.of("/usr/bin/psql");
        Assumptions.assumeTrue(Files.isExecutable(psql), "psql is not installed");
        Path out = Files.createTempFile("pgwire", ".txt");
        try {
            Process p = new ProcessBuilder(
                            psql.toString(),
                            "-h",
                            "127.0.0.1",
                            "-p",
                            Integer.toString(server.port()),
                            "-U",
                            "me",
                            "-d",
                            "wastecheck",
                            "-X",
                            "-A",
                            "-t",
                            "-c",
                            "SELECT * FROM orders")
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            try {
                assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                p.destroyForcibly();
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as("%s", lines.stream().limit(5).toList()).isZero();
            assertThat(lines).containsExactlyElementsOf(expected);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * A client that sends a length no message can have (below its own header, or a gigabyte) is
     * answered or dropped, and the server goes on serving the next client.
     */
    @Test
    void aBadLengthDropsThatClientAndNoOther() throws Exception {
        for (int length : new int[] {3, Integer.MAX_VALUE}) {
            try (Socket s = new Socket("127.0.0.1", server.port());
                    DataOutputStream out = new DataOutputStream(s.getOutputStream())) {
                out.writeInt(length); // a startup packet's length
                out.writeInt(196608); // protocol 3.0
                out.flush();
                s.setSoTimeout(30_000);
                assertThat(s.getInputStream().read())
                        .as("the server closes the connection")
                        .isEqualTo(-1);
            }
        }
        try (Connection c = connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM orders")) {
            assertThat(rs.next()).isTrue();
        }
    }
}

package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.Block;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.RecordSchema;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL wire-protocol server (protocol 3.0, the simple query flow) over {@link ArrowTable}s, for
 * the two wire-protocol export methods of Li et al., VLDB 2020, §6.3, which NoisePage implemented
 * "according to their specifications":
 *
 * <ul>
 * <li>method (4), the <b>PostgreSQL wire protocol</b>: {@code SELECT * FROM t} answers with a
 * RowDescription and one DataRow message per tuple, every value in PostgreSQL's text format, as a
 * PostgreSQL server sends a simple query's result;</li>
 * <li>method (3), the <b>vectorized wire protocol</b> of [47] (Raasveldt and Mühleisen, VLDB 2017):
 * {@code COPY t TO STDOUT (FORMAT vectorized)} answers with a CopyOutResponse and then CopyData
 * messages that each carry a {@link VectorizedBatch}: a header, then one column-major chunk per
 * block of the table. Any PostgreSQL client that can read a COPY (pgjdbc's {@code CopyManager},
 * psql) receives the chunks; decoding them is the client's side of [47]'s protocol ({@link
 * VectorizedBatch.Reader}).</li>
 * </ul>
 *
 * Both read the table in one transaction at one snapshot through its ordinary transactional scan,
 * tuple by tuple, frozen or hot ("Both the PostgreSQL wire protocol and the vectorized protocol do
 * not benefit from eliding transactions on cold, read-only data", §6.3). Also answered: {@code SET}
 * (ignored), {@code BEGIN}/{@code COMMIT}/{@code ROLLBACK} (no-ops) and empty queries; anything else is
 * an ErrorResponse naming what is understood. No authentication (trust), no TLS (an SSLRequest gets
 * 'N'), no extended query protocol: a client uses simple queries (pgjdbc: {@code
 * preferQueryMode=simple}). Messages, as in the protocol's documentation (big-endian):
 *
 * <pre>
 * startup  (client) LENGTH int32 | 196608 int32 | (name \0 value \0)* \0
 * server   'R' 8 0 (AuthenticationOk) | 'S' name \0 value \0 (ParameterStatus)* | 'K' pid key | 'Z' 'I'
 * query    'Q' LENGTH | sql \0
 * rows     'T' LENGTH | n int16 | n x (name \0 | table oid int32 | attnum int16 | type oid int32 |
 *                                      typlen int16 | typmod int32 | format int16 (0: text))
 *          'D' LENGTH | n int16 | n x (LENGTH int32 (-1: NULL) | text bytes)     (one per tuple)
 *          'C' LENGTH | "SELECT count" \0 | 'Z' LENGTH 'I'
 * copy     'H' LENGTH | 1 (binary) int8 | 1 int16 | 1 int16 | ('d' LENGTH | chunk)* | 'c' 4 |
 *          'C' LENGTH | "COPY count" \0 | 'Z' LENGTH 'I'
 * </pre>
 */
public final class PgWireServer implements AutoCloseable {
    private static final int SSL_REQUEST = 80877103, GSS_REQUEST = 80877104, CANCEL = 80877102, V3 = 196608;
    private static final Pattern SELECT =
            Pattern.compile("(?is)\\s*select\\s+\\*\\s+from\\s+\"?([A-Za-z_][A-Za-z0-9_]*)\"?\\s*;?\\s*");
    private static final Pattern COPY = Pattern.compile(
            "(?is)\\s*copy\\s+\"?([A-Za-z_][A-Za-z0-9_]*)\"?\\s+to\\s+stdout\\s*(?:with\\s*)?\\(\\s*format\\s+vectorized\\s*\\)\\s*;?\\s*");
    /** Rows per vectorized chunk at most (a block's tuples go in one chunk unless it holds more). */
    static final int CHUNK_ROWS = 1 << 16;

    private final Map<String, ArrowTable> tables = new LinkedHashMap<>();
    private final ServerSocket socket;
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "wastecheck-pgwire");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;
    /** The connections open now, closed by {@link #close} (a thread blocked in a read ignores interrupts). */
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** The first accept or connection failure, reported by {@link #close}. */
    private final AtomicReference<IOException> failure = new AtomicReference<>();
    /** The largest message a client may send: a query text, never a bulk load. */
    private static final int MAX_MESSAGE = 64 << 20;

    /** Serves {@code tables} by name on {@code host}:{@code port} (0: any free port) until closed. */
    public PgWireServer(List<ArrowTable> tables, String host, int port) throws IOException {
        for (ArrowTable t : tables) this.tables.put(t.name().toLowerCase(Locale.ROOT), t);
        socket = new ServerSocket(port, 50, InetAddress.getByName(host));
        connections.execute(this::accept);
    }

    public int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket s = socket.accept();
                s.setTcpNoDelay(true);
                open.add(s);
                connections.execute(() -> serve(s));
            } catch (IOException e) {
                if (!closed) failure.compareAndSet(null, new IOException("pgwire: accept failed", e));
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s;
                DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 1 << 16));
                Messages out = new Messages(new BufferedOutputStream(s.getOutputStream(), 1 << 16))) {
            if (!startup(in, out)) return;
            while (true) {
                int type = in.read();
                if (type < 0 || type == 'X') return;
                int length = in.readInt();
                if (length < 4 || length > MAX_MESSAGE) {
                    out.error("08P01", "a message of " + length + " bytes (4 to " + MAX_MESSAGE + " are read)");
                    out.flush();
                    return;
                }
                byte[] body = new byte[length - 4];
                in.readFully(body);
                if (type != 'Q') {
                    out.error(
                            "08P01",
                            "only the simple query protocol is served (message '" + (char) type
                                    + "'); with pgjdbc use preferQueryMode=simple");
                } else {
                    query(new String(body, 0, Math.max(0, body.length - 1), StandardCharsets.UTF_8), out);
                }
                out.ready();
                out.flush();
            }
        } catch (EOFException | SocketException e) {
            // the client went away
        } catch (IOException e) {
            if (!closed) failure.compareAndSet(null, new IOException("pgwire: connection failed", e));
        } finally {
            open.remove(s);
        }
    }

    /** Reads the startup packet (answering an SSL or GSS request with 'N' first); false for a cancel request. */
    private boolean startup(DataInputStream in, Messages out) throws IOException {
        while (true) {
            int length = in.readInt();
            int code = in.readInt();
            if (length < 8 || length > 10_000) return false; // not a startup packet: close
            byte[] rest = new byte[length - 8];
            in.readFully(rest);
            if (code == SSL_REQUEST || code == GSS_REQUEST) {
                out.raw('N');
                out.flush();
                continue;
            }
            if (code == CANCEL) return false;
            if (code != V3) {
                out.error("0A000", "protocol " + (code >>> 16) + "." + (code & 0xFFFF) + " is not served; 3.0 is");
                out.flush();
                return false;
            }
            String user = "wastecheck";
            String[] kv = new String(rest, StandardCharsets.UTF_8).split("\0");
            for (int i = 0; i + 1 < kv.length; i += 2) if (kv[i].equals("user")) user = kv[i + 1];
            out.begin('R').putInt(0).end();
            for (String[] p : new String[][] {
                {"server_version", "16.0 (wastecheck)"},
                {"server_encoding", "UTF8"},
                {"client_encoding", "UTF8"},
                {"DateStyle", "ISO, MDY"},
                {"TimeZone", "UTC"},
                {"integer_datetimes", "on"},
                {"standard_conforming_strings", "on"},
                {"is_superuser", "off"},
                {"session_authorization", user}
            }) {
                out.begin('S').putString(p[0]).putString(p[1]).end();
            }
            out.begin('K').putInt((int) ProcessHandle.current().pid()).putInt(0).end();
            out.ready();
            out.flush();
            return true;
        }
    }

    private void query(String sql, Messages out) throws IOException {
        String trimmed = sql.strip();
        if (trimmed.isEmpty() || trimmed.equals(";")) {
            out.begin('I').end();
            return;
        }
        Matcher m;
        if ((m = SELECT.matcher(sql)).matches()) {
            ArrowTable t = table(m.group(1), out);
            if (t != null) selectRows(t, out);
        } else if ((m = COPY.matcher(sql)).matches()) {
            ArrowTable t = table(m.group(1), out);
            if (t != null) copyVectorized(t, out);
        } else {
            String word = trimmed.split("\\s+")[0].toUpperCase(Locale.ROOT).replace(";", "");
            switch (word) {
                case "SET" -> out.begin('C').putString("SET").end();
                case "BEGIN", "COMMIT", "ROLLBACK" ->
                    out.begin('C').putString(word).end();
                default ->
                    out.error(
                            "42601",
                            "not understood: " + trimmed + " (served: SELECT * FROM table; "
                                    + "COPY table TO STDOUT (FORMAT vectorized); SET; BEGIN; COMMIT)");
            }
        }
    }

    private ArrowTable table(String name, Messages out) throws IOException {
        ArrowTable t = tables.get(name.toLowerCase(Locale.ROOT));
        if (t == null) out.error("42P01", "relation \"" + name + "\" does not exist (tables: " + tables.keySet() + ")");
        return t;
    }

    /** Method (4): a RowDescription, a text DataRow per tuple, the command tag. */
    private void selectRows(ArrowTable t, Messages out) throws IOException {
        RecordSchema schema = t.schema();
        int n = schema.fieldCount();
        Messages m = out.begin('T').putShort(n);
        for (int c = 0; c < n; c++) {
            FieldType type = schema.type(c);
            m.putString(schema.field(c).name())
                    .putInt(0)
                    .putShort(0)
                    .putInt(typeOid(type, t.isBinary(c)))
                    .putShort(typeLength(type))
                    .putInt(-1)
                    .putShort(0);
        }
        m.end();
        long[] rows = {0};
        byte[] digits = new byte[32];
        IOException[] failure = {null};
        Transaction txn = t.transactions().begin();
        try {
            t.scan(txn, (slot, r) -> {
                try {
                    Messages d = out.begin('D').putShort(n);
                    for (int c = 0; c < n; c++) {
                        if (r.isNull(c)) {
                            d.putInt(-1);
                            continue;
                        }
                        FieldType type = schema.type(c);
                        if (type.isVariable()) {
                            if (t.isBinary(c)) d.putHexBytea(r.bytes(c), r.length(c));
                            else d.putInt(r.length(c)).put(r.bytes(c), 0, r.length(c));
                        } else if (type.isBit()) {
                            d.putInt(1).put(r.getLong(c) != 0 ? 't' : 'f');
                        } else if (type == FieldType.FLOAT64) {
                            byte[] text = floatText(r.getDouble(c));
                            d.putInt(text.length).put(text, 0, text.length);
                        } else {
                            int len = longText(r.getLong(c), digits);
                            d.putInt(len).put(digits, digits.length - len, len);
                        }
                    }
                    d.end();
                    rows[0]++;
                    return true;
                } catch (IOException e) {
                    failure[0] = e;
                    return false;
                }
            });
        } finally {
            t.transactions().commit(txn);
        }
        if (failure[0] != null) throw failure[0];
        out.begin('C').putString("SELECT " + rows[0]).end();
    }

    /** Method (3): the vectorized result as CopyData messages, one header and one chunk per block. */
    private void copyVectorized(ArrowTable t, Messages out) throws IOException {
        RecordSchema schema = t.schema();
        out.begin('H').put(1).putShort(1).putShort(1).end();
        byte[] header = VectorizedBatch.header(schema);
        out.begin('d').put(header, 0, header.length).end();
        VectorizedBatch.Writer w = new VectorizedBatch.Writer(schema, CHUNK_ROWS);
        ByteBuffer[] chunk = new ByteBuffer[1];
        long[] rows = {0};
        IOException[] failure = {null};
        Transaction txn = t.transactions().begin();
        try {
            for (Block b : t.blocks()) {
                t.scan(txn, b, (slot, r) -> {
                    w.add(r);
                    rows[0]++;
                    if (w.full()) failure[0] = sendChunk(w, chunk, out);
                    return failure[0] == null;
                });
                if (failure[0] != null) throw failure[0];
                if (w.rows() > 0 && (failure[0] = sendChunk(w, chunk, out)) != null) throw failure[0];
            }
        } finally {
            t.transactions().commit(txn);
        }
        out.begin('c').end();
        out.begin('C').putString("COPY " + rows[0]).end();
    }

    private static IOException sendChunk(VectorizedBatch.Writer w, ByteBuffer[] chunk, Messages out) {
        try {
            int size = w.finish(chunk);
            out.begin('d').put(chunk[0].array(), 0, size).end();
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    static int typeOid(FieldType t, boolean binary) {
        return switch (t) {
            case BIT -> 16; // bool
            case INT8, INT16, UINT8 -> 21; // int2
            case INT32, UINT16 -> 23; // int4
            case INT64, UINT32 -> 20; // int8
            case FLOAT64 -> 701; // float8
            case VARLEN -> binary ? 17 : 25; // bytea, text
        };
    }

    static int typeLength(FieldType t) {
        return switch (t) {
            case BIT -> 1;
            case INT8, INT16, UINT8 -> 2;
            case INT32, UINT16 -> 4;
            case INT64, UINT32, FLOAT64 -> 8;
            case VARLEN -> -1;
        };
    }

    /** The decimal digits of {@code v}, right-aligned at the end of {@code buf}; returns how many. */
    static int longText(long v, byte[] buf) {
        if (v == Long.MIN_VALUE) {
            byte[] s = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(s, 0, buf, buf.length - s.length, s.length);
            return s.length;
        }
        int i = buf.length;
        boolean negative = v < 0;
        long x = negative ? -v : v;
        do {
            buf[--i] = (byte) ('0' + x % 10);
            x /= 10;
        } while (x != 0);
        if (negative) buf[--i] = '-';
        return buf.length - i;
    }

    /**
     * A float8 in text: Java's shortest form that reads back exactly (PostgreSQL's own output spells
     * some values differently, "-17" for "-17.0", and reads both); Infinity, -Infinity, NaN.
     */
    static byte[] floatText(double d) {
        String s = Double.isNaN(d)
                ? "NaN"
                : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity") : Double.toString(d);
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
        for (Socket s : open) s.close();
        connections.shutdownNow();
        IOException failed = failure.get();
        if (failed != null) throw failed;
    }

    /** Builds backend messages into one buffer: type, a length filled in at the end, the body. */
    private static final class Messages implements AutoCloseable {
        private final OutputStream out;
        private byte[] buf = new byte[1 << 16];
        private int pos, start;

        Messages(OutputStream out) {
            this.out = out;
        }

        Messages begin(char type) {
            ensure(5);
            buf[pos++] = (byte) type;
            start = pos;
            pos += 4;
            return this;
        }

        void end() throws IOException {
            int length = pos - start;
            buf[start] = (byte) (length >>> 24);
            buf[start + 1] = (byte) (length >>> 16);
            buf[start + 2] = (byte) (length >>> 8);
            buf[start + 3] = (byte) length;
            if (pos > 1 << 16) drain();
        }

        void raw(char c) {
            ensure(1);
            buf[pos++] = (byte) c;
        }

        Messages put(int b) {
            ensure(1);
            buf[pos++] = (byte) b;
            return this;
        }

        Messages put(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
            return this;
        }

        Messages putShort(int v) {
            ensure(2);
            buf[pos++] = (byte) (v >>> 8);
            buf[pos++] = (byte) v;
            return this;
        }

        Messages putInt(int v) {
            ensure(4);
            buf[pos++] = (byte) (v >>> 24);
            buf[pos++] = (byte) (v >>> 16);
            buf[pos++] = (byte) (v >>> 8);
            buf[pos++] = (byte) v;
            return this;
        }

        Messages putString(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            put(b, 0, b.length);
            return put(0);
        }

        /** A bytea value in PostgreSQL's hex text format: \x and two hex digits a byte. */
        Messages putHexBytea(byte[] b, int len) {
            putInt(2 + 2 * len);
            ensure(2 + 2 * len);
            buf[pos++] = '\\';
            buf[pos++] = 'x';
            for (int i = 0; i < len; i++) {
                buf[pos++] = (byte) Character.forDigit((b[i] >>> 4) & 0xF, 16);
                buf[pos++] = (byte) Character.forDigit(b[i] & 0xF, 16);
            }
            return this;
        }

        void error(String code, String message) throws IOException {
            begin('E')
                    .put('S')
                    .putString("ERROR")
                    .put('V')
                    .putString("ERROR")
                    .put('C')
                    .putString(code)
                    .put('M')
                    .putString(message)
                    .put(0)
                    .end();
        }

        void ready() throws IOException {
            begin('Z').put('I').end();
        }

        private void ensure(int n) {
            if (pos + n > buf.length) buf = Arrays.copyOf(buf, Math.max(2 * buf.length, pos + n));
        }

        /** Writes out every finished message (those before the one being built). */
        private void drain() throws IOException {
            out.write(buf, 0, pos);
            pos = 0;
        }

        void flush() throws IOException {
            drain();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}

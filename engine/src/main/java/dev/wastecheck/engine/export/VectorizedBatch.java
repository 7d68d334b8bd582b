package dev.wastecheck.engine.export;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The vectorized result format of Raasveldt and Mühleisen, "Don't Hold My Data Hostage" (VLDB 2017),
 * which Li et al. (VLDB 2020, §5.1 and §6.3) implement in NoisePage as export method (3) and we serve
 * over the PostgreSQL wire protocol ({@link PgWireServer}): a result is a header and then chunks of
 * rows, each chunk column by column, so that a client reads whole columns instead of parsing one
 * row message per tuple. One message of each kind travels as the payload of one CopyData message
 * ({@code COPY table TO STDOUT (FORMAT vectorized)}). All integers little-endian (the client's byte
 * order, as [47] chooses; the PostgreSQL framing around it stays big-endian).
 *
 * <pre>
 * Header (the first CopyData)
 *  0        8        10
 * +--------+--------+----------------------------------------------------------+
 * | MAGIC  | COLUMNS| per column: TYPE int8 | NULLABLE int8 | NAME_LENGTH int16 |
 * | 8 bytes| int16 n|             NAME (UTF-8, NAME_LENGTH bytes)              |
 * +--------+--------+----------------------------------------------------------+
 *   MAGIC = "WCVEC\0\0\1"; TYPE = the ordinal of the engine's FieldType
 *
 * Chunk (every further CopyData): ROWS int32 r, then each column in order:
 * +--------------------------------+----------------------------------------------------+
 * | NULLS: if the column is        | VALUES                                             |
 * | nullable, ceil(r/8) bytes,     |  fixed width w (1, 2, 4, 8 bytes): r x w bytes     |
 * | bit i set = row i is NULL      |  BIT: ceil(r/8) bytes, bit i = row i's value       |
 * | (absent otherwise)             |  VARLEN: r x LENGTH int32, then the bytes of every  |
 * |                                |          value back to back                        |
 * +--------------------------------+----------------------------------------------------+
 *   A NULL's slot holds 0 (fixed) or LENGTH 0 (VARLEN).
 * </pre>
 *
 * The {@link Writer} fills a chunk from tuples (the server); the {@link Reader} turns chunks back
 * into columns (a client: what [47]'s client library hands its host language).
 */
public final class VectorizedBatch {
    public static final byte[] MAGIC = {'W', 'C', 'V', 'E', 'C', 0, 0, 1};

    private VectorizedBatch() {}

    /** The header of a result of {@code schema}. */
    public static byte[] header(RecordSchema schema) {
        int size = MAGIC.length + 2;
        byte[][] names = new byte[schema.fieldCount()][];
        for (int c = 0; c < names.length; c++) {
            names[c] = schema.field(c).name().getBytes(StandardCharsets.UTF_8);
            size += 4 + names[c].length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putShort((short) names.length);
        for (int c = 0; c < names.length; c++) {
            b.put((byte) schema.type(c).ordinal())
                    .put((byte) (schema.field(c).nullable() ? 1 : 0))
                    .putShort((short) names[c].length)
                    .put(names[c]);
        }
        return b.array();
    }

    /** Reads a header back: the column types, nullability and names. */
    public static RecordSchema readHeader(byte[] message) {
        ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[MAGIC.length];
        b.get(magic);
        if (!Arrays.equals(magic, MAGIC)) throw new IllegalArgumentException("not a vectorized result header");
        int n = b.getShort();
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            FieldType t = FieldType.values()[b.get()];
            boolean nullable = b.get() == 1;
            byte[] name = new byte[b.getShort()];
            b.get(name);
            String s = new String(name, StandardCharsets.UTF_8);
            fields.add(t.isVariable() ? Field.varlen(s, nullable, 16) : new Field(s, t, nullable, 0));
        }
        return new RecordSchema(fields);
    }

    /** Builds chunks from tuples; reused from chunk to chunk. */
    public static final class Writer {
        private final RecordSchema schema;
        private final int columns;
        private final long[][] fixed;
        private final boolean[][] nulls;
        private final int[][] lengths;
        private final byte[][] bytes;
        private final int[] used;
        private int rows, capacity;

        public Writer(RecordSchema schema, int capacity) {
            this.schema = schema;
            this.columns = schema.fieldCount();
            this.capacity = capacity;
            fixed = new long[columns][];
            nulls = new boolean[columns][capacity];
            lengths = new int[columns][];
            bytes = new byte[columns][];
            used = new int[columns];
            for (int c = 0; c < columns; c++) {
                if (schema.type(c).isVariable()) {
                    lengths[c] = new int[capacity];
                    bytes[c] = new byte[capacity * 16];
                } else {
                    fixed[c] = new long[capacity];
                }
            }
        }

        public int rows() {
            return rows;
        }

        public boolean full() {
            return rows == capacity;
        }

        /** Appends one tuple. */
        public void add(Record r) {
            int i = rows++;
            for (int c = 0; c < columns; c++) {
                boolean isNull = r.isNull(c);
                nulls[c][i] = isNull;
                if (lengths[c] != null) {
                    int n = isNull ? 0 : r.length(c);
                    lengths[c][i] = n;
                    if (n > 0) {
                        if (used[c] + n > bytes[c].length)
                            bytes[c] = Arrays.copyOf(bytes[c], Math.max(2 * bytes[c].length, used[c] + n));
                        System.arraycopy(r.bytes(c), 0, bytes[c], used[c], n);
                        used[c] += n;
                    }
                } else {
                    fixed[c][i] = isNull ? 0 : r.getLong(c);
                }
            }
        }

        /** The chunk of the tuples added since the last call, into {@code out} (grown if needed); its size. */
        public int finish(ByteBuffer[] out) {
            int size = 4;
            int bitmap = (rows + 7) >>> 3;
            for (int c = 0; c < columns; c++) {
                if (schema.field(c).nullable()) size += bitmap;
                FieldType t = schema.type(c);
                if (t.isVariable()) size += 4 * rows + used[c];
                else if (t.isBit()) size += bitmap;
                else size += rows * t.width;
            }
            if (out[0] == null || out[0].capacity() < size)
                out[0] = ByteBuffer.allocate(Math.max(size, 2 * (out[0] == null ? 0 : out[0].capacity())))
                        .order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer b = out[0];
            b.clear();
            b.putInt(rows);
            for (int c = 0; c < columns; c++) {
                if (schema.field(c).nullable()) putBits(b, nulls[c], rows);
                FieldType t = schema.type(c);
                long[] v = fixed[c];
                if (t.isVariable()) {
                    for (int i = 0; i < rows; i++) b.putInt(lengths[c][i]);
                    b.put(bytes[c], 0, used[c]);
                    used[c] = 0;
                } else if (t.isBit()) {
                    boolean[] set = new boolean[rows];
                    for (int i = 0; i < rows; i++) set[i] = v[i] != 0;
                    putBits(b, set, rows);
                } else {
                    switch (t.width) {
                        case 1 -> {
                            for (int i = 0; i < rows; i++) b.put((byte) v[i]);
                        }
                        case 2 -> {
                            for (int i = 0; i < rows; i++) b.putShort((short) v[i]);
                        }
                        case 4 -> {
                            for (int i = 0; i < rows; i++) b.putInt((int) v[i]);
                        }
                        default -> {
                            for (int i = 0; i < rows; i++) b.putLong(v[i]);
                        }
                    }
                }
            }
            rows = 0;
            return b.position();
        }

        private static void putBits(ByteBuffer b, boolean[] bits, int n) {
            for (int i = 0; i < n; i += 8) {
                int x = 0;
                for (int k = 0; k < 8 && i + k < n; k++) if (bits[i + k]) x |= 1 << k;
                b.put((byte) x);
            }
        }
    }

    /**
     * One chunk read back into columns, the way a client library of [47] exposes a result: per column
     * an array of values (fixed widths widened to long), a NULL bitmap, and for VARLEN columns the
     * lengths and the bytes back to back.
     */
    public static final class Reader {
        private final RecordSchema schema;
        public int rows;
        public final long[][] values;
        public final byte[][] nullBits;
        public final int[][] lengths;
        public final byte[][] bytes;
        public final int[][] starts;

        public Reader(RecordSchema schema) {
            this.schema = schema;
            int n = schema.fieldCount();
            values = new long[n][];
            nullBits = new byte[n][];
            lengths = new int[n][];
            bytes = new byte[n][];
            starts = new int[n][];
        }

        /** Whether row {@code i} of column {@code c} is NULL. */
        public boolean isNull(int c, int i) {
            byte[] bits = nullBits[c];
            return bits != null && (bits[i >>> 3] & (1 << (i & 7))) != 0;
        }

        /** Decodes one chunk. */
        public void read(byte[] message) {
            ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
            int r = b.getInt();
            rows = r;
            int bitmap = (r + 7) >>> 3;
            for (int c = 0; c < schema.fieldCount(); c++) {
                if (schema.field(c).nullable()) {
                    nullBits[c] = grow(nullBits[c], bitmap);
                    b.get(nullBits[c], 0, bitmap);
                }
                FieldType t = schema.type(c);
                if (t.isVariable()) {
                    lengths[c] = lengths[c] == null || lengths[c].length < r ? new int[r] : lengths[c];
                    starts[c] = starts[c] == null || starts[c].length < r + 1 ? new int[r + 1] : starts[c];
                    int total = 0;
                    for (int i = 0; i < r; i++) {
                        starts[c][i] = total;
                        total += lengths[c][i] = b.getInt();
                    }
                    starts[c][r] = total;
                    bytes[c] = grow(bytes[c], total);
                    b.get(bytes[c], 0, total);
                    continue;
                }
                long[] v = values[c] = values[c] == null || values[c].length < r ? new long[r] : values[c];
                if (t.isBit()) {
                    for (int i = 0; i < r; i += 8) {
                        int x = b.get();
                        for (int k = 0; k < 8 && i + k < r; k++) v[i + k] = (x >>> k) & 1;
                    }
                    continue;
                }
                switch (t.width) {
                    case 1 -> {
                        for (int i = 0; i < r; i++) v[i] = !t.isUnsigned() ? b.get() : b.get() & 0xFFL;
                    }
                    case 2 -> {
                        for (int i = 0; i < r; i++) v[i] = !t.isUnsigned() ? b.getShort() : b.getShort() & 0xFFFFL;
                    }
                    case 4 -> {
                        for (int i = 0; i < r; i++) v[i] = !t.isUnsigned() ? b.getInt() : b.getInt() & 0xFFFFFFFFL;
                    }
                    default -> {
                        for (int i = 0; i < r; i++) v[i] = b.getLong();
                    }
                }
            }
            if (b.hasRemaining())
                throw new IllegalArgumentException(b.remaining() + " bytes after the chunk's columns");
        }

        private static byte[] grow(byte[] a, int n) {
            return a == null || a.length < n ? new byte[Math.max(n, 16)] : a;
        }
    }
}

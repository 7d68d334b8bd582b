package dev.wastecheck.sources.load;

import dev.wastecheck.model.arrow.ArrowSchemas;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.DumpFormatException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Turns the values a {@link SqlScriptReader} hands out into rows of an Arrow batch, one column
 * vector per declared column. Integer columns become BIGINT (parsed here, once), byte-string
 * columns BLOB, everything else UTF-8 text that DuckDB casts while profiling, so that
 * {@code '007'} stays {@code '007'} until the profiler decides what it is. Asked to ({@code
 * doubles}), FLOAT and DOUBLE columns become Float8, each value whose text DuckDB gives back from
 * its double ({@link DoubleSpelling}) stored as that double and any other as its text in a
 * sidecar vector after the declared columns' ({@code x<i>}); DuckDB's relation is then a view
 * that reads every value as its text again.
 *
 * <p>Rows whose value count does not match the table are not dropped silently: they are counted
 * in {@link LoadStats} with where they were.
 */
public final class ArrowRowBuilder implements SqlScriptReader.ValueSink {
    private final TableDef table;
    private final Schema schema;
    private final ColumnStorage[] storage;
    private final LoadStats.TableStats stats;
    private final String file;
    private VectorSchemaRoot root;
    private FieldVector[] vectors;
    private int[] mapping;
    private int row;
    private long bytes;
    private final boolean[] seen;
    private final long[] autoIncrement;
    /** Per column, the check of its declared type's range, or null (none asked for, or nothing to check). */
    private DeclaredRange[] ranges;
    /**
     * Per column, whether it goes to DuckDB as doubles ({@link DoubleSpelling}): its vector is a
     * Float8 one holding each value whose text {@link DoubleSpelling#rendered} vouches for, and
     * {@link #sidecar} the text of the others (NULL where the double holds the value). The
     * relation the profile reads is a view giving back every value's text ({@link
     * DoubleSpelling#text}); {@link #storage} stays {@link ColumnStorage#TEXT}.
     */
    private final boolean[] asDouble;

    /**
     * Per column, whether this batch sends a double column's values as text (to its {@link
     * #sidecar}) all the same: the profile will read them in SQL ({@link ColumnFacts#sqlReads},
     * an estimated distinct count, say, which hashes their text), and through the view each
     * double would be cast to text again there, 1.3-1.5 s of DuckDB's CPU on each of pandas'
     * {@code rate} and {@code score} at 1 GB (docs/benchmarks.md, issue 32). Decided at each
     * batch's start, from the facts so far; the doubles already sent stay.
     */
    private final boolean[] textual;

    /** Per column, the index of its vector of spellings a double does not give back, or -1. */
    private final int[] sidecar;

    /** Per vector, the column it holds values of (a sidecar's: its double's). */
    private final int[] columnOf;

    /** Per column, the facts counted of the values stored, or null ({@link #countFacts}). */
    private ColumnFacts[] facts;
    /**
     * Per column, whether this builder fills it, or null (all): with two fillers on one table
     * ({@link DumpLoader}) each fills its own columns of the same rows. The rows, the batch
     * boundaries and the bytes are counted alike by both, from every value.
     */
    private boolean[] own;
    /** Whether this builder reports rows of the wrong width (with two fillers, one of them does). */
    private boolean reportsRows = true;
    /** The bytes of each column's literal DEFAULT, or -1: counted for another filler's omitted columns. */
    private int[] defaultBytes;
    /**
     * What orders the deferred counts of two fillers: the calls since {@link #takeEvents}, or (a
     * chunk's replay, {@link TokenChunk#replay}) the position of the call in the chunk, the same
     * on both fillers.
     */
    long seq;
    /**
     * Per value index of a row, whether it goes to the other filler's column (a replay steps over
     * it without a call: {@link TokenChunk#replay}), or null (one filler). Indices past its end
     * are this builder's to judge (a row too wide).
     */
    private boolean[] skipIndex;
    /** Per column, whether the run's column list names it (all, without a list). */
    private boolean[] named;
    /** Counts deferred until both fillers are done with a chunk, or null (told to the stats at once). */
    private List<StatEvent> events;
    /**
     * Whether a NULL value needs no call here ({@link TokenChunk#replay} counts it in {@link #seq}
     * and steps over it): the rows carry no column list (none to mark {@link #seen}) and the row
     * is not a bad row's slot written again (where a NULL clears the bit the bad row set). A NULL
     * then changes nothing: the validity bit is 0 where Arrow allocated or grew the buffer, the
     * offsets of NULL rows are filled at the column's next value or by Arrow at the batch's end,
     * and a NULL counts no bytes.
     */
    boolean freeNulls = true;

    /**
     * A count for {@link LoadStats}, deferred: made in the order {@code (seq, column)}, which is
     * the order one filler alone makes them in (a row's values by call, then its omitted columns
     * in column order; a bad row's own count as column -1).
     */
    record StatEvent(long seq, int column, Runnable count) {}

    public ArrowRowBuilder(TableDef table, LoadStats.TableStats stats, String file) {
        this(table, stats, file, false);
    }

    /**
     * @param textOnly keep every value as its text (or bytes), whatever the declared type: for
     *                 SQLite, where a column's type does not bind its values
     */
    public ArrowRowBuilder(TableDef table, LoadStats.TableStats stats, String file, boolean textOnly) {
        this(table, stats, file, textOnly, false);
    }

    /**
     * @param doubles  send FLOAT and DOUBLE columns as 8-byte doubles (Arrow Float8) with their
     *                 other spellings beside them ({@link #sidecar}), not as text: for DuckDB's
     *                 table behind the view {@link DoubleSpelling#text} reads them through
     */
    ArrowRowBuilder(TableDef table, LoadStats.TableStats stats, String file, boolean textOnly, boolean doubles) {
        this.table = table;
        this.stats = stats;
        this.file = file;
        List<Field> fields = new ArrayList<>();
        storage = new ColumnStorage[table.columns().size()];
        asDouble = new boolean[storage.length];
        textual = new boolean[storage.length];
        sidecar = new int[storage.length];
        List<Integer> sides = new ArrayList<>();
        for (int i = 0; i < storage.length; i++) {
            ColumnDef c = table.columns().get(i);
            storage[i] = ColumnStorage.forDeclared(c.type());
            if (textOnly && storage[i] == ColumnStorage.INT64) {
                storage[i] = ColumnStorage.TEXT;
            }
            TypeFamily f = c.type().family();
            asDouble[i] = doubles
                    && !textOnly
                    && storage[i] == ColumnStorage.TEXT
                    && (f == TypeFamily.FLOAT || f == TypeFamily.DOUBLE);
            ArrowType type = switch (storage[i]) {
                case INT64 -> new ArrowType.Int(64, true);
                case BYTES -> ArrowType.Binary.INSTANCE;
                default ->
                    asDouble[i] ? new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE) : ArrowType.Utf8.INSTANCE;
            };
            fields.add(ArrowSchemas.field("c" + i, c, type));
            sidecar[i] = -1;
            if (asDouble[i]) {
                sides.add(i);
            }
        }
        columnOf = new int[storage.length + sides.size()];
        for (int i = 0; i < storage.length; i++) {
            columnOf[i] = i;
        }
        for (int i : sides) {
            sidecar[i] = fields.size();
            columnOf[fields.size()] = i;
            fields.add(ArrowSchemas.field("x" + i, table.columns().get(i), ArrowType.Utf8.INSTANCE));
        }
        schema = new Schema(fields);
        seen = new boolean[storage.length];
        autoIncrement = new long[storage.length];
        intMin = new long[storage.length];
        intMax = new long[storage.length];
        fitsBytes = new int[storage.length];
        dateTime = new boolean[storage.length];
        Arrays.fill(intMin, Long.MIN_VALUE);
        Arrays.fill(intMax, Long.MAX_VALUE);
        Arrays.fill(fitsBytes, Integer.MAX_VALUE);
    }

    /**
     * Counts values outside their column's declared type ({@link DeclaredRange}) as bad values,
     * keeping them as read: for dumps of servers whose types bind their values (MySQL,
     * PostgreSQL), not SQLite, where a column's type is only an affinity.
     */
    public void checkDeclaredTypes(boolean mysql) {
        ranges = new DeclaredRange[storage.length];
        for (int i = 0; i < ranges.length; i++) {
            ranges[i] = DeclaredRange.of(table.columns().get(i).type(), mysql);
            TypeFamily f = table.columns().get(i).type().family();
            dateTime[i] = ranges[i] != null && (f == TypeFamily.DATETIME || f == TypeFamily.TIMESTAMP);
            if (ranges[i] != null) {
                intMin[i] = ranges[i].intMin();
                intMax[i] = ranges[i].intMax();
                fitsBytes[i] = ranges[i].fitsBytes();
            }
        }
    }

    /**
     * Per column, the integers its declared type holds ({@link DeclaredRange#intMin}; the whole
     * long where nothing is checked), and the byte length up to which any value fits it ({@link
     * DeclaredRange#fitsBytes}; past any value's where nothing is checked): {@link #value} calls
     * the check only for a value outside them. Under C1 (the launcher's compiler below 320 MB)
     * the check is not inlined, so this spares a call for nearly every value of such a column.
     */
    private final long[] intMin;

    private final long[] intMax;
    private final int[] fitsBytes;

    /**
     * Per column, whether it is a DATETIME or TIMESTAMP whose declared range is checked: a value
     * the facts read as a real day and time ({@link ColumnFacts#timed}) is not parsed again by
     * {@link DeclaredRange}, which would find it valid (ORM's three DATETIME(6) columns were
     * parsed by both, docs/benchmarks.md, issue 32).
     */
    private final boolean[] dateTime;

    private void outOfType(int col, String why, byte[] b, int off, int len) {
        String name = table.columns().get(col).name();
        String shown = new String(b, off, Math.min(len, 40), StandardCharsets.UTF_8) + (len > 40 ? "..." : "");
        String value = new String(b, off, Math.min(len, 200), StandardCharsets.UTF_8);
        long line = currentLine;
        count(col, () -> {
            stats.badValue(name, shown, file, line, why + "; kept as read");
            stats.outOfType(name, value);
        });
    }

    /** Tells the stats now, or (two fillers) records it for {@link #takeEvents}. */
    private void count(int col, Runnable c) {
        if (events == null) {
            c.run();
        } else {
            events.add(new StatEvent(seq, col, c));
        }
    }

    /**
     * Makes this builder one of two fillers of a table: it fills the columns {@code own} marks,
     * skips the others' values (counting their bytes, so that batches close where one filler's
     * would), and defers its counts to {@link #takeEvents}.
     *
     * @param reportsRows whether this one counts rows of the wrong width
     */
    public void fillOnly(boolean[] own, boolean reportsRows) {
        this.own = own.clone();
        this.reportsRows = reportsRows;
        skips();
        this.events = new ArrayList<>();
        this.seq = 0;
        defaultBytes = new int[storage.length];
        for (int i = 0; i < storage.length; i++) {
            ColumnDef c = table.columns().get(i);
            defaultBytes[i] = c.autoIncrement() && storage[i] == ColumnStorage.INT64 || c.defaultValue() == null
                    ? -1
                    : c.defaultValue().getBytes(StandardCharsets.UTF_8).length;
        }
    }

    /** The counts deferred since the last call, in the order they were made; numbering starts again. */
    public List<StatEvent> takeEvents() {
        List<StatEvent> taken = events;
        events = new ArrayList<>();
        seq = 0;
        return taken;
    }

    /** Whether this builder fills column {@code col}. */
    boolean fills(int col) {
        return own == null || own[col];
    }

    /** The column the {@code index}-th value of a row goes to, or -1 (none). */
    int column(int index) {
        if (mapping == null) {
            return index < storage.length ? index : -1;
        }
        return index < mapping.length ? mapping[index] : -1;
    }

    /**
     * What a NULL costs the side that fills its column: the replay steps over it without a call
     * ({@link #freeNulls}), as it steps over the other side's values, so it costs the same on
     * either side. Weighed 16 as a call, the ORM shape's NULLs (33 of 44 values a row) were most
     * of the weight, and the first filler did 20-30% more than the second (docs/benchmarks.md,
     * issue 32).
     */
    static final int NULL_COST = 1;

    /**
     * What filling one value of column {@code col} costs, in units of a byte of value: what
     * {@link DumpLoader} balances when it splits a table's columns over two fillers. A value
     * weighs its bytes and 16 for the call (a NULL {@link #NULL_COST}); a text or byte string that starts as a number does
     * far more in {@link #value} and {@link ColumnFacts#add} than its bytes say: it is read as a
     * number ({@link PlainNumber}, the number facts: 32 more), checked as a date or timestamp
     * when it has a date's dashes (64 more), and in a DECIMAL column scaled and checked against
     * its declared range (32 more). Weighed by bytes alone, the orders shape's DECIMAL amount and
     * 14-digit timestamp (7 and 14 bytes) went to one filler with the light integers, and it
     * took about twice the other's time (docs/benchmarks.md, issue 32).
     */
    int cost(int col, int kind, byte[] b, int off, int len) {
        if (kind == SqlScriptReader.NULL) {
            return NULL_COST;
        }
        int c = 16 + len;
        if (storage[col] == ColumnStorage.INT64 || len == 0) {
            return c;
        }
        if (b[off] == '-' || (b[off] >= '0' && b[off] <= '9')) {
            c += 32;
            if (len >= 10 && b[off + 4] == '-') {
                c += 64;
            }
            if (table.columns().get(col).type().family() == TypeFamily.DECIMAL) {
                c += 32;
            }
        }
        return c;
    }

    /**
     * Counts {@link ColumnFacts} of the columns' stored values into
     * {@code into} (one per column, created where null; kept across a table's runs), so that
     * the profile need not scan them again for lengths and bounds.
     */
    public ColumnFacts[] countFacts(ColumnFacts[] into) {
        return countFacts(into, null);
    }

    /**
     * As {@link #countFacts(ColumnFacts[])}; the facts made here also count a text or byte
     * column's distinct values past the short list by their hashes, on {@code budget}'s memory
     * ({@link DistinctHashes}), when it is not null.
     */
    ColumnFacts[] countFacts(ColumnFacts[] into, DistinctHashes.Budget budget) {
        facts = into != null ? into : new ColumnFacts[storage.length];
        for (int i = 0; i < storage.length; i++) {
            if (facts[i] == null && storage[i] == ColumnStorage.INT64) {
                facts[i] = ColumnFacts.integers();
            } else if (facts[i] == null) {
                TypeFamily f = table.columns().get(i).type().family();
                facts[i] = new ColumnFacts(
                        storage[i] == ColumnStorage.BYTES,
                        f == TypeFamily.DECIMAL,
                        f == TypeFamily.FLOAT || f == TypeFamily.DOUBLE,
                        f == TypeFamily.INTEGER,
                        NullMarkers.SPELLINGS);
                facts[i].distinctBudget(budget);
            }
        }
        return facts;
    }

    /** Starts numbering omitted auto-increment values after the given counters (a table's earlier runs). */
    public void continueCounters(long[] counters) {
        if (counters != null && counters.length == autoIncrement.length) {
            System.arraycopy(counters, 0, autoIncrement, 0, counters.length);
        }
    }

    public long[] counters() {
        return autoIncrement.clone();
    }

    public Schema schema() {
        return schema;
    }

    public ColumnStorage[] storage() {
        return storage;
    }

    /** Per column, the index of the vector of its spellings a double does not give back, or -1 ({@link #asDouble}). */
    int[] sidecars() {
        return sidecar.clone();
    }

    /** Columns of the INSERT or COPY that feeds the next rows, or null for all in declared order. */
    public void setColumnOrder(List<String> columns) {
        if (columns == null) {
            mapping = null;
            freeNulls = true;
            return;
        }
        freeNulls = false;
        mapping = new int[columns.size()];
        for (int i = 0; i < mapping.length; i++) {
            mapping[i] = table.columnIndex(columns.get(i));
            if (mapping[i] < 0) {
                throw new DumpFormatException(file + ": rows for table " + table.name() + " name column "
                        + columns.get(i) + ", which its CREATE TABLE (" + table.origin() + ") does not declare");
            }
        }
        skips();
    }

    /** {@link #skipIndex} and {@link #named} from the column list and this filler's columns. */
    private void skips() {
        if (own == null) {
            skipIndex = null;
            return;
        }
        int n = mapping == null ? storage.length : mapping.length;
        skipIndex = new boolean[n];
        named = new boolean[storage.length];
        for (int i = 0; i < n; i++) {
            int col = mapping == null ? i : mapping[i];
            skipIndex[i] = !own[col];
            named[col] = true;
        }
    }

    /** The first value index of a row that goes to column {@code col}, or -1 (the column list leaves it out). */
    int indexOf(int col) {
        if (mapping == null) {
            return col;
        }
        for (int i = 0; i < mapping.length; i++) {
            if (mapping[i] == col) {
                return i;
            }
        }
        return -1;
    }

    /** Per value index, whether a replay steps over it (the other filler's), or null (one filler). */
    boolean[] skipIndex() {
        return skipIndex;
    }

    /**
     * The bytes of values a replay stepped over ({@link #skipIndex}): counted toward the batch's
     * bytes as {@link #value} counts the other filler's values.
     */
    void skipped(long valueBytes) {
        bytes += valueBytes;
    }

    /** Starts a batch in freshly allocated vectors (the previous buffers may still be read by DuckDB). */
    public void startBatch(VectorSchemaRoot target) {
        allocate(target);
        startOwn(target);
    }

    /** Allocates a batch's vectors, once for both fillers of a table. */
    static void allocate(VectorSchemaRoot target) {
        for (FieldVector v : target.getFieldVectors()) {
            if (v instanceof BaseVariableWidthVector w) {
                w.setInitialCapacity(INITIAL_ROWS, 8);
            } else {
                v.setInitialCapacity(INITIAL_ROWS);
            }
        }
        target.allocateNew();
    }

    /** Starts filling this builder's columns of an allocated batch ({@link #allocate}). */
    void startOwn(VectorSchemaRoot target) {
        root = target;
        vectors = root.getFieldVectors().toArray(new FieldVector[0]);
        if (writers == null) {
            writers = new Writer[vectors.length];
            for (int i = 0; i < vectors.length; i++) {
                writers[i] = new Writer();
            }
        }
        for (int i = 0; i < vectors.length; i++) {
            if (own == null || own[columnOf[i]]) {
                writers[i].start(vectors[i]);
            }
        }
        if (uncopied == null) {
            uncopied = new boolean[storage.length];
        }
        for (int i = 0; i < uncopied.length; i++) {
            uncopied[i] = facts != null && facts[i] != null && facts[i].leftOut();
            textual[i] =
                    asDouble[i] && (facts == null || facts[i] == null || facts[i].sqlReads() || !facts[i].floatFacts());
        }
        row = 0;
        bytes = 0;
    }

    /**
     * Per column, whether this batch leaves its values out of its vector ({@link
     * ColumnFacts#leftOut}: DuckDB's table does not have the column, and its scan reads only the
     * columns it names): the vector stays all NULL, the facts are counted as before. Decided at
     * each batch's start. At 1 GB of the text shape the {@code body} column was 1 GB copied into
     * buffers that grew by doubling and were mapped fresh for every batch (docs/benchmarks.md,
     * issue 32).
     */
    private boolean[] uncopied;

    /** Rows a batch's vectors are allocated for at first: a batch's rows ({@link DumpLoader#BATCH_ROWS}). */
    static final int INITIAL_ROWS = 15_872;

    private Writer[] writers;

    /**
     * Writes one column's values into its vector's buffers directly: what {@code setSafe} does,
     * without its second look at the capacities and offsets on every value, and (its own room
     * checked here against the buffers' capacities) through the buffers' addresses rather than
     * {@link ArrowBuf}'s checked setters: under C1, which compiles the runs below the launcher's line (320 MB), each
     * of those is a call with its own bounds check, and a short value's copy went through
     * {@code Unsafe.copyMemory}'s array checks. The offsets of the NULL rows between two values
     * are filled at the next value (and by Arrow at the batch's end, from {@link #lastSet}), as
     * {@code setSafe} fills them.
     *
     * <pre>
     *  validity:  bit r of byte r/8 (LSB first), 1 = a value; Arrow zeroes it when it allocates
     *             and when it grows, so a NULL in a row never written before needs no write
     *  offsets:   int32 at 4*r: where row r's bytes start; 4*(r+1): where they end (var-width)
     *  data:      int64 at 8*r (BIGINT), float64 at 8*r (DOUBLE: the IEEE 754 bits, little-endian),
     *             or the values' bytes back to back (var-width)
     * </pre>
     */
    private static final class Writer {
        private FieldVector vector;
        private BaseVariableWidthVector varWidth;
        private long validity;
        private long offsets;
        private long data;
        private long dataCapacity;
        /** Rows the validity (and offset) buffers hold. */
        private int rowCapacity;
        /** Bytes of values written (var-width). */
        private int end;
        /** The last row written, or -1. */
        private int lastSet;

        void start(FieldVector v) {
            vector = v;
            varWidth = v instanceof BaseVariableWidthVector w ? w : null;
            lastSet = -1;
            end = 0;
            buffers();
        }

        private void buffers() {
            ArrowBuf validityBuf = vector.getValidityBuffer();
            ArrowBuf dataBuf = vector.getDataBuffer();
            validity = validityBuf.memoryAddress();
            data = dataBuf.memoryAddress();
            dataCapacity = dataBuf.capacity();
            if (varWidth != null) {
                ArrowBuf offsetBuf = vector.getOffsetBuffer();
                offsets = offsetBuf.memoryAddress();
                rowCapacity = (int) Math.min(validityBuf.capacity() * 8, offsetBuf.capacity() / 4 - 1);
            } else {
                rowCapacity = (int) Math.min(validityBuf.capacity() * 8, dataCapacity / 8);
            }
        }

        /** Room for row {@code row}. */
        private void rowRoom(int row) {
            while (row >= rowCapacity) {
                if (varWidth != null) {
                    varWidth.setLastSet(lastSet);
                    varWidth.reallocValidityAndOffsetBuffers();
                } else {
                    vector.reAlloc();
                }
                buffers();
            }
        }

        private void setBit(int row) {
            long at = validity + (row >> 3);
            MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | (1 << (row & 7))));
        }

        void putLong(int row, long value) {
            if (row >= rowCapacity) {
                rowRoom(row);
            }
            MemoryUtil.putLong(data + (long) row * 8, value);
            setBit(row);
            lastSet = row;
        }

        void putBytes(int row, byte[] b, int off, int len) {
            if (row >= rowCapacity) {
                rowRoom(row);
            }
            if (row <= lastSet) {
                end = MemoryUtil.getInt(offsets + (long) row * 4); // the row written again (a bad row's slot)
            } else {
                for (int r = lastSet + 1; r < row; r++) {
                    MemoryUtil.putInt(offsets + (long) (r + 1) * 4, end); // the NULL rows since the last value
                }
            }
            long need = (long) end + len;
            if (need > dataCapacity) {
                varWidth.reallocDataBuffer(need);
                ArrowBuf dataBuf = varWidth.getDataBuffer();
                data = dataBuf.memoryAddress();
                dataCapacity = dataBuf.capacity();
            }
            copy(b, off, data + end, len);
            end += len;
            MemoryUtil.putInt(offsets + (long) (row + 1) * 4, end);
            setBit(row);
            lastSet = row;
        }

        /** {@code b[off, off+len)} to {@code to}: short values eight bytes a step, long ones in one copy. */
        private static void copy(byte[] b, int off, long to, int len) {
            if (len > 64) {
                MemoryUtil.copyToMemory(b, off, to, len);
                return;
            }
            int i = 0;
            for (; i + 8 <= len; i += 8) {
                MemoryUtil.putLong(to + i, MemoryUtil.getLong(b, off + i));
            }
            for (; i < len; i++) {
                MemoryUtil.putByte(to + i, b[off + i]);
            }
        }

        void putNull(int row) {
            if (row >= rowCapacity) {
                rowRoom(row);
            }
            if (row <= lastSet) { // a row written before (a bad row's slot): its bit cleared
                long at = validity + (row >> 3);
                MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) & ~(1 << (row & 7))));
            }
        }

        /**
         * Fills the offsets of the NULL rows after the last value up to {@code rows} (here, a
         * word a step: Arrow's {@code setValueCount} fills them through {@code setBytes}, a
         * checked read and write per row, which cost an ORM batch's forty mostly-NULL columns
         * 5-7% of a filler's time at 1 GB) and hands the vector its last row.
         */
        void finish(int rows) {
            if (varWidth != null) {
                if (rows > lastSet + 1) {
                    if (rows - 1 >= rowCapacity) {
                        rowRoom(rows - 1);
                    }
                    for (int r = lastSet + 1; r < rows; r++) {
                        MemoryUtil.putInt(offsets + (long) (r + 1) * 4, end);
                    }
                    lastSet = rows - 1;
                }
                varWidth.setLastSet(lastSet);
            }
        }
    }

    public VectorSchemaRoot root() {
        return root;
    }

    public int rows() {
        return row;
    }

    public long bytes() {
        return bytes;
    }

    /** Seals the batch. */
    public void finishBatch() {
        VectorSchemaRoot r = root;
        finishOwn();
        r.setRowCount(row);
    }

    /** Drops this builder's rows of a batch nobody reads (a run DuckDB stores none of): its vectors are filled again. */
    void discardOwn() {
        root = null;
    }

    /** Seals this builder's columns of the batch; the row count is set once both fillers are done. */
    void finishOwn() {
        for (int i = 0; i < writers.length; i++) {
            if (own == null || own[columnOf[i]]) {
                writers[i].finish(row);
            }
        }
        root = null;
    }

    @Override
    public void value(int index, int kind, byte[] b, int off, int len) {
        seq++;
        value(index, kind, b, off, len, false, false, NOT_COUNTED);
    }

    @Override
    public void value(int index, int kind, byte[] b, int off, int len, boolean ascii) {
        seq++;
        value(index, kind, b, off, len, false, ascii, NOT_COUNTED);
    }

    /**
     * As {@link #value(int, int, byte[], int, int, boolean)}, with the value's characters already
     * counted by {@link Utf8#chars} ({@code chars}: the count, -1 not UTF-8, or
     * {@link #NOT_COUNTED}): the other filler counted them ({@link TokenChunk#countFromEnd}).
     */
    void value(int index, int kind, byte[] b, int off, int len, boolean ascii, int chars) {
        seq++;
        value(index, kind, b, off, len, false, ascii, chars);
    }

    /** A value's characters not counted yet. */
    static final int NOT_COUNTED = -2;

    /**
     * The value index whose characters the other filler counts ahead ({@link TokenChunk#countFromEnd}),
     * or -1: a text column heavier than all the others together, which a split by columns leaves
     * on one filler.
     */
    private int countedIndex = -1;

    void countedIndex(int index) {
        countedIndex = index;
    }

    int countedIndex() {
        return countedIndex;
    }

    private void value(int index, int kind, byte[] b, int off, int len, boolean direct, boolean ascii, int counted) {
        int col;
        if (direct) {
            col = index;
        } else if (mapping == null) {
            col = index;
            if (col >= storage.length) {
                return; // counted at endRow
            }
        } else {
            if (index >= mapping.length) {
                return;
            }
            col = mapping[index];
        }
        if (own != null && !own[col]) {
            // the other filler's column: only what decides rows and batches is counted here
            if (mapping != null) {
                seen[col] = true;
            }
            if (kind != SqlScriptReader.NULL) {
                bytes += len;
            }
            return;
        }
        if (mapping != null) {
            if (seen[col] && !direct && facts != null && facts[col] != null) {
                facts[col].invalidate(); // a column named twice: the table keeps one of its values
            }
            seen[col] = true; // only an INSERT with a column list can leave columns out
        }
        if (kind == SqlScriptReader.NULL) {
            writers[col].putNull(row);
            if (sidecar[col] >= 0) {
                writers[sidecar[col]].putNull(row);
            }
            return;
        }
        bytes += len;
        switch (storage[col]) {
            case INT64 -> {
                long parsed;
                if (kind == SqlScriptReader.WORD
                        && len == 4
                        && new String(b, off, len, StandardCharsets.US_ASCII).equalsIgnoreCase("true")) {
                    parsed = 1;
                } else if (kind == SqlScriptReader.WORD
                        && len == 5
                        && new String(b, off, len, StandardCharsets.US_ASCII).equalsIgnoreCase("false")) {
                    parsed = 0;
                } else if (kind == SqlScriptReader.BINARY && len <= 8) {
                    parsed = 0;
                    for (int i = 0; i < len; i++) {
                        parsed = (parsed << 8) | (b[off + i] & 0xff);
                    }
                } else {
                    parsed = parseLong(b, off, len);
                    if (parsed == Long.MIN_VALUE && !isMinLong(b, off, len)) {
                        String name = table.columns().get(col).name();
                        String shown = new String(b, off, Math.min(len, 40), StandardCharsets.UTF_8);
                        long line = currentLine;
                        count(col, () -> stats.badValue(name, shown, file, line));
                        writers[col].putNull(row);
                        return;
                    }
                }
                if (!uncopied[col]) {
                    writers[col].putLong(row, parsed);
                }
                if (facts != null) {
                    facts[col].addLong(parsed);
                }
                if ((parsed < intMin[col] || parsed > intMax[col]) && kind != SqlScriptReader.WORD) {
                    String why = ranges[col].integer(parsed);
                    if (why != null) {
                        outOfType(col, why, b, off, len);
                    }
                }
                if (parsed > autoIncrement[col]) {
                    autoIncrement[col] = parsed; // MySQL's next AUTO_INCREMENT is max + 1
                }
            }
            case BYTES -> {
                if (!uncopied[col]) {
                    writers[col].putBytes(row, b, off, len);
                }
                if (facts != null) {
                    facts[col].add(b, off, len);
                }
                if (len > fitsBytes[col] && kind != SqlScriptReader.WORD) {
                    String why = ranges[col].text(b, off, len);
                    if (why != null) {
                        outOfType(col, why, b, off, len);
                    }
                }
            }
            default -> {
                // a number's text is read once, for the declared range and the facts alike
                PlainNumber n = null;
                if (len > 0 && (b[off] == '-' || (b[off] >= '0' && b[off] <= '9')) && !dated(b, off, len)) {
                    n = number;
                    n.read(b, off, len);
                }
                int chars = ascii ? len : counted != NOT_COUNTED ? counted : Utf8.chars(b, off, len); // -1: not UTF-8
                if (chars >= 0) {
                    if (uncopied[col]) {
                        // the facts alone
                    } else if (!asDouble[col]) {
                        writers[col].putBytes(row, b, off, len);
                    } else if (!textual[col] && n != null && n.plain && DoubleSpelling.rendered(n, n.toDouble())) {
                        writers[col].putLong(row, Double.doubleToRawLongBits(n.toDouble()));
                        writers[sidecar[col]].putNull(row); // a bad row's slot written again
                    } else {
                        writers[sidecar[col]].putBytes(row, b, off, len);
                        writers[col].putNull(row);
                    }
                    boolean timed = false;
                    if (facts != null) {
                        facts[col].add(b, off, len, chars, n == null ? NOT_A_NUMBER : n);
                        timed = dateTime[col] && facts[col].timed;
                    }
                    if (len > fitsBytes[col] && kind != SqlScriptReader.WORD && !timed) {
                        String why = ranges[col].text(b, off, len, n);
                        if (why != null) {
                            outOfType(col, why, b, off, len);
                        }
                    }
                } else {
                    if (len > fitsBytes[col] && kind != SqlScriptReader.WORD) {
                        String why = ranges[col].text(b, off, len, n);
                        if (why != null) {
                            outOfType(col, why, b, off, len);
                        }
                    }
                    // Not UTF-8: take each byte as a Latin-1 character so no byte is lost.
                    byte[] recoded =
                            new String(b, off, len, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.UTF_8);
                    if (!uncopied[col]) {
                        if (asDouble[col]) {
                            writers[sidecar[col]].putBytes(row, recoded, 0, recoded.length);
                            writers[col].putNull(row);
                        } else {
                            writers[col].putBytes(row, recoded, 0, recoded.length);
                        }
                    }
                    if (facts != null) {
                        facts[col].add(recoded, 0, recoded.length);
                    }
                    String name = table.columns().get(col).name();
                    count(col, () -> stats.recoded(name));
                }
            }
        }
    }

    /**
     * Whether a value is no plain number by its fifth byte: a dash after a digit there (a date,
     * {@code 2020-09-13...}), which a plain number has only after its exponent's {@code e}. The
     * date and time columns' values then skip {@link PlainNumber#read}, which would stop there.
     */
    static boolean dated(byte[] b, int off, int len) {
        return len > 4 && b[off + 4] == '-' && b[off + 3] >= '0' && b[off + 3] <= '9';
    }

    private long currentLine;

    /** The value being filled, read as a number (reused). */
    private final PlainNumber number = new PlainNumber();

    /** A value that does not start as a number does: read as none. */
    private static final PlainNumber NOT_A_NUMBER = new PlainNumber();

    /** The line the current row started on, for messages. */
    public void atLine(long line) {
        this.currentLine = line;
    }

    @Override
    public void endRow(int count, long line) {
        seq++;
        int expected = mapping == null ? storage.length : mapping.length;
        if (count != expected) {
            if (reportsRows) {
                String what = "a row of " + expected + " values for table " + table.name() + ", found " + count;
                count(-1, () -> stats.badRow(file, line, what));
            }
            if (facts != null) {
                // its values were counted, but the next row overwrites them: the profile asks SQL
                for (int i = 0; i < facts.length; i++) {
                    if (facts[i] != null && (own == null || own[i])) {
                        facts[i].invalidate();
                    }
                }
            }
            clearRow();
            freeNulls = false; // the next row writes this slot again
            return;
        }
        if (mapping != null) {
            for (int i = 0; i < storage.length; i++) {
                if (seen[i]) {
                    continue;
                }
                if (own == null || own[i]) {
                    omitted(i);
                } else if (defaultBytes[i] >= 0 && !named[i]) {
                    // the other filler stores the DEFAULT: its bytes count here too (a named column
                    // of a row of the right width had its value, which a replay steps over unseen)
                    bytes += defaultBytes[i];
                }
            }
            Arrays.fill(seen, false);
        }
        row++;
        freeNulls = mapping == null;
    }

    /**
     * A column the INSERT did not name gets what the database would give it: the next number
     * of an auto-increment key, the column's literal DEFAULT, or NULL.
     */
    private void omitted(int col) {
        ColumnDef c = table.columns().get(col);
        if (c.autoIncrement() && storage[col] == ColumnStorage.INT64) {
            writers[col].putLong(row, ++autoIncrement[col]);
            if (facts != null) {
                facts[col].addLong(autoIncrement[col]);
            }
        } else if (c.defaultValue() != null) {
            byte[] b = c.defaultValue().getBytes(StandardCharsets.UTF_8);
            seen[col] = true;
            value(col, SqlScriptReader.STRING, b, 0, b.length, true, false, NOT_COUNTED);
            return;
        } else {
            writers[col].putNull(row);
            if (sidecar[col] >= 0) {
                writers[sidecar[col]].putNull(row);
            }
        }
    }

    /** A bad row's values stay in the slot the next row overwrites; with a column list, clear what it set. */
    private void clearRow() {
        if (mapping == null) {
            return;
        }
        for (int i = 0; i < storage.length; i++) {
            if (seen[i] && (own == null || own[i])) {
                writers[i].putNull(row);
                if (sidecar[i] >= 0) {
                    writers[sidecar[i]].putNull(row);
                }
            }
        }
        Arrays.fill(seen, false);
    }

    /** Capacity check: vectors grow by doubling, so keep batches to a bounded number of bytes. */
    public boolean full(int maxRows, long maxBytes) {
        return row >= maxRows || bytes >= maxBytes;
    }

    /** Parses a decimal integer; {@link Long#MIN_VALUE} on anything else (check {@link #isMinLong}). */
    static long parseLong(byte[] b, int off, int len) {
        if (len == 0 || len > 20) {
            return Long.MIN_VALUE;
        }
        int i = off;
        int end = off + len;
        boolean neg = false;
        if (b[i] == '-' || b[i] == '+') {
            neg = b[i] == '-';
            i++;
            if (i == end) {
                return Long.MIN_VALUE;
            }
        }
        if (end - i <= 18) {
            // up to 18 digits cannot overflow: no division a digit; up to eight a step as
            // PlainNumber reads them (written out here: C1 inlines no call of its size)
            long acc = 0;
            while (PlainNumber.LITTLE && i < end && i + 8 <= b.length) {
                long x = MemoryUtil.getLong(b, i) ^ PlainNumber.ZEROS;
                long low = ((x + PlainNumber.NOT_DIGIT) | x) & PlainNumber.HIGH_BITS;
                int n = (int) (((((low & -low) >>> 7) - 1) & PlainNumber.ONES) * PlainNumber.ONES >>> 56);
                n = Math.min(n, end - i);
                if (n == 0) {
                    return Long.MIN_VALUE; // a byte that is no digit
                }
                x <<= (8 - n) << 3;
                x = x * 10 + (x >>> 8);
                x = ((x & PlainNumber.PAIRS) * PlainNumber.PAIRS_HIGH
                                + ((x >>> 16) & PlainNumber.PAIRS) * PlainNumber.PAIRS_LOW)
                        >>> 32;
                acc = acc * PlainNumber.POW10[n] + x;
                i += n;
                if (n < 8) {
                    if (i < end) {
                        return Long.MIN_VALUE; // a byte that is no digit
                    }
                    break;
                }
            }
            for (; i < end; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) {
                    return Long.MIN_VALUE;
                }
                acc = acc * 10 + d;
            }
            return neg ? -acc : acc;
        }
        long acc = 0;
        for (; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return Long.MIN_VALUE;
            }
            if (acc < (Long.MIN_VALUE + d) / 10) {
                return Long.MIN_VALUE; // overflow
            }
            acc = acc * 10 - d; // accumulate negatively: covers Long.MIN_VALUE
        }
        if (neg) {
            return acc;
        }
        if (acc == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        return -acc;
    }

    private static boolean isMinLong(byte[] b, int off, int len) {
        return new String(b, off, len, StandardCharsets.US_ASCII).equals("-9223372036854775808");
    }
}

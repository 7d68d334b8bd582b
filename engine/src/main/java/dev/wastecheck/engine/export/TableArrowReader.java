package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.Block;
import dev.wastecheck.engine.block.BlockAccess;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import dev.wastecheck.model.arrow.ArrowSchemas;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} over an {@link ArrowTable}, one record batch per block, at one transactional
 * snapshot (Li et al., VLDB 2020, §5). A frozen block is handed over without a copy: its memory is
 * wrapped as Arrow buffers ({@link BufferAllocator#wrapForeignAllocation}) and the vectors are loaded
 * with slices of it, so a consumer (Arrow Java, DuckDB through the C data interface, an IPC or Flight
 * writer) reads the block's own validity and values buffers and the frozen variable-length buffers.
 * The block's in-place read latch is taken before and given back when the last buffer over the
 * block is released, however long the consumer keeps it; a writer of the block waits until then.
 * A hot block (or one that thawed meanwhile: the latch misses) is materialized at the snapshot into
 * freshly allocated vectors.
 *
 * <p>Arrow Java rebuilds a validity bitmap whose null count is 0 or the whole batch instead of
 * loading it (n/8 bytes per column); every values, offsets and dictionary buffer is the block's.
 *
 * <p>The reader begins its own transaction and commits it when closed; running it to the end and
 * closing it promptly keeps the garbage collector's horizon moving.
 */
public final class TableArrowReader extends ArrowReader {
    private final ArrowTable table;
    private final Transaction txn;
    private final List<Block> blocks;
    private final boolean dictionary;
    private int next;
    private long inPlaceBatches, snapshotBatches, rows;

    public TableArrowReader(BufferAllocator allocator, ArrowTable table) {
        super(allocator);
        this.table = table;
        this.txn = table.transactions().begin();
        this.blocks = table.blocks();
        this.dictionary = table.freezeMode() == ArrowTable.FreezeMode.DICTIONARY;
    }

    @Override
    protected Schema readSchema() {
        return schemaOf(table);
    }

    /**
     * The Arrow schema of an {@link ArrowTable}: each field type as the block stores it (types mapped
     * by the project's one {@link ArrowSchemas}), so that a frozen block's buffers are the vectors'
     * buffers as they are. VARLEN columns are Utf8 (text) or Binary; in a table that freezes by
     * dictionary (§4.4) they are dictionary-encoded with int32 indices and the dictionary id is the
     * column's position.
     */
    public static Schema schemaOf(ArrowTable table) {
        return schemaOf(table, table.freezeMode() == ArrowTable.FreezeMode.DICTIONARY);
    }

    /** The schema with every VARLEN column as plain Utf8 or Binary, dictionary or not. */
    public static Schema plainSchemaOf(ArrowTable table) {
        return schemaOf(table, false);
    }

    private static Schema schemaOf(ArrowTable table, boolean dictionary) {
        RecordSchema s = table.schema();
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < s.fieldCount(); c++) {
            dev.wastecheck.layouts.Field f = s.field(c);
            DictionaryEncoding enc = dictionary && f.type().isVariable()
                    ? new DictionaryEncoding(c, true, ArrowSchemas.integer(32, true))
                    : null;
            fields.add(ArrowSchemas.field(f.name(), f.nullable(), arrowType(f.type(), table.isBinary(c)), enc));
        }
        return new Schema(fields);
    }

    static ArrowType arrowType(FieldType t, boolean binary) {
        return switch (t) {
            case BIT -> ArrowType.Bool.INSTANCE;
            case INT8 -> ArrowSchemas.integer(8, true);
            case INT16 -> ArrowSchemas.integer(16, true);
            case INT32 -> ArrowSchemas.integer(32, true);
            case INT64 -> ArrowSchemas.integer(64, true);
            case UINT8 -> ArrowSchemas.integer(8, false);
            case UINT16 -> ArrowSchemas.integer(16, false);
            case UINT32 -> ArrowSchemas.integer(32, false);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case VARLEN -> binary ? ArrowType.Binary.INSTANCE : ArrowType.Utf8.INSTANCE;
        };
    }

    /** Batches handed over from frozen blocks without a copy. */
    public long inPlaceBatches() {
        return inPlaceBatches;
    }
    /** Batches materialized from hot blocks at the snapshot. */
    public long snapshotBatches() {
        return snapshotBatches;
    }

    public long rows() {
        return rows;
    }

    @Override
    public boolean loadNextBatch() {
        try {
            ensureInitialized();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        while (next < blocks.size()) {
            Block b = blocks.get(next++);
            if (BlockAccess.tryEnterInPlace(b)) {
                if (b.data().numRecords() == 0) {
                    BlockAccess.exitInPlace(b);
                    continue;
                }
                loadInPlace(b);
                inPlaceBatches++;
                return true;
            }
            if (loadSnapshot(b)) {
                snapshotBatches++;
                return true;
            }
        }
        return false;
    }

    /** The memory of a frozen block, released (the in-place read ends) when no Arrow buffer uses it. */
    private static final class BlockMemory extends ForeignAllocation {
        private final Block block;

        BlockMemory(Block block) {
            super(
                    block.data().layout().blockSize(),
                    MemoryUtil.getByteBufferAddress(block.data().buffer()));
            this.block = block;
        }

        @Override
        protected void release0() {
            BlockAccess.exitInPlace(block);
        }
    }

    /** A frozen column's buffer; immutable, kept reachable while Arrow buffers use it. */
    private static final class FrozenMemory extends ForeignAllocation {
        @SuppressWarnings("unused")
        private final ByteBuffer keepAlive;

        FrozenMemory(FrozenVarlen f) {
            super(f.capacity(), MemoryUtil.getByteBufferAddress(f.buffer()));
            this.keepAlive = f.buffer();
        }

        @Override
        protected void release0() {
            // The JVM frees the buffer once unreachable.
        }
    }

    private void loadInPlace(Block b) {
        ArrowBuf block;
        try {
            block = allocator.wrapForeignAllocation(new BlockMemory(b));
        } catch (RuntimeException e) {
            BlockAccess.exitInPlace(b);
            throw e;
        }
        List<ArrowBuf> frozen = new ArrayList<>();
        try {
            ArrowBlock d = b.data();
            BlockLayout l = d.layout();
            int n = d.numRecords(), bitmap = (n + 7) >>> 3;
            List<ArrowFieldNode> nodes = new ArrayList<>();
            List<ArrowBuf> buffers = new ArrayList<>();
            List<ArrowDictionaryBatch> dictionaries = new ArrayList<>();
            for (int c = 0; c < l.columns(); c++) {
                nodes.add(new ArrowFieldNode(n, d.nullCount(c)));
                buffers.add(block.slice(l.validityOffset(c), bitmap));
                FieldType t = l.type(c);
                if (t.isBit()) {
                    buffers.add(block.slice(l.valuesOffset(c), bitmap));
                } else if (!t.isVariable()) {
                    buffers.add(block.slice(l.valuesOffset(c), (long) n * t.width));
                } else {
                    FrozenVarlen f = b.frozenVarlen(c);
                    ArrowBuf fb = allocator.wrapForeignAllocation(new FrozenMemory(f));
                    frozen.add(fb);
                    if (f.encoding() == FrozenVarlen.Encoding.GATHERED) {
                        buffers.add(fb.slice(f.offsetsOffset(), f.offsetsBytes()));
                        buffers.add(fb.slice(f.valuesOffset(), f.valueBytes()));
                    } else {
                        buffers.add(fb.slice(f.indicesOffset(), f.indicesBytes()));
                        ArrowRecordBatch values = new ArrowRecordBatch(
                                f.dictionarySize(),
                                List.of(new ArrowFieldNode(f.dictionarySize(), 0)),
                                List.of(
                                        allocator.getEmpty(),
                                        fb.slice(f.offsetsOffset(), f.offsetsBytes()),
                                        fb.slice(f.valuesOffset(), f.valueBytes())));
                        dictionaries.add(new ArrowDictionaryBatch(c, values));
                    }
                }
            }
            for (ArrowDictionaryBatch db : dictionaries) {
                try (db) {
                    loadDictionary(db);
                }
            }
            try (ArrowRecordBatch batch = new ArrowRecordBatch(n, nodes, buffers)) {
                loadRecordBatch(batch);
            }
            rows += n;
        } finally {
            block.close();
            for (ArrowBuf f : frozen) f.close();
        }
    }

    /** Materializes the block's tuples at the snapshot; false if none is visible. */
    private boolean loadSnapshot(Block b) {
        VectorSchemaRoot root;
        try {
            root = getVectorSchemaRoot();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        int columns = table.schema().fieldCount();
        List<List<byte[]>> dictValues = new ArrayList<>();
        for (int c = 0; c < columns; c++) dictValues.add(null);
        root.allocateNew();
        int[] count = {0};
        List<byte[]>[] perRow = new List[columns];
        table.scan(txn, b, (slot, r) -> {
            int i = count[0]++;
            for (int c = 0; c < columns; c++) set(root.getVector(c), c, i, r, perRow);
            return true;
        });
        if (count[0] == 0) return false;
        if (dictionary) {
            for (int c = 0; c < columns; c++) if (perRow[c] != null) encode(root, c, perRow[c], count[0]);
        }
        root.setRowCount(count[0]);
        rows += count[0];
        return true;
    }

    private void set(FieldVector v, int c, int i, Record r, List<byte[]>[] perRow) {
        FieldType t = table.schema().type(c);
        if (t.isVariable() && dictionary) {
            if (perRow[c] == null) perRow[c] = new ArrayList<>();
            perRow[c].add(r.isNull(c) ? null : Arrays.copyOf(r.bytes(c), r.length(c)));
            return;
        }
        if (r.isNull(c)) {
            v.setNull(i);
            return;
        }
        long x = r.getLong(c);
        switch (t) {
            case BIT -> ((BitVector) v).setSafe(i, (int) x);
            case INT8 -> ((TinyIntVector) v).setSafe(i, (byte) x);
            case INT16 -> ((SmallIntVector) v).setSafe(i, (short) x);
            case INT32 -> ((IntVector) v).setSafe(i, (int) x);
            case INT64 -> ((BigIntVector) v).setSafe(i, x);
            case UINT8 -> ((UInt1Vector) v).setSafe(i, (byte) x);
            case UINT16 -> ((UInt2Vector) v).setSafe(i, (char) x);
            case UINT32 -> ((UInt4Vector) v).setSafe(i, (int) x);
            case FLOAT64 -> ((Float8Vector) v).setSafe(i, Double.longBitsToDouble(x));
            case VARLEN -> ((BaseVariableWidthVector) v).setSafe(i, r.bytes(c), 0, r.length(c));
        }
    }

    /** A hot block of a dictionary table: its own sorted dictionary for the batch, as freezing would build it. */
    private void encode(VectorSchemaRoot root, int c, List<byte[]> values, int n) {
        List<byte[]> distinct = new ArrayList<>();
        Map<ByteBuffer, Integer> codes = new HashMap<>();
        for (byte[] v : values) if (v != null && codes.putIfAbsent(ByteBuffer.wrap(v), 0) == null) distinct.add(v);
        distinct.sort(Arrays::compareUnsigned);
        Dictionary dict = lookup(c);
        BaseVariableWidthVector dv = (BaseVariableWidthVector) dict.getVector();
        dv.allocateNew();
        for (int i = 0; i < distinct.size(); i++) {
            codes.put(ByteBuffer.wrap(distinct.get(i)), i);
            dv.setSafe(i, distinct.get(i));
        }
        dv.setValueCount(distinct.size());
        IntVector indices = (IntVector) root.getVector(c);
        for (int i = 0; i < n; i++) {
            byte[] v = values.get(i);
            if (v == null) indices.setNull(i);
            else indices.setSafe(i, codes.get(ByteBuffer.wrap(v)));
        }
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    protected void closeReadSource() {
        table.transactions().commit(txn);
    }
}

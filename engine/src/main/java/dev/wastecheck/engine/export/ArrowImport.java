package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow batches into an {@link ArrowTable}: the way a source's rows (DuckDB's Arrow export of a
 * dump, a file, a database) enter Arrow-native blocks. Each Arrow field becomes the engine field
 * of the same width: signed and unsigned integers up to 32 bits, 64-bit signed integers, doubles,
 * booleans, and UTF-8 text or bytes as variable-length values. A field of another type must be
 * cast first (to text, say); {@link #fieldType} says which ones need it.
 */
public final class ArrowImport {
    private ArrowImport() {}

    /** The engine type of an Arrow type, or null when there is none (cast the column first). */
    public static FieldType fieldType(ArrowType t) {
        if (t instanceof ArrowType.Int i) {
            if (i.getIsSigned()) {
                return switch (i.getBitWidth()) {
                    case 8 -> FieldType.INT8;
                    case 16 -> FieldType.INT16;
                    case 32 -> FieldType.INT32;
                    default -> FieldType.INT64;
                };
            }
            return switch (i.getBitWidth()) {
                case 8 -> FieldType.UINT8;
                case 16 -> FieldType.UINT16;
                case 32 -> FieldType.UINT32;
                default -> null; // UBIGINT: above 2^63 - 1 it has no engine type
            };
        }
        if (t instanceof ArrowType.FloatingPoint) return FieldType.FLOAT64;
        if (t instanceof ArrowType.Bool) return FieldType.BIT;
        if (t instanceof ArrowType.Utf8 || t instanceof ArrowType.Binary) return FieldType.VARLEN;
        return null;
    }

    /** A new table whose columns are the fields of {@code schema} (every one must have a {@link #fieldType}). */
    public static ArrowTable create(
            String name, Schema schema, TransactionManager tm, int blockSize, ArrowTable.FreezeMode mode) {
        List<Field> fields = new ArrayList<>();
        BitSet binary = new BitSet();
        for (org.apache.arrow.vector.types.pojo.Field f : schema.getFields()) {
            FieldType t = fieldType(f.getType());
            if (t == null)
                throw new IllegalArgumentException(
                        name + "." + f.getName() + ": no engine type for Arrow " + f.getType());
            if (f.getType() instanceof ArrowType.Binary) binary.set(fields.size());
            fields.add(new Field(f.getName(), t, f.isNullable(), t.isVariable() ? 16 : 0));
        }
        return new ArrowTable(name, new RecordSchema(fields), tm, blockSize, mode, binary);
    }

    /** Inserts every batch of {@code reader}, committing every {@code rowsPerTransaction} rows (and collecting); returns the rows. */
    public static long load(ArrowTable table, ArrowReader reader, GarbageCollector gc, int rowsPerTransaction)
            throws IOException {
        TransactionManager tm = table.transactions();
        Record r = new Record(table.schema());
        long rows = 0;
        Transaction t = tm.begin();
        while (reader.loadNextBatch()) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<FieldVector> vs = root.getFieldVectors();
            for (int i = 0; i < root.getRowCount(); i++) {
                for (int c = 0; c < vs.size(); c++) set(r, c, vs.get(c), i);
                table.insert(t, r);
                if (++rows % rowsPerTransaction == 0) {
                    tm.commit(t);
                    gc.run();
                    t = tm.begin();
                }
            }
        }
        tm.commit(t);
        gc.run();
        return rows;
    }

    private static void set(Record r, int c, FieldVector v, int i) {
        if (v.isNull(i)) {
            r.setNull(c);
        } else if (v instanceof VarCharVector s) {
            byte[] b = s.get(i);
            r.setBytes(c, b, 0, b.length);
        } else if (v instanceof VarBinaryVector s) {
            byte[] b = s.get(i);
            r.setBytes(c, b, 0, b.length);
        } else if (v instanceof BitVector b) {
            r.setLong(c, b.get(i));
        } else if (v instanceof FloatingPointVector f) {
            r.setDouble(c, f.getValueAsDouble(i));
        } else if (v instanceof BaseIntVector n) {
            r.setLong(c, n.getValueAsLong(i));
        } else {
            throw new IllegalArgumentException(v.getField() + ": no engine type");
        }
    }
}

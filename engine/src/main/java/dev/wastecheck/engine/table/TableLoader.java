package dev.wastecheck.engine.table;

import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Loads a table's rows from Arrow batches (Arrow is the modules' interchange format: the analyzer's
 * DuckDB exports them, the engine turns them into records of its page layouts). Columns match
 * the {@link TableSpec} by position. Every value is converted to its column's field type
 * losslessly or the load stops with {@link LossyValueException}: an integer outside a narrow
 * type, text in an integer field that would not print back identically.
 */
public final class TableLoader {
    private final Table table;
    private final Record record;
    private final Table.Part target;
    private long rows;
    private long duplicates;

    public TableLoader(Table table) {
        this.table = table;
        this.record = new Record(table.schema());
        this.target = table.main();
    }

    /** A value that the column's field type cannot hold exactly. */
    public static final class LossyValueException extends IllegalArgumentException {
        public LossyValueException(String message) {
            super(message);
        }
    }

    public long rows() {
        return rows;
    }

    /** Rows skipped because their unique key was already present (the source had duplicates). */
    public long duplicates() {
        return duplicates;
    }

    /** Loads every batch of {@code reader}; {@code progress} receives the rows loaded so far after each batch. */
    public void load(ArrowReader reader, LongConsumer progress) throws IOException {
        while (reader.loadNextBatch()) {
            load(reader.getVectorSchemaRoot());
            progress.accept(rows);
        }
    }

    public void load(VectorSchemaRoot root) {
        int n = table.schema().fieldCount();
        if (root.getFieldVectors().size() != n) {
            throw new IllegalArgumentException(
                    table.name() + ": batch has " + root.getFieldVectors().size() + " columns, table " + n);
        }
        FieldVector[] vs = root.getFieldVectors().toArray(new FieldVector[0]);
        for (int row = 0; row < root.getRowCount(); row++) {
            for (int f = 0; f < n; f++) set(vs[f], row, f);
            if (table.insert(target, record) == TupleId.NONE) duplicates++;
            rows++;
        }
    }

    private void set(FieldVector v, int row, int f) {
        FieldType t = table.schema().type(f);
        if (v.isNull(row)) {
            if (!table.schema().nullable(f)) throw lossy(f, "NULL", "a NOT NULL field");
            record.setNull(f);
            return;
        }
        ColumnCodec codec = table.codec(f);
        if (codec != null) {
            byte[] b = v instanceof VarCharVector c
                    ? c.get(row)
                    : v instanceof VarBinaryVector c
                            ? c.get(row)
                            : String.valueOf(v.getObject(row)).getBytes(StandardCharsets.UTF_8);
            long code = codec.encode(b, 0, b.length);
            if (code == ColumnCodec.NONE) throw lossy(f, new String(b, StandardCharsets.UTF_8), codec.describe());
            record.setLong(f, code);
            return;
        }
        if (t.isVariable()) {
            if (v instanceof VarCharVector c) {
                byte[] b = c.get(row);
                record.setBytes(f, b, 0, b.length);
            } else if (v instanceof VarBinaryVector c) {
                byte[] b = c.get(row);
                record.setBytes(f, b, 0, b.length);
            } else if (v instanceof BaseIntVector c) {
                long x = c.getValueAsLong(row);
                // a UBIGINT above 2^63 - 1 comes back negative: print it as the unsigned value it is
                byte[] b = (c instanceof UInt8Vector ? Long.toUnsignedString(x) : Long.toString(x))
                        .getBytes(StandardCharsets.US_ASCII);
                record.setBytes(f, b, 0, b.length);
            } else {
                byte[] b = String.valueOf(v.getObject(row)).getBytes(StandardCharsets.UTF_8);
                record.setBytes(f, b, 0, b.length);
            }
            return;
        }
        if (t == FieldType.FLOAT64) {
            if (v instanceof FloatingPointVector c) record.setDouble(f, c.getValueAsDouble(row));
            else if (v instanceof BaseIntVector c) record.setDouble(f, c.getValueAsLong(row));
            else throw lossy(f, String.valueOf(v.getObject(row)), "FLOAT64");
            return;
        }
        long value;
        if (v instanceof BaseIntVector c) {
            value = c.getValueAsLong(row);
            if (c instanceof UInt8Vector && value < 0) throw lossy(f, Long.toUnsignedString(value), t.name());
        } else if (v instanceof BitVector c) {
            value = c.get(row);
        } else if (v instanceof VarCharVector || v instanceof VarBinaryVector) {
            byte[] b = v instanceof VarCharVector c ? c.get(row) : ((VarBinaryVector) v).get(row);
            Long l = Values.roundTripLong(b, 0, b.length);
            if (l == null)
                throw lossy(f, new String(b, StandardCharsets.UTF_8), t.name() + " (it would not print back the same)");
            value = l;
        } else {
            throw lossy(f, String.valueOf(v.getObject(row)), t.name());
        }
        if (!record.schema().fits(f, value)) {
            int bits = record.schema().field(f).bits();
            throw lossy(f, Long.toString(value), bits > 0 ? bits + " bits" : t.name());
        }
        record.setLong(f, value);
    }

    private LossyValueException lossy(int f, String value, String type) {
        String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
        return new LossyValueException(
                table.name() + "." + table.spec().columns().get(f).name() + " row " + (rows + 1) + ": value '" + shown
                        + "' does not fit " + type + "; keep the wider type for this column");
    }
}

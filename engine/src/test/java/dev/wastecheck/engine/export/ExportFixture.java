package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.engine.block.BlockTransformer;
import dev.wastecheck.engine.txn.GarbageCollector;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

/** A table of every field type, loaded, partly deleted and frozen; and its rows as plain values for comparison. */
final class ExportFixture {
    static final RecordSchema SCHEMA = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.nullable("qty", FieldType.INT32),
            Field.of("price", FieldType.FLOAT64),
            Field.nullable("flag", FieldType.BIT),
            Field.of("code", FieldType.UINT16),
            Field.of("tiny", FieldType.INT8),
            Field.nullable("name", FieldType.VARLEN));

    final TransactionManager tm = new TransactionManager();
    final GarbageCollector gc = new GarbageCollector(tm);
    final ArrowTable table;
    final List<Long> slots = new ArrayList<>();

    ExportFixture(int blockSize, ArrowTable.FreezeMode mode, int rows) {
        table = new ArrowTable("orders", SCHEMA, tm, blockSize, mode);
        Random rnd = new Random(42);
        Transaction t = tm.begin();
        for (int i = 0; i < rows; i++) slots.add(table.insert(t, row(i, rnd)));
        tm.commit(t);
        Transaction d = tm.begin();
        for (int i = 0; i < rows; i += 7) table.delete(d, slots.get(i));
        tm.commit(d);
    }

    static Record row(long id, Random rnd) {
        Record r = new Record(SCHEMA).setLong(0, id);
        if (id % 11 == 0) r.setNull(1);
        else r.setLong(1, rnd.nextInt(2_000_000) - 1_000_000);
        r.setDouble(2, rnd.nextInt(100_000) / 100.0);
        if (id % 13 == 0) r.setNull(3);
        else r.setLong(3, rnd.nextBoolean() ? 1 : 0);
        r.setLong(4, rnd.nextInt(65536));
        r.setLong(5, rnd.nextInt(256) - 128);
        if (id % 17 == 0) r.setNull(6);
        else
            r.setString(
                    6,
                    id % 3 == 0
                            ? "c" + (id % 40)
                            : "customer name " + (id % 97) + " of some considerable length " + id);
        return r;
    }

    /** Freezes every block (the collector and the transformation, run to the end). */
    int freeze() {
        return new BlockTransformer(table, gc, 0, 8).freezeNow(gc, 50);
    }

    /** The table's rows as a new transaction sees them, ordered by id. */
    List<List<Object>> expected() {
        List<List<Object>> out = new ArrayList<>();
        Transaction t = tm.begin();
        table.scan(t, (slot, r) -> {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < SCHEMA.fieldCount(); c++) row.add(value(r, c));
            out.add(row);
            return true;
        });
        tm.commit(t);
        out.sort(Comparator.comparingLong(r -> (Long) r.get(0)));
        return out;
    }

    static Object value(Record r, int c) {
        if (r.isNull(c)) return null;
        FieldType t = SCHEMA.type(c);
        if (t.isVariable()) return r.getString(c);
        if (t == FieldType.FLOAT64) return r.getDouble(c);
        if (t.isBit()) return r.getLong(c) != 0;
        return r.getLong(c);
    }

    /** The rows of an Arrow batch, dictionary columns decoded with Arrow's own {@link DictionaryEncoder}. */
    static List<List<Object>> rows(VectorSchemaRoot root, DictionaryProvider dictionaries) {
        List<FieldVector> vectors = new ArrayList<>();
        List<FieldVector> decoded = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
            if (v.getField().getDictionary() != null) {
                Dictionary d = dictionaries.lookup(v.getField().getDictionary().getId());
                FieldVector plain = (FieldVector) DictionaryEncoder.decode(v, d);
                decoded.add(plain);
                vectors.add(plain);
            } else {
                vectors.add(v);
            }
        }
        List<List<Object>> out = new ArrayList<>();
        for (int i = 0; i < root.getRowCount(); i++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < vectors.size(); c++) row.add(arrowValue(vectors.get(c), i));
            out.add(row);
        }
        decoded.forEach(FieldVector::close);
        return out;
    }

    static Object arrowValue(FieldVector v, int i) {
        if (v.isNull(i)) return null;
        if (v instanceof VarCharVector s) return new String(s.get(i), StandardCharsets.UTF_8);
        if (v instanceof VarBinaryVector b) return HexFormat.of().formatHex(b.get(i));
        if (v instanceof BitVector b) return b.get(i) != 0;
        Object o = v.getObject(i);
        if (o instanceof Double d) return d;
        if (o instanceof Character ch) return (long) ch; // UInt2
        return ((Number) o).longValue();
    }

    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparingLong(r -> (Long) r.get(0)));
        return out;
    }

    static String describe(List<Object> row) {
        return Arrays.toString(row.toArray());
    }
}

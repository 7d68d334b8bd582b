package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schema of an {@link ArrowTable}: each field type as the block stores it, so that a frozen
 * block's buffers are the vectors' buffers as they are. VARLEN columns are Utf8 (text) or Binary;
 * in a table that freezes by dictionary (§4.4) they are dictionary-encoded with int32 indices and
 * the dictionary id is the column's position.
 */
public final class ArrowSchemas {
    private ArrowSchemas() {}

    public static Schema of(ArrowTable table) {
        return of(table, table.freezeMode() == ArrowTable.FreezeMode.DICTIONARY);
    }

    /** The schema with every VARLEN column as plain Utf8 or Binary, dictionary or not. */
    public static Schema plain(ArrowTable table) {
        return of(table, false);
    }

    private static Schema of(ArrowTable table, boolean dictionary) {
        RecordSchema s = table.schema();
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < s.fieldCount(); c++) {
            dev.wastecheck.layouts.Field f = s.field(c);
            ArrowType type = type(f.type(), table.isBinary(c));
            DictionaryEncoding enc = dictionary && f.type().isVariable()
                    ? new DictionaryEncoding(c, true, new ArrowType.Int(32, true))
                    : null;
            fields.add(new Field(
                    f.name(), new org.apache.arrow.vector.types.pojo.FieldType(f.nullable(), type, enc), null));
        }
        return new Schema(fields);
    }

    static ArrowType type(FieldType t, boolean binary) {
        return switch (t) {
            case BIT -> ArrowType.Bool.INSTANCE;
            case INT8 -> new ArrowType.Int(8, true);
            case INT16 -> new ArrowType.Int(16, true);
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case UINT8 -> new ArrowType.Int(8, false);
            case UINT16 -> new ArrowType.Int(16, false);
            case UINT32 -> new ArrowType.Int(32, false);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case VARLEN -> binary ? ArrowType.Binary.INSTANCE : ArrowType.Utf8.INSTANCE;
        };
    }

    /** The dictionary's own field (the values), for a dictionary-encoded column. */
    static Field dictionaryField(ArrowTable table, int column) {
        return new Field(
                table.schema().field(column).name() + "_dictionary",
                new org.apache.arrow.vector.types.pojo.FieldType(
                        false, type(FieldType.VARLEN, table.isBinary(column)), null),
                null);
    }
}

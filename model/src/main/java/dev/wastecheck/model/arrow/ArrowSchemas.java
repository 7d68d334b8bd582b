package dev.wastecheck.model.arrow;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table's schema as Arrow (rows travel between modules as Arrow batches). Each column travels in the
 * Arrow type that carries every value of its declared type without loss: a 64-bit signed integer
 * for integers that fit one, bytes for byte strings and bit strings, and UTF-8 text for
 * everything else, exactly as the source wrote it (DECIMAL digits, dates, {@code '007'}), so the
 * profiler, not the reader, decides what a value is. The declared type rides along in each
 * field's metadata under {@link #DECLARED_TYPE}.
 */
public final class ArrowSchemas {
    /** Metadata key of the declared type's text in each field. */
    public static final String DECLARED_TYPE = "wastecheck.declared_type";

    private ArrowSchemas() {}

    /** The Arrow type that carries every value of a declared type unchanged. */
    public static ArrowType carrier(SqlType type) {
        if (type.family() == TypeFamily.INTEGER
                && (type.intBits() < 64 || (type.intBits() == 64 && !type.unsigned()))) {
            return new ArrowType.Int(64, true);
        }
        if (type.family().isBinary() || type.family() == TypeFamily.BIT) {
            return ArrowType.Binary.INSTANCE;
        }
        return ArrowType.Utf8.INSTANCE;
    }

    /** A nullable field of the given Arrow type carrying the column's declared type in its metadata. */
    public static Field field(String name, ColumnDef column, ArrowType type) {
        return new Field(
                name,
                new FieldType(
                        true, type, null, Map.of(DECLARED_TYPE, column.type().declared())),
                null);
    }

    /** The table as an Arrow schema: one field per column, named as the column, in its carrier type. */
    public static Schema of(TableDef table) {
        List<Field> fields = new ArrayList<>();
        for (ColumnDef c : table.columns()) {
            fields.add(field(c.name(), c, carrier(c.type())));
        }
        return new Schema(fields);
    }

    /** The declared type a field carries, or null when it carries none. */
    public static String declaredType(Field field) {
        return field.getMetadata() == null ? null : field.getMetadata().get(DECLARED_TYPE);
    }
}

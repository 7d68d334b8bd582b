package dev.wastecheck.model.arrow;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
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
 *
 * <p>The one place the project maps types to Arrow: the engine's Arrow-native tables build their
 * schemas from {@link #integer} and {@link #field} too, and a served table's integers take {@link
 * #tight} widths.
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

    /**
     * The narrowest Arrow type that holds every value of a declared type at its declared width: an
     * integer of 8, 16, 32 or 64 bits (signed as declared) for integers, else the {@link #carrier}. What
     * a client is served, so that a 32-bit {@code INT} crosses the wire in 4 bytes, not 8 (NBLB's
     * waste, in the export). An unsigned 64-bit integer has no Arrow type of its own that every reader
     * takes, so it stays text.
     */
    public static ArrowType tight(SqlType type) {
        if (type.family() == TypeFamily.INTEGER && type.intBits() > 0 && type.intBits() <= 64) {
            int bits = type.intBits() <= 8 ? 8 : type.intBits() <= 16 ? 16 : type.intBits() <= 32 ? 32 : 64;
            if (bits < 64 || !type.unsigned()) return integer(bits, !type.unsigned());
        }
        return carrier(type);
    }

    /** The Arrow integer type of {@code bits} (8, 16, 32, 64) bits. */
    public static ArrowType.Int integer(int bits, boolean signed) {
        return new ArrowType.Int(bits, signed);
    }

    /** A field without metadata; {@code dictionary} may be null. */
    public static Field field(String name, boolean nullable, ArrowType type, DictionaryEncoding dictionary) {
        return new Field(name, new FieldType(nullable, type, dictionary), null);
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

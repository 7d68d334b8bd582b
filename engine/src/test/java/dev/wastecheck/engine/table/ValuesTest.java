package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import org.junit.jupiter.api.Test;

class ValuesTest {
    /**
     * A NOT NULL boolean that tight=on made a 1-bit field is stored in Arrow blocks as its plain
     * UINT8: the trace's TRUE and FALSE must still bind, as 1 and 0, and nothing else that is not
     * a number may.
     */
    @Test
    void trueAndFalseBindToEveryIntegerField() {
        RecordSchema schema = RecordSchema.of(
                Field.of("flag", FieldType.BIT), Field.bits("packed", 1), Field.of("plain", FieldType.UINT8));
        Record r = new Record(schema);
        for (int f = 0; f < schema.fieldCount(); f++) {
            assertThat(Values.setFromLiteral(r, f, schema.type(f), "TRUE")).isTrue();
            assertThat(r.getLong(f)).isEqualTo(1);
            assertThat(Values.setFromLiteral(r, f, schema.type(f), "false")).isTrue();
            assertThat(r.getLong(f)).isZero();
            assertThat(Values.setFromLiteral(r, f, schema.type(f), "maybe")).isFalse();
        }
        assertThat(Values.setFromLiteral(r, 2, FieldType.UINT8, "300")).isFalse();
        assertThat(Values.setFromLiteral(r, 2, FieldType.UINT8, "255")).isTrue();
        assertThat(r.getLong(2)).isEqualTo(255);
    }
}

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

    /** parseLong reads what Long.parseLong reads, and refuses what it refuses or what is not digits. */
    @Test
    void parseLongAgreesWithTheJdk() {
        String[] literals = {
            "0",
            "-0",
            "7",
            "007",
            "-12",
            "42",
            "127",
            "128",
            "-129",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
            "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999",
            "-99999999999999999999",
            "18446744073709551616",
            "",
            "-",
            "+5",
            "1e3",
            "12a",
            " 1",
            "1.0",
            "--1",
            "00000000000000000001",
            "000000000000000000001"
        };
        for (String s : literals) {
            Long jdk;
            try {
                jdk = s.matches("-?[0-9]{1,20}") ? Long.parseLong(s) : null;
            } catch (NumberFormatException e) {
                jdk = null;
            }
            assertThat(Values.parseLong(s)).as(s).isEqualTo(jdk);
        }
        java.util.Random random = new java.util.Random(27);
        for (int k = 0; k < 10_000; k++) {
            long v = random.nextLong() >> random.nextInt(64);
            assertThat(Values.parseLong(Long.toString(v))).isEqualTo(v);
        }
    }
}

package dev.wastecheck.model.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Each declared type travels in the Arrow type that holds every one of its values unchanged. */
class ArrowSchemasTest {
    @Test
    void integersThatFitSixtyFourSignedBitsTravelAsIntegersTheRestAsTheirTextOrBytes() {
        TableDef t = DdlCatalog.parse("""
                CREATE TABLE t (
                  id int(10) unsigned NOT NULL,
                  big bigint NOT NULL,
                  huge bigint unsigned,
                  price decimal(10,2),
                  code char(3),
                  hash binary(16),
                  flags bit(8),
                  born date
                );
                """, Dialect.MYSQL).table("t");
        Schema s = ArrowSchemas.of(t);
        assertThat(s.getFields())
                .extracting(f -> f.getName())
                .containsExactly("id", "big", "huge", "price", "code", "hash", "flags", "born");
        ArrowType int64 = new ArrowType.Int(64, true);
        assertThat(s.findField("id").getType()).isEqualTo(int64);
        assertThat(s.findField("big").getType()).isEqualTo(int64);
        // above 2^63 - 1: a signed 64-bit integer would not hold it
        assertThat(s.findField("huge").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
        assertThat(s.findField("price").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
        assertThat(s.findField("code").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
        assertThat(s.findField("hash").getType()).isEqualTo(ArrowType.Binary.INSTANCE);
        assertThat(s.findField("flags").getType()).isEqualTo(ArrowType.Binary.INSTANCE);
        assertThat(s.getFields()).allMatch(f -> f.isNullable());
        assertThat(ArrowSchemas.declaredType(s.findField("id"))).isEqualTo("int(10) unsigned");
        assertThat(ArrowSchemas.declaredType(s.findField("price"))).isEqualTo("decimal(10,2)");
    }
}

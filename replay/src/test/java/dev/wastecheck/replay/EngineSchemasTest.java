package dev.wastecheck.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.engine.table.ColumnCodec;
import dev.wastecheck.engine.table.TableDesign.TightClass;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.sources.load.ColumnStorage;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Declared and tight types as engine fields: never narrower than a value needs, never a conversion that prints back differently. */
class EngineSchemasTest {
    private static SqlType mysql(String t) {
        return TypeParser.parse(t, Dialect.MYSQL);
    }

    private static ColumnReport report(String declared, String suggested, String min, String max, String... findings) {
        return new ColumnReport(
                "c",
                declared,
                suggested,
                0,
                0,
                0,
                0,
                min,
                max,
                java.util.Arrays.stream(findings)
                        .map(k -> new Finding(FindingKind.of(k), "", 0))
                        .toList());
    }

    @Test
    void declaredIntegersKeepTheirWidthAndUnsignedOnesTakeTheNextSignedWidth() {
        assertThat(EngineSchemas.declared(mysql("tinyint"), ColumnStorage.INT64))
                .isEqualTo(FieldType.INT8);
        assertThat(EngineSchemas.declared(mysql("tinyint unsigned"), ColumnStorage.INT64))
                .isEqualTo(FieldType.UINT8);
        assertThat(EngineSchemas.declared(mysql("smallint unsigned"), ColumnStorage.INT64))
                .isEqualTo(FieldType.UINT16);
        assertThat(EngineSchemas.declared(mysql("mediumint unsigned"), ColumnStorage.INT64))
                .isEqualTo(FieldType.UINT32);
        assertThat(EngineSchemas.declared(mysql("int"), ColumnStorage.INT64)).isEqualTo(FieldType.INT32);
        // four bytes, as InnoDB stores it: the signed field would need eight
        assertThat(EngineSchemas.declared(mysql("int unsigned"), ColumnStorage.INT64))
                .isEqualTo(FieldType.UINT32);
        assertThat(EngineSchemas.declared(mysql("bigint unsigned"), ColumnStorage.INT64))
                .isEqualTo(FieldType.INT64);
        assertThat(EngineSchemas.declared(mysql("mediumint"), ColumnStorage.INT64))
                .isEqualTo(FieldType.INT32);
        assertThat(EngineSchemas.declared(mysql("varbinary(255)"), ColumnStorage.BYTES))
                .isEqualTo(FieldType.VARLEN);
        assertThat(EngineSchemas.declared(mysql("decimal(10,2)"), ColumnStorage.TEXT))
                .isEqualTo(FieldType.VARLEN);
        assertThat(EngineSchemas.declared(mysql("bigint unsigned"), ColumnStorage.TEXT))
                .isEqualTo(FieldType.VARLEN);
    }

    @Test
    void tightTypesNarrowIntegersAndDigitStringsOnly() {
        SqlType bigU = mysql("bigint unsigned");
        assertThat(EngineSchemas.tight(
                        report("bigint unsigned", "SMALLINT UNSIGNED", "1", "71", "narrow_integer"),
                        bigU,
                        FieldType.INT64,
                        Dialect.MYSQL))
                .isEqualTo(FieldType.UINT16);
        // unsigned 8-bit values above 127 fit the unsigned byte
        assertThat(EngineSchemas.tight(
                        report("int unsigned", "TINYINT UNSIGNED", "0", "200", "narrow_integer"),
                        mysql("int unsigned"),
                        FieldType.UINT32,
                        Dialect.MYSQL))
                .isEqualTo(FieldType.UINT8);
        // MediaWiki binary(14) timestamps: the integer their digits spell
        assertThat(EngineSchemas.tight(
                        report("binary(14)", "DATETIME", "20010115000000", "20160313213801", "string_holds_timestamp"),
                        mysql("binary(14)"),
                        FieldType.VARLEN,
                        Dialect.MYSQL))
                .isEqualTo(FieldType.INT64);
        // a date in a string does not print back as an integer: stays
        assertThat(EngineSchemas.tight(
                        report("varchar(10)", "DATE", "2001-01-15", "2016-03-13", "string_holds_date"),
                        mysql("varchar(10)"),
                        FieldType.VARLEN,
                        Dialect.MYSQL))
                .isEqualTo(FieldType.VARLEN);
        // ENUM suggestions are not a plain field: the dictionary class takes them (below)
        assertThat(EngineSchemas.tight(
                        report("varchar(20)", "ENUM('a','b')", "a", "b", "low_cardinality"),
                        mysql("varchar(20)"),
                        FieldType.VARLEN,
                        Dialect.MYSQL))
                .isEqualTo(FieldType.VARLEN);
        // all NULL: nothing is proven, keep the declared field
        assertThat(EngineSchemas.tight(
                        report("int", "int", null, null, "all_null"), mysql("int"), FieldType.INT32, Dialect.MYSQL))
                .isEqualTo(FieldType.INT32);
        assertThat(List.of(FieldType.values())).contains(FieldType.BIT);
    }

    @Test
    void eachClassOfTightTypesHasItsOwnField() {
        var time = java.util.EnumSet.of(dev.wastecheck.engine.table.TableDesign.TightClass.TIME);
        var dict = java.util.EnumSet.of(dev.wastecheck.engine.table.TableDesign.TightClass.DICT);
        var bool = java.util.EnumSet.of(dev.wastecheck.engine.table.TableDesign.TightClass.BOOL);
        ColumnReport ts =
                report("binary(14)", "DATETIME", "20010115000000", "20160313213801", "string_holds_timestamp");
        var codec = EngineSchemas.codec(ts, mysql("binary(14)"), FieldType.VARLEN, time);
        assertThat(codec.field()).as("MediaWiki's binary(14) in 4 bytes").isEqualTo(FieldType.UINT32);
        assertThat(EngineSchemas.codec(ts, mysql("binary(14)"), FieldType.VARLEN, dict))
                .as("not the dict class's")
                .isNull();
        assertThat(EngineSchemas.codec(
                                report("varchar(10)", "DATE", "2001-01-15", "2016-03-13", "string_holds_date"),
                                mysql("varchar(10)"),
                                FieldType.VARLEN,
                                time)
                        .field())
                .isEqualTo(FieldType.UINT16);
        ColumnReport model = new ColumnReport(
                "c",
                "varbinary(32)",
                "varbinary(32)",
                0,
                0,
                0,
                1,
                "wikitext",
                "wikitext",
                List.of(new Finding(FindingKind.of("constant"), "", 0)));
        assertThat(EngineSchemas.codec(model, mysql("varbinary(32)"), FieldType.VARLEN, dict)
                        .field())
                .isEqualTo(FieldType.UINT8);
        assertThat(EngineSchemas.codec(model, mysql("varbinary(32)"), FieldType.VARLEN, time))
                .isNull();
        // a tinyint(1) holding 0 and 1 is a boolean: one bit; a tinyint holding 0 and 1 today may hold 2 tomorrow
        assertThat(EngineSchemas.tight(
                        report("tinyint(1)", "tinyint(1)", "0", "1"),
                        mysql("tinyint(1)"),
                        FieldType.INT8,
                        Dialect.MYSQL,
                        bool))
                .isEqualTo(FieldType.BIT);
        assertThat(EngineSchemas.tight(
                        report("tinyint", "TINYINT", "0", "1"), mysql("tinyint"), FieldType.INT8, Dialect.MYSQL, bool))
                .isEqualTo(FieldType.INT8);
    }

    /** §4.1's "8, or even 4 bits": one-byte integers and dictionary codes whose range allows it, with room to double. */
    @Test
    void theBitsClassPacksSmallRangesWithRoomToDouble() {
        var bits = EnumSet.of(TightClass.BITS);
        var none = EnumSet.noneOf(TightClass.class);
        // namespaces 0..14: 29 fits 5 bits
        assertThat(EngineSchemas.subByteBits(report("int", "TINYINT UNSIGNED", "0", "14"), FieldType.UINT8, bits))
                .isEqualTo(5);
        assertThat(EngineSchemas.subByteBits(report("int", "TINYINT", "0", "7"), FieldType.INT8, bits))
                .isEqualTo(4);
        assertThat(EngineSchemas.subByteBits(report("int", "TINYINT", "0", "0"), FieldType.INT8, bits))
                .isEqualTo(1);
        assertThat(EngineSchemas.subByteBits(report("int", "TINYINT", "0", "64"), FieldType.INT8, bits))
                .as("past 63: a whole byte")
                .isZero();
        assertThat(EngineSchemas.subByteBits(report("int", "TINYINT", "-1", "3"), FieldType.INT8, bits))
                .as("negative")
                .isZero();
        assertThat(EngineSchemas.subByteBits(report("int", "SMALLINT", "0", "3"), FieldType.INT16, bits))
                .as("the analyzer kept two bytes")
                .isZero();
        assertThat(EngineSchemas.subByteBits(report("int", "TINYINT", "0", "3"), FieldType.INT8, none))
                .isZero();
        assertThat(EngineSchemas.subByteBits(report("tinyint(1)", "BOOLEAN", "0", "1"), FieldType.BIT, bits))
                .as("a boolean packs with the others")
                .isEqualTo(1);
        var dict = EnumSet.of(TightClass.DICT, TightClass.BITS);
        ColumnReport three = new ColumnReport(
                "c",
                "varbinary(32)",
                "ENUM('a','b','c')",
                0,
                0,
                0,
                3,
                "a",
                "c",
                List.of(new Finding(FindingKind.of("low_cardinality"), "", 0)));
        var codec = (ColumnCodec.Dictionary) EngineSchemas.codec(three, mysql("varbinary(32)"), FieldType.VARLEN, dict);
        assertThat(codec.bits()).as("three values, room for six: 3 bits").isEqualTo(3);
        assertThat(codec.field()).isEqualTo(FieldType.UINT8);
        for (String v : List.of("a", "b", "c", "d", "e", "f", "g", "h"))
            assertThat(codec.encode(v)).isNotNegative();
        assertThat(codec.encode("i")).as("past 2^3 values").isEqualTo(ColumnCodec.NONE);
    }
}

package dev.wastecheck.analyzer.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** No suggested type loses a value: the invariant, checked over many ranges and every dialect. */
class TypeInferencePropertiesTest {

    private static ColumnProfile integers(long rows, long min, long max) {
        ColumnProfile p = new ColumnProfile();
        p.rows = rows;
        p.nonNull = rows;
        p.distinct = Math.min(rows, Math.max(1, max - min + 1));
        p.minInt = BigInteger.valueOf(min);
        p.maxInt = BigInteger.valueOf(max);
        return p;
    }

    private static TableDef table(ColumnDef col) {
        return new TableDef("t", List.of(col), List.of(), List.of(), null, "t.sql:1", true);
    }

    @Property(tries = 400)
    void suggestedIntegerTypesHoldEveryValueWithTheirHeadroom(
            @ForAll @LongRange(min = -3_000_000_000L, max = 3_000_000_000L) long a,
            @ForAll @LongRange(min = -3_000_000_000L, max = 3_000_000_000L) long b) {
        long min = Math.min(a, b);
        long max = Math.max(a, b);
        for (Dialect d : Dialect.values()) {
            ColumnDef col = new ColumnDef("amount", TypeParser.parse("bigint", d), false, false);
            ColumnReport r = new TypeInference(d, InferenceOptions.defaults())
                    .infer(table(col), col, integers(1000, min, max), null);
            SqlType suggested = TypeParser.parse(r.suggestedType(), d);
            if (suggested.family() == dev.wastecheck.model.schema.TypeFamily.BOOLEAN) {
                // PostgreSQL columns of only 0 and 1 become boolean: lossless for exactly that range.
                assertThat(min).isGreaterThanOrEqualTo(0);
                assertThat(max).isLessThanOrEqualTo(1);
                continue;
            }
            assertThat(suggested.isInteger()).as(d + " " + r.suggestedType()).isTrue();
            BigInteger hi = suggested.intMax();
            BigInteger lo = suggested.unsigned() ? BigInteger.ZERO : hi.negate().subtract(BigInteger.ONE);
            assertThat(BigInteger.valueOf(min)).as(d + " " + r.suggestedType()).isGreaterThanOrEqualTo(lo);
            assertThat(BigInteger.valueOf(max)).as(d + " " + r.suggestedType()).isLessThanOrEqualTo(hi);
            assertThat(r.tightBytes()).isLessThanOrEqualTo(r.declaredBytes());
        }
    }

    @Property(tries = 200)
    void aKeyFedByACounterIsNeverNarrowedBelowFourBytes(
            @ForAll @LongRange(min = 1, max = 3_000_000_000L) long max,
            @ForAll @LongRange(min = 0, max = 200_000) long rows) {
        for (Dialect d : new Dialect[] {Dialect.MYSQL, Dialect.POSTGRESQL, Dialect.DUCKDB}) {
            for (String declared : new String[] {"bigint", "integer"}) {
                ColumnDef id = new ColumnDef("id", TypeParser.parse(declared, d), false, true);
                ColumnReport r = new TypeInference(d, InferenceOptions.defaults())
                        .infer(table(id), id, integers(rows, 1, max), null);
                SqlType suggested = TypeParser.parse(r.suggestedType(), d);
                assertThat(suggested.intBits())
                        .as(d + " " + declared + " -> " + r.suggestedType())
                        .isGreaterThanOrEqualTo(32);
            }
        }
    }

    @Test
    void autoIncrementKeyAt103RowsKeepsItsTypeForWantOfEvidence() {
        ColumnDef id = new ColumnDef("id", TypeParser.parse("int(11)", Dialect.MYSQL), false, true);
        ColumnReport r = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(id), id, integers(103, 1, 103), null);
        assertThat(r.suggestedType()).isEqualTo("int(11)");
        assertThat(r.findings())
                .anyMatch(f -> f.kind() == FindingKind.KEPT_DECLARED
                        && f.detail().startsWith("too little evidence (103 rows in t, fewer than --min-rows 1000)"));
    }

    @Test
    void anIntKeyWithEnoughRowsStaysIntAtTheFloor() {
        ColumnDef id = new ColumnDef("id", TypeParser.parse("int(11)", Dialect.MYSQL), false, true);
        ColumnReport r = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(id), id, integers(50_000, 1, 50_000), null);
        assertThat(r.suggestedType()).isEqualTo("int(11)");
        assertThat(r.findings())
                .anyMatch(
                        f -> f.kind() == FindingKind.KEPT_DECLARED && f.detail().contains("--key-floor 4"));
    }

    @Test
    void aBigintKeyBecomesIntWithTenTimesItsMaximumAndSaysItHasNoRate() {
        ColumnDef id = new ColumnDef("id", TypeParser.parse("bigint unsigned", Dialect.MYSQL), false, true);
        ColumnReport r = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(id), id, integers(5000, 1, 5000), null);
        assertThat(r.suggestedType()).isEqualTo("INT UNSIGNED");
        assertThat(r.findings().get(0).detail())
                .contains(
                        "max 5000, x10 room: up to 50000 fits INT UNSIGNED",
                        "no timestamp to measure a rate: headroom only");
    }

    @Test
    void theKeyFloorIsAnOptionButNeverATinyint() {
        ColumnDef id = new ColumnDef("id", TypeParser.parse("int", Dialect.MYSQL), false, true);
        InferenceOptions two = InferenceOptions.defaults().withKeyFloorBytes(2);
        ColumnReport r = new TypeInference(Dialect.MYSQL, two).infer(table(id), id, integers(2000, 1, 20), null);
        assertThat(r.suggestedType()).isEqualTo("SMALLINT");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> InferenceOptions.defaults().withKeyFloorBytes(1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countersKeepTheirWidth() {
        ColumnDef c =
                new ColumnDef("page_counter", TypeParser.parse("bigint(20) unsigned", Dialect.MYSQL), false, false);
        ColumnReport r = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(c), c, integers(5000, 0, 90), null);
        assertThat(r.suggestedType()).isEqualTo("bigint(20) unsigned");
        assertThat(r.findings())
                .anyMatch(
                        f -> f.kind() == FindingKind.KEPT_DECLARED && f.detail().startsWith("a counter"));
    }

    @Test
    void anOrdinaryIntegerWithEnoughRowsTakesTwiceItsRange() {
        ColumnDef c = new ColumnDef("quantity", TypeParser.parse("int", Dialect.MYSQL), false, false);
        ColumnReport r = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(c), c, integers(5000, 1, 90), null);
        assertThat(r.suggestedType()).isEqualTo("TINYINT UNSIGNED");
        assertThat(r.findings().get(0).detail()).contains("up to 180");
        ColumnReport few = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(c), c, integers(999, 1, 90), null);
        assertThat(few.suggestedType()).isEqualTo("int");
        ColumnReport one = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults())
                .infer(table(c), c, integers(5000, 1, 1), null);
        assertThat(one.suggestedType()).as("one value gives no range").isEqualTo("int");
    }

    @Test
    void zeroPaddedNumbersStayText() {
        // '007' does not round-trip through an integer: the profiler counts no canonical integers.
        ColumnDef code = new ColumnDef("code", TypeParser.parse("varchar(10)", Dialect.MYSQL), false, false);
        ColumnProfile p = new ColumnProfile();
        p.rows = 100;
        p.nonNull = 100;
        p.distinct = 50;
        p.sumLen = 300;
        p.intCanonical = 60; // 40 values like '007'
        ColumnReport r =
                new TypeInference(Dialect.MYSQL, InferenceOptions.defaults()).infer(table(code), code, p, null);
        assertThat(r.suggestedType()).isEqualTo("varchar(10)");
    }

    @Test
    void timestampsBefore1970BecomeDatetimeNotTimestamp() {
        ColumnDef ts = new ColumnDef("touched", TypeParser.parse("binary(14)", Dialect.MYSQL), false, false);
        ColumnProfile p = new ColumnProfile();
        p.rows = 10;
        p.nonNull = 10;
        p.distinct = 10;
        p.sumLen = 140;
        p.mwTimestamps = 10;
        p.mwTimestampMin = "19691231235959";
        p.mwTimestampMax = "20160608151837";
        ColumnReport r = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults()).infer(table(ts), ts, p, null);
        assertThat(r.suggestedType()).isEqualTo("DATETIME");
        assertThat(r.tightBytes()).isEqualTo(50);
        assertThat(r.declaredBytes()).isEqualTo(140);
        assertThat(r.findings().get(0).detail()).contains("TIMESTAMP cannot hold them");
    }

    @Test
    void markersBesideRealNullsKeepTheText() {
        ColumnDef c = new ColumnDef("zip", TypeParser.parse("varchar(10)", Dialect.POSTGRESQL), true, false);
        ColumnProfile p = new ColumnProfile();
        p.rows = 100;
        p.nonNull = 90; // 10 real NULLs
        p.markers = 5; // and 5 'NA'
        p.markerKinds = 1;
        p.distinct = 80;
        p.sumLen = 450;
        p.intCanonical = 85;
        p.strIntMin = BigInteger.ONE;
        p.strIntMax = BigInteger.valueOf(99_999);
        ColumnReport r = new TypeInference(Dialect.POSTGRESQL, InferenceOptions.defaults()).infer(table(c), c, p, null);
        assertThat(r.suggestedType()).isEqualTo("varchar(10)");
        assertThat(r.findings()).anyMatch(f -> f.kind() == FindingKind.NULL_MARKER);
    }
}

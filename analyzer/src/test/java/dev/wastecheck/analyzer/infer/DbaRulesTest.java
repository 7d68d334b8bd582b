package dev.wastecheck.analyzer.infer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Types a DBA would not take, whatever the snapshot's values allow (docs/analyze.md, "Types a DBA
 * would not take"): each case is a profile the old inference turned into a lossless but wrong type.
 */
class DbaRulesTest {
    private final TypeInference mysql = new TypeInference(Dialect.MYSQL, InferenceOptions.defaults());

    private static TableDef table(ColumnDef col) {
        return new TableDef("t", List.of(col), List.of(), List.of(), null, "t.sql:1", true);
    }

    private static ColumnDef col(String name, String type, Dialect d) {
        return new ColumnDef(name, TypeParser.parse(type, d), true, false);
    }

    /** A text column of canonical integers, {@code width} characters each when fixed. */
    private static ColumnProfile digits(long rows, long min, long max, long minLen, long maxLen) {
        ColumnProfile p = new ColumnProfile();
        p.rows = rows;
        p.nonNull = rows;
        p.distinct = rows / 2;
        p.sumLen = rows * maxLen;
        p.minLen = minLen;
        p.maxLen = maxLen;
        p.realMinLen = minLen;
        p.realMaxLen = maxLen;
        p.maxChars = maxLen;
        p.intCanonical = rows;
        p.strIntMin = BigInteger.valueOf(min);
        p.strIntMax = BigInteger.valueOf(max);
        return p;
    }

    private static ColumnProfile decimals(long rows, long maxInt, boolean whole) {
        ColumnProfile p = new ColumnProfile();
        p.rows = rows;
        p.nonNull = rows;
        p.distinct = 40;
        p.minInt = BigInteger.ZERO;
        p.maxInt = BigInteger.valueOf(maxInt);
        p.usedIntDigits = String.valueOf(maxInt).length();
        p.integral = whole ? rows : rows / 2;
        p.minNumber = "0.99";
        p.maxNumber = maxInt + ".86";
        return p;
    }

    @Test
    void phoneNumbersAndPostalCodesStayStrings() {
        for (String name : new String[] {"phone", "postal_code", "PostalCode", "zip", "fax", "extension"}) {
            ColumnDef c = col(name, "varchar(20)", Dialect.MYSQL);
            ColumnReport r = mysql.infer(table(c), c, digits(5000, 1000, 99_883_471_275L, 4, 11), null);
            assertThat(r.suggestedType()).as(name).isEqualTo("varchar(20)");
            assertThat(r.findings())
                    .as(name)
                    .anyMatch(f ->
                            f.kind() == FindingKind.KEPT_DECLARED && f.detail().contains("identifier"));
        }
    }

    @Test
    void digitsOfOneFixedWidthAreACodeNotANumber() {
        ColumnDef c = col("sku_ref", "varchar(12)", Dialect.MYSQL);
        ColumnReport r = mysql.infer(table(c), c, digits(5000, 10000, 99999, 5, 5), null);
        assertThat(r.suggestedType()).isEqualTo("varchar(12)");
        ColumnDef n = col("pieces", "varchar(12)", Dialect.MYSQL);
        ColumnReport number = mysql.infer(table(n), n, digits(5000, 1, 99999, 1, 5), null);
        assertThat(number.suggestedType())
                .as("varying widths: a number written as text")
                .isEqualTo("MEDIUMINT");
    }

    @Test
    void aSerializedValueNeverBecomesANumber() {
        ColumnDef c = col("o_serialized", "varbinary(255)", Dialect.MYSQL);
        ColumnReport r = mysql.infer(table(c), c, digits(5000, 1, 4000, 1, 4), null);
        assertThat(r.suggestedType()).isEqualTo("varbinary(255)");
        assertThat(r.findings()).anyMatch(f -> f.detail().contains("payload"));
    }

    @Test
    void decimalKeepsItsScaleAndNeverBecomesAnIntegerBecauseTodaysValuesEndInZeros() {
        ColumnDef total = col("Total", "NUMERIC(10,2)", Dialect.MYSQL);
        ColumnReport whole = mysql.infer(table(total), total, decimals(5000, 25, true), null);
        assertThat(whole.suggestedType()).as("all .00 today, cents tomorrow").isEqualTo("DECIMAL(7,2)");
        assertThat(whole.findings().get(0).detail()).contains("x1000 room keeps 5");
        ColumnReport thin = mysql.infer(table(total), total, decimals(412, 25, false), null);
        assertThat(thin.suggestedType()).isEqualTo("NUMERIC(10,2)");
        assertThat(thin.max()).isEqualTo("25.86");
    }

    /** An INT UNSIGNED column of {@code rows} distinct values from 16 to {@code max}. */
    private static ColumnProfile integers(long rows, long max) {
        ColumnProfile p = new ColumnProfile();
        p.rows = rows;
        p.nonNull = rows;
        p.distinct = rows / 2;
        p.minInt = BigInteger.valueOf(16);
        p.maxInt = BigInteger.valueOf(max);
        return p;
    }

    @Test
    void aPayloadsSizeKeepsItsWidthWhileAnOrdinaryIntegerNarrows() {
        ColumnDef revLen = col("rev_len", "int(10) unsigned", Dialect.MYSQL);
        ColumnReport len = mysql.infer(table(revLen), revLen, integers(38_000, 30_000), null);
        assertThat(len.suggestedType())
                .as("a 70 KB article would not fit SMALLINT UNSIGNED")
                .isEqualTo("int(10) unsigned");
        assertThat(len.findings().get(0).detail()).contains("a size (named so)");
        for (String name : List.of("img_size", "content_length", "Bytes", "page_len")) {
            assertThat(ColumnNames.isSize(name)).as(name).isTrue();
        }
        // Sakila's film.length is minutes, and a plain integer of the same range narrows
        assertThat(ColumnNames.isSize("length")).isFalse();
        ColumnDef plain = col("rev_minor", "int(10) unsigned", Dialect.MYSQL);
        assertThat(mysql.infer(table(plain), plain, integers(38_000, 30_000), null)
                        .suggestedType())
                .isEqualTo("SMALLINT UNSIGNED");
    }

    @Test
    void aDoubleOfWholeValuesStaysADouble() {
        ColumnDef c = col("o_sortkey", "double", Dialect.MYSQL);
        ColumnProfile p = new ColumnProfile();
        p.rows = 5000;
        p.nonNull = 5000;
        p.distinct = 3;
        p.integral = 5000;
        p.minInt = BigInteger.ONE;
        p.maxInt = BigInteger.valueOf(4);
        ColumnReport r = mysql.infer(table(c), c, p, null);
        assertThat(r.suggestedType()).isEqualTo("double");
    }

    @Test
    void enumOnlyForAClosedDomainWithEvidence() {
        ColumnProfile p = new ColumnProfile();
        p.rows = 5000;
        p.nonNull = 5000;
        p.distinct = 3;
        p.sumLen = 30_000;
        p.maxChars = 9;
        List<String> members = List.of("active", "closed", "suspended");
        ColumnDef status = col("status", "varchar(16)", Dialect.MYSQL);
        assertThat(mysql.infer(table(status), status, p, members).suggestedType())
                .isEqualTo("ENUM('active','closed','suspended')");

        for (String name : new String[] {
            "rc_user_text", "user_name", "actor_name", "title", "comment", "email", "url", "pp_propname"
        }) {
            ColumnDef c = col(name, "varbinary(255)", Dialect.MYSQL);
            ColumnReport r = mysql.infer(table(c), c, p, members);
            assertThat(r.suggestedType()).as(name).isEqualTo("varbinary(255)");
        }
        ColumnProfile few = p.copy();
        few.rows = 132;
        few.nonNull = 132;
        ColumnReport thin = mysql.infer(table(status), status, few, members);
        assertThat(thin.suggestedType()).isEqualTo("varchar(16)");
        assertThat(thin.findings()).anyMatch(f -> f.detail().startsWith("too little evidence (132 values"));
        ColumnReport key = mysql.infer(table(status), status, p, members, new TypeInference.Context(null, null, true));
        assertThat(key.suggestedType()).as("part of a key").isEqualTo("varchar(16)");
    }

    @Test
    void charLosesItsPaddingButKeepsItsLimit() {
        ColumnDef c = col("name", "CHAR(20)", Dialect.MYSQL);
        ColumnProfile p = new ColumnProfile();
        p.rows = 6;
        p.nonNull = 6;
        p.distinct = 6;
        p.sumLen = 42;
        p.maxChars = 8;
        ColumnReport r = mysql.infer(table(c), c, p, null);
        assertThat(r.suggestedType()).isEqualTo("VARCHAR(20)");
        assertThat(r.findings().get(0).kind()).isEqualTo(FindingKind.PADDING);
    }

    @Test
    void aTimestampAtMidnightIsADateWhenTheNameSaysSoOrTheRowsAreMany() {
        ColumnProfile p = new ColumnProfile();
        p.rows = 8;
        p.nonNull = 8;
        p.distinct = 8;
        p.midnight = 8;
        p.sumLen = 8 * 19; // SQLite keeps the text
        p.minTemporal = "1947-09-19 00:00:00";
        p.maxTemporal = "1973-08-29 00:00:00";
        ColumnDef birth = col("BirthDate", "DATETIME", Dialect.MYSQL);
        assertThat(mysql.infer(table(birth), birth, p, null).suggestedType()).isEqualTo("DATE");
        ColumnDef stamp = col("stamp", "DATETIME", Dialect.MYSQL);
        assertThat(mysql.infer(table(stamp), stamp, p, null).suggestedType())
                .as("8 midnights may be chance")
                .isEqualTo("DATETIME");
        ColumnReport sqlite =
                new TypeInference(Dialect.SQLITE, InferenceOptions.defaults()).infer(table(birth), birth, p, null);
        assertThat(sqlite.suggestedType()).isEqualTo("INTEGER");
        assertThat(sqlite.findings().get(0).detail())
                .as("what the integer encodes")
                .contains("unix seconds");
    }

    @Test
    void observationsAreNotAdviceToDrop() {
        ColumnDef c = col("last_update", "TIMESTAMP", Dialect.MYSQL);
        ColumnProfile p = new ColumnProfile();
        p.rows = 600;
        p.nonNull = 600;
        p.distinct = 1;
        p.minTemporal = "2006-02-15 04:45:30";
        p.maxTemporal = p.minTemporal;
        ColumnReport r = mysql.infer(table(c), c, p, null);
        assertThat(r.findings())
                .anyMatch(f -> f.kind() == FindingKind.CONSTANT
                        && f.bytes() == 0
                        && f.detail().contains("in this snapshot"));
        assertThat(r.findings())
                .noneMatch(f -> f.detail().contains("dropped") || f.detail().contains("could supply"));
    }
}

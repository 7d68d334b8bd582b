package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.layouts.FieldType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Tight fields for text ("No Bits Left Behind" §4.1): each value prints back byte for byte, or is refused. */
class ColumnCodecTest {
    private static String back(ColumnCodec c, String v) {
        long code = c.encode(v);
        assertThat(code).as(v).isNotEqualTo(ColumnCodec.NONE);
        assertThat(c.field().fits(code)).isTrue();
        return new String(c.decode(code), StandardCharsets.UTF_8);
    }

    @Test
    void mediaWikiTimestampsFitFourBytesAndPrintBackTheirDigits() {
        ColumnCodec.Timestamp t = ColumnCodec.Timestamp.forRange("20010115192713", "20160607193124");
        assertThat(t.field()).isEqualTo(FieldType.UINT32);
        assertThat(t.format()).isEqualTo(ColumnCodec.Timestamp.Format.DIGITS14);
        for (String v : new String[] {"20160607193124", "19700101000000", "20000229235959", "00000000000000"}) {
            assertThat(back(t, v)).isEqualTo(v);
        }
        assertThat(t.encode("20160607193124"))
                .isGreaterThan(t.encode("20160607193123")); // order kept: ranges still work
        assertThat(t.encode("20150229000000")).as("no 29 February in 2015").isEqualTo(ColumnCodec.NONE);
        assertThat(t.encode("20160607246000")).isEqualTo(ColumnCodec.NONE);
        assertThat(t.encode("2016060719312")).as("13 digits").isEqualTo(ColumnCodec.NONE);
        assertThat(t.encode("21100101000000"))
                .as("past 2106 does not fit 4 bytes")
                .isEqualTo(ColumnCodec.NONE);
        assertThat(ColumnCodec.Timestamp.forRange("20160101000000", "20990101000000")
                        .field())
                .isEqualTo(FieldType.UINT32);
        assertThat(ColumnCodec.Timestamp.forRange("20160101000000", "21200101000000")
                        .field())
                .as("a latest value past 2100 leaves no room to grow in 4 bytes")
                .isEqualTo(FieldType.INT64);
        assertThat(ColumnCodec.Timestamp.forRange("abc", "20160101000000")).isNull();
    }

    @Test
    void everySecondFormPrintsBackInBothFormatsFromYearOneToNineThousand() {
        ColumnCodec.Timestamp digits =
                new ColumnCodec.Timestamp(ColumnCodec.Timestamp.Format.DIGITS14, FieldType.INT64);
        ColumnCodec.Timestamp iso = new ColumnCodec.Timestamp(ColumnCodec.Timestamp.Format.ISO_SPACE, FieldType.INT64);
        java.util.Random random = new java.util.Random(27);
        for (int i = 0; i < 20_000; i++) {
            int y = i < 10
                    ? new int[] {1, 9, 99, 999, 1000, 1969, 1970, 2000, 2100, 9999}[i]
                    : 1 + random.nextInt(9999);
            int mo = 1 + random.nextInt(12), d = 1 + random.nextInt(28), h = random.nextInt(24);
            int mi = random.nextInt(60), se = random.nextInt(60);
            String a = String.format("%04d%02d%02d%02d%02d%02d", y, mo, d, h, mi, se);
            String b = String.format("%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, se);
            assertThat(back(digits, a)).isEqualTo(a);
            assertThat(back(iso, b)).isEqualTo(b);
        }
        assertThat(new String(digits.decode(0), StandardCharsets.US_ASCII)).isEqualTo("00000000000000");
        assertThat(new String(iso.decode(0), StandardCharsets.US_ASCII)).isEqualTo("0000-00-00 00:00:00");
    }

    @Test
    void isoTimestampsAndDates() {
        ColumnCodec.Timestamp t = ColumnCodec.Timestamp.forRange("2016-06-07 19:31:24", "2016-06-08 00:00:00");
        assertThat(t.format()).isEqualTo(ColumnCodec.Timestamp.Format.ISO_SPACE);
        assertThat(back(t, "2016-06-07 19:31:24")).isEqualTo("2016-06-07 19:31:24");
        assertThat(t.encode("2016-06-07T19:31:24")).isEqualTo(ColumnCodec.NONE);
        ColumnCodec.Date d = ColumnCodec.Date.forRange("1970-01-01", "2031-12-31");
        assertThat(d.field()).isEqualTo(FieldType.UINT16);
        assertThat(back(d, "2024-02-29")).isEqualTo("2024-02-29");
        assertThat(back(d, "0000-00-00")).isEqualTo("0000-00-00");
        assertThat(d.encode("2023-02-30")).isEqualTo(ColumnCodec.NONE);
        assertThat(ColumnCodec.Date.forRange("1899-05-01", "2031-12-31").field())
                .as("before 1970: 4 bytes")
                .isEqualTo(FieldType.INT32);
    }

    @Test
    void aDictionaryGrowsToItsFieldsCapacityAndNoFurther() {
        ColumnCodec.Dictionary d = ColumnCodec.Dictionary.forDistinct(3);
        assertThat(d.field()).isEqualTo(FieldType.UINT8);
        assertThat(back(d, "wikitext")).isEqualTo("wikitext");
        assertThat(d.encode("wikitext")).isEqualTo(d.encode("wikitext"));
        assertThat(d.find("json".getBytes(StandardCharsets.UTF_8), 0, 4))
                .as("find does not add")
                .isEqualTo(ColumnCodec.NONE);
        byte[] binary = {0, (byte) 0xFF, 'a'};
        assertThat(d.decode(d.encode(binary, 0, 3))).containsExactly(binary);
        for (int i = d.size(); i < 256; i++) assertThat(d.encode("v" + i)).isNotEqualTo(ColumnCodec.NONE);
        assertThat(d.encode("one too many")).isEqualTo(ColumnCodec.NONE);
        assertThat(ColumnCodec.Dictionary.forDistinct(128).field()).isEqualTo(FieldType.UINT16);
        assertThatThrownBy(() -> ColumnCodec.Dictionary.forDistinct(40_000))
                .hasMessageContaining("40000 distinct values");
    }
}

package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.model.sql.SqlScriptReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the two fillers' split weighs: {@link TokenChunk#weigh} through {@link ArrowRowBuilder#cost}. */
class SplitCostTest {
    private static final String[] NAMES = {"id", "status", "amount", "created", "iso", "note"};
    private static final String[] TYPES = {
        "int(11)", "varchar(20)", "decimal(12,2)", "binary(14)", "varchar(32)", "varchar(255)"
    };

    private static ArrowRowBuilder builder() {
        List<ColumnDef> cols = new java.util.ArrayList<>();
        for (int i = 0; i < NAMES.length; i++) {
            cols.add(new ColumnDef(NAMES[i], TypeParser.parse(TYPES[i], Dialect.MYSQL), true, false));
        }
        TableDef t = new TableDef("orders", cols, List.of(), List.of(), null, "t.sql:1", true);
        return new ArrowRowBuilder(t, new LoadStats().table("orders"), "t.sql");
    }

    private static void row(TokenChunk c, String... values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                c.value(i, SqlScriptReader.NULL, new byte[0], 0, 0);
                continue;
            }
            byte[] b = values[i].getBytes(StandardCharsets.UTF_8);
            int kind = i == 0 || i == 2 ? SqlScriptReader.NUMBER : SqlScriptReader.STRING;
            c.value(i, kind, b, 0, b.length, true);
        }
        c.endRow(values.length, 1);
    }

    /**
     * A value that starts as a number outweighs a code of as many bytes (it is read as a number,
     * a DECIMAL's scale and range checked, a date's fields checked): bytes alone had put the
     * orders shape's amount and timestamp on one filler with the light integers.
     */
    @Test
    void numbersDatesAndDecimalsWeighMoreThanTheirBytes() {
        TokenChunk c = new TokenChunk();
        for (int i = 0; i < 100; i++) {
            row(
                    c,
                    "12345",
                    "shipped",
                    "8258.04",
                    "20151204030442",
                    "2013-01-01T10:00:00Z",
                    i % 2 == 0 ? null : "a note");
        }
        long[] w = new long[NAMES.length];
        c.weigh(builder(), w);
        // 16 a value and its bytes; 32 more to read a number, 64 for a date, 32 for a DECIMAL; a NULL 1
        assertThat(w[0]).isEqualTo(100 * (16 + 5));
        assertThat(w[1]).isEqualTo(100 * (16 + 7));
        assertThat(w[2]).isEqualTo(100 * (16 + 7 + 32 + 32));
        assertThat(w[3]).isEqualTo(100 * (16 + 14 + 32));
        assertThat(w[4]).isEqualTo(100 * (16 + 20 + 32 + 64));
        assertThat(w[5]).isEqualTo(50 * ArrowRowBuilder.NULL_COST + 50 * (16 + 6));
    }

    /** A value of 2^24 bytes or more is a call of its own; the values after it are weighed by their own bytes. */
    @Test
    void theValuesAfterABigOneAreWeighedByTheirOwnBytes() {
        TokenChunk c = new TokenChunk();
        byte[] big = new byte[1 << 24];
        java.util.Arrays.fill(big, (byte) '7');
        c.value(0, SqlScriptReader.NUMBER, "1".getBytes(StandardCharsets.US_ASCII), 0, 1);
        c.value(1, SqlScriptReader.STRING, big, 0, big.length);
        byte[] amount = "8258.04".getBytes(StandardCharsets.US_ASCII);
        c.value(2, SqlScriptReader.NUMBER, amount, 0, amount.length);
        byte[] code = "paid".getBytes(StandardCharsets.US_ASCII);
        c.value(3, SqlScriptReader.STRING, code, 0, code.length);
        c.endRow(4, 1);
        long[] w = new long[NAMES.length];
        c.weigh(builder(), w);
        assertThat(w[1]).isEqualTo(16 + (1 << 24) + 32); // starts with a digit: read as a number
        assertThat(w[2]).isEqualTo(16 + 7 + 32 + 32);
        assertThat(w[3]).isEqualTo(16 + 4); // 'paid' read where it lies, not in the big value's bytes
    }
}

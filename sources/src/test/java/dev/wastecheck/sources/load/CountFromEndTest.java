package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.sql.SqlScriptReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link TokenChunk#countFromEnd}: the second filler's counts of the first's heavy column are
 * {@link Utf8#chars} of exactly that column's values (their bytes found among the others'): long
 * UTF-8, ASCII, NULL and values that are not UTF-8.
 */
class CountFromEndTest {

    @Test
    void theHeavyColumnsValuesAreCountedAsUtf8CountsThem() {
        Random r = new Random(32);
        String[] pieces = {"über", "データ", "😀", "x", "Москва", " "};
        TokenChunk chunk = new TokenChunk();
        List<Integer> calls = new ArrayList<>(); // per call position: the heavy column's count, or null
        for (int row = 0; row < 500; row++) {
            chunk.atLine(row + 1);
            calls.add(null);
            for (int index = 0; index < 3; index++) {
                byte[] v;
                int kind = SqlScriptReader.STRING;
                boolean ascii = false;
                int roll = r.nextInt(10);
                if (roll == 0) {
                    v = new byte[0];
                    kind = SqlScriptReader.NULL;
                } else if (roll == 1) {
                    v = "plain".getBytes(StandardCharsets.US_ASCII);
                    ascii = true;
                } else {
                    StringBuilder sb = new StringBuilder();
                    for (int k = r.nextInt(30); k >= 0; k--) {
                        sb.append(pieces[r.nextInt(pieces.length)]);
                    }
                    v = sb.toString().getBytes(StandardCharsets.UTF_8);
                    if (roll == 2) {
                        v[v.length - 1] = (byte) 0xe9; // not UTF-8: counted as -1
                    }
                }
                chunk.value(index, kind, v, 0, v.length, ascii);
                calls.add(index == 1 ? Utf8.chars(v, 0, v.length) : null);
            }
            chunk.endRow(3, row + 1);
            calls.add(null);
            calls.add(null);
        }
        chunk.countFromEnd(1);
        int invalid = 0;
        int last = -1;
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i) != null) {
                assertThat(chunk.countedChars(i)).as("call %d", i).isEqualTo(calls.get(i));
                invalid += calls.get(i) == -1 ? 1 : 0;
                last = i;
            }
        }
        assertThat(invalid).as("values that are not UTF-8 drawn").isPositive();
        chunk.reset();
        assertThat(chunk.countedChars(last)).as("nothing counted after a reset").isEqualTo(ArrowRowBuilder.NOT_COUNTED);
    }
}

package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.model.sql.SqlScriptReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A replay steps over a NULL without a call to the builder ({@link ArrowRowBuilder#freeNulls})
 * only where the NULL changes nothing: a row after a bad row (of the wrong width) writes the bad
 * row's slot again, so its NULLs must clear what the bad row's values set, and rows with a column
 * list mark each column they name. The batch holds what the rows say either way.
 */
class ReplayNullsTest {
    private static final String[] NAMES = {"id", "name", "score"};
    private static final String[] TYPES = {"int(11)", "varchar(20)", "bigint"};

    private static ArrowRowBuilder builder(List<String> columns) {
        List<ColumnDef> cols = new ArrayList<>();
        for (int i = 0; i < NAMES.length; i++) {
            cols.add(new ColumnDef(NAMES[i], TypeParser.parse(TYPES[i], Dialect.MYSQL), true, false));
        }
        TableDef t = new TableDef("t", cols, List.of(), List.of(), null, "t.sql:1", true);
        ArrowRowBuilder b = new ArrowRowBuilder(t, new LoadStats().table("t"), "t.sql");
        b.setColumnOrder(columns);
        return b;
    }

    /** Records a row of {@code values} (null: NULL) with {@code width} as its value count. */
    private static void row(TokenChunk c, long line, String... values) {
        c.atLine(line);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                c.value(i, SqlScriptReader.NULL, new byte[0], 0, 0, true);
                continue;
            }
            byte[] b = values[i].getBytes(StandardCharsets.UTF_8);
            boolean number = values[i].chars().allMatch(Character::isDigit);
            c.value(i, number ? SqlScriptReader.NUMBER : SqlScriptReader.STRING, b, 0, b.length, true);
        }
        c.endRow(values.length, line);
    }

    /** Replays {@code c} into one batch; its rows as text, "null" for a NULL, in declared column order. */
    private static List<String> replay(TokenChunk c, ArrowRowBuilder b) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(b.schema(), allocator)) {
            boolean[] started = {false};
            c.replay(b, () -> {
                if (!started[0]) {
                    b.startBatch(root);
                    started[0] = true;
                }
            });
            b.finishBatch();
            List<String> rows = new ArrayList<>();
            for (int r = 0; r < root.getRowCount(); r++) {
                BigIntVector id = (BigIntVector) root.getVector(0);
                VarCharVector name = (VarCharVector) root.getVector(1);
                BigIntVector score = (BigIntVector) root.getVector(2);
                rows.add((id.isNull(r) ? "null" : Long.toString(id.get(r))) + ","
                        + (name.isNull(r) ? "null" : new String(name.get(r), StandardCharsets.UTF_8)) + ","
                        + (score.isNull(r) ? "null" : Long.toString(score.get(r))));
            }
            return rows;
        }
    }

    @Test
    void aNullAfterABadRowClearsWhatTheBadRowSet() throws Exception {
        TokenChunk c = new TokenChunk();
        row(c, 1, "1", "ann", "10");
        row(c, 2, "2", "bad", "20", "extra"); // four values for three columns: its slot is written again
        row(c, 3, "3", null, null);
        row(c, 4, null, "dan", null);
        row(c, 5, "5", "eve"); // too short: the slot again
        row(c, 6, null, null, null);
        ArrowRowBuilder b = builder(null);
        assertThat(replay(c, b)).containsExactly("1,ann,10", "3,null,null", "null,dan,null", "null,null,null");
    }

    @Test
    void rowsWithAColumnListCountTheirNulls() throws Exception {
        TokenChunk c = new TokenChunk();
        row(c, 1, "x", "1", null); // name, id, score
        row(c, 2, null, "2", "7");
        row(c, 3, "bad", "3", "8", "extra");
        row(c, 4, null, "4", null);
        ArrowRowBuilder b = builder(List.of("name", "id", "score"));
        assertThat(replay(c, b)).containsExactly("1,x,null", "2,null,7", "4,null,null");
    }
}

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
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A column DuckDB's table leaves out ({@link ColumnFacts#leftOut}) is not copied into the batches
 * that start after it was left out: its vector stays NULL, while its facts, and the other
 * columns' values, are what they are when it is copied.
 */
class LeftOutUncopiedTest {
    private static ArrowRowBuilder builder() {
        List<ColumnDef> cols = List.of(
                new ColumnDef("title", TypeParser.parse("varchar(255)", Dialect.MYSQL), true, false),
                new ColumnDef("body", TypeParser.parse("mediumtext", Dialect.MYSQL), true, false));
        TableDef t = new TableDef("t", cols, List.of(), List.of(), null, "t.sql:1", true);
        ArrowRowBuilder b = new ArrowRowBuilder(t, new LoadStats().table("t"), "t.sql");
        b.checkDeclaredTypes(true);
        return b;
    }

    /** Fills two batches of 600 rows each; {@code leaveOut}: body is left out after the first. */
    private static Result fill(boolean leaveOut) {
        ArrowRowBuilder b = builder();
        ColumnFacts[] facts = b.countFacts(null);
        Result out = new Result();
        out.facts = facts;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int batch = 0; batch < 2; batch++) {
                try (VectorSchemaRoot root = VectorSchemaRoot.create(b.schema(), allocator)) {
                    b.startBatch(root);
                    for (int r = 0; r < 600; r++) {
                        int n = batch * 600 + r;
                        value(b, 0, "title " + (n % 7));
                        value(b, 1, "body λόγος 東京 " + n + " 😀".repeat(n % 5));
                        b.endRow(2, n + 1);
                    }
                    b.finishBatch();
                    VarCharVector title = (VarCharVector) root.getVector(0);
                    VarCharVector body = (VarCharVector) root.getVector(1);
                    List<String> rows = new ArrayList<>();
                    for (int r = 0; r < root.getRowCount(); r++) {
                        rows.add(new String(title.get(r), StandardCharsets.UTF_8) + "|"
                                + (body.isNull(r) ? "null" : new String(body.get(r), StandardCharsets.UTF_8)));
                    }
                    out.batches.add(rows);
                }
                if (leaveOut && batch == 0) {
                    facts[1].leaveOut();
                }
            }
        }
        return out;
    }

    private static void value(ArrowRowBuilder b, int index, String v) {
        byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
        b.value(index, SqlScriptReader.STRING, bytes, 0, bytes.length, false);
    }

    private static final class Result {
        ColumnFacts[] facts;
        final List<List<String>> batches = new ArrayList<>();
    }

    @Test
    void aLeftOutColumnIsNotCopiedFromTheNextBatchOnAndItsFactsAreTheSame() {
        Result copied = fill(false);
        Result left = fill(true);
        assertThat(left.batches.get(0)).isEqualTo(copied.batches.get(0)); // left out after it
        assertThat(left.batches.get(1)).hasSize(600).allMatch(r -> r.endsWith("|null"));
        for (int r = 0; r < 600; r++) {
            String want = copied.batches.get(1).get(r);
            assertThat(want).doesNotEndWith("|null");
            assertThat(left.batches.get(1).get(r)).isEqualTo(want.substring(0, want.indexOf('|')) + "|null");
        }
        for (int c = 0; c < 2; c++) {
            ColumnFacts a = copied.facts[c];
            ColumnFacts b = left.facts[c];
            assertThat(b.nonNull()).isEqualTo(a.nonNull()).isEqualTo(1200);
            assertThat(b.maxLen()).isEqualTo(a.maxLen());
            assertThat(b.maxChars()).isEqualTo(a.maxChars());
            assertThat(b.sumLen()).isEqualTo(a.sumLen());
            assertThat(b.minText()).isEqualTo(a.minText());
            assertThat(b.maxText()).isEqualTo(a.maxText());
            assertThat(b.fewValues()).isEqualTo(a.fewValues());
        }
        assertThat(left.facts[0].fewValues()).hasSize(7);
    }
}

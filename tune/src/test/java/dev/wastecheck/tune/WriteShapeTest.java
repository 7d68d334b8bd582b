package dev.wastecheck.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.traces.access.StatementNormalizer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a traced write assigns, read from its normalized shape: literals by position, computed values marked. */
class WriteShapeTest {
    private final StatementNormalizer normalizer = new StatementNormalizer(Set.of(
            "page",
            "page_latest",
            "page_touched",
            "page_id",
            "account",
            "credit",
            "id",
            "status",
            "text",
            "old_id",
            "old_text"));

    private WriteShape shape(String sql) {
        StatementNormalizer.Normalized n = normalizer.normalize(sql, Dialect.MYSQL);
        return WriteShape.parse(
                n.shape(), n.quote(), t -> t.equals("account") ? List.of("id", "credit", "status") : null);
    }

    @Test
    void anUpdateOfLiteralsMapsEachColumnToItsLiteral() {
        WriteShape s = shape("UPDATE page SET page_latest = 4599,page_touched = '20160601000000',page_is_new = 0"
                + " WHERE page_id = 82 AND page_latest = 3258");
        assertThat(s.table()).isEqualTo("page");
        assertThat(s.rows()).containsExactly(Map.of("page_latest", 0, "page_touched", 1, "page_is_new", 2));
        assertThat(s.computes("page_latest")).isFalse();
    }

    @Test
    void arithmeticIsComputedAndTheLiteralsAfterItKeepTheirPlaces() {
        WriteShape s = shape("UPDATE account SET credit = credit + 40, status = 'x' WHERE id = 7");
        assertThat(s.rows().get(0))
                .containsEntry("credit", WriteShape.EXPRESSION)
                .containsEntry("status", 1);
        assertThat(s.computes("credit")).isTrue();
    }

    @Test
    void insertsOfSeveralRowsWithAndWithoutAColumnList() {
        WriteShape s = shape("INSERT INTO text (old_id,old_text) VALUES (1,'a'),(2,NULL)");
        assertThat(s.rows())
                .containsExactly(
                        Map.of("old_id", 0, "old_text", 1), Map.of("old_id", 2, "old_text", WriteShape.NULL_VALUE));
        WriteShape noList = shape("INSERT INTO account VALUES (1, 20, NOW())");
        assertThat(noList.rows().get(0))
                .containsEntry("id", 0)
                .containsEntry("credit", 1)
                .containsEntry("status", WriteShape.EXPRESSION);
        assertThat(shape("INSERT INTO account (id, credit, status) SELECT id, credit, status FROM account")
                        .fromQuery())
                .isTrue();
    }
}

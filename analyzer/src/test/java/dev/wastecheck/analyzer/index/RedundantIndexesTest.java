package dev.wastecheck.analyzer.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedundantIndexesTest {

    static IndexEntry ix(String name, boolean unique, String... keys) {
        return new IndexEntry(
                "t",
                name,
                List.of(keys),
                List.of(keys),
                List.of(),
                unique,
                false,
                null,
                "btree",
                null,
                null,
                100,
                true);
    }

    static IndexEntry pk(String... keys) {
        return new IndexEntry(
                "t",
                "PRIMARY",
                List.of(keys),
                List.of(keys),
                List.of(),
                true,
                true,
                "primary key",
                "btree",
                null,
                null,
                100,
                true);
    }

    static List<String> redundant(List<IndexEntry> all, Map<String, List<List<String>>> fks) {
        return RedundantIndexes.find(all, fks).stream()
                .map(r -> r.index().name() + "<" + r.coveredBy().name())
                .toList();
    }

    @Test
    void exactDuplicateKeepsTheFirstByNameAndAUniqueOverANonUnique() {
        assertThat(redundant(List.of(ix("b_idx", false, "a"), ix("a_idx", false, "a")), Map.of()))
                .containsExactly("b_idx<a_idx");
        assertThat(redundant(List.of(ix("a_idx", false, "a"), ix("u", true, "a")), Map.of()))
                .containsExactly("a_idx<u");
    }

    @Test
    void leftPrefixNeedsTheSameOrderAndDirectionAndNeverLosesUniqueness() {
        assertThat(redundant(List.of(ix("a", false, "a"), ix("ab", false, "a", "b")), Map.of()))
                .containsExactly("a<ab");
        assertThat(redundant(List.of(ix("a", false, "a DESC"), ix("ab", false, "a", "b")), Map.of()))
                .isEmpty();
        assertThat(redundant(List.of(ix("b", false, "b"), ix("ab", false, "a", "b")), Map.of()))
                .isEmpty();
        assertThat(redundant(List.of(ix("ua", true, "a"), ix("ab", false, "a", "b")), Map.of()))
                .isEmpty();
    }

    @Test
    void duplicatesOfThePrimaryKeyAndImpliedUniqueIndexes() {
        assertThat(redundant(List.of(pk("id"), ix("id_dup", true, "id")), Map.of()))
                .containsExactly("id_dup<PRIMARY");
        // UNIQUE (id, x): id alone is unique, so the longer one's constraint is implied
        assertThat(redundant(List.of(pk("id"), ix("idx", true, "id", "x")), Map.of()))
                .containsExactly("idx<PRIMARY");
        // UNIQUE (x, id) still serves lookups on x: not reported
        assertThat(redundant(List.of(pk("id"), ix("xid", true, "x", "id")), Map.of()))
                .isEmpty();
    }

    @Test
    void neverTheLastIndexBehindAForeignKeyNorAConstraint() {
        Map<String, List<List<String>>> fk = Map.of("t", List.of(List.of("a")));
        // two duplicates behind the FK: one may go, never both
        assertThat(redundant(List.of(ix("a1", false, "a"), ix("a2", false, "a")), fk))
                .containsExactly("a2<a1");
        IndexEntry constraint = new IndexEntry(
                "t", "u_a", List.of("a"), List.of("a"), List.of(), true, false, "unique", "btree", null, null, 1, true);
        assertThat(redundant(List.of(constraint, ix("u2", true, "a")), Map.of()))
                .containsExactly("u2<u_a");
        IndexEntry constraint2 = new IndexEntry(
                "t", "u_b", List.of("a"), List.of("a"), List.of(), true, false, "unique", "btree", null, null, 1, true);
        assertThat(redundant(List.of(constraint, constraint2), Map.of())).isEmpty();
    }
}

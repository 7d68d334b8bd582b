package dev.wastecheck.traces.access;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Calcite resolved for one statement shape, ready to be filled with each statement's literals:
 * per table touched, the operation, the index used, where each key column's value comes from, and
 * the columns by role.
 */
record ShapeTemplate(List<TableTemplate> tables) {

    /** A key value's source: the shape's {@code param}-th literal, or a literal Calcite kept in the plan. */
    record ValueSource(int param, String literal) {
        String value(List<String> literals) {
            return param >= 0 ? (param < literals.size() ? literals.get(param) : null) : literal;
        }
    }

    /**
     * @param keyAlternatives per key column, the values it is bound to (several for IN lists); an empty
     *                        list where the column is bound by a join or an expression
     * @param insertRows      for INSERT ... VALUES: per row, the source of each key column
     * @param keyDisjuncts    for {@code (a = 1 AND b IN (2, 3)) OR (a = 4 AND b = 5)}: per disjunct, the
     *                        alternatives of each key column (replacing {@code keyAlternatives} for the
     *                        columns it binds); empty when the key is not bound that way
     */
    record TableTemplate(String table, Operation operation, String index, List<String> keyColumns,
                         List<List<ValueSource>> keyAlternatives, List<List<List<ValueSource>>> keyDisjuncts,
                         List<List<ValueSource>> insertRows,
                         Set<String> projected, Set<String> predicate, Set<String> updated, Set<String> joined,
                         Map<String, Set<String>> functions) {}
}

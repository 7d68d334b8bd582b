package dev.wastecheck.traces.access;

import dev.wastecheck.model.access.Bound;
import dev.wastecheck.model.access.Operation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Calcite resolved for one statement shape, ready to be filled with each statement's literals:
 * per table touched, the operation, the index used, where each key column's value comes from, and
 * the columns by role.
 */
record ShapeTemplate(List<TableTemplate> tables) {

    /**
     * A value's source: the shape's {@code param}-th literal, or a literal Calcite kept in the plan, or
     * the SQL NULL literal ({@link #NULL}, whose {@link #value} is null as for an unknown parameter;
     * tell them apart with {@link #isNull()}).
     */
    record ValueSource(int param, String literal) {
        /** The SQL NULL literal. */
        static final ValueSource NULL = new ValueSource(-2, null);

        String value(List<String> literals) {
            return param >= 0 ? (param < literals.size() ? literals.get(param) : null) : literal;
        }

        boolean isNull() {
            return param == -2;
        }
    }

    /**
     * @param keyAlternatives per key column, the values it is bound to (several for IN lists); an empty
     *                        list where the column is bound by a join or an expression
     * @param insertRows      for INSERT ... VALUES: per row, the source of each column the row gives a
     *                        literal, parameter or NULL for (schema column name to source)
     * @param setValues       for UPDATE: each SET column whose right-hand side is a literal, parameter
     *                        or NULL, to its source
     * @param keyDisjuncts    for {@code (a = 1 AND b IN (2, 3)) OR (a = 4 AND b = 5)}: per disjunct, the
     *                        alternatives of each key column (replacing {@code keyAlternatives} for the
     *                        columns it binds); empty when the key is not bound that way
     * @param joinKeys        this table's columns an equality with another table's column binds, to that column
     *                        ({@code table.column})
     * @param bounds          WHERE conjuncts comparing a column with literals, other than the key's equalities
     */
    record TableTemplate(
            String table,
            Operation operation,
            String index,
            List<String> keyColumns,
            List<List<ValueSource>> keyAlternatives,
            List<List<List<ValueSource>>> keyDisjuncts,
            List<Map<String, ValueSource>> insertRows,
            Map<String, ValueSource> setValues,
            Set<String> projected,
            Set<String> predicate,
            Set<String> updated,
            Set<String> joined,
            Map<String, Set<String>> functions,
            Map<String, String> joinKeys,
            List<BoundSource> bounds) {}

    /** A {@link Bound} whose ends are filled from each statement's literals; null for an open end. */
    record BoundSource(String column, ValueSource lo, boolean loInclusive, ValueSource hi, boolean hiInclusive) {}
}

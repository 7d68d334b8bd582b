package dev.wastecheck.model.access;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One table touched by one statement of a trace.
 *
 * @param table      the table, named as the schema names it
 * @param operation  point lookup, range, scan, insert, update or delete
 * @param index      the index whose key (prefix) the statement binds by equality ({@code PRIMARY} for
 *                   the primary key), or null for a scan
 * @param key        literal values of that index's bound key columns, in index order (column to
 *                   value as the statement wrote it); a column bound by a join or an unknown
 *                   parameter is absent, so {@link #keyComplete()} tells whether the tuple is known
 * @param keyColumns the index's key columns the statement binds by equality, in index order
 * @param projected  columns whose values the statement returns
 * @param predicate  columns its WHERE/ON conditions read
 * @param updated    columns an UPDATE writes
 * @param joined     columns compared with another table's columns
 * @param functions  column to the functions applied to it (YEAR, EXTRACT, SUBSTRING, LEFT, ...),
 *                   for granularity analysis
 * @param count      how many accesses this event stands for (a pageview count line stands for many)
 * @param timeMillis when the statement ran (epoch ms), or -1 when the trace does not say
 * @param line       the trace line the statement started on
 * @param values     the values the statement assigns, column to value in the statement's column order:
 *                   for an INSERT, every column its row gives a literal for; for an UPDATE, every SET
 *                   column whose right-hand side is a plain literal (a column set to an expression or
 *                   an unknown parameter is absent); empty for other operations. Values follow {@link
 *                   #key()}'s convention (strings unquoted and unescaped, numbers as written). An SQL
 *                   NULL literal is present with a <b>null value</b>, so the map permits nulls: use
 *                   {@code containsKey} to tell "set to NULL" from "not given"
 * @param joinKeys   this table's columns that an equality with another table's column binds, each to that
 *                   column as {@code table.column} ({@code slots JOIN content ON slot_content_id = content_id}
 *                   gives content's event {@code content_id -> slots.slot_content_id}): how a key bound only by a
 *                   join is found, a nested loop through the other table's matching rows
 * @param bounds     the WHERE conjuncts comparing this table's columns with literals that do not bind the key
 *                   ({@code page_len < 100}, {@code rev_timestamp BETWEEN ...}): what a scan filters on
 */
public record AccessEvent(
        String table,
        Operation operation,
        String index,
        Map<String, String> key,
        List<String> keyColumns,
        Set<String> projected,
        Set<String> predicate,
        Set<String> updated,
        Set<String> joined,
        Map<String, Set<String>> functions,
        long count,
        long timeMillis,
        long line,
        Map<String, String> values,
        Map<String, String> joinKeys,
        List<Bound> bounds) {

    public AccessEvent {
        joinKeys = joinKeys == null ? Map.of() : joinKeys;
        bounds = bounds == null ? List.of() : List.copyOf(bounds);
    }

    /** An event with the values it assigns, no join keys and no bounds. */
    public AccessEvent(
            String table,
            Operation operation,
            String index,
            Map<String, String> key,
            List<String> keyColumns,
            Set<String> projected,
            Set<String> predicate,
            Set<String> updated,
            Set<String> joined,
            Map<String, Set<String>> functions,
            long count,
            long timeMillis,
            long line,
            Map<String, String> values) {
        this(
                table,
                operation,
                index,
                key,
                keyColumns,
                projected,
                predicate,
                updated,
                joined,
                functions,
                count,
                timeMillis,
                line,
                values,
                Map.of(),
                List.of());
    }

    /** An event that assigns no values (reads, deletes, or callers that do not track them). */
    public AccessEvent(
            String table,
            Operation operation,
            String index,
            Map<String, String> key,
            List<String> keyColumns,
            Set<String> projected,
            Set<String> predicate,
            Set<String> updated,
            Set<String> joined,
            Map<String, Set<String>> functions,
            long count,
            long timeMillis,
            long line) {
        this(
                table,
                operation,
                index,
                key,
                keyColumns,
                projected,
                predicate,
                updated,
                joined,
                functions,
                count,
                timeMillis,
                line,
                Map.of());
    }

    /** Whether {@link #key()} holds a value for every bound key column (so the tuple or range is known). */
    public boolean keyComplete() {
        return !keyColumns.isEmpty() && key.size() == keyColumns.size();
    }

    /** The key's values in index order, for counting accesses per tuple. */
    public List<String> keyValues() {
        return List.copyOf(key.values());
    }
}

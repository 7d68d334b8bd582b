package dev.wastecheck.analyzer.index;

import dev.wastecheck.sources.load.ColumnFacts;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.RowStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * index-digest's low-cardinality rule: on a table of 1,000 rows or more, an index whose key takes
 * 5 distinct values or fewer, the rarest of them in at least 20% of the rows. Such an index never
 * narrows a lookup below a fifth of the table, where a scan is about as cheap, yet holds an entry
 * per row. The counts run where the rows are (the server, for a pushed-down live profile; the
 * profiling database otherwise), one grouped query per candidate index that stops at the sixth value.
 */
public final class LowCardinalityIndexes {
    /** index-digest's thresholds. */
    static final long MIN_ROWS = 1000;

    static final int MAX_VALUES = ColumnFacts.INDEX_FEW_VALUES; // the loader leaves out index columns of more
    static final double MIN_RAREST_SHARE = 0.20;

    private LowCardinalityIndexes() {}

    /**
     * One such index.
     *
     * @param values how many distinct keys it holds
     * @param rarest rows of its rarest key
     */
    public record LowCardinality(IndexEntry index, long rows, long values, long rarest) {}

    /**
     * The low-cardinality indexes among {@code candidates} (non-unique B-trees of plain columns) of
     * table {@code t}.
     */
    public static List<LowCardinality> find(RowStore rows, LoadedTable t, List<IndexEntry> candidates)
            throws SQLException {
        return find(rows, t, candidates, column -> -1);
    }

    /**
     * {@link #find(RowStore, LoadedTable, List)}, told the profile's exact distinct counts
     * ({@code distinct}: a column's name to its count of distinct non-NULL values, or -1 where it
     * has none, or only an estimate). An index one of whose columns holds more than
     * {@link #MAX_VALUES} distinct values has more than that many keys, so its grouped query, which
     * could only say so, is not run: a key of many values grouped whole (MediaWiki's
     * {@code rev_timestamp}, a million values: docs/benchmarks.md, issue 32).
     */
    public static List<LowCardinality> find(
            RowStore rows, LoadedTable t, List<IndexEntry> candidates, ToLongFunction<String> distinct)
            throws SQLException {
        List<LowCardinality> out = new ArrayList<>();
        if (t.relation() == null || t.rows() < MIN_ROWS) {
            return out;
        }
        for (IndexEntry ix : candidates) {
            if (ix.unique() || ix.predicate() != null || ix.columns().isEmpty()) {
                continue;
            }
            List<String> physical = new ArrayList<>();
            for (String c : ix.columns()) {
                int i = c.isEmpty() ? -1 : t.def().columnIndex(c);
                if (i < 0) {
                    physical = null; // an expression: not counted
                    break;
                }
                physical.add(null);
            }
            if (physical == null || ix.columns().stream().anyMatch(c -> distinct.applyAsLong(c) > MAX_VALUES)) {
                continue; // more values than a low-cardinality index has: its columns are not read
            }
            for (int k = 0; k < physical.size(); k++) {
                physical.set(
                        k, t.physicalColumn(t.def().columnIndex(ix.columns().get(k))));
            }
            String cols = String.join(", ", physical);
            String sql = "SELECT count(*), min(n) FROM (SELECT count(*) AS n FROM " + t.relation() + " GROUP BY " + cols
                    + " LIMIT " + (MAX_VALUES + 1) + ")" + rows.sql().alias("g");
            try (Statement st = rows.connection().createStatement();
                    ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                long values = rs.getLong(1);
                long rarest = rs.getLong(2);
                RowStore.drain(rs);
                if (values <= MAX_VALUES && rarest >= MIN_RAREST_SHARE * t.rows()) {
                    out.add(new LowCardinality(ix, t.rows(), values, rarest));
                }
            }
        }
        return out;
    }
}

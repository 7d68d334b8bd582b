package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * One index's bytes in the source engine's own storage ("No Bits Left Behind" §1 and §5: indexes
 * and the empty space in their pages are waste outside the columns), predicted from the rows by the
 * engine's index entry format and, on a live server or a database file, measured as the engine
 * reports it.
 *
 * @param name           the index as the engine names it ({@code PRIMARY}, {@code GEN_CLUST_INDEX}
 *                       for InnoDB's hidden row-id index, a PostgreSQL index's relation name, an
 *                       SQLite {@code sqlite_autoindex_...})
 * @param clustered      whether the index holds the rows (InnoDB's clustered index, SQLite's
 *                       {@code WITHOUT ROWID} table): its bytes are the table's data, not an index's
 * @param predictedBytes from the rows, by the engine's index entry format; -1 when not predicted
 * @param tightBytes     the same with every column at its suggested type (a narrower key narrows
 *                       every index that holds it, and every InnoDB secondary index holds the
 *                       primary key); -1 when not predicted
 * @param measuredBytes  as the engine reports it ({@code pg_relation_size}, {@code
 *                       innodb_index_stats} size x page size, SQLite {@code dbstat}); -1 when not
 *                       measured
 * @param freeBytes      of the measured bytes, those a rebuild gives back (pgstatindex's empty leaf
 *                       space beyond the build's fill factor, the model's excess); -1 when unknown
 * @param use            whether the workload needs the index; {@link Use#NEEDED} unless evidence
 *                       says otherwise
 * @param why            the evidence behind {@code use}, or null for {@link Use#NEEDED}
 */
public record IndexSpace(
        String name,
        List<String> columns,
        boolean primary,
        boolean unique,
        boolean clustered,
        long predictedBytes,
        long tightBytes,
        long measuredBytes,
        long freeBytes,
        Use use,
        String why) {
    /** What the evidence says of an index. */
    public enum Use {
        NEEDED,
        /** Another index serves every lookup it serves (a duplicate, a left prefix). */
        REDUNDANT,
        /** No statement of the period the evidence covers went through it. */
        UNUSED
    }

    public IndexSpace {
        columns = List.copyOf(columns);
        use = use == null ? Use.NEEDED : use;
    }

    /** The bytes the account counts: measured when the engine said, else predicted (0 when neither). */
    public long bytes() {
        return measuredBytes >= 0 ? measuredBytes : Math.max(0, predictedBytes);
    }

    /** The same index with what the evidence says of its use. */
    public IndexSpace withUse(Use use, String why) {
        return new IndexSpace(
                name,
                columns,
                primary,
                unique,
                clustered,
                predictedBytes,
                tightBytes,
                measuredBytes,
                freeBytes,
                use,
                why);
    }
}

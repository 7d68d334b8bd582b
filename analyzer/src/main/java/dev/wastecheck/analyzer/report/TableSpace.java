package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * A table's bytes outside the column values, in the source engine's own storage: the row overhead
 * its format adds, its indexes, the empty and dead space in its pages ("No Bits Left Behind" §1:
 * "most systems leave a great deal of empty space in tuples, index pages, and data pages"), and
 * what the engine itself reports the table takes, so that the {@linkplain #account account} can be
 * checked against the engine.
 *
 * @param dataBytes   the pages holding the rows (PostgreSQL heap and TOAST; InnoDB clustered
 *                    index; SQLite table b-tree), measured on a live server or file, else predicted
 * @param rowBytes    what the rows take at the engine's full packing (row headers, alignment, line
 *                    pointers and page headers included): the storage model's figure; -1 unknown
 * @param freeBytes   empty space in the table's pages a rebuild would give back
 * @param deadBytes   dead rows not yet reclaimed (PostgreSQL); 0 where the engine has none
 * @param method      how free and dead space were found: {@code pgstattuple}, {@code
 *                    pgstattuple_approx}, {@code statistics}, {@code data_free}, {@code dbstat},
 *                    {@code load} (a dump: the fill the engine reaches after loading it)
 * @param estimated   free and dead space are an estimate (statistics, a model), not a measure
 * @param caveat      why the estimate may be off (statistics missing or stale), or null
 * @param indexes     every index, the clustered one first where the engine has one
 * @param engineBytes the engine's own figure for the whole table ({@code pg_total_relation_size};
 *                    {@code data_length + index_length + data_free}; the SQLite pages x page
 *                    size); -1 for a dump
 * @param headroom    the table's sequence or AUTO_INCREMENT counter, or null
 * @param findings    free or dead space worth a rebuild, a counter near its type's end
 */
public record TableSpace(
        String table,
        long dataBytes,
        long rowBytes,
        long freeBytes,
        long deadBytes,
        String method,
        boolean estimated,
        String caveat,
        List<IndexSpace> indexes,
        long engineBytes,
        Headroom headroom,
        List<Finding> findings) {
    public TableSpace {
        indexes = List.copyOf(indexes);
        findings = List.copyOf(findings);
    }

    /**
     * How far a counter has come toward the largest value its column's type (or its sequence) takes.
     *
     * @param counter the sequence, or the AUTO_INCREMENT column
     * @param next    the next value it gives
     * @param max     the largest value it may give
     */
    public record Headroom(String counter, long next, long max) {
        /** Percent of the range used, 0-100. */
        public double percentUsed() {
            return max <= 0 ? 0 : Math.min(100.0, 100.0 * Math.max(0, next - 1) / max);
        }
    }

    /**
     * The table's declared bytes in one account: tight rows + encoding waste + the row format's
     * overhead + indexes (needed, redundant, unused) + free and dead space. Its {@link
     * Account#totalBytes} is to add up to {@code engineBytes}.
     */
    public record Account(
            long tightBytes,
            long encodingWasteBytes,
            long rowOverheadBytes,
            long neededIndexBytes,
            long redundantIndexBytes,
            long unusedIndexBytes,
            long freeBytes,
            long deadBytes,
            long engineBytes) {
        public long indexBytes() {
            return neededIndexBytes + redundantIndexBytes + unusedIndexBytes;
        }

        public long totalBytes() {
            return tightBytes + encodingWasteBytes + rowOverheadBytes + indexBytes() + freeBytes + deadBytes;
        }

        /** How far the account is from the engine's own figure, as a share of it (0.03: 3%); NaN without one. */
        public double offBy() {
            return engineBytes <= 0 ? Double.NaN : (double) (totalBytes() - engineBytes) / engineBytes;
        }
    }

    /**
     * The account of this table, whose column values {@code t} measured: the row overhead is what
     * the storage model's rows take beyond the values (or, without a model, what the data pages
     * hold beyond values, free and dead space).
     */
    public Account account(TableReport t) {
        long rows = rowBytes >= 0 ? rowBytes : Math.max(0, dataBytes - freeBytes - deadBytes);
        long needed = 0;
        long redundant = 0;
        long unused = 0;
        for (IndexSpace ix : indexes) {
            if (ix.clustered()) {
                continue; // the rows' own pages: counted as the rows
            }
            switch (ix.use()) {
                case NEEDED -> needed += ix.bytes();
                case REDUNDANT -> redundant += ix.bytes();
                case UNUSED -> unused += ix.bytes();
            }
        }
        return new Account(
                t.tightBytes(),
                t.wastedBytes(),
                rows - t.declaredBytes(),
                needed,
                redundant,
                unused,
                freeBytes,
                deadBytes,
                engineBytes);
    }

    /** The same table with its indexes replaced (what the evidence says of their use). */
    public TableSpace withIndexes(List<IndexSpace> indexes) {
        return new TableSpace(
                table,
                dataBytes,
                rowBytes,
                freeBytes,
                deadBytes,
                method,
                estimated,
                caveat,
                indexes,
                engineBytes,
                headroom,
                findings);
    }
}

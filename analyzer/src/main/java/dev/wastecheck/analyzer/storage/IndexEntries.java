package dev.wastecheck.analyzer.storage;

import dev.wastecheck.model.schema.Dialect;

/**
 * A B-tree index's bytes from its entries' average size: what each engine stores per entry beside
 * the key's values, how full its build leaves a page, and the pages' own headers. Used where the
 * rows are not at hand to walk entry by entry ({@link InnoDbModel} does that for InnoDB): a live
 * server profiled in place, whose per-column bytes the profile gives.
 *
 * <p>The entry formats, per engine:
 *
 * <pre>
 *   PostgreSQL nbtree leaf tuple (access/itup.h), on a page of 8,192 - 24 header - 16 special bytes,
 *   filled to 90% by CREATE INDEX (BTREE_DEFAULT_FILLFACTOR):
 *     +-----------+----------+-----------+---------------------+---------------------+
 *     | ItemId 4B | t_tid 6B | t_info 2B | key values, aligned | pad to 8 (MAXALIGN) |
 *     +-----------+----------+-----------+---------------------+---------------------+
 *   a posting-list tuple (PostgreSQL 13+, equal keys of a non-unique index) keeps one key and,
 *   after it, a 6-byte heap TID per row:
 *     +-----------+-------------------+------------+-------------------------+-----+
 *     | ItemId 4B | IndexTuple hdr 8B | key values | TID 6B x n (to 1,352 B) | pad |
 *     +-----------+-------------------+------------+-------------------------+-----+
 *
 *   InnoDB secondary index record (COMPACT/DYNAMIC), on a page of 16,252 usable bytes, filled by
 *   the sorted build; a 2-byte directory slot per 4 records:
 *     +-------------+-------------+--------------+------------+------------------+
 *     | var lengths | NULL bitmap | header 5B    | key values | primary key (or  |
 *     |             |             |              |            | DB_ROW_ID 6B)    |
 *     +-------------+-------------+--------------+------------+------------------+
 *
 *   SQLite index b-tree leaf cell (fileformat2 §1.6): a 2-byte cell pointer, the payload's size as a
 *   varint, then a record: its header (a size varint and a serial type per column) and the key's
 *   values followed by the rowid; pages of page_size - 8 bytes filled as the rows arrive.
 * </pre>
 */
public final class IndexEntries {
    /** PostgreSQL: page header (PageHeaderData) and the B-tree's special space (BTPageOpaqueData). */
    static final int PG_PAGE = 8192;

    static final int PG_PAGE_HEADER = 24;
    static final int PG_BTREE_SPECIAL = 16;
    static final int PG_INDEX_TUPLE_HEADER = 8;
    static final int PG_ITEM_ID = 4;
    static final int PG_LEAF_FILL_PERCENT = 90;
    /** A heap TID in a posting list (ItemPointerData). */
    static final int PG_TID = 6;
    /** The largest posting-list tuple the build makes: BTMaxItemSize / 2 on 8 kB pages. */
    static final int PG_MAX_POSTING = 1352;

    static final int INNODB_PAGE_SPACE = 16252;
    static final int INNODB_RECORD_HEADER = 5;
    static final int INNODB_ROW_ID = 6;

    private IndexEntries() {}

    /**
     * An index's bytes: {@code rows} entries whose key values take {@code keyBytes} in all (the
     * engine's value bytes, per-value length headers included, from the storage model) and whose
     * entry also carries {@code keyColumns} columns' NULL bits.
     *
     * @param pointerBytes what else each entry holds for the row: InnoDB's primary key values
     *                     (summed over the rows) or 6 x rows for DB_ROW_ID; ignored elsewhere
     */
    public static long bytes(Dialect dialect, long rows, long keyBytes, int keyColumns, long pointerBytes) {
        return bytes(dialect, rows, keyBytes, keyColumns, pointerBytes, -1);
    }

    /**
     * {@link #bytes(Dialect, long, long, int, long)} for an index whose keys take {@code distinct}
     * values (-1 unknown, or unique): PostgreSQL 13+ deduplicates a non-unique B-tree's equal keys
     * into posting-list tuples (nbtdedup.c), one key and 6 bytes per heap TID, each tuple at most
     * half of BTMaxItemSize (1,352 bytes on 8 kB pages).
     */
    public static long bytes(
            Dialect dialect, long rows, long keyBytes, int keyColumns, long pointerBytes, long distinct) {
        if (rows <= 0) {
            return dialect == Dialect.POSTGRESQL ? 2L * PG_PAGE : dialect == Dialect.MYSQL ? InnoDbModel.PAGE : 0;
        }
        double avgKey = (double) keyBytes / rows;
        return switch (dialect) {
            case POSTGRESQL -> {
                long tuple = align8(PG_INDEX_TUPLE_HEADER + (long) Math.ceil(avgKey)) + PG_ITEM_ID;
                long usable = (PG_PAGE - PG_PAGE_HEADER - PG_BTREE_SPECIAL) * PG_LEAF_FILL_PERCENT / 100;
                long leafBytes = rows * tuple;
                if (distinct > 0 && distinct < rows) {
                    // posting lists: each holds up to this many TIDs behind one key
                    long key = (long) Math.ceil(avgKey);
                    long perPosting = Math.max(1, (PG_MAX_POSTING - PG_INDEX_TUPLE_HEADER - key) / PG_TID);
                    long perKey = (rows + distinct - 1) / distinct;
                    long postings = distinct * ((perKey + perPosting - 1) / perPosting);
                    long dedup = postings * (align8(PG_INDEX_TUPLE_HEADER + key) + PG_ITEM_ID + 4) + rows * PG_TID;
                    leafBytes = Math.min(leafBytes, dedup);
                }
                long leaves = (leafBytes + usable - 1) / usable;
                // the levels above hold one pivot per page below; the metapage is page 0
                yield (leaves + Math.max(1, leaves / Math.max(1, usable / tuple)) + 1) * PG_PAGE;
            }
            case MYSQL -> {
                double record = INNODB_RECORD_HEADER
                        + (keyColumns + 7) / 8
                        + avgKey
                        + (double) pointerBytes / rows
                        + 0.5; // the directory slot, 2 bytes per 4 records
                long leaves = (long) Math.ceil(rows * record / INNODB_PAGE_SPACE);
                InnoDbModel.Segment leaf = new InnoDbModel.Segment();
                for (long p = 0; p < leaves; p++) {
                    leaf.allocate(true);
                }
                long top = leaves <= 1 ? 1 : 1 + leaves * 20 / INNODB_PAGE_SPACE;
                yield (leaf.reserved() + top) * InnoDbModel.PAGE;
            }
            default -> {
                // SQLite: a cell pointer, a payload-size varint, a header of a byte per column, the rowid
                double cell = 2 + 1 + 1 + keyColumns + avgKey + 3;
                yield (long) Math.ceil(rows * cell / (4096 - 8)) * 4096;
            }
        };
    }

    private static long align8(long n) {
        return (n + 7) / 8 * 8;
    }
}

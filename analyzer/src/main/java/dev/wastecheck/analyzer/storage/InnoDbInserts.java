package dev.wastecheck.analyzer.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An InnoDB index's leaf level as inserts leave it, record by record in the order the rows arrive,
 * where {@link InnoDbModel} packs the records in key order as OPTIMIZE TABLE's sorted bulk load
 * (btr0bulk) does. A dump's load inserts each row into every index: the clustered index receives
 * its keys in ascending order, but a secondary index on another column receives its keys in the
 * order of that column's values along the primary key, and a full page then splits in two.
 *
 * <p>The split rules, as btr0btr.cc applies them to a leaf page that has no room for the record:
 *
 * <ul>
 *   <li>sequential (btr_page_get_split_rec_to_right): the record goes right after the one last
 *       inserted on the page (PAGE_LAST_INSERT); all but one of the records after it move to a new
 *       page, so ascending inserts leave each page full;
 *   <li>otherwise (btr_page_get_split_rec): the page's records and the new one are cut where their
 *       bytes pass half, so random inserts leave pages between half full and full: about ln 2 = 69%
 *       on average (Yao, "On random 2-3 trees", Acta Informatica 9, 1978).
 * </ul>
 *
 * The descending heuristic (btr_page_get_split_rec_to_left) is not modelled: its pattern is the
 * mirror of the first, and a dump's rows rarely arrive in descending order of any index.
 *
 * <p>A page holds {@link InnoDbModel#PAGE_SPACE} bytes of records and directory slots (2 bytes
 * per 4 records, {@link InnoDbModel.Level#slotBytes}), as in the sorted build.
 */
public final class InnoDbInserts {
    private InnoDbInserts() {}

    /** One leaf page: its records' ranks in key order, sorted, and the bytes they take. */
    private static final class Page {
        final List<Integer> ranks = new ArrayList<>();
        long bytes;
        int lastInsert = -1;

        long used() {
            return bytes + InnoDbModel.Level.slotBytes(ranks.size());
        }
    }

    /**
     * The leaf pages an index has once every record is inserted in arrival order.
     *
     * @param rankInArrival each record's position in the index's key order (0 to n - 1, each once),
     *                      listed in the order the records are inserted
     * @param sizeByRank    each record's bytes (header, NULL bitmap, lengths, values), by rank
     */
    public static long leafPages(int[] rankInArrival, long[] sizeByRank) {
        // pages by the lowest rank they may hold; the first page holds everything below the second's
        TreeMap<Integer, Page> pages = new TreeMap<>();
        pages.put(Integer.MIN_VALUE, new Page());
        for (int rank : rankInArrival) {
            Map.Entry<Integer, Page> e = pages.floorEntry(rank);
            Page p = e.getValue();
            long size = sizeByRank[rank];
            int at = -Collections.binarySearch(p.ranks, rank) - 1;
            if (p.bytes + size + InnoDbModel.Level.slotBytes(p.ranks.size() + 1) <= InnoDbModel.PAGE_SPACE) {
                p.ranks.add(at, rank);
                p.bytes += size;
                p.lastInsert = rank;
                continue;
            }
            Page right = new Page();
            if (at > 0 && p.ranks.get(at - 1) == p.lastInsert) {
                // sequential: records from the second after the insert point move; the new one alone when none
                int from = at + 1;
                if (from >= p.ranks.size()) {
                    right.ranks.add(rank);
                    right.bytes = size;
                    right.lastInsert = rank;
                    pages.put(rank, right);
                    continue;
                }
                move(p, right, from, sizeByRank);
                p.ranks.add(at, rank);
                p.bytes += size;
                p.lastInsert = rank;
                pages.put(right.ranks.get(0), right);
                continue;
            }
            // the middle by bytes, the new record counted where it goes
            List<Integer> all = new ArrayList<>(p.ranks);
            all.add(at, rank);
            long total = p.bytes + size;
            long acc = 0;
            int cut = 0;
            while (cut < all.size() - 1) {
                acc += sizeByRank[all.get(cut)];
                cut++;
                if (acc > total / 2) {
                    break;
                }
            }
            p.ranks.clear();
            p.bytes = 0;
            for (int i = 0; i < all.size(); i++) {
                Page to = i < cut ? p : right;
                to.ranks.add(all.get(i));
                to.bytes += sizeByRank[all.get(i)];
            }
            (at < cut ? p : right).lastInsert = rank;
            pages.put(right.ranks.get(0), right);
        }
        return pages.size();
    }

    private static void move(Page from, Page to, int start, long[] sizeByRank) {
        List<Integer> tail = from.ranks.subList(start, from.ranks.size());
        for (int r : tail) {
            to.ranks.add(r);
            to.bytes += sizeByRank[r];
            from.bytes -= sizeByRank[r];
        }
        tail.clear();
    }
}

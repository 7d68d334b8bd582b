package dev.wastecheck.analyzer.space;

import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableSpace;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A live PostgreSQL's space per table of the current schema: the heap's and every index's bytes as
 * the server counts them ({@code pg_table_size}, {@code pg_relation_size} per index, {@code
 * pg_total_relation_size}), free and dead space, and each sequence's headroom.
 *
 * <p>Free and dead space come, in order of preference:
 *
 * <ul>
 *   <li>{@code exact}: {@code pgstattuple} and {@code pgstatindex}, which read every page of the
 *       relation (opt-in: on a large table that is a full scan's I/O);
 *   <li>{@code pgstattuple_approx} when the extension is installed: it reads only the pages the
 *       visibility map does not mark all-visible and takes the free space of the others from the
 *       free space map;
 *   <li>otherwise the statistics: the rows ({@code reltuples}) at their average width ({@code
 *       pg_stats.avg_width}) packed into 8 kB pages, against the heap's size; dead rows from {@code
 *       n_dead_tup}. Flagged when the table was never analyzed or a fifth of it changed since.
 * </ul>
 */
final class PostgresSpace {
    private static final int PAGE = 8192;
    private static final int PAGE_HEADER = 24;
    private static final int ROW_HEADER = 23;
    private static final int LINE_POINTER = 4;
    /** nbtree's default leaf fill factor: what REINDEX leaves free on each leaf page. */
    private static final double LEAF_FILL = 0.90;

    private PostgresSpace() {}

    static Map<String, Measured> measure(Connection c, boolean exact) throws SQLException {
        Map<String, Measured> out = new LinkedHashMap<>();
        Map<Long, Measured> byOid = new LinkedHashMap<>();
        Map<Long, long[]> stats = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT c.oid, c.relname, pg_table_size(c.oid),"
                        + " pg_total_relation_size(c.oid), c.reltuples::bigint, pg_relation_size(c.oid),"
                        + " coalesce(s.n_dead_tup, 0), coalesce(s.n_mod_since_analyze, 0),"
                        + " CASE WHEN coalesce(s.last_analyze, s.last_autoanalyze) IS NULL THEN 1 ELSE 0 END,"
                        + " (SELECT coalesce(sum(ps.avg_width), -1) FROM pg_stats ps WHERE ps.schemaname = n.nspname"
                        + " AND ps.tablename = c.relname), coalesce(s.n_live_tup, 0)"
                        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid"
                        + " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')")) {
            while (rs.next()) {
                Measured m = new Measured(rs.getString(2));
                m.dataBytes = rs.getLong(3);
                m.engineBytes = rs.getLong(4);
                out.put(m.table.toLowerCase(Locale.ROOT), m);
                byOid.put(rs.getLong(1), m);
                stats.put(rs.getLong(1), new long[] {
                    rs.getLong(5),
                    rs.getLong(6),
                    rs.getLong(7),
                    rs.getLong(8),
                    rs.getLong(9),
                    rs.getLong(10),
                    rs.getLong(11)
                });
            }
        }
        boolean extension = hasPgstattuple(c);
        Map<Long, Double> liveShare = new LinkedHashMap<>();
        for (Map.Entry<Long, Measured> e : byOid.entrySet()) {
            Measured m = e.getValue();
            long[] s = stats.get(e.getKey());
            boolean measured = false;
            if (extension && exact) {
                measured = tuple(c, e.getKey(), m, "pgstattuple", "free_space", "tuple_len", "tuple_count");
                m.method = "pgstattuple";
            }
            if (!measured && extension) {
                measured = tuple(
                        c,
                        e.getKey(),
                        m,
                        "pgstattuple_approx",
                        "approx_free_space",
                        "approx_tuple_len",
                        "approx_tuple_count");
                m.method = "pgstattuple_approx";
                m.estimated = true;
            }
            if (!measured) {
                statistics(m, s);
            }
            // An index keeps an entry for every row version since the last VACUUM, the dead ones too
            // (a read prunes dead tuples from the heap, never from its indexes): its live share is the
            // statistics' live rows against live and dead (n_live_tup, n_dead_tup).
            liveShare.put(e.getKey(), s[2] > 0 && s[6] + s[2] > 0 ? (double) s[6] / (s[6] + s[2]) : 1.0);
        }
        indexes(c, byOid, exact, liveShare);
        headroom(c, out);
        return out;
    }

    private static boolean hasPgstattuple(Connection c) {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'pgstattuple'")) {
            return rs.next();
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Free and dead bytes by one of pgstattuple's functions, and the heap VACUUM FULL would write:
     * the live tuples (their lengths, a 4-byte line pointer and on average 4 bytes of alignment
     * each) packed into 8 kB pages. False when it fails (privilege, relation kind).
     */
    private static boolean tuple(
            Connection c, long oid, Measured m, String function, String free, String live, String count) {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + free + ", dead_tuple_len, " + live + ", " + count + " FROM " + function + "(?::oid)")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                m.freeBytes = rs.getLong(1);
                m.deadBytes = rs.getLong(2);
                long tuples = rs.getLong(4);
                long bytes = rs.getLong(3) + tuples * (LINE_POINTER + 4);
                long pages = (bytes + PAGE - PAGE_HEADER - 1) / (PAGE - PAGE_HEADER);
                m.rowBytes = pages * PAGE;
                return true;
            }
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * The statistics' estimate: each row a 23-byte header (with a NULL bitmap, rounded to 8) and
     * its columns' average widths, padded to 8, and a 4-byte line pointer; packed full, against the
     * heap's pages. The dead rows at the same width.
     *
     * @param s reltuples, heap bytes, n_dead_tup, n_mod_since_analyze, never analyzed (1), sum of avg_width,
     *          n_live_tup
     */
    private static void statistics(Measured m, long[] s) {
        m.method = "statistics";
        m.estimated = true;
        long rows = Math.max(0, s[0]);
        long width = s[5];
        if (width < 0 || s[4] == 1 || s[0] < 0) {
            m.caveat = "the table was never analyzed: no statistics to estimate its free space from (ANALYZE it,"
                    + " or install pgstattuple)";
            m.freeBytes = 0;
            return;
        }
        if (s[3] > Math.max(50, rows / 5)) {
            m.caveat = s[3] + " rows changed since the last ANALYZE: the estimate is stale";
        }
        long tuple = (ROW_HEADER + 1 + 7) / 8 * 8 + (width + 7) / 8 * 8 + LINE_POINTER;
        long perPage = Math.max(1, (PAGE - PAGE_HEADER) / tuple);
        long pages = (rows + perPage - 1) / perPage;
        m.deadBytes = s[2] * tuple;
        m.freeBytes = Math.max(0, s[1] - pages * PAGE - m.deadBytes);
    }

    private static void indexes(Connection c, Map<Long, Measured> byOid, boolean exact, Map<Long, Double> liveShare)
            throws SQLException {
        if (byOid.isEmpty()) {
            return;
        }
        String oids =
                String.join(",", byOid.keySet().stream().map(String::valueOf).toList());
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT i.indrelid, ic.relname, i.indisprimary, i.indisunique,"
                        + " pg_relation_size(i.indexrelid), am.amname, i.indexrelid,"
                        + " array_to_string(ARRAY(SELECT coalesce(a.attname, 'expr') FROM unnest(i.indkey::int2[])"
                        + " WITH ORDINALITY k(attnum, ord) LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid"
                        + " AND a.attnum = k.attnum ORDER BY k.ord), ',')"
                        + " FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam"
                        + " WHERE i.indrelid IN (" + oids + ") ORDER BY i.indrelid, ic.relname")) {
            while (rs.next()) {
                Measured m = byOid.get(rs.getLong(1));
                long size = rs.getLong(5);
                long free = -1;
                if (exact && rs.getString(6).equals("btree")) {
                    free = rebuildFrees(c, rs.getLong(7), size, liveShare.getOrDefault(rs.getLong(1), 1.0));
                }
                m.indexes.add(new IndexSpace(
                        rs.getString(2),
                        Arrays.asList(rs.getString(8).split(",")),
                        rs.getBoolean(3),
                        rs.getBoolean(4),
                        false,
                        -1,
                        -1,
                        size,
                        free,
                        IndexSpace.Use.NEEDED,
                        null));
            }
        }
    }

    /**
     * What a rebuild gives back of a B-tree ({@code pgstatindex}): its leaf pages hold their
     * entries at {@code avg_leaf_density}; rebuilt, the live rows' entries ({@code liveShare} of
     * them: the dead rows' entries stay in the index until VACUUM) fill leaves to 90%, and the
     * deleted and empty pages go. -1 when pgstatindex is not there.
     */
    private static long rebuildFrees(Connection c, long oid, long size, double liveShare) {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT leaf_pages, avg_leaf_density, deleted_pages, empty_pages,"
                        + " internal_pages FROM pgstatindex(?::oid::regclass)")) {
            ps.setLong(1, oid);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return -1;
                }
                long leaves = rs.getLong(1);
                double density = rs.getDouble(2) / 100;
                if (Double.isNaN(density)) {
                    return -1;
                }
                long rebuiltLeaves = (long) Math.ceil(leaves * density * liveShare / LEAF_FILL);
                long internal =
                        Math.max(rebuiltLeaves > 1 ? 1 : 0, rs.getLong(5) * rebuiltLeaves / Math.max(1, leaves));
                long rebuilt = (1 + Math.max(1, rebuiltLeaves) + internal) * PAGE; // with the metapage
                return Math.max(0, size - rebuilt);
            }
        } catch (SQLException e) {
            return -1;
        }
    }

    /** Each sequence owned by a column (serial or identity): its next value against its own and its column's end. */
    private static void headroom(Connection c, Map<String, Measured> out) {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT t.relname, s.relname, a.atttypid::regtype::text,"
                        + " coalesce(ps.last_value + ps.increment_by, ps.start_value), ps.max_value"
                        + " FROM pg_class s JOIN pg_depend d ON d.objid = s.oid AND d.classid = 'pg_class'::regclass"
                        + " AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')"
                        + " JOIN pg_class t ON t.oid = d.refobjid"
                        + " JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid"
                        + " JOIN pg_namespace n ON n.oid = s.relnamespace"
                        + " JOIN pg_sequences ps ON ps.schemaname = n.nspname AND ps.sequencename = s.relname"
                        + " WHERE s.relkind = 'S' AND n.nspname = current_schema()")) {
            while (rs.next()) {
                Measured m = out.get(rs.getString(1).toLowerCase(Locale.ROOT));
                if (m == null) {
                    continue;
                }
                long columnMax = switch (rs.getString(3)) {
                    case "smallint" -> Short.MAX_VALUE;
                    case "integer" -> Integer.MAX_VALUE;
                    default -> Long.MAX_VALUE;
                };
                m.headroom =
                        new TableSpace.Headroom(rs.getString(2), rs.getLong(4), Math.min(columnMax, rs.getLong(5)));
            }
        } catch (SQLException e) {
            // pg_sequences needs PostgreSQL 10; an older server's counters go unreported
        }
    }
}

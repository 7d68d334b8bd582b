package dev.wastecheck.analyzer.tune;

import dev.wastecheck.analyzer.schema.SqlType;
import java.util.List;
import java.util.Locale;

/**
 * A PostgreSQL table's heap, estimated row by row from its values the way PostgreSQL lays them
 * out: each value aligned to its type (smallint 2, integer 4, bigint and timestamp 8), a text
 * of under 127 bytes behind a 1-byte header and unaligned, a longer one behind 4 bytes and
 * aligned, one of over 2 kB moved out of line to TOAST (an 18-byte pointer), NULLs taking no
 * space but a bitmap; a 23-byte row header, every row padded to 8 bytes, a 4-byte line
 * pointer, 8 kB pages with a 24-byte header, packed full as {@code VACUUM FULL} packs them.
 * Narrowing a column saves less on disk than in the value bytes when its neighbour's alignment
 * takes the bytes back; this is the figure that says how much less.
 */
final class PgHeap {
    static final int PAGE = 8192;
    static final int PAGE_HEADER = 24;
    static final int ROW_HEADER = 23;
    static final int LINE_POINTER = 4;

    /** How a type sits in a row: a fixed length or a varlena, and its alignment. */
    record Layout(int length, int align, Varlena varlena) {
        static Layout fixed(int length, int align) {
            return new Layout(length, align, null);
        }
    }

    /** How to find a varlena value's payload bytes from the value. */
    enum Varlena { TEXT, BYTES, NUMERIC }

    private PgHeap() {
    }

    static Layout layout(SqlType t) {
        String d = t.declared().toLowerCase(Locale.ROOT);
        return switch (t.family()) {
            case BOOLEAN -> Layout.fixed(1, 1);
            case INTEGER -> t.intBits() <= 16 ? Layout.fixed(2, 2) : t.intBits() <= 32 ? Layout.fixed(4, 4) : Layout.fixed(8, 8);
            case FLOAT -> Layout.fixed(4, 4);
            case DOUBLE -> Layout.fixed(8, 8);
            case DATE, ENUM -> Layout.fixed(4, 4);
            case TIME -> d.contains("with time zone") || d.contains("timetz") ? Layout.fixed(12, 8) : Layout.fixed(8, 8);
            case DATETIME, TIMESTAMP -> Layout.fixed(8, 8);
            case UUID -> Layout.fixed(16, 1);
            case DECIMAL -> new Layout(-1, 4, Varlena.NUMERIC);
            case BINARY, VARBINARY, BLOB -> new Layout(-1, 4, Varlena.BYTES);
            default -> new Layout(-1, 4, Varlena.TEXT);
        };
    }

    /** The payload bytes of a varlena value, as a DuckDB expression over {@code v}. */
    private static String payload(Layout l, String v) {
        return switch (l.varlena()) {
            case BYTES -> "octet_length(CAST(" + v + " AS BLOB))";
            case TEXT -> "strlen(CAST(" + v + " AS VARCHAR))";
            // base-10000 digits, two bytes each, after a 2-byte header; leading and trailing zeros dropped
            case NUMERIC -> "(2 + 2 * (ceil(length(regexp_extract(CAST(" + v + " AS VARCHAR), '^-?0*([0-9]*)', 1)) / 4.0)"
                    + " + ceil(length(rtrim(regexp_extract(CAST(" + v + " AS VARCHAR), '\\.([0-9]*)', 1), '0')) / 4.0)))::BIGINT";
        };
    }

    /**
     * The heap's bytes (pages x 8 kB) for the rows of {@code from}, whose columns have the given
     * layouts and values (DuckDB expressions). DuckDB gives each value's length; the layout is
     * walked here, row by row, since each value's padding depends on where the one before ended.
     */
    static long heapBytes(java.sql.Connection conn, List<Layout> layouts, List<String> values, String from) throws java.sql.SQLException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < layouts.size(); i++) {
            Layout l = layouts.get(i);
            String v = values.get(i);
            sql.append(i == 0 ? "" : ", ").append("CASE WHEN ").append(v).append(" IS NULL THEN NULL ELSE ")
                    .append(l.length() >= 0 ? "0" : payload(l, v)).append(" END");
        }
        sql.append(" FROM ").append(from);
        int n = layouts.size();
        int nullBitmap = (n + 7) / 8;
        long pages = 0;
        long free = 0; // bytes left on the page being filled
        try (java.sql.Statement st = conn.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql.toString())) {
            while (rs.next()) {
                long off = 0;
                boolean anyNull = false;
                for (int i = 0; i < n; i++) {
                    long len = rs.getLong(i + 1);
                    if (rs.wasNull()) {
                        anyNull = true;
                        continue;
                    }
                    Layout l = layouts.get(i);
                    if (l.length() >= 0) {
                        off = align(off, l.align()) + l.length();
                    } else if (len + 1 <= 127) {
                        off += len + 1;          // short header, unaligned
                    } else if (len > 2000) {
                        off += 18;               // moved to TOAST: a pointer stays
                    } else {
                        off = align(off, l.align()) + 4 + len;
                    }
                }
                long header = align(ROW_HEADER + (anyNull ? nullBitmap : 0), 8);
                long tuple = align(header + off, 8) + LINE_POINTER;
                if (tuple > free) {
                    pages++;
                    free = PAGE - PAGE_HEADER;
                }
                free -= tuple;
            }
        }
        return pages * PAGE;
    }

    private static long align(long offset, int a) {
        return a <= 1 ? offset : (offset + a - 1) / a * a;
    }
}

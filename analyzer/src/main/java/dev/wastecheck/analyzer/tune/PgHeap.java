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

    /**
     * How a type sits in a row: a fixed length or a varlena, and its alignment.
     *
     * @param pad a char(n)'s n: its values are stored blank-padded to n characters
     */
    record Layout(int length, int align, Varlena varlena, int pad) {
        static Layout fixed(int length, int align) {
            return new Layout(length, align, null, 0);
        }

        static Layout varlena(Varlena v) {
            return new Layout(-1, 4, v, 0);
        }
    }

    /** How to find a varlena value's payload bytes from the value. */
    enum Varlena { TEXT, BYTES, NUMERIC }

    /** Rows longer than this move their largest values out of line (TOAST_TUPLE_THRESHOLD for 8 kB pages). */
    static final int TOAST_THRESHOLD = 2032;
    /** What stays in the row for a value moved out of line. */
    static final int TOAST_POINTER = 18;

    private PgHeap() {
    }

    static Layout layout(SqlType t) {
        String d = t.declared().toLowerCase(Locale.ROOT);
        if (d.startsWith("interval")) {
            return Layout.fixed(16, 8);
        }
        if (d.equals("money")) {
            return Layout.fixed(8, 8);
        }
        return switch (t.family()) {
            case BOOLEAN -> Layout.fixed(1, 1);
            case INTEGER -> t.intBits() <= 16 ? Layout.fixed(2, 2) : t.intBits() <= 32 ? Layout.fixed(4, 4) : Layout.fixed(8, 8);
            case FLOAT -> Layout.fixed(4, 4);
            case DOUBLE -> Layout.fixed(8, 8);
            case DATE, ENUM -> Layout.fixed(4, 4);
            case TIME -> d.contains("with time zone") || d.contains("timetz") ? Layout.fixed(12, 8) : Layout.fixed(8, 8);
            case DATETIME, TIMESTAMP -> Layout.fixed(8, 8);
            case UUID -> Layout.fixed(16, 1);
            case DECIMAL -> Layout.varlena(Varlena.NUMERIC);
            case BINARY, VARBINARY, BLOB -> Layout.varlena(Varlena.BYTES);
            case CHAR -> new Layout(-1, 4, Varlena.TEXT, Math.max(1, t.length()));
            default -> Layout.varlena(Varlena.TEXT);
        };
    }

    /** The payload bytes of a varlena value, as a DuckDB expression over {@code v}. */
    private static String payload(Layout l, String v) {
        return switch (l.varlena()) {
            case BYTES -> "octet_length(CAST(" + v + " AS BLOB))";
            // blank-padded to n characters (the padding is ASCII, one byte each)
            case TEXT -> l.pad() > 0 ? "strlen(CAST(" + v + " AS VARCHAR)) + greatest(0, " + l.pad() + " - length(CAST(" + v + " AS VARCHAR)))"
                    : "strlen(CAST(" + v + " AS VARCHAR))";
            case NUMERIC -> "0"; // counted from the text, below
        };
    }

    /**
     * A numeric's bytes: a 2-byte header and 2 bytes per base-10000 digit, the digits grouped
     * from the decimal point, with zero groups at either end dropped (10000 and 0.00005 take one).
     */
    static int numericBytes(String text) {
        String t = text.strip();
        if (t.startsWith("-") || t.startsWith("+")) {
            t = t.substring(1);
        }
        int dot = t.indexOf('.');
        String ip = dot < 0 ? t : t.substring(0, dot);
        String fp = dot < 0 ? "" : t.substring(dot + 1);
        if (!(ip + fp).chars().allMatch(Character::isDigit)) {
            return 2 + 2 * ((ip.length() + 3) / 4 + (fp.length() + 3) / 4); // NaN, Infinity, exponents: a rough count
        }
        String ipPadded = "0".repeat((4 - ip.length() % 4) % 4) + ip;
        String fpPadded = fp + "0".repeat((4 - fp.length() % 4) % 4);
        String all = ipPadded + fpPadded;
        int first = -1;
        int last = -1;
        for (int g = 0; g < all.length() / 4; g++) {
            if (!all.substring(4 * g, 4 * g + 4).equals("0000")) {
                if (first < 0) {
                    first = g;
                }
                last = g;
            }
        }
        return 2 + 2 * (first < 0 ? 0 : last - first + 1);
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
                    .append(l.length() >= 0 ? "'0'" : l.varlena() == Varlena.NUMERIC ? "CAST(" + v + " AS VARCHAR)"
                            : "CAST(" + payload(l, v) + " AS VARCHAR)").append(" END");
        }
        sql.append(" FROM ").append(from);
        int n = layouts.size();
        int nullBitmap = (n + 7) / 8;
        long pages = 0;
        long free = 0; // bytes left on the page being filled
        try (java.sql.Statement st = conn.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql.toString())) {
            long[] len = new long[n];
            boolean[] isNull = new boolean[n];
            boolean[] outOfLine = new boolean[n];
            while (rs.next()) {
                boolean anyNull = false;
                for (int i = 0; i < n; i++) {
                    String v = rs.getString(i + 1);
                    isNull[i] = v == null;
                    anyNull |= isNull[i];
                    outOfLine[i] = false;
                    Layout l = layouts.get(i);
                    len[i] = isNull[i] || l.length() >= 0 ? 0 : l.varlena() == Varlena.NUMERIC ? numericBytes(v) : Long.parseLong(v);
                }
                long header = align(ROW_HEADER + (anyNull ? nullBitmap : 0), 8);
                long off = rowData(layouts, len, isNull, outOfLine);
                // A row over the threshold moves its largest values out of line, one by one,
                // until it fits (compression, which PostgreSQL tries first, is not modelled).
                while (header + off > TOAST_THRESHOLD) {
                    int largest = -1;
                    for (int i = 0; i < n; i++) {
                        if (!isNull[i] && !outOfLine[i] && layouts.get(i).length() < 0 && len[i] > TOAST_POINTER
                                && (largest < 0 || len[i] > len[largest])) {
                            largest = i;
                        }
                    }
                    if (largest < 0) {
                        break;
                    }
                    outOfLine[largest] = true;
                    off = rowData(layouts, len, isNull, outOfLine);
                }
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

    /** Where a row's data ends: each value placed after the one before, aligned as PostgreSQL aligns it. */
    private static long rowData(List<Layout> layouts, long[] len, boolean[] isNull, boolean[] outOfLine) {
        long off = 0;
        for (int i = 0; i < layouts.size(); i++) {
            if (isNull[i]) {
                continue;
            }
            Layout l = layouts.get(i);
            if (l.length() >= 0) {
                off = align(off, l.align()) + l.length();
            } else if (outOfLine[i]) {
                off += TOAST_POINTER;    // a 1-byte-header pointer, unaligned
            } else if (len[i] + 1 <= 127) {
                off += len[i] + 1;       // short header, unaligned
            } else {
                off = align(off, l.align()) + 4 + len[i];
            }
        }
        return off;
    }

    private static long align(long offset, int a) {
        return a <= 1 ? offset : (offset + a - 1) / a * a;
    }
}

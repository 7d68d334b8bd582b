package dev.wastecheck.analyzer.storage;

import dev.wastecheck.model.schema.SqlType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

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
public final class PgHeap {
    public static final int PAGE = 8192;
    public static final int PAGE_HEADER = 24;
    public static final int ROW_HEADER = 23;
    public static final int LINE_POINTER = 4;

    /**
     * How a type sits in a row: a fixed length or a varlena, and its alignment.
     *
     * @param pad a char(n)'s n: its values are stored blank-padded to n characters
     */
    public record Layout(int length, int align, Varlena varlena, int pad) {
        public static Layout fixed(int length, int align) {
            return new Layout(length, align, null, 0);
        }

        public static Layout varlena(Varlena v) {
            return new Layout(-1, 4, v, 0);
        }
    }

    /** How to find a varlena value's payload bytes from the value. */
    public enum Varlena {
        TEXT,
        BYTES,
        NUMERIC,
        TSVECTOR,
        TEXT_ARRAY,
        INT4_ARRAY,
        INT2_ARRAY
    }

    /** Rows longer than this move their largest values out of line (TOAST_TUPLE_THRESHOLD for 8 kB pages). */
    static final int TOAST_THRESHOLD = 2032;
    /** What stays in the row for a value moved out of line. */
    static final int TOAST_POINTER = 18;

    private PgHeap() {}

    public static Layout layout(SqlType t) {
        String d = t.declared().toLowerCase(Locale.ROOT);
        if (d.startsWith("interval")) {
            return Layout.fixed(16, 8);
        }
        if (d.equals("money")) {
            return Layout.fixed(8, 8);
        }
        if (d.endsWith("[]")) {
            String element = d.substring(0, d.length() - 2).trim().replaceFirst("^public\\.", "");
            if (element.equals("text") || element.startsWith("character varying") || element.startsWith("varchar")) {
                return Layout.varlena(Varlena.TEXT_ARRAY);
            }
            if (element.equals("integer") || element.equals("int") || element.equals("int4")) {
                return Layout.varlena(Varlena.INT4_ARRAY);
            }
            if (element.equals("smallint") || element.equals("int2")) {
                return Layout.varlena(Varlena.INT2_ARRAY);
            }
        }
        if (d.equals("tsvector")) {
            return Layout.varlena(Varlena.TSVECTOR);
        }
        return switch (t.family()) {
            case BOOLEAN -> Layout.fixed(1, 1);
            case INTEGER ->
                t.intBits() <= 16 ? Layout.fixed(2, 2) : t.intBits() <= 32 ? Layout.fixed(4, 4) : Layout.fixed(8, 8);
            case FLOAT -> Layout.fixed(4, 4);
            case DOUBLE -> Layout.fixed(8, 8);
            case DATE, ENUM -> Layout.fixed(4, 4);
            case TIME ->
                d.contains("with time zone") || d.contains("timetz") ? Layout.fixed(12, 8) : Layout.fixed(8, 8);
            case DATETIME, TIMESTAMP -> Layout.fixed(8, 8);
            case UUID -> Layout.fixed(16, 1);
            case DECIMAL -> Layout.varlena(Varlena.NUMERIC);
            case BINARY, VARBINARY, BLOB -> Layout.varlena(Varlena.BYTES);
            case CHAR -> new Layout(-1, 4, Varlena.TEXT, Math.max(1, t.length()));
            default -> Layout.varlena(Varlena.TEXT);
        };
    }

    /** The payload bytes of a varlena value, as a DuckDB expression over {@code v}. */
    public static String payload(Layout l, String v) {
        return switch (l.varlena()) {
            case BYTES -> "octet_length(CAST(" + v + " AS BLOB))";
            // blank-padded to n characters (the padding is ASCII, one byte each)
            case TEXT ->
                l.pad() > 0
                        ? "strlen(CAST(" + v + " AS VARCHAR)) + greatest(0, " + l.pad() + " - length(CAST(" + v
                                + " AS VARCHAR)))"
                        : "strlen(CAST(" + v + " AS VARCHAR))";
            // a 2-byte header and 2 bytes per base-10000 digit, grouped from the decimal point,
            // zero groups at either end dropped (10000 and 0.00005 take one group each); a match
            // of whole groups ending the string starts on a group boundary, so the regexes strip
            // groups, never digits
            // tsvector (tsearch/ts_type.h): a 4-byte lexeme count and a 4-byte WordEntry per lexeme,
            // then each lexeme's bytes and, when it has positions, padding to 2 bytes, a 2-byte count and
            // 2 bytes per position. The text reads 'lexeme':1,5A 'other'; every lexeme of a pg_dump either
            // has positions or none has, so the padding is each lexeme's own length's parity.
            case TSVECTOR -> {
                String m = "regexp_extract_all(CAST(" + v + " AS VARCHAR), '''(?:[^'']|'''')*''(?::[0-9A-D,]+)?')";
                String lexeme = "strlen(replace(regexp_extract(m, '^''(.*)''(?::[0-9A-D,]+)?$', 1), '''''', ''''))";
                String positions =
                        "CASE WHEN regexp_matches(m, ''':[0-9A-D,]+$') THEN len(string_split(regexp_extract(m, "
                                + "''':([0-9A-D,]+)$', 1), ',')) ELSE 0 END";
                yield "(4 + 4 * len(" + m + ") + coalesce(list_sum(list_transform(" + m + ", lambda m: " + lexeme
                        + " + CASE WHEN " + positions + " > 0 THEN " + lexeme + " % 2 + 2 + 2 * " + positions
                        + " ELSE 0 END)), 0))";
            }
            // A one-dimensional array (utils/array.h): ndim, data offset, element type, its length and
            // lower bound (20 bytes), then each element aligned to 4: a text element with a 4-byte
            // header, an integer as itself. The text reads {a,"b c"}; arrays with NULL elements carry a
            // bitmap too, which this leaves out.
            case TEXT_ARRAY -> {
                String e = "regexp_extract_all(CAST(" + v + " AS VARCHAR), '\"(?:[^\"\\\\]|\\\\.)*\"|[^,{}]+')";
                String len =
                        "strlen(CASE WHEN starts_with(e, '\"') THEN regexp_replace(e[2:-2], '\\\\(.)', '\\1', 'g') ELSE e END)";
                yield "(20 + coalesce(list_sum(list_transform(" + e + ", lambda e: (4 + " + len
                        + " + 3) // 4 * 4)), 0))";
            }
            case INT4_ARRAY, INT2_ARRAY -> {
                String n = "len(regexp_extract_all(CAST(" + v + " AS VARCHAR), '[^,{}]+'))";
                yield l.varlena() == Varlena.INT4_ARRAY
                        ? "(20 + 4 * " + n + ")"
                        : "(20 + (2 * " + n + " + 3) // 4 * 4)";
            }
            case NUMERIC -> {
                String t = "CAST(" + v + " AS VARCHAR)";
                String ip = "ltrim(regexp_extract(" + t + ", '^[-+]?([0-9]*)', 1), '0')";
                String fp = "rtrim(regexp_extract(" + t + ", '\\.([0-9]*)$', 1), '0')";
                String groups = "lpad(" + ip + ", CAST(4 * ceil(length(" + ip + ") / 4) AS INTEGER), '0') || rpad(" + fp
                        + ", CAST(4 * ceil(length(" + fp + ") / 4) AS INTEGER), '0')";
                yield "(2 + 2 * (length(regexp_replace(regexp_replace(" + groups
                        + ", '^(0000)+', ''), '(0000)+$', '')) // 4))";
            }
        };
    }

    /** One way to lay a table's rows out: each column's layout and the value it holds. */
    public record Variant(List<Layout> layouts, List<String> values) {}

    /**
     * The heap's bytes (pages x 8 kB) for the rows of {@code from}, once per variant (the
     * table as declared, as tuned, as tuned and reordered), in one scan: DuckDB gives each
     * value's length; the layout is walked here, row by row, since each value's padding depends
     * on where the one before ended.
     */
    public static long[] heapBytes(Connection conn, BufferAllocator allocator, List<Variant> variants, String from)
            throws SQLException {
        Map<String, Integer> select = new LinkedHashMap<>();
        int[][] column = new int[variants.size()][];
        for (int k = 0; k < variants.size(); k++) {
            Variant var = variants.get(k);
            column[k] = new int[var.layouts().size()];
            for (int i = 0; i < var.layouts().size(); i++) {
                Layout l = var.layouts().get(i);
                String v = var.values().get(i);
                // NULL for a NULL; else the varlena's payload bytes, or 0 for a fixed-length value
                String expr = "CAST(CASE WHEN " + v + " IS NULL THEN NULL ELSE "
                        + (l.length() >= 0 ? "0" : payload(l, v)) + " END AS BIGINT)";
                column[k][i] = select.computeIfAbsent(expr, e -> select.size());
            }
        }
        String sql = "SELECT " + String.join(", ", select.keySet()) + " FROM " + from;
        long[] pages = new long[variants.size()];
        long[] free = new long[variants.size()]; // bytes left on the page being filled
        LongRows.forEach(conn, allocator, sql, select.size(), (row, nulls) -> {
            for (int k = 0; k < variants.size(); k++) {
                long tuple = tuple(variants.get(k).layouts(), column[k], row, nulls);
                if (tuple > free[k]) {
                    pages[k]++;
                    free[k] = PAGE - PAGE_HEADER;
                }
                free[k] -= tuple;
            }
        });
        for (int k = 0; k < pages.length; k++) {
            pages[k] *= PAGE;
        }
        return pages;
    }

    /** One row's bytes on a page, line pointer included, for columns laid out as given. */
    private static long tuple(List<Layout> layouts, int[] column, long[] row, boolean[] nulls) {
        int n = layouts.size();
        long[] len = new long[n];
        boolean[] isNull = new boolean[n];
        boolean[] outOfLine = new boolean[n];
        boolean anyNull = false;
        for (int i = 0; i < n; i++) {
            isNull[i] = nulls[column[i]];
            anyNull |= isNull[i];
            len[i] = row[column[i]];
        }
        long header = align(ROW_HEADER + (anyNull ? (n + 7) / 8 : 0), 8);
        long off = rowData(layouts, len, isNull, outOfLine);
        // A row over the threshold moves its largest values out of line, one by one, until it
        // fits (compression, which PostgreSQL tries first, is not modelled).
        while (header + off > TOAST_THRESHOLD) {
            int largest = -1;
            for (int i = 0; i < n; i++) {
                if (!isNull[i]
                        && !outOfLine[i]
                        && layouts.get(i).length() < 0
                        && len[i] > TOAST_POINTER
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
        return align(header + off, 8) + LINE_POINTER;
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
                off += TOAST_POINTER; // a 1-byte-header pointer, unaligned
            } else if (len[i] + 1 <= 127) {
                off += len[i] + 1; // short header, unaligned
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

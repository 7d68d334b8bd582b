package dev.wastecheck.analyzer.storage;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import java.math.BigInteger;
import java.util.Locale;

/**
 * Bytes a column's values take in the source engine's own row or column format, summed over the
 * rows. Counts the value bytes and the per-value length headers; leaves out what no type change
 * alters (row headers, null bitmaps, alignment padding, page overhead). docs/analyze.md states the
 * model for each engine and the sources of its figures:
 *
 * <ul>
 *   <li>MySQL InnoDB (COMPACT/DYNAMIC row formats): fixed widths per type, DECIMAL packed 9 digits
 *       per 4 bytes, variable-length values with a 1- or 2-byte length, NULLs take no value bytes.</li>
 *   <li>PostgreSQL heap tuples: fixed widths, varlena values with a 1-byte header below 127 bytes and
 *       4 bytes above, numeric as 2 bytes per 4 decimal digits plus 3 of header.</li>
 *   <li>SQLite records: integers in 0-8 bytes by value, REAL 8, text and blobs their length plus
 *       a serial-type varint.</li>
 *   <li>DuckDB, uncompressed vectors: fixed width per row (NULL included), VARCHAR 16-byte
 *       string_t plus the bytes of strings longer than 12.</li>
 * </ul>
 */
public final class StorageModel {
    private final Dialect dialect;

    public StorageModel(Dialect dialect) {
        this.dialect = dialect;
    }

    public Dialect dialect() {
        return dialect;
    }

    /** Bytes of the column as declared. */
    public long declaredBytes(TableDef table, ColumnDef col, ColumnProfile p) {
        SqlType t = col.type();
        return switch (t.family()) {
            case INTEGER -> dialect == Dialect.SQLITE ? p.sqliteIntBytes : fixed(p, intWidth(t.intBits()));
            case BOOLEAN -> dialect == Dialect.SQLITE ? 0 : fixed(p, 1);
            case BIT -> fixed(p, Math.max(1, (t.length() + 7) / 8));
            case DECIMAL ->
                switch (dialect) {
                    case MYSQL ->
                        fixed(p, mysqlDecimal(t.precision() < 0 ? 10 : t.precision(), Math.max(0, t.scale())));
                    case POSTGRESQL -> p.pgNumericBytes > 0 ? p.pgNumericBytes : varlen(p);
                    case SQLITE -> fixed(p, 8);
                    case DUCKDB, TRINO -> fixed(p, duckDecimal(t.precision()));
                };
            case FLOAT -> fixed(p, dialect == Dialect.SQLITE ? 8 : 4);
            case DOUBLE -> fixed(p, 8);
            case DATE ->
                switch (dialect) {
                    case MYSQL -> fixed(p, 3);
                    case POSTGRESQL, DUCKDB, TRINO -> fixed(p, 4);
                    case SQLITE -> varlen(p);
                };
            case TIME ->
                switch (dialect) {
                    case MYSQL -> fixed(p, 3);
                    case POSTGRESQL, DUCKDB, TRINO -> fixed(p, 8);
                    case SQLITE -> varlen(p);
                };
            case DATETIME ->
                dialect == Dialect.MYSQL ? fixed(p, 5) : dialect == Dialect.SQLITE ? varlen(p) : fixed(p, 8);
            case TIMESTAMP ->
                dialect == Dialect.MYSQL ? fixed(p, 4) : dialect == Dialect.SQLITE ? varlen(p) : fixed(p, 8);
            case YEAR -> fixed(p, dialect == Dialect.MYSQL ? 1 : 2);
            case ENUM -> fixed(p, enumWidth(t.enumValues().size()));
            case SET -> fixed(p, Math.max(1, (t.enumValues().size() + 7) / 8));
            case UUID -> fixed(p, 16);
            case CHAR -> charBytes(table, t, p);
            case BINARY -> dialect == Dialect.MYSQL ? fixed(p, t.length()) : varlen(p);
            default -> varlen(p, table, t);
        };
    }

    /** Bytes for {@code nonNull} values of a fixed width (DuckDB stores NULL slots too). */
    public long fixed(ColumnProfile p, long width) {
        return (dialect == Dialect.DUCKDB || dialect == Dialect.TRINO ? p.rows : p.nonNull) * width;
    }

    /** Integer width in bytes for a type of {@code bits}; SQLite integers are sized by value. */
    public static int intWidth(int bits) {
        return Math.max(1, bits / 8);
    }

    /** Bytes for integers stored in a type {@code bytes} wide, or by SQLite's value-sized encoding. */
    public long integerBytes(ColumnProfile p, int bytes, BigInteger min, BigInteger max) {
        if (dialect == Dialect.SQLITE) {
            // Upper bound: every value sized like the largest magnitude (docs/analyze.md).
            long mag = Math.max(
                    min == null ? 0 : min.abs().longValue(),
                    max == null ? 0 : max.abs().longValue());
            int size = mag <= 1
                    ? 0
                    : mag < 128
                            ? 1
                            : mag < 32768
                                    ? 2
                                    : mag < 8388608 ? 3 : mag < 2147483648L ? 4 : mag < 140737488355328L ? 6 : 8;
            return p.nonNull * size;
        }
        return fixed(p, bytes);
    }

    /** Variable-length values as the engine stores text and bytes. */
    public long varlen(ColumnProfile p) {
        return varlen(p, null, null);
    }

    private long varlen(ColumnProfile p, TableDef table, SqlType t) {
        return switch (dialect) {
            case MYSQL -> p.sumLen + p.nonNull + (mysqlShortLength(table, t) ? 0 : p.long127); // 1- or 2-byte length
            case POSTGRESQL -> p.sumLen + p.nonNull + 3 * p.long127;
            case SQLITE -> p.sumLen + p.nonNull + p.long127;
            case DUCKDB, TRINO -> 16 * p.rows + p.sumLen;
        };
    }

    /** InnoDB keeps a 1-byte length when the column's maximum byte length is at most 255. */
    private static boolean mysqlShortLength(TableDef table, SqlType t) {
        if (t == null || t.length() < 0) {
            return false;
        }
        return (long) t.length() * charsetMaxBytes(table, t) <= 255;
    }

    private long charBytes(TableDef table, SqlType t, ColumnProfile p) {
        long n = t.length();
        return switch (dialect) {
            case MYSQL -> {
                int m = charsetMaxBytes(table, t);
                // Single-byte charsets pad to n bytes; multi-byte ones keep at least n bytes plus a length.
                yield m == 1 ? p.nonNull * n : Math.max(p.nonNull * n, p.sumLen) + p.nonNull;
            }
            case POSTGRESQL -> Math.max(p.nonNull * n, p.sumLen) + p.nonNull + 3 * p.long127;
            default -> varlen(p);
        };
    }

    /** Bytes per character of the table's character set (MySQL); binary strings are 1. */
    public static int charsetMaxBytes(TableDef table, SqlType t) {
        if (t != null && t.family().isBinary()) {
            return 1;
        }
        String cs = table == null || table.charset() == null
                ? "utf8mb4"
                : table.charset().toLowerCase(Locale.ROOT);
        if (cs.startsWith("utf8mb4") || cs.startsWith("utf16") || cs.startsWith("utf32")) {
            return 4;
        }
        if (cs.startsWith("utf8")) {
            return 3;
        }
        if (cs.startsWith("ucs2") || cs.startsWith("gbk") || cs.startsWith("sjis") || cs.startsWith("big5")) {
            return 2;
        }
        return 1;
    }

    /** MySQL packed DECIMAL: 4 bytes per 9 digits on each side of the point, leftovers by a table. */
    public static int mysqlDecimal(int precision, int scale) {
        int[] leftover = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
        int intDigits = Math.max(0, precision - scale);
        return (intDigits / 9) * 4 + leftover[intDigits % 9] + (scale / 9) * 4 + leftover[scale % 9];
    }

    public static int duckDecimal(int precision) {
        int p = precision < 0 ? 18 : precision;
        return p <= 4 ? 2 : p <= 9 ? 4 : p <= 18 ? 8 : 16;
    }

    public int enumWidth(int members) {
        return switch (dialect) {
            case MYSQL -> members <= 255 ? 1 : 2;
            case POSTGRESQL -> 4;
            case DUCKDB, TRINO -> members <= 255 ? 1 : members <= 65535 ? 2 : 4;
            case SQLITE -> 8;
        };
    }

    /** Width of a timestamp type that holds the values ({@code fitsTimestamp}: MySQL TIMESTAMP's range). */
    public int timestampWidth() {
        return switch (dialect) {
            case MYSQL -> 5; // DATETIME
            case POSTGRESQL, DUCKDB, TRINO -> 8;
            case SQLITE -> 4; // INTEGER seconds since 1970, 4 bytes up to 2038
        };
    }

    public int dateWidth() {
        return switch (dialect) {
            case MYSQL -> 3;
            case POSTGRESQL, DUCKDB, TRINO -> 4;
            case SQLITE -> 3; // INTEGER day number
        };
    }
}

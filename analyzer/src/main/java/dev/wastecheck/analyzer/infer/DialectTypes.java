package dev.wastecheck.analyzer.infer;

import dev.wastecheck.model.schema.Dialect;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** How each dialect spells the types the inference suggests, and which integer types it has. */
public final class DialectTypes {
    private final Dialect dialect;

    public DialectTypes(Dialect dialect) {
        this.dialect = dialect;
    }

    /** An integer type that can hold a range, with its width in bytes. */
    public record IntegerType(String name, int bytes, boolean unsigned) {}

    /** The narrowest integer type holding [min, max], or null when none does. */
    public IntegerType narrowestInteger(BigInteger min, BigInteger max) {
        return narrowestInteger(min, max, false);
    }

    /**
     * @param preferUnsigned at equal width, take the unsigned type when the values allow it (for
     *                       a column declared unsigned: the same sign, twice the room)
     */
    public IntegerType narrowestInteger(BigInteger min, BigInteger max, boolean preferUnsigned) {
        int[] widths = integerWidths();
        boolean unsignedAllowed = dialect == Dialect.MYSQL || dialect == Dialect.DUCKDB;
        for (int w : widths) {
            int bits = w * 8;
            BigInteger sMin = BigInteger.ONE.shiftLeft(bits - 1).negate();
            BigInteger sMax = BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
            BigInteger uMax = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
            boolean unsignedFits = unsignedAllowed && min.signum() >= 0 && max.compareTo(uMax) <= 0;
            if (preferUnsigned && unsignedFits) {
                return new IntegerType(integerName(w, true), w, true);
            }
            if (min.compareTo(sMin) >= 0 && max.compareTo(sMax) <= 0) {
                return new IntegerType(integerName(w, false), w, false);
            }
            if (unsignedFits) {
                return new IntegerType(integerName(w, true), w, true);
            }
        }
        return null;
    }

    /** The widths, in bytes, of the dialect's integer types, narrowest first. */
    public int[] integerWidths() {
        return switch (dialect) {
            case MYSQL -> new int[] {1, 2, 3, 4, 8};
            case POSTGRESQL -> new int[] {2, 4, 8};
            case DUCKDB, TRINO -> new int[] {1, 2, 4, 8};
            case SQLITE -> new int[] {8};
        };
    }

    public String integerName(int bytes, boolean unsigned) {
        return switch (dialect) {
            case MYSQL ->
                switch (bytes) {
                            case 1 -> "TINYINT";
                            case 2 -> "SMALLINT";
                            case 3 -> "MEDIUMINT";
                            case 4 -> "INT";
                            default -> "BIGINT";
                        }
                        + (unsigned ? " UNSIGNED" : "");
            case POSTGRESQL ->
                switch (bytes) {
                    case 2 -> "smallint";
                    case 4 -> "integer";
                    default -> "bigint";
                };
            case DUCKDB ->
                (unsigned ? "U" : "")
                        + switch (bytes) {
                            case 1 -> "TINYINT";
                            case 2 -> "SMALLINT";
                            case 4 -> "INTEGER";
                            default -> "BIGINT";
                        };
            case TRINO ->
                switch (bytes) {
                    case 1 -> "tinyint";
                    case 2 -> "smallint";
                    case 4 -> "integer";
                    default -> "bigint";
                };
            case SQLITE -> "INTEGER";
        };
    }

    public String timestamp() {
        return switch (dialect) {
            case MYSQL -> "DATETIME";
            case POSTGRESQL, TRINO -> "timestamp";
            case DUCKDB -> "TIMESTAMP";
            case SQLITE -> "INTEGER";
        };
    }

    public String date() {
        return switch (dialect) {
            case MYSQL, DUCKDB -> "DATE";
            case POSTGRESQL, TRINO -> "date";
            case SQLITE -> "INTEGER";
        };
    }

    public String uuid() {
        return switch (dialect) {
            case MYSQL -> "BINARY(16)";
            case POSTGRESQL, TRINO -> "uuid";
            case DUCKDB -> "UUID";
            case SQLITE -> "BLOB";
        };
    }

    public String bool() {
        return switch (dialect) {
            case MYSQL -> "TINYINT(1)";
            case POSTGRESQL, TRINO -> "boolean";
            case DUCKDB -> "BOOLEAN";
            case SQLITE -> "INTEGER";
        };
    }

    public String decimal(int precision, int scale) {
        return (dialect == Dialect.POSTGRESQL ? "numeric" : dialect == Dialect.TRINO ? "decimal" : "DECIMAL") + "("
                + precision + "," + scale + ")";
    }

    public String floatType() {
        return switch (dialect) {
            case MYSQL, DUCKDB -> "FLOAT";
            case POSTGRESQL, TRINO -> "real";
            case SQLITE -> "REAL";
        };
    }

    public String varchar(long chars) {
        return switch (dialect) {
            case MYSQL -> "VARCHAR(" + Math.max(1, chars) + ")";
            case POSTGRESQL, TRINO -> "varchar(" + Math.max(1, chars) + ")";
            case DUCKDB -> "VARCHAR";
            case SQLITE -> "TEXT";
        };
    }

    public String enumOf(List<String> values) {
        String list = values.stream().map(v -> "'" + v.replace("'", "''") + "'").collect(Collectors.joining(","));
        return switch (dialect) {
            case MYSQL, DUCKDB -> "ENUM(" + list + ")";
            case POSTGRESQL -> "enum type (" + list + ")";
            case SQLITE, TRINO -> "TEXT";
        };
    }

    public boolean hasEnum() {
        return dialect != Dialect.SQLITE && dialect != Dialect.TRINO;
    }

    public boolean hasFloat4() {
        return dialect != Dialect.SQLITE;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}

package dev.wastecheck.model.schema;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * A declared column type, parsed from its text in any dialect.
 *
 * @param declared   the type as the source spelled it, e.g. {@code int(10) unsigned}
 * @param family     what kind of type it is
 * @param intBits    for integers: 8, 16, 24, 32 or 64 (0 otherwise)
 * @param unsigned   MySQL UNSIGNED, or an unsigned DuckDB type
 * @param length     CHAR/VARCHAR/BINARY length, or -1 when unbounded or not applicable
 * @param precision  DECIMAL precision, or -1
 * @param scale      DECIMAL scale, or -1
 * @param enumValues ENUM/SET members, empty otherwise
 */
public record SqlType(
        String declared,
        TypeFamily family,
        int intBits,
        boolean unsigned,
        int length,
        int precision,
        int scale,
        List<String> enumValues) {

    public SqlType {
        enumValues = List.copyOf(enumValues);
    }

    public static SqlType of(String declared, TypeFamily family) {
        return new SqlType(declared, family, 0, false, -1, -1, -1, List.of());
    }

    public static SqlType integer(String declared, int bits, boolean unsigned) {
        return new SqlType(declared, TypeFamily.INTEGER, bits, unsigned, -1, -1, -1, List.of());
    }

    /** Largest value an integer type can hold. */
    public BigInteger intMax() {
        int bits = unsigned ? intBits : intBits - 1;
        return BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
    }

    public boolean isInteger() {
        return family == TypeFamily.INTEGER;
    }

    @Override
    public String toString() {
        return declared.toLowerCase(Locale.ROOT);
    }
}

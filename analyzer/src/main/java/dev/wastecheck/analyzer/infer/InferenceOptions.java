package dev.wastecheck.analyzer.infer;

import java.util.Set;

/**
 * Knobs of the type inference: how much growth the advice leaves room for, and how much evidence
 * it needs before it changes a type at all. The policy behind each default is in docs/analyze.md
 * ("What the database will need").
 *
 * @param headroom        factor by which an ordinary integer's observed range may grow and still fit
 * @param idHeadroom      the same for keys and the columns that refer to them: they grow with the
 *                        table, so the default leaves ten times the current maximum (or counter)
 * @param enumMax         most distinct values a string column may have to become an ENUM (a closed
 *                        domain is a handful of values: a status, a kind, a rating)
 * @param minRows         fewest non-null values a column (a key: its table's rows; a domain: all its
 *                        columns together) must hold before its range, its distinct values or its
 *                        patterns decide a type; below it the declared type stays ("too little evidence")
 * @param keyFloorBytes   the narrowest integer a key fed by a counter, or a column referring to one, may
 *                        get: 4 (INT / integer) by default; never below 2, so TINYINT is never a key
 * @param horizonYears    a key narrowed from BIGINT must last this many years at the rate its rows'
 *                        own timestamps show
 * @param decimalHeadroom factor by which a DECIMAL's largest magnitude may grow (money: prices rise,
 *                        totals sum more lines, currencies change): 1000 keeps three more digits
 * @param representation  lower-case {@code table.column} names, or {@code all}, whose change of what the
 *                        application reads (text to a number or time, 0/1 to boolean) tune may apply; empty
 *                        by default, so the migration holds only transparent changes
 */
public record InferenceOptions(
        double headroom,
        double idHeadroom,
        int enumMax,
        long minRows,
        int keyFloorBytes,
        double horizonYears,
        double decimalHeadroom,
        Set<String> representation) {
    public static final double DEFAULT_HEADROOM = 2.0;
    public static final double DEFAULT_ID_HEADROOM = 10.0;
    public static final int DEFAULT_ENUM_MAX = 8;
    public static final long DEFAULT_MIN_ROWS = 1000;
    public static final int DEFAULT_KEY_FLOOR_BYTES = 4;
    public static final double DEFAULT_HORIZON_YEARS = 10.0;
    public static final double DEFAULT_DECIMAL_HEADROOM = 1000.0;

    public InferenceOptions {
        representation = Set.copyOf(representation);
        if (headroom < 1 || idHeadroom < 1 || decimalHeadroom < 1) {
            throw new IllegalArgumentException("headroom must be at least 1 (no room to grow)");
        }
        if (enumMax < 0) {
            throw new IllegalArgumentException("enum cap must not be negative");
        }
        if (minRows < 0) {
            throw new IllegalArgumentException("the evidence threshold must not be negative");
        }
        if (keyFloorBytes < 2 || keyFloorBytes > 8) {
            throw new IllegalArgumentException("the key floor is 2 to 8 bytes (a TINYINT key is never suggested)");
        }
        if (horizonYears < 0) {
            throw new IllegalArgumentException("the growth horizon must not be negative");
        }
    }

    /** Every knob but {@code representation}: the migration holds only transparent changes. */
    public InferenceOptions(
            double headroom,
            double idHeadroom,
            int enumMax,
            long minRows,
            int keyFloorBytes,
            double horizonYears,
            double decimalHeadroom) {
        this(headroom, idHeadroom, enumMax, minRows, keyFloorBytes, horizonYears, decimalHeadroom, Set.of());
    }

    /** The first three knobs, the rest at their defaults. */
    public InferenceOptions(double headroom, double idHeadroom, int enumMax) {
        this(
                headroom,
                idHeadroom,
                enumMax,
                DEFAULT_MIN_ROWS,
                DEFAULT_KEY_FLOOR_BYTES,
                DEFAULT_HORIZON_YEARS,
                DEFAULT_DECIMAL_HEADROOM);
    }

    public static InferenceOptions defaults() {
        return new InferenceOptions(DEFAULT_HEADROOM, DEFAULT_ID_HEADROOM, DEFAULT_ENUM_MAX);
    }

    public InferenceOptions withMinRows(long rows) {
        return new InferenceOptions(
                headroom, idHeadroom, enumMax, rows, keyFloorBytes, horizonYears, decimalHeadroom, representation);
    }

    public InferenceOptions withKeyFloorBytes(int bytes) {
        return new InferenceOptions(
                headroom, idHeadroom, enumMax, minRows, bytes, horizonYears, decimalHeadroom, representation);
    }

    public InferenceOptions withEnumMax(int max) {
        return new InferenceOptions(
                headroom, idHeadroom, max, minRows, keyFloorBytes, horizonYears, decimalHeadroom, representation);
    }

    /** These options with the columns (lower-case {@code table.column}, or {@code all}) whose representation tune may change. */
    public InferenceOptions withRepresentation(Set<String> columns) {
        return new InferenceOptions(
                headroom, idHeadroom, enumMax, minRows, keyFloorBytes, horizonYears, decimalHeadroom, columns);
    }
}

package dev.wastecheck.analyzer.profile;

import dev.wastecheck.sources.sql.IsoTimestamps;
import java.lang.reflect.Field;
import java.math.BigInteger;

/**
 * Exact facts about one column's values, from one full scan (no sampling). Fields a column's
 * kind does not compute stay at their defaults (0, or null for objects).
 */
public final class ColumnProfile {
    public long rows;
    public long nonNull;
    public long distinct;
    /**
     * {@code distinct} is a HyperLogLog estimate: a large count that no decision depends on
     * ({@link Profiler}'s screen), where the exact count would cost a hash table of every value.
     */
    public boolean distinctEstimated;
    /** Non-null values that do not read as the declared type (e.g. text in a SQLite INTEGER column). */
    public long castFailures;

    // integers (declared integer, or the integral part of decimals and floats)
    public BigInteger minInt;
    public BigInteger maxInt;
    /** Sum over values of SQLite's record size for the integer (0, 1, 2, 3, 4, 6 or 8 bytes). */
    public long sqliteIntBytes;

    // lengths, for everything held as text or bytes
    public long minLen;
    public long maxLen;
    public long sumLen;
    public long maxChars;
    /** Values of 127 bytes or more (PostgreSQL's 4-byte varlena header, InnoDB's 2-byte length). */
    public long long127;

    public long trailingSpace;
    /** Values that are null markers ({@code 'NA'}, {@code ''}, {@code 'NULL'}, {@code '\N'}, ...). */
    public long markers;

    public long markerKinds;
    public String minText;
    /** Length and text bounds of the values that are not null markers. */
    public long realMinLen;

    public long realMaxLen;
    public String realMinText;
    public String realMaxText;
    public String maxText;

    // what strings hold, counted only for canonical spellings that round-trip
    public long intCanonical;
    public BigInteger strIntMin;
    public BigInteger strIntMax;
    public long decimalCanonical;
    public int decimalIntDigits;
    public int decimalFracMin;
    public int decimalFracMax;
    public long booleans;
    public long booleanKinds;
    public long dates;
    public long timestamps;
    public String timestampMin;
    public String timestampMax;
    /** The {@link IsoTimestamps} format {@link #timestamps} counts, or null for {@code YYYY-MM-DD HH:MM:SS}. */
    public String timestampFormat;

    public long mwTimestamps;
    public String mwTimestampMin;
    public String mwTimestampMax;
    public long uuids;

    // declared DECIMAL / NUMERIC
    public int usedIntDigits;
    public int usedScale;
    public long integral;
    public long pgNumericBytes;

    // declared FLOAT / DOUBLE
    public long floatRoundTrip;

    /** Declared DECIMAL, FLOAT or DOUBLE: the smallest and largest value by number, as the dump spelled them. */
    public String minNumber;

    public String maxNumber;

    // declared temporal
    public long midnight;
    public String minTemporal;
    public String maxTemporal;

    /** A field-by-field copy. */
    public ColumnProfile copy() {
        ColumnProfile c = new ColumnProfile();
        for (Field f : ColumnProfile.class.getFields()) {
            try {
                f.set(c, f.get(this));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return c;
    }

    /** Non-null values that are not null markers. */
    public long realValues() {
        return nonNull - markers;
    }

    public long nulls() {
        return rows - nonNull;
    }

    public boolean allNull() {
        return rows > 0 && nonNull == 0;
    }

    public boolean constant() {
        return rows > 0 && nonNull == rows && distinct == 1;
    }

    public double avgLen() {
        return nonNull == 0 ? 0 : (double) sumLen / nonNull;
    }
}

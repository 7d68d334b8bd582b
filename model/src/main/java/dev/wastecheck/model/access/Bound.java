package dev.wastecheck.model.access;

/**
 * One conjunct of a statement's WHERE clause that compares a column of the event's table with
 * literals: {@code c = 'x'} (lo = hi, both inclusive), {@code c > 5} (no hi), {@code c BETWEEN 1
 * AND 9}. What a scan filters on, and what a range adds to its key prefix. Values follow {@link
 * AccessEvent#key()}'s convention (strings unquoted, numbers as written); null for an open end.
 */
public record Bound(String column, String lo, boolean loInclusive, String hi, boolean hiInclusive) {

    public static Bound equal(String column, String value) {
        return new Bound(column, value, true, value, true);
    }

    public boolean isEquality() {
        return lo != null && lo.equals(hi) && loInclusive && hiInclusive;
    }
}

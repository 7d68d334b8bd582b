package dev.wastecheck.sources.load;

import java.util.List;

/**
 * Spellings that dumps and CSV exports write for a missing value ({@code NA}, {@code \N}, ...):
 * the loader counts them per column while it reads, and the profile counts them as markers
 * rather than real values, so that a numeric column holding {@code 'NA'} still reads as numeric.
 * Kept in the loading package, below the profile, since both use it.
 */
public final class NullMarkers {
    private NullMarkers() {}

    /** Spellings counted as null markers rather than real values. */
    public static final List<String> SPELLINGS = List.of("NA", "N/A", "NULL", "null", "\\N", "", "None", "nan", "NaN");
}

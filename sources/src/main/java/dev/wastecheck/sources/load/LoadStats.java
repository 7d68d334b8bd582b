package dev.wastecheck.sources.load;

import dev.wastecheck.model.BadInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** What loading saw that the report must tell: bad rows and values, with where they were. */
public final class LoadStats {
    /** Examples kept per table, so a file of bad rows does not fill memory. */
    public static final int EXAMPLES = 5;

    private final Map<String, TableStats> tables = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private double maxBad = 1.0;
    private long badStatements;
    private String firstBad;

    /** Share of bad rows past which {@link #checkMaxBad} fails. */
    public void maxBad(double fraction) {
        this.maxBad = fraction;
    }

    /**
     * Text between statements that is not a statement (skipped to the next line that starts one):
     * counted like a bad row, and reported.
     */
    public void badStatement(String file, long line, String found, long resumedAt) {
        badStatements++;
        String where = file + ":" + line + ": expected a SQL statement, found " + found
                + (resumedAt > 0
                        ? "; skipped to the statement at line " + resumedAt
                        : "; skipped to the end of the file");
        if (firstBad == null) {
            firstBad = where;
        }
        warn(where);
    }

    public long badStatements() {
        return badStatements;
    }

    /**
     * Fails (exit 2) when bad rows and bad statements are more than the allowed share of all rows
     * read, naming the first and the counts; at or below it they stay counted in the report.
     */
    public void checkMaxBad(long goodRows) {
        long bad = badRows() + badStatements;
        if (bad > 0 && bad > maxBad * (goodRows + bad)) {
            String first = firstBad;
            for (TableStats t : tables.values()) {
                if (first == null && t.firstBadRow != null) {
                    first = t.firstBadRow;
                }
            }
            throw new BadInputException(first
                    + String.format(
                            Locale.ROOT,
                            " (%d bad of %d rows read, more than the %s allowed by --max-bad; pass --max-bad 1 to count them and go on)",
                            bad,
                            goodRows + bad,
                            maxBad == 0 ? "none" : String.format(Locale.ROOT, "%.4g%%", maxBad * 100)));
        }
    }

    public TableStats table(String name) {
        return tables.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new TableStats());
    }

    public Map<String, TableStats> tables() {
        return tables;
    }

    public List<String> warnings() {
        return warnings;
    }

    public void warn(String message) {
        if (warnings.size() < 200) {
            warnings.add(message);
        }
    }

    public long badRows() {
        return tables.values().stream().mapToLong(t -> t.badRows).sum();
    }

    /** Per-table counts. */
    public static final class TableStats {
        private long badRows;
        private long badValues;
        private long recoded;
        private final List<String> examples = new ArrayList<>();
        private final Map<String, Long> badValuesByColumn = new LinkedHashMap<>();
        private final Map<String, String> firstBadValue = new LinkedHashMap<>();
        private String firstBadRow;

        public void badRow(String file, long line, String what) {
            badRows++;
            String where = file + ":" + line + ": expected " + what;
            if (firstBadRow == null) {
                firstBadRow = where;
            }
            if (examples.size() < EXAMPLES) {
                examples.add(where);
            }
        }

        void badValue(String column, String value, String file, long line) {
            badValue(column, value, file, line, "is not an integer as declared; loaded as NULL");
        }

        /**
         * A value its column's declared type cannot hold ({@code 300} in a TINYINT UNSIGNED,
         * {@code 2023-02-30} in a DATE): counted per column, the first kept with where it was.
         */
        public void badValue(String column, String value, String file, long line, String why) {
            badValues++;
            badValuesByColumn.merge(column, 1L, Long::sum);
            String example = file + ":" + line + ": column " + column + ": '" + value + "' " + why;
            firstBadValue.putIfAbsent(column, example);
            if (examples.size() < EXAMPLES) {
                examples.add(example);
            }
        }

        private final Map<String, Set<String>> outOfType = new LinkedHashMap<>();

        /** A value outside its column's declared type; up to 16 distinct ones are kept per column. */
        void outOfType(String column, String value) {
            Set<String> s = outOfType.computeIfAbsent(column, k -> new LinkedHashSet<>());
            if (s.size() < 16) {
                s.add(value);
            }
        }

        /** Per column, distinct values outside the declared type (at most 16; more when the set is full). */
        public Map<String, Set<String>> outOfTypeValues() {
            return outOfType;
        }

        /** Per column: its first bad value, {@code file:line: column c: 'v' why}. */
        public Map<String, String> firstBadValues() {
            return firstBadValue;
        }

        void recoded(String column) {
            recoded++;
        }

        public long badRows() {
            return badRows;
        }

        public long badValues() {
            return badValues;
        }

        public long recodedValues() {
            return recoded;
        }

        public List<String> examples() {
            return examples;
        }

        public Map<String, Long> badValuesByColumn() {
            return badValuesByColumn;
        }
    }
}

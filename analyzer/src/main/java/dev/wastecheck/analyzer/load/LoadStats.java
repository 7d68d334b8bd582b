package dev.wastecheck.analyzer.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What loading saw that the report must tell: bad rows and values, with where they were. */
public final class LoadStats {
    /** Examples kept per table, so a file of bad rows does not fill memory. */
    public static final int EXAMPLES = 5;

    private final Map<String, TableStats> tables = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();

    public TableStats table(String name) {
        return tables.computeIfAbsent(name.toLowerCase(java.util.Locale.ROOT), k -> new TableStats());
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

        void badRow(String file, long line, String what) {
            badRows++;
            if (examples.size() < EXAMPLES) {
                examples.add(file + ":" + line + ": expected " + what);
            }
        }

        void badValue(String column, String value, String file, long line) {
            badValues++;
            badValuesByColumn.merge(column, 1L, Long::sum);
            if (examples.size() < EXAMPLES) {
                examples.add(file + ":" + line + ": column " + column + ": '" + value
                        + "' is not an integer as declared; loaded as NULL");
            }
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

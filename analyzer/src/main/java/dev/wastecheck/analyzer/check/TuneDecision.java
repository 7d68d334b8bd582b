package dev.wastecheck.analyzer.check;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What tune does with one of analyze's suggestions, decided once and rendered by both commands:
 * analyze prints {@link #note} beside the suggestion (as a {@code tune_note} finding), tune puts
 * {@link #conversion} in its migration and the same note among the changes it altered or left out.
 *
 * <p>The rule ("No Bits Left Behind" §4 counts encoding waste; removing it must not change the
 * data): the default migration holds only <em>transparent</em> changes, under which the
 * application reads the very values it wrote (narrower integers and decimals, VARCHAR lengths,
 * ENUMs that read back as the same strings). A change of <em>representation</em> (text or bytes
 * to a number, date, time, timestamp, uuid or boolean; a timestamp to a date; PostgreSQL's
 * CHAR(n) to VARCHAR, which stops padding what it returns; a 0/1 integer to PostgreSQL's boolean,
 * read as t and f) is lossless but changes what the application reads, so tune applies it only
 * when the user names the column, or {@code all}, with {@code --representation}.
 *
 * @param conversion     what tune checks on every row and applies, or null when it is left out
 * @param representation the suggestion changes what the application reads
 * @param note           why tune's change differs from the suggestion or needs the application's change,
 *                       or null when tune applies the suggestion as it is
 */
public record TuneDecision(Conversion conversion, boolean representation, String note) {

    /** How analyze opens the note of a change tune cannot apply; tune's own list is headed "Left out" already. */
    private static final String LEFT_OUT = "tune leaves it out: ";

    /** The note as tune's "Left out" list gives it: without the words its heading already says. */
    public String reason() {
        return note != null && note.startsWith(LEFT_OUT) ? note.substring(LEFT_OUT.length()) : note;
    }

    /** {@code --representation all}: every change of representation. */
    public static final String ALL = "all";

    /**
     * @param asked lower-case {@code table.column} names (or {@link #ALL}) the user allowed to change representation
     */
    public static TuneDecision of(
            TableDef def, int index, ColumnDef col, ColumnReport report, Dialect dialect, Set<String> asked) {
        FindingKind kind =
                report.findings().isEmpty() ? null : report.findings().get(0).kind();
        String reads = kind == null ? null : reads(kind, col, report, dialect);
        String id = (def.name() + "." + col.name()).toLowerCase(Locale.ROOT);
        boolean allowed = asked.contains(ALL) || asked.contains(id);
        String option = "--representation " + def.name() + "." + col.name();
        if (reads == null) {
            try {
                return new TuneDecision(Conversion.of(def, index, col, report, dialect, false), false, null);
            } catch (Conversion.Unsupported e) {
                return new TuneDecision(null, false, LEFT_OUT + e.getMessage());
            }
        }
        if (allowed) {
            try {
                return new TuneDecision(
                        Conversion.of(def, index, col, report, dialect, true),
                        true,
                        "applied as " + option + " asked: " + reads + ", so the application must change with it");
            } catch (Conversion.Unsupported e) {
                return new TuneDecision(null, true, LEFT_OUT + e.getMessage());
            }
        }
        if (report.suggestedType().toLowerCase(Locale.ROOT).startsWith("bool")) {
            // 0/1 integers on PostgreSQL: the transparent part of the saving is the narrowest integer.
            try {
                Conversion narrow = Conversion.of(def, index, col, report, dialect, false);
                return new TuneDecision(
                        narrow,
                        true,
                        "tune writes " + narrow.target() + " instead: " + reads + "; " + option + " applies boolean");
            } catch (Conversion.Unsupported e) {
                return new TuneDecision(
                        null,
                        true,
                        "tune leaves it out by default: " + reads + ", and no integer is narrower than "
                                + col.type().declared() + "; " + option + " applies boolean");
            }
        }
        return new TuneDecision(
                null,
                true,
                "tune leaves it out by default: " + reads + "; " + option
                        + " applies it once the application reads the new type");
    }

    /**
     * What the application would read differently under the suggestion, or null when it reads the
     * same values (a transparent change).
     */
    static String reads(FindingKind kind, ColumnDef col, ColumnReport report, Dialect dialect) {
        String example = report.min();
        return switch (kind) {
            case STRING_HOLDS_INTEGER, STRING_HOLDS_DECIMAL ->
                "the application would read a number where it read a string";
            case STRING_HOLDS_DATE -> "the application would read a date where it read a string";
            case STRING_HOLDS_UUID -> "the application would read a uuid where it read a string";
            case STRING_HOLDS_BOOLEAN -> "the application would read a boolean where it read a string";
            case STRING_HOLDS_TIMESTAMP -> {
                String shown = example != null && example.matches("\\d{14}")
                        ? " (" + example.substring(0, 4) + "-" + example.substring(4, 6) + "-" + example.substring(6, 8)
                                + " " + example.substring(8, 10) + ":" + example.substring(10, 12) + ":"
                                + example.substring(12, 14) + " where it wrote " + example + ")"
                        : "";
                yield "the application would read a timestamp where it read a string" + shown;
            }
            case TIMESTAMP_HOLDS_DATE -> "the application would read a date where it read a timestamp";
            case PADDING ->
                dialect == Dialect.POSTGRESQL && col.type().family() == TypeFamily.CHAR
                        ? "the application would read values without the trailing spaces CHAR("
                                + col.type().length() + ") pads them with"
                        : null;
            case NARROW_INTEGER, FLOAT_HOLDS_INTEGER ->
                report.suggestedType().toLowerCase(Locale.ROOT).startsWith("bool")
                        ? "boolean changes what the application reads (t and f where it read 1 and 0) and breaks"
                                + " arithmetic on the column (" + col.name() + " + 1, sum(" + col.name() + "))"
                        : null;
            default -> null;
        };
    }

    /**
     * The report with a {@code tune_note} on every suggestion tune alters or leaves out by itself,
     * so that analyze says what tune will do.
     *
     * @param defs each table's definition, keyed by lower-case name as the report names it
     */
    public static AnalysisReport annotate(
            AnalysisReport report, Map<String, TableDef> defs, Dialect dialect, Set<String> asked) {
        if (dialect == Dialect.SQLITE || dialect == Dialect.TRINO) {
            return report; // tune writes no migration for them
        }
        List<TableReport> tables = new ArrayList<>();
        boolean changed = false;
        for (TableReport t : report.tables()) {
            TableDef def = defs.get(t.name().toLowerCase(Locale.ROOT));
            List<ColumnReport> cols = new ArrayList<>(t.columns());
            boolean mine = false;
            for (int i = 0; def != null && i < cols.size(); i++) {
                ColumnReport c = cols.get(i);
                int index = def.columnIndex(c.name());
                if (c.suggestedType().equals(c.declaredType()) || index < 0 || c.has(FindingKind.TUNE_NOTE)) {
                    continue;
                }
                TuneDecision d = of(def, index, def.columns().get(index), c, dialect, asked);
                if (d.note() != null) {
                    List<Finding> f = new ArrayList<>(c.findings());
                    f.add(new Finding(FindingKind.TUNE_NOTE, d.note(), 0));
                    cols.set(i, c.withFindings(f));
                    mine = true;
                }
            }
            tables.add(mine ? t.withColumns(cols) : t);
            changed |= mine;
        }
        return changed ? report.withTables(tables) : report;
    }
}

package dev.wastecheck.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A table of the text reports laid out to fit a terminal. Each column is as wide as its widest cell;
 * when the table is wider than the terminal, the text columns give way first (their cells wrap
 * onto more lines, the widest column narrowing first, none below {@value #MIN_TEXT_WIDTH}
 * characters); numbers never wrap. A table with more numbers than one line holds is folded: its
 * columns are printed as several tables one under the other, each led by the first column, as R
 * prints a wide data frame.
 *
 * <p>picocli's own {@code Help.TextTable} lays out the usage help but moves every cell after a
 * wrapped one to a new line, which breaks a report's rows apart; hence this one.
 */
public final class TextTable {
    /** Narrowest a text column is made before the table folds or overflows. */
    static final int MIN_TEXT_WIDTH = 12;

    private static final String GAP = "  ";
    /**
     * Where a cell may break besides spaces: between a table and its column ({@code table.column}),
     * in lists and paths; never inside a name ({@code rev_content_model} stays whole: a column is
     * not narrowed below its longest name, see {@link #fit}).
     */
    private static final String BREAK_AFTER = ",./";

    private enum Kind {
        TEXT,
        WORD,
        NUMBER
    }

    private record Column(String header, Kind kind) {}

    private final List<Column> columns = new ArrayList<>();
    private final List<String[]> rows = new ArrayList<>();
    /** Per row (the header first), a line of text printed under it across the whole width, or null. */
    private final List<String> notes = new ArrayList<>(Collections.singletonList(null));

    private String indent = "";
    private boolean fold;

    /** A left-aligned column whose cells wrap when the table is too wide. */
    public TextTable text(String header) {
        columns.add(new Column(header, Kind.TEXT));
        return this;
    }

    /** A left-aligned column of single words (finding kinds, flags) that never wrap. */
    public TextTable word(String header) {
        columns.add(new Column(header, Kind.WORD));
        return this;
    }

    /** A right-aligned column of figures, which never wrap. */
    public TextTable number(String header) {
        columns.add(new Column(header, Kind.NUMBER));
        return this;
    }

    /** Spaces (or anything) before every line. */
    public TextTable indent(String prefix) {
        this.indent = prefix;
        return this;
    }

    /** When even narrowed text columns do not fit, print the columns as several tables, each led by the first. */
    public TextTable fold() {
        this.fold = true;
        return this;
    }

    public TextTable row(String... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + columns.size() + " columns");
        }
        rows.add(cells);
        notes.add(null);
        return this;
    }

    /**
     * A line under the last row (under the header before any row), indented by two spaces and
     * wrapped to the whole width: for what does not fit in a column of a narrow terminal.
     */
    public TextTable note(String text) {
        notes.set(notes.size() - 1, text);
        return this;
    }

    /** Whether every cell fits on one line within {@code width}, no column narrowed. */
    public boolean fits(int width) {
        return total(natural()) <= width;
    }

    private int[] natural() {
        int[] natural = new int[columns.size()];
        for (int c = 0; c < natural.length; c++) {
            natural[c] = columns.get(c).header().length();
            for (String[] r : rows) {
                natural[c] = Math.max(natural[c], r[c].length());
            }
        }
        return natural;
    }

    /** Prints the table so that no line is wider than {@code width} where the numbers and words allow it. */
    public void print(PrintWriter w, int width) {
        int[] natural = natural();
        int[] widths = fit(natural, width);
        if (total(widths) > width && fold && columns.size() > 2) {
            printFolded(w, width, natural);
            return;
        }
        printRow(w, columns.stream().map(Column::header).toArray(String[]::new), widths);
        printNote(w, notes.get(0), width);
        for (int i = 0; i < rows.size(); i++) {
            printRow(w, rows.get(i), widths);
            printNote(w, notes.get(i + 1), width);
        }
    }

    private void printNote(PrintWriter w, String note, int width) {
        if (note != null) {
            Wrap.print(w, note, width, indent + "  ", indent + "    ");
        }
    }

    /** The natural widths, the widest text column narrowed by one at a time until the line fits or none can give way. */
    private int[] fit(int[] natural, int width) {
        int[] widths = natural.clone();
        while (total(widths) > width) {
            int widest = -1;
            for (int c = 0; c < widths.length; c++) {
                if (columns.get(c).kind() == Kind.TEXT
                        && widths[c] > Math.max(Math.min(natural[c], MIN_TEXT_WIDTH), longestPiece(c))
                        && (widest < 0 || widths[c] > widths[widest])) {
                    widest = c;
                }
            }
            if (widest < 0) {
                break;
            }
            widths[widest]--;
        }
        return widths;
    }

    /** The longest part of column {@code c}'s cells that no break may split: a name, a number. */
    private int longestPiece(int c) {
        int longest = 0;
        for (String[] r : rows) {
            int run = 0;
            for (int i = 0; i < r[c].length(); i++) {
                char ch = r[c].charAt(i);
                if (ch == ' ') {
                    run = 0;
                    continue;
                }
                run++;
                longest = Math.max(longest, run);
                if (BREAK_AFTER.indexOf(ch) >= 0) {
                    run = 0;
                }
            }
        }
        return longest;
    }

    private int total(int[] widths) {
        return indent.length() + Arrays.stream(widths).sum() + GAP.length() * Math.max(0, widths.length - 1);
    }

    /** Groups of the columns after the first, as many to a group as fit beside the first. */
    private void printFolded(PrintWriter w, int width, int[] natural) {
        List<List<Integer>> groups = new ArrayList<>();
        List<Integer> group = new ArrayList<>(List.of(0));
        for (int c = 1; c < columns.size(); c++) {
            List<Integer> tried = new ArrayList<>(group);
            tried.add(c);
            // a part holds the columns that fit at their natural width; only a lone one too wide narrows
            if (group.size() > 1 && total(pick(natural, tried)) > width) {
                groups.add(group);
                group = new ArrayList<>(List.of(0, c));
            } else {
                group = tried;
            }
        }
        groups.add(group);
        for (int g = 0; g < groups.size(); g++) {
            if (g > 0) {
                w.println();
            }
            TextTable part = new TextTable().indent(indent);
            for (int c : groups.get(g)) {
                part.columns.add(columns.get(c));
            }
            for (int i = 0; i < rows.size(); i++) {
                String[] r = rows.get(i);
                part.row(groups.get(g).stream().map(c -> r[c]).toArray(String[]::new))
                        .note(notes.get(i + 1));
            }
            part.print(w, width);
        }
    }

    private static int[] pick(int[] values, List<Integer> which) {
        return which.stream().mapToInt(c -> values[c]).toArray();
    }

    private void printRow(PrintWriter w, String[] cells, int[] widths) {
        List<List<String>> wrapped = new ArrayList<>();
        int height = 1;
        for (int c = 0; c < cells.length; c++) {
            List<String> lines = columns.get(c).kind() == Kind.TEXT
                    ? Wrap.lines(cells[c], widths[c], widths[c], BREAK_AFTER)
                    : List.of(cells[c].replace(Wrap.NBSP, ' '));
            wrapped.add(lines);
            height = Math.max(height, lines.size());
        }
        for (int line = 0; line < height; line++) {
            StringBuilder sb = new StringBuilder(indent);
            for (int c = 0; c < cells.length; c++) {
                String s = line < wrapped.get(c).size() ? wrapped.get(c).get(line) : "";
                if (c > 0) {
                    sb.append(GAP);
                }
                String pad = " ".repeat(Math.max(0, widths[c] - s.length()));
                sb.append(columns.get(c).kind() == Kind.NUMBER ? pad + s : s + pad);
            }
            w.println(sb.toString().stripTrailing());
        }
    }
}

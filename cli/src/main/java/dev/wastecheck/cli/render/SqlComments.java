package dev.wastecheck.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A migration laid out for a width, so that what a DBA reads before applying it fits an
 * 80-column editor or terminal. Comments are re-flowed: a comment line continues the one before
 * it when that one ends mid-sentence and this one starts in lower case or with a parenthesis (how
 * the analyzer breaks its long notes). A
 * statement too wide with its trailing comment gets the comment on a line of its own above it,
 * but only where the {@code --} is surely outside any literal or quoted name (the quotes before
 * it balance). Statements are written as they are, however long: they are what the servers run,
 * and tests and DBAs find them by their text (mysqldump's lines are longer still). A comment line
 * inside a literal that spans lines is part of the literal and is left alone.
 */
public final class SqlComments {
    private static final Pattern COMMENT = Pattern.compile("^(\\s*--)( ?)(.*)$");

    private SqlComments() {}

    /** Writes {@code sql} with its header re-flowed to {@code width} and too-wide trailing comments above their statements. */
    public static void print(String sql, PrintWriter w, int width) {
        String[] lines = sql.split("\n", -1);
        int end = lines.length;
        if (end > 0 && lines[end - 1].isEmpty()) {
            end--; // the text's final line break
        }
        String prefix = null;
        List<String> paragraph = new ArrayList<>();
        char open = 0; // the quote a statement line left open, if any
        for (int i = 0; i < end; i++) {
            Matcher m = COMMENT.matcher(lines[i]);
            if (open != 0 || !m.matches()) {
                flush(w, prefix, paragraph, width);
                if (open != 0) {
                    w.println(lines[i]); // inside a literal that began on an earlier line: every byte counts
                } else {
                    statement(w, lines[i], width);
                }
                open = carried(lines[i], open);
                continue;
            }
            String text = m.group(3).stripLeading();
            // an indented comment line ("--   a list item") keeps its indentation and starts a paragraph of its own
            String linePrefix = m.group(1) + " " + " ".repeat(m.group(3).length() - text.length());
            if (!paragraph.isEmpty()
                    && linePrefix.equals(prefix)
                    && m.group(3).equals(text)
                    && continues(paragraph.get(paragraph.size() - 1), text)) {
                paragraph.add(text);
                continue;
            }
            flush(w, prefix, paragraph, width);
            prefix = linePrefix;
            paragraph.add(text);
        }
        flush(w, prefix, paragraph, width);
    }

    /** A statement line; one too wide with a trailing comment gets the comment above it, at its indentation. */
    private static void statement(PrintWriter w, String line, int width) {
        int at = line.lastIndexOf(" -- ");
        if (line.length() > width
                && at > 0
                && !line.substring(0, at).isBlank()
                && outsideQuotes(line.substring(0, at))) {
            String indent =
                    line.substring(0, line.length() - line.stripLeading().length());
            Wrap.print(w, line.substring(at + 4).strip(), width, indent + "-- ", indent + "-- ");
            w.println(line.substring(0, at).stripTrailing());
        } else {
            w.println(line);
        }
    }

    /** The quote still open at the end of {@code line}, given the one open at its start (0 for none). */
    private static char carried(String line, char open) {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (open == 0) {
                if (c == '\'' || c == '"' || c == '`') {
                    open = c;
                } else if (c == '-' && i + 1 < line.length() && line.charAt(i + 1) == '-') {
                    return 0; // the rest is a comment
                } else if (c == '$') {
                    return 0; // dollar quotes are not followed; such lines are never broken
                }
            } else if (c == '\\' && open == '\'') {
                i++;
            } else if (c == open) {
                open = 0;
            }
        }
        return open;
    }

    /** Whether every quote ('literal', "name", `name`) opened in {@code s} is closed (doubled quotes escape themselves). */
    private static boolean outsideQuotes(String s) {
        char open = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (open == 0) {
                if (c == '\'' || c == '"' || c == '`') {
                    open = c;
                } else if (c == '-' && i + 1 < s.length() && s.charAt(i + 1) == '-') {
                    return false; // a comment already started before the last " -- "
                }
            } else if (c == '\\' && open == '\'') {
                i++; // MySQL's backslash escape inside a literal
            } else if (c == open) {
                open = 0;
            }
        }
        return open == 0;
    }

    private static boolean continues(String previous, String next) {
        return !previous.isEmpty()
                && ".:;!?".indexOf(previous.charAt(previous.length() - 1)) < 0
                && !next.isEmpty()
                && (Character.isLowerCase(next.charAt(0)) || next.charAt(0) == '(');
    }

    private static void flush(PrintWriter w, String prefix, List<String> paragraph, int width) {
        if (paragraph.isEmpty()) {
            return;
        }
        String text = String.join(" ", paragraph);
        if (prefix.length() + text.length() <= width && paragraph.size() == 1) {
            w.println((prefix + text).stripTrailing());
        } else {
            Wrap.print(w, text, width, prefix, prefix);
        }
        paragraph.clear();
    }
}

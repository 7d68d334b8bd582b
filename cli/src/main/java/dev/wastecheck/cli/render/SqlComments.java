package dev.wastecheck.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A migration laid out for a width, so that the header a DBA reads before applying it fits an
 * 80-column editor or terminal. The header (the comment lines before the first statement) is
 * re-flowed: a comment line continues the one before it when that one ends mid-sentence and this
 * one starts in lower case or with a parenthesis (how the analyzer breaks its long notes). A
 * statement too wide with its trailing comment gets the comment on a line of its own above it,
 * but only where the {@code --} is surely outside any literal or quoted name (the quotes before
 * it balance). Statements themselves, and comments after the header, are written as they are.
 */
public final class SqlComments {
    private static final Pattern COMMENT = Pattern.compile("^(\\s*--)( ?)(.*)$");

    private SqlComments() {
    }

    /** Writes {@code sql} with its header re-flowed to {@code width} and too-wide trailing comments above their statements. */
    public static void print(String sql, PrintWriter w, int width) {
        String[] lines = sql.split("\n", -1);
        int end = lines.length;
        if (end > 0 && lines[end - 1].isEmpty()) {
            end--; // the text's final line break
        }
        String prefix = null;
        List<String> paragraph = new ArrayList<>();
        boolean header = true;
        for (int i = 0; i < end; i++) {
            Matcher m = COMMENT.matcher(lines[i]);
            if (!header || !m.matches()) {
                flush(w, prefix, paragraph, width);
                header = false;
                if (m.matches()) {
                    w.println(lines[i]);
                } else {
                    statement(w, lines[i], width);
                }
                continue;
            }
            String text = m.group(3).stripLeading();
            // an indented comment line ("--   a list item") keeps its indentation and starts a paragraph of its own
            String linePrefix = m.group(1) + " " + " ".repeat(m.group(3).length() - text.length());
            if (!paragraph.isEmpty() && linePrefix.equals(prefix) && m.group(3).equals(text)
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
        if (line.length() > width && at > 0 && !line.substring(0, at).isBlank() && outsideQuotes(line.substring(0, at))) {
            String indent = line.substring(0, line.length() - line.stripLeading().length());
            Wrap.print(w, line.substring(at + 4).strip(), width, indent + "-- ", indent + "-- ");
            w.println(line.substring(0, at).stripTrailing());
        } else {
            w.println(line);
        }
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
        return !previous.isEmpty() && ".:;!?".indexOf(previous.charAt(previous.length() - 1)) < 0
                && !next.isEmpty() && (Character.isLowerCase(next.charAt(0)) || next.charAt(0) == '(');
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

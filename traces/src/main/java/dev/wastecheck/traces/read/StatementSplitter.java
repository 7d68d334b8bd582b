package dev.wastecheck.traces.read;

import java.util.ArrayList;
import java.util.List;

/** Splits text into statements at semicolons outside quotes and comments. */
final class StatementSplitter {
    private StatementSplitter() {}

    static List<String> split(String text, boolean backslashEscapes) {
        List<String> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(text, i, c, backslashEscapes && c != '`');
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int e = text.indexOf('\n', i);
                i = e < 0 ? n : e;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int e = text.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 1;
            } else if (c == ';') {
                add(out, text.substring(start, i));
                start = i + 1;
            }
        }
        add(out, text.substring(Math.min(start, n)));
        return out;
    }

    /** Whether {@code text} ends inside a quote or comment (a statement continues on the next line). */
    static boolean endsOpen(String text, boolean backslashEscapes) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(text, i, c, backslashEscapes && c != '`');
                if (i >= n) {
                    return true;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int e = text.indexOf("*/", i + 2);
                if (e < 0) {
                    return true;
                }
                i = e + 1;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int e = text.indexOf('\n', i);
                i = e < 0 ? n : e;
            }
        }
        return false;
    }

    private static int skipQuoted(String s, int open, char q, boolean backslash) {
        int i = open + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (backslash && c == '\\') {
                i += 2;
                continue;
            }
            if (c == q) {
                if (i + 1 < s.length() && s.charAt(i + 1) == q) {
                    i += 2;
                    continue;
                }
                return i;
            }
            i++;
        }
        return s.length();
    }

    private static void add(List<String> out, String s) {
        String t = s.strip();
        if (!t.isEmpty() && !onlyComments(t)) {
            out.add(t);
        }
    }

    private static boolean onlyComments(String t) {
        String r =
                t.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)--.*$", "").strip();
        return r.isEmpty();
    }
}

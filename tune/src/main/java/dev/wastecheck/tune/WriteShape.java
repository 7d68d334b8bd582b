package dev.wastecheck.tune;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What an INSERT or UPDATE assigns, read from its shape (a {@code StatementNormalizer} shape: every
 * literal a {@code CAST(? AS type)}, names quoted, one space between tokens): per row written, per
 * column, the index of the literal it takes, {@link #NULL_VALUE}, or {@link #EXPRESSION} when the
 * value is computed ({@code credit + 40}, {@code NOW()}, a subquery), which only running the
 * statement on the rows as they are then can tell.
 *
 * @param table   the written table
 * @param rows    one map per row an INSERT writes, or one for an UPDATE's SET list (column, lower case, to value)
 * @param fromQuery an INSERT ... SELECT: every column is computed
 */
record WriteShape(String table, List<Map<String, Integer>> rows, boolean fromQuery) {
    static final int NULL_VALUE = -1;
    static final int EXPRESSION = -2;
    /** A literal as the normalizer writes it, spaces removed: {@code CAST(?ASBIGINT)}. */
    private static final Pattern LITERAL = Pattern.compile("(?i)CAST\\(\\?AS[A-Z]+\\)");

    /** Whether some row computes {@code column} (lower case) rather than taking a literal. */
    boolean computes(String column) {
        return fromQuery || rows.stream().anyMatch(r -> r.getOrDefault(column, 0) == EXPRESSION);
    }

    /**
     * @param tableColumns the table's columns in declared order, for an INSERT without a column list
     * @return null when the shape is not a plain INSERT ... VALUES, INSERT ... SELECT or UPDATE ... SET
     */
    static WriteShape parse(String shape, char quote, Function<String, List<String>> tableColumns) {
        List<String> tokens = tokens(shape, quote);
        if (tokens.size() < 4) {
            return null;
        }
        String first = tokens.get(0).toUpperCase(Locale.ROOT);
        int[] literal = {0};
        if (first.equals("UPDATE")) {
            String table = name(tokens.get(1), quote);
            int set = indexOf(tokens, "SET", 2);
            if (set < 0) {
                return null;
            }
            // Literals before SET (a joined table's condition) come first in the literal list.
            for (int i = 0; i < set; i++) {
                literal[0] += count(tokens.get(i));
            }
            Map<String, Integer> row = new LinkedHashMap<>();
            int i = set + 1;
            while (i < tokens.size()) {
                String t = tokens.get(i);
                if (isWord(t, "WHERE") || isWord(t, "ORDER") || isWord(t, "LIMIT")) {
                    break;
                }
                if (t.equals(",")) {
                    i++;
                    continue;
                }
                if (i + 2 >= tokens.size() || !tokens.get(i + 1).equals("=")) {
                    return null;
                }
                String column = name(t, quote);
                int end = i + 2;
                StringBuilder expr = new StringBuilder();
                while (end < tokens.size()
                        && !tokens.get(end).equals(",")
                        && !isWord(tokens.get(end), "WHERE")
                        && !isWord(tokens.get(end), "ORDER")
                        && !isWord(tokens.get(end), "LIMIT")) {
                    expr.append(tokens.get(end));
                    end++;
                }
                row.put(column, value(expr.toString(), literal));
                i = end;
            }
            return new WriteShape(table, List.of(row), false);
        }
        if (first.equals("INSERT") && isWord(tokens.get(1), "INTO")) {
            String table = name(tokens.get(2), quote);
            int i = 3;
            List<String> columns;
            if (tokens.get(i).startsWith("(")) {
                columns = new ArrayList<>();
                for (String c : split(tokens.get(i).substring(1, tokens.get(i).length() - 1))) {
                    columns.add(name(c.strip(), quote));
                }
                i++;
            } else {
                columns = tableColumns.apply(table);
                if (columns == null) {
                    return null;
                }
            }
            if (i < tokens.size()
                    && (isWord(tokens.get(i), "SELECT")
                            || tokens.get(i).toUpperCase(Locale.ROOT).startsWith("(SELECT"))) {
                return new WriteShape(table, List.of(), true);
            }
            if (i >= tokens.size() || !(isWord(tokens.get(i), "VALUES") || isWord(tokens.get(i), "VALUE"))) {
                return null;
            }
            List<Map<String, Integer>> rows = new ArrayList<>();
            for (i++; i < tokens.size(); i++) {
                String t = tokens.get(i);
                if (t.equals(",")) {
                    continue;
                }
                if (!t.startsWith("(")) {
                    break; // ON DUPLICATE KEY UPDATE was dropped by the normalizer; anything else ends the rows
                }
                List<String> items = split(t.substring(1, t.length() - 1));
                if (items.size() != columns.size()) {
                    return null;
                }
                Map<String, Integer> row = new LinkedHashMap<>();
                for (int k = 0; k < items.size(); k++) {
                    String item = items.get(k).strip();
                    if (!isWord(item, "DEFAULT")) {
                        row.put(columns.get(k), value(item, literal));
                    }
                }
                rows.add(row);
            }
            return rows.isEmpty() ? null : new WriteShape(table, rows, false);
        }
        return null;
    }

    private static int value(String expr, int[] literal) {
        String e = expr.replace(" ", "");
        if (LITERAL.matcher(e).matches()) {
            return literal[0]++;
        }
        literal[0] += count(expr);
        return e.equalsIgnoreCase("NULL") ? NULL_VALUE : EXPRESSION;
    }

    private static int count(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '?') {
                n++;
            }
        }
        return n;
    }

    private static boolean isWord(String token, String word) {
        return token.equalsIgnoreCase(word);
    }

    private static int indexOf(List<String> tokens, String word, int from) {
        for (int i = from; i < tokens.size(); i++) {
            if (isWord(tokens.get(i), word)) {
                return i;
            }
        }
        return -1;
    }

    /** A quoted or bare name, its last part when qualified, lower case. */
    private static String name(String token, char quote) {
        String t = token;
        int dot = lastDotOutsideQuotes(t, quote);
        if (dot >= 0) {
            t = t.substring(dot + 1);
        }
        if (t.length() >= 2 && t.charAt(0) == quote && t.charAt(t.length() - 1) == quote) {
            t = t.substring(1, t.length() - 1);
        }
        return t.toLowerCase(Locale.ROOT);
    }

    private static int lastDotOutsideQuotes(String t, char quote) {
        boolean in = false;
        int last = -1;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == quote) {
                in = !in;
            } else if (c == '.' && !in) {
                last = i;
            }
        }
        return last;
    }

    /** Splits at top-level commas. */
    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    /**
     * Top-level tokens: a parenthesized group is one token (with what precedes it when that is a
     * name or a function: {@code CAST(? AS BIGINT)}, {@code NOW()}), commas and '=' stand alone,
     * quoted names (with a qualifier) are one token.
     */
    static List<String> tokens(String shape, char quote) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < shape.length(); i++) {
            char c = shape.charAt(i);
            if (quoted) {
                cur.append(c);
                if (c == quote) {
                    quoted = false;
                }
                continue;
            }
            if (c == quote) {
                quoted = true;
                cur.append(c);
                continue;
            }
            if (depth > 0) {
                cur.append(c);
                if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    out.add(cur.toString());
                    cur.setLength(0);
                }
                continue;
            }
            if (c == '(') {
                if (cur.length() > 0 && cur.charAt(cur.length() - 1) == quote) {
                    out.add(cur.toString()); // `text`(`a`,`b`): the name, then its column list
                    cur.setLength(0);
                }
                depth = 1;
                cur.append(c);
                continue;
            }
            if (c == ' ' || c == ',' || c == '=' || c == ';') {
                if (cur.length() > 0) {
                    out.add(cur.toString());
                    cur.setLength(0);
                }
                if (c == ',' || c == '=') {
                    out.add(String.valueOf(c));
                }
                continue;
            }
            cur.append(c);
        }
        if (cur.length() > 0) {
            out.add(cur.toString());
        }
        return out;
    }
}

package dev.wastecheck.traces.access;

import dev.wastecheck.model.schema.Dialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns a statement into its <em>shape</em>: literals replaced by {@code ?} (their values kept in
 * order), comments and whitespace runs dropped, schema names quoted. Statements that differ only in
 * literals share a shape, so Calcite parses and resolves each shape once
 * ({@link StatementResolver} caches by shape).
 *
 * <p>Also smooths what Calcite's parser does not read but means nothing for access: MySQL select
 * modifiers ({@code SQL_NO_CACHE}), {@code INSERT IGNORE}, {@code REPLACE INTO}, index hints, {@code
 * FOR UPDATE}, {@code ON DUPLICATE KEY UPDATE}, PostgreSQL {@code ::type} casts. Numbers after
 * LIMIT and OFFSET stay literal (they are not keys, and {@code LIMIT ?} is not SQL everywhere).
 */
public final class StatementNormalizer {
    /** A shape and its literal values; a value is null where the statement itself had a parameter marker. */
    public record Normalized(String shape, List<String> literals, char quote) {}

    private final Map<String, String> names = new HashMap<>();

    /** @param schemaNames table and column names; they are quoted in the shape so reserved words (user, text) parse */
    public StatementNormalizer(Set<String> schemaNames) {
        for (String n : schemaNames) {
            names.put(n.toLowerCase(Locale.ROOT), n);
        }
    }

    private static final Set<String> DROP_WORDS = Set.of(
            "SQL_NO_CACHE",
            "SQL_CACHE",
            "SQL_CALC_FOUND_ROWS",
            "HIGH_PRIORITY",
            "SQL_BUFFER_RESULT",
            "SQL_SMALL_RESULT",
            "SQL_BIG_RESULT",
            "LOW_PRIORITY",
            "DELAYED");
    private static final Pattern INDEX_HINT = Pattern.compile(
            "\\s(USE|FORCE|IGNORE)\\s+(INDEX|KEY)(\\s+FOR\\s+(JOIN|ORDER BY|GROUP BY))?\\s*\\([^)]*\\)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern TAIL_LOCK = Pattern.compile(
            "\\s+(FOR\\s+UPDATE(\\s+(NOWAIT|SKIP LOCKED))?|FOR\\s+SHARE|LOCK\\s+IN\\s+SHARE\\s+MODE)\\s*$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ON_DUP =
            Pattern.compile("\\s+ON\\s+DUPLICATE\\s+KEY\\s+UPDATE\\s.*$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ON_CONFLICT =
            Pattern.compile("\\s+ON\\s+CONFLICT\\b.*$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern RETURNING =
            Pattern.compile("\\s+RETURNING\\s.*$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /**
     * @param dialect the server whose lexical rules the statement follows, or null when the trace does not say
     *                (backticks name, backslashes escape, and a double-quoted word names when the schema has that name)
     */
    public Normalized normalize(String sql, Dialect dialect) {
        boolean backslash = dialect == null || dialect.backslashEscapes();
        boolean mysqlQuotes = dialect == Dialect.MYSQL;
        char quote = dialect == Dialect.MYSQL || sql.indexOf('`') >= 0 ? '`' : '"';
        StringBuilder out = new StringBuilder(sql.length());
        List<String> literals = new ArrayList<>();
        String prevWord = "";
        String prevPrevWord = "";
        int n = sql.length();
        int i = 0;
        boolean firstWord = true;
        boolean needsRewrite = false;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                space(out);
                continue;
            }
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                space(out);
                continue;
            }
            if ((c == '-' && i + 1 < n && sql.charAt(i + 1) == '-')
                    || (c == '#' && (dialect == null || dialect == Dialect.MYSQL))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
                space(out);
                continue;
            }
            if (c == '\''
                    || ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\'' && !identChar(prev(out)))
                    || ((c == 'N' || c == 'n') && i + 1 < n && sql.charAt(i + 1) == '\'' && !identChar(prev(out)))) {
                boolean esc = backslash || c == 'E' || c == 'e';
                if (c != '\'') {
                    i++;
                }
                StringBuilder v = new StringBuilder();
                i = readQuoted(sql, i, '\'', esc, v);
                literal(out, literals, v.toString());
                continue;
            }
            if ((c == 'X' || c == 'x' || c == 'B' || c == 'b')
                    && i + 1 < n
                    && sql.charAt(i + 1) == '\''
                    && !identChar(prev(out))) {
                StringBuilder v = new StringBuilder();
                i = readQuoted(sql, i + 1, '\'', false, v);
                literal(out, literals, (c == 'X' || c == 'x' ? "0x" : "0b") + v);
                continue;
            }
            if (c == '"') {
                StringBuilder v = new StringBuilder();
                int end = readQuoted(sql, i, '"', mysqlQuotes, v);
                String canonical = names.get(v.toString().toLowerCase(Locale.ROOT));
                if (mysqlQuotes || (dialect == null && canonical == null)) {
                    literal(out, literals, v.toString());
                } else {
                    out.append(quote).append(canonical != null ? canonical : v).append(quote);
                    prevPrevWord = prevWord;
                    prevWord = "\"";
                }
                i = end;
                continue;
            }
            if (c == '`') {
                StringBuilder v = new StringBuilder();
                i = readQuoted(sql, i, '`', false, v);
                String canonical = names.get(v.toString().toLowerCase(Locale.ROOT));
                out.append(quote).append(canonical != null ? canonical : v).append(quote);
                prevPrevWord = prevWord;
                prevWord = "`";
                continue;
            }
            if (c == '?' || (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                i++;
                while (c == '$' && i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                out.append('?');
                literals.add(null);
                continue;
            }
            if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                i = skipCast(sql, i + 2);
                continue;
            }
            if (c == '-' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)) && signContext(out, prevWord)) {
                // a negative literal: keep the sign with the number so the key value is -5, not an expression
                int start = i;
                i++;
                while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                String number = sql.substring(start, i);
                literal(out, literals, number, number.indexOf('.') < 0 ? "BIGINT" : "DOUBLE");
                prevPrevWord = prevWord;
                prevWord = "?";
                continue;
            }
            if (Character.isDigit(c)
                    || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)) && !identChar(prev(out)))) {
                if (identChar(prev(out))) {
                    out.append(c);
                    i++;
                    continue;
                }
                int start = i;
                if (c == '0' && i + 1 < n && (sql.charAt(i + 1) == 'x' || sql.charAt(i + 1) == 'X')) {
                    i += 2;
                    while (i < n && Character.digit(sql.charAt(i), 16) >= 0) {
                        i++;
                    }
                } else {
                    while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                        i++;
                    }
                    if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
                        int j = i + 1;
                        if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
                            j++;
                        }
                        if (j < n && Character.isDigit(sql.charAt(j))) {
                            i = j;
                            while (i < n && Character.isDigit(sql.charAt(i))) {
                                i++;
                            }
                        }
                    }
                }
                String number = sql.substring(start, i);
                boolean limitArg = prevWord.equals("LIMIT")
                        || prevWord.equals("OFFSET")
                        || prevWord.equals("NEXT")
                        || prevWord.equals("FIRST")
                        || prevWord.equals("TOP")
                        || (prevWord.equals(",") && prevPrevWord.equals("LIMITNUM"));
                if (limitArg) {
                    out.append(number);
                    prevPrevWord = prevWord;
                    prevWord = "LIMITNUM";
                } else {
                    boolean whole = number.indexOf('.') < 0 && number.indexOf('e') < 0 && number.indexOf('E') < 0;
                    literal(out, literals, number, whole ? "BIGINT" : "DOUBLE");
                    prevPrevWord = prevWord;
                    prevWord = "?";
                }
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (identChar(sql.charAt(i)) || sql.charAt(i) == '$')) {
                    i++;
                }
                String word = sql.substring(start, i);
                String canonical = names.get(word);
                if (canonical == null && hasUpper(word)) {
                    canonical = names.get(word.toLowerCase(Locale.ROOT));
                }
                // keywords matter only for a few decisions; schema names are never among them
                String upper = canonical != null ? "" : keyword(word);
                if (DROP_WORDS.contains(upper) || (upper.equals("IGNORE") && prevWord.equals("INSERT"))) {
                    continue;
                }
                if (REWRITE_WORDS.contains(upper)) {
                    needsRewrite = true;
                }
                if (firstWord && upper.equals("REPLACE")) {
                    word = "INSERT";
                    upper = word;
                }
                firstWord = false;
                int k = i;
                while (k < n && sql.charAt(k) == ' ') {
                    k++;
                }
                boolean call = k < n && sql.charAt(k) == '(';
                boolean afterDot = out.length() > 0 && out.charAt(out.length() - 1) == '.';
                if (canonical != null
                        && (!call || tableContext(prevWord))
                        && !(afterDot && !names.containsKey(word.toLowerCase(Locale.ROOT)))) {
                    out.append(quote).append(canonical).append(quote);
                } else if (prevWord.equals("AS") && !call && !TYPE_NAMES.contains(upper)) {
                    // an alias may be a word Calcite reserves (AS count): quoted, it is just a name
                    out.append(quote).append(word).append(quote);
                } else {
                    out.append(word);
                }
                prevPrevWord = prevWord;
                prevWord = upper;
                continue;
            }
            if (c == '!' && i + 1 < n && sql.charAt(i + 1) == '=') {
                out.append("<>");
                i += 2;
                prevPrevWord = prevWord;
                prevWord = "<>";
                continue;
            }
            if (c == ';') {
                i++;
                continue;
            }
            out.append(c);
            prevPrevWord = prevWord;
            prevWord = String.valueOf(c);
            i++;
        }
        String shape = out.toString().trim();
        if (!needsRewrite) {
            return new Normalized(shape, literals, quote);
        }
        shape = INDEX_HINT.matcher(shape).replaceAll("");
        shape = ON_DUP.matcher(shape).replaceAll("");
        shape = ON_CONFLICT.matcher(shape).replaceAll("");
        shape = RETURNING.matcher(shape).replaceAll("");
        shape = TAIL_LOCK.matcher(shape).replaceAll("");
        return new Normalized(shape, literals, quote);
    }

    private static final Set<String> REWRITE_WORDS =
            Set.of("INDEX", "KEY", "DUPLICATE", "CONFLICT", "RETURNING", "FOR", "LOCK");

    private static final Set<String> TYPE_NAMES = Set.of(
            "DATE",
            "TIME",
            "TIMESTAMP",
            "DATETIME",
            "INTEGER",
            "INT",
            "BIGINT",
            "SMALLINT",
            "TINYINT",
            "DECIMAL",
            "NUMERIC",
            "CHAR",
            "VARCHAR",
            "BINARY",
            "VARBINARY",
            "DOUBLE",
            "FLOAT",
            "REAL",
            "SIGNED",
            "UNSIGNED",
            "BOOLEAN",
            "TEXT",
            "JSON",
            "INTERVAL",
            "CHARACTER",
            "BLOB",
            "NCHAR");
    private static final Set<String> SIGN_AFTER = Set.of(
            "AND", "OR", "NOT", "BETWEEN", "SELECT", "THEN", "ELSE", "WHEN", "VALUES", "IN", "SET", "WHERE", "ON",
            "LIKE", "BY", "RETURN", "CASE", "DEFAULT");

    /** Whether a '-' here is a sign (after an operator, an opening parenthesis, a comma or a keyword), not a subtraction. */
    private static boolean signContext(StringBuilder out, String prevWord) {
        int k = out.length() - 1;
        while (k >= 0 && out.charAt(k) == ' ') {
            k--;
        }
        if (k < 0) {
            return true;
        }
        char p = out.charAt(k);
        return "=<>(,+-*/".indexOf(p) >= 0 || SIGN_AFTER.contains(prevWord);
    }

    private static boolean hasUpper(String w) {
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return true;
            }
        }
        return false;
    }

    /** The word upper-cased when it may be a keyword that matters here (short, letters and underscores), else "". */
    private static String keyword(String w) {
        return w.length() <= 19 ? w.toUpperCase(Locale.ROOT) : "";
    }

    private static boolean tableContext(String prevWord) {
        return prevWord.equals("INTO")
                || prevWord.equals("TABLE")
                || prevWord.equals("FROM")
                || prevWord.equals("JOIN")
                || prevWord.equals("UPDATE");
    }

    /**
     * A literal becomes a typed parameter: {@code CAST(? AS BIGINT)} for whole numbers, {@code DOUBLE}
     * for others, {@code VARCHAR} for strings, so it may stand anywhere a literal may (LEFT(col, 8)),
     * where Calcite would not infer the type of a bare {@code ?}.
     */
    private static void literal(StringBuilder out, List<String> literals, String value, String type) {
        out.append("CAST(? AS ").append(type).append(')');
        literals.add(value);
    }

    private static void literal(StringBuilder out, List<String> literals, String value) {
        literal(out, literals, value, "VARCHAR");
    }

    private static void space(StringBuilder out) {
        if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }

    private static char prev(StringBuilder out) {
        return out.length() == 0 ? ' ' : out.charAt(out.length() - 1);
    }

    private static boolean identChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** Reads a quoted token starting at the opening quote; returns the index after the closing quote. */
    static int readQuoted(String s, int open, char q, boolean backslash, StringBuilder value) {
        int i = open + 1;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (backslash && c == '\\' && i + 1 < n) {
                char e = s.charAt(i + 1);
                value.append(
                        switch (e) {
                            case '0' -> '\0';
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'Z' -> (char) 0x1A;
                            default -> e;
                        });
                i += 2;
                continue;
            }
            if (c == q) {
                if (i + 1 < n && s.charAt(i + 1) == q) {
                    value.append(q);
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            value.append(c);
            i++;
        }
        return n;
    }

    /** Skips the type name of a PostgreSQL {@code ::type} cast: words, an optional (n), an optional []. */
    private static int skipCast(String s, int i) {
        int n = s.length();
        while (i < n && s.charAt(i) == ' ') {
            i++;
        }
        if (i < n && s.charAt(i) == '"') {
            i = readQuoted(s, i, '"', false, new StringBuilder());
        } else {
            while (i < n && (identChar(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            for (String two : new String[] {" varying", " precision", " without time zone", " with time zone"}) {
                if (s.regionMatches(true, i, two, 0, two.length())) {
                    i += two.length();
                }
            }
        }
        if (i < n && s.charAt(i) == '(') {
            int close = s.indexOf(')', i);
            i = close < 0 ? n : close + 1;
        }
        while (i + 1 < n && s.charAt(i) == '[' && s.charAt(i + 1) == ']') {
            i += 2;
        }
        return i;
    }
}

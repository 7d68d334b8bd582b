package dev.wastecheck.model.schema;

/**
 * SQL names as dumps and statements spell them: quoted with backticks (MySQL), double quotes
 * (standard SQL, PostgreSQL, SQLite, DuckDB) or square brackets (SQL Server, SQLite), and
 * qualified with a schema or database.
 */
public final class Names {
    private Names() {}

    /**
     * A name without its quotes: {@code `t`}, {@code "t"} and {@code [t]} to {@code t}, a doubled
     * quote inside ({@code "a""b"}) to one; an unquoted name as it is, without surrounding blanks.
     */
    public static String unquote(String s) {
        String t = s.trim();
        if (t.length() >= 2) {
            char a = t.charAt(0);
            char b = t.charAt(t.length() - 1);
            if ((a == '`' && b == '`') || (a == '"' && b == '"')) {
                String q = String.valueOf(a);
                return t.substring(1, t.length() - 1).replace(q + q, q);
            }
            if (a == '[' && b == ']') {
                return t.substring(1, t.length() - 1);
            }
        }
        return t;
    }

    /** The last part of a qualified name, unquoted: {@code `db`.`t`}, {@code public."t"}, {@code [t]} to {@code t}. */
    public static String simpleName(String qualified) {
        String s = qualified.trim();
        int dot = lastTopLevelDot(s);
        if (dot >= 0) {
            s = s.substring(dot + 1);
        }
        return unquote(s);
    }

    /** The position of the last dot outside quotes, or -1. */
    private static int lastTopLevelDot(String s) {
        char close = 0;
        int last = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (close != 0) {
                if (c == close) {
                    close = 0;
                }
            } else if (c == '"' || c == '`') {
                close = c;
            } else if (c == '[') {
                close = ']';
            } else if (c == '.') {
                last = i;
            }
        }
        return last;
    }
}

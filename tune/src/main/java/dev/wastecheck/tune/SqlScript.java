package dev.wastecheck.tune;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A migration as both things it must be: the text a DBA reads and feeds to {@code mysql} or
 * {@code psql}, and the statements {@code tune --apply} runs one by one over JDBC. One object
 * holds both, so the two cannot drift: what is applied is exactly what is printed.
 */
public final class SqlScript {
    /** What a statement is for; {@code --apply} reports a failed {@link #GUARD} as the check it is. */
    public enum Role {
        /** session settings: sql_mode, character set, foreign key checks, BEGIN */
        SETUP,
        /** a check of the live database that stops the script before anything changes */
        GUARD,
        /** a change of the schema */
        CHANGE,
        /** session settings put back, COMMIT */
        RESTORE
    }

    /**
     * One statement.
     *
     * @param sql      what runs: the statement without its terminating semicolon (comments inside it included)
     * @param trailing a comment printed after the semicolon, or ""
     * @param columns  the column changes it makes (an ALTER TABLE of three columns: 3), so that
     *                 {@code --apply} counts what the summary counts
     */
    public record Statement(String sql, Role role, String trailing, int columns) {
        public Statement(String sql, Role role, String trailing) {
            this(sql, role, trailing, 0);
        }

        /** The statement as printed: terminated, its comment after. */
        public String text() {
            return sql + ";" + trailing;
        }
    }

    private final List<Object> parts = new ArrayList<>(); // String (a line printed as is) or Statement

    /** A comment line ({@code -- } is added). */
    public SqlScript comment(String text) {
        parts.add(text.isEmpty() ? "--" : "-- " + text);
        return this;
    }

    public SqlScript blank() {
        parts.add("");
        return this;
    }

    /** A statement; a terminating semicolon in {@code sql} is dropped (the printed text adds one). */
    public SqlScript statement(Role role, String sql) {
        return statement(role, sql, "");
    }

    /** A statement with a comment printed after its semicolon ({@code " -- int, narrow_integer"}). */
    public SqlScript statement(Role role, String sql, String trailing) {
        return add(role, sql, trailing, 0);
    }

    /** A {@link Role#CHANGE} that changes {@code columns} columns' types. */
    public SqlScript columnChange(String sql, String trailing, int columns) {
        return add(Role.CHANGE, sql, trailing, columns);
    }

    /** A statement of another script, as it is. */
    public SqlScript statement(Statement s) {
        parts.add(s);
        return this;
    }

    private SqlScript add(Role role, String sql, String trailing, int columns) {
        String s = sql.strip();
        if (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        parts.add(new Statement(s, role, trailing, columns));
        return this;
    }

    public List<Statement> statements() {
        return parts.stream()
                .filter(p -> p instanceof Statement)
                .map(p -> (Statement) p)
                .toList();
    }

    public boolean hasChanges() {
        return statements().stream().anyMatch(s -> s.role() == Role.CHANGE);
    }

    public void print(PrintWriter w) {
        for (Object p : parts) {
            w.println(p instanceof Statement s ? s.text() : (String) p);
        }
        w.flush();
    }

    @Override
    public String toString() {
        StringWriter out = new StringWriter();
        print(new PrintWriter(out));
        return out.toString();
    }
}

package dev.wastecheck.model;

import java.util.Locale;
import java.util.Set;

/**
 * The words a SQL statement starts with, in the dumps, scripts and traces wastecheck reads. Text
 * where a statement should start that begins with none of them is not a statement: the readers
 * report it with its line (or count it, up to {@code --max-bad}), never glue it onto the next
 * statement or skip it unseen.
 */
public final class SqlStatements {
    private SqlStatements() {}

    /** Lower case; MySQL, PostgreSQL, SQLite and SQL Server scripts and their clients' commands. */
    public static final Set<String> WORDS = Set.of(
            "abort",
            "alter",
            "analyze",
            "attach",
            "begin",
            "call",
            "change",
            "check",
            "checkpoint",
            "close",
            "cluster",
            "comment",
            "commit",
            "copy",
            "create",
            "deallocate",
            "declare",
            "delete",
            "delimiter",
            "describe",
            "desc",
            "detach",
            "discard",
            "do",
            "drop",
            "end",
            "exec",
            "execute",
            "explain",
            "fetch",
            "flush",
            "go",
            "grant",
            "handler",
            "if",
            "import",
            "insert",
            "install",
            "kill",
            "listen",
            "load",
            "lock",
            "merge",
            "move",
            "notify",
            "open",
            "optimize",
            "pragma",
            "prepare",
            "print",
            "purge",
            "reassign",
            "refresh",
            "reindex",
            "release",
            "rename",
            "repair",
            "replace",
            "reset",
            "revoke",
            "rollback",
            "savepoint",
            "security",
            "select",
            "set",
            "show",
            "start",
            "table",
            "truncate",
            "unlisten",
            "unlock",
            "update",
            "upsert",
            "use",
            "vacuum",
            "values",
            "with",
            "xa");

    /** Whether {@code text} from {@code from} starts with a statement word (then a non-word character or the end), or '('. */
    public static boolean startsStatement(CharSequence text, int from) {
        int i = from;
        int n = text.length();
        if (i < n && text.charAt(i) == '(') {
            return true;
        }
        StringBuilder w = new StringBuilder();
        while (i < n && w.length() < 12 && (Character.isLetter(text.charAt(i)) || text.charAt(i) == '_')) {
            w.append(Character.toLowerCase(text.charAt(i++)));
        }
        if (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_' || text.charAt(i) == '$')) {
            return false;
        }
        return WORDS.contains(w.toString().toLowerCase(Locale.ROOT));
    }
}

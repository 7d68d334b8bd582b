package dev.wastecheck.analyzer.check;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL's {@code MODIFY COLUMN} replaces a column's whole definition: whatever it does not
 * restate (a DEFAULT, ON UPDATE, COMMENT, character set, collation) is gone afterwards. These
 * are the clauses of the dump's definition a MODIFY must carry over, and the check that it can.
 */
public final class MysqlClauses {
    private static final String NOW = "(?:current_timestamp|localtimestamp|localtime|now)(?:\\s*\\(\\s*\\d*\\s*\\))?";
    private static final Pattern COMMENT = Pattern.compile("(?i)\\bcomment\\s+('(?:[^'\\\\]|''|\\\\.)*')");
    private static final Pattern CHARSET = Pattern.compile("(?i)\\b(?:character\\s+set|charset)\\s+(\\w+)");
    private static final Pattern COLLATE = Pattern.compile("(?i)\\bcollate\\s+(\\w+)");
    private static final Pattern DEFAULT_NOW = Pattern.compile("(?i)\\bdefault\\s+(" + NOW + ")");
    private static final Pattern ON_UPDATE = Pattern.compile("(?i)\\bon\\s+update\\s+(" + NOW + ")");
    private static final Pattern ANY_DEFAULT = Pattern.compile("(?i)\\bdefault\\b");
    private static final Pattern DEFAULT_NULL = Pattern.compile("(?i)\\bdefault\\s+null\\b");
    private static final Pattern INVISIBLE = Pattern.compile("(?i)\\binvisible\\b");
    private static final Pattern GENERATED = Pattern.compile("(?i)\\b(generated\\s+always|as\\s*\\()");

    private MysqlClauses() {}

    private static boolean textual(Conversion c) {
        return c.duckType().equals("VARCHAR") || c.duckType().startsWith("ENUM");
    }

    /** Refuses a change whose definition a MODIFY could not carry over to the new type. */
    static void check(ColumnDef col, Conversion c) throws Conversion.Unsupported {
        String clauses = col.clauses();
        if (GENERATED.matcher(clauses).find()) {
            throw new Conversion.Unsupported("a generated column: change the expression's type instead");
        }
        if (ON_UPDATE.matcher(clauses).find() && !c.duckType().equals("TIMESTAMP")) {
            throw new Conversion.Unsupported("its ON UPDATE clause needs a DATETIME or TIMESTAMP");
        }
        if (clauses.toLowerCase(Locale.ROOT).contains("zerofill")
                || col.type().declared().toLowerCase(Locale.ROOT).contains("zerofill")) {
            throw new Conversion.Unsupported(
                    "ZEROFILL pads how the values print: a narrower type would print them differently");
        }
        if (ANY_DEFAULT.matcher(clauses).find()
                && col.defaultValue() == null
                && !DEFAULT_NULL.matcher(clauses).find()
                && !(DEFAULT_NOW.matcher(clauses).find() && c.duckType().equals("TIMESTAMP"))) {
            throw new Conversion.Unsupported("its DEFAULT is an expression that may not hold in " + c.target());
        }
    }

    /**
     * The clauses a MODIFY COLUMN to {@code c} restates after the type: NULL or NOT NULL, the
     * DEFAULT ({@code convertedDefault}, the literal in the new type), AUTO_INCREMENT, ON UPDATE,
     * the character set and collation of a text type, and the COMMENT.
     */
    public static String restated(ColumnDef col, Conversion c, String convertedDefault) {
        return restated(col, textual(c), convertedDefault);
    }

    /** The clauses that give a column back its declared definition (a rollback's MODIFY COLUMN to the declared type). */
    public static String restatedAsDeclared(ColumnDef col) {
        TypeFamily f = col.type().family();
        boolean text = (f.isString() && !f.isBinary()) || f == TypeFamily.ENUM || f == TypeFamily.SET;
        return restated(col, text, col.autoIncrement() ? null : col.defaultValue());
    }

    private static String restated(ColumnDef col, boolean textual, String convertedDefault) {
        String clauses = col.clauses();
        List<String> out = new ArrayList<>();
        if (textual) {
            find(CHARSET, clauses).ifPresent(cs -> out.add("CHARACTER SET " + cs));
            find(COLLATE, clauses).ifPresent(co -> out.add("COLLATE " + co));
        }
        out.add(col.nullable() ? "NULL" : "NOT NULL");
        if (convertedDefault != null) {
            out.add("DEFAULT " + LiveDataGuard.mysqlLiteral(convertedDefault));
        } else if (col.defaultValue() == null) {
            find(DEFAULT_NOW, clauses).ifPresent(d -> out.add("DEFAULT " + d.toUpperCase(Locale.ROOT)));
        }
        if (col.autoIncrement()) {
            out.add("AUTO_INCREMENT");
        }
        find(ON_UPDATE, clauses).ifPresent(u -> out.add("ON UPDATE " + u.toUpperCase(Locale.ROOT)));
        find(COMMENT, clauses).ifPresent(cm -> out.add("COMMENT " + cm));
        if (INVISIBLE.matcher(clauses).find()) {
            out.add("INVISIBLE");
        }
        return String.join(" ", out);
    }

    private static Optional<String> find(Pattern p, String s) {
        Matcher m = p.matcher(s);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}

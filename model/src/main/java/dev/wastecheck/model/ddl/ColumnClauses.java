package dev.wastecheck.model.ddl;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The strict half of reading a column definition: JSqlParser takes any word after a column's type
 * as a "column spec" ({@code binary(14) NOT NUL} parses, with {@code [NOT, NUL]}), and any name as
 * a type ({@code binarry(14)}). A schema read that way is wrong in a way nobody sees: the column
 * counts as nullable and a migration then restates it {@code NULL}. So every spec word is walked
 * against the clauses a column definition can carry, and a type name nobody declared is checked
 * against the dialect's own; what does not fit is refused with file, line and column, and the
 * nearest word the user may have meant.
 *
 * <p>Which unknown types are refused depends on the dialect: MySQL and MariaDB have a closed set
 * of types, so any other name is a typo; PostgreSQL has extension and user types that a pg_dump
 * need not declare (PostGIS {@code geometry}, {@code hstore}), so there only a name one or two
 * letters away from a built-in one ({@code intger}, {@code varchr}) is refused; SQLite takes any
 * name (type affinity), so nothing is.
 */
final class ColumnClauses {
    /** Words that stand alone as a clause, or open one whose remaining words are also here. */
    private static final Set<String> FLAGS = Set.of(
            "NULL",
            "AUTO_INCREMENT",
            "AUTOINCREMENT",
            "UNSIGNED",
            "SIGNED",
            "ZEROFILL",
            "INVISIBLE",
            "VISIBLE",
            "VIRTUAL",
            "STORED",
            "PERSISTENT",
            "UNIQUE",
            "KEY",
            "PRIMARY",
            "IDENTITY",
            "BINARY",
            "ASCII",
            "UNICODE",
            "BYTE",
            "DEFERRABLE",
            "INITIALLY",
            "DEFERRED",
            "IMMEDIATE",
            "GENERATED",
            "ALWAYS",
            "AS",
            "BY",
            "ASC",
            "DESC",
            "SERIAL",
            "ARRAY",
            "ENFORCED",
            "NOCHECK",
            "WITHOUT",
            "WITH",
            "TIME",
            "ZONE",
            "LOCAL",
            "ROW",
            "START",
            "END",
            "HIDDEN");

    /** Words whose clause takes the next token as its argument (a value, a name, an expression). */
    private static final Set<String> WITH_ARGUMENT = Set.of(
            "DEFAULT",
            "COMMENT",
            "COLLATE",
            "CHARSET",
            "CHECK",
            "CONSTRAINT",
            "COLUMN_FORMAT",
            "STORAGE",
            "SRID",
            "COMPRESSION",
            "CONFLICT",
            "UPDATE");

    /** What a misspelled word is compared with for "did you mean". */
    private static final List<String> SUGGESTIONS = List.of(
            "NULL",
            "NOT",
            "DEFAULT",
            "PRIMARY",
            "KEY",
            "UNIQUE",
            "AUTO_INCREMENT",
            "AUTOINCREMENT",
            "COMMENT",
            "COLLATE",
            "CHARACTER",
            "CHARSET",
            "UNSIGNED",
            "ZEROFILL",
            "REFERENCES",
            "CHECK",
            "CONSTRAINT",
            "GENERATED",
            "ALWAYS",
            "IDENTITY",
            "VIRTUAL",
            "STORED",
            "INVISIBLE",
            "UPDATE");

    private static final String EXPECTED = "NOT NULL, NULL, DEFAULT, PRIMARY KEY, UNIQUE, AUTO_INCREMENT, COMMENT, "
            + "COLLATE, CHARACTER SET, ON UPDATE, REFERENCES, CHECK, CONSTRAINT or GENERATED";

    /** MySQL's and MariaDB's types that the type reader files under OTHER: real types, not typos. */
    private static final Set<String> MYSQL_OTHER_TYPES = Set.of(
            "geometry",
            "point",
            "linestring",
            "polygon",
            "multipoint",
            "multilinestring",
            "multipolygon",
            "geometrycollection",
            "geomcollection",
            "inet4",
            "inet6",
            "vector",
            "xmltype",
            "middleint",
            "long varchar",
            "long varbinary",
            "char varying",
            "character varying",
            "national character",
            "national character varying",
            "national char varying",
            "nchar varying",
            "nchar varchar",
            "double precision");

    /** PostgreSQL's built-in types that the type reader files under OTHER. */
    private static final Set<String> POSTGRESQL_OTHER_TYPES = Set.of(
            "inet",
            "cidr",
            "macaddr",
            "macaddr8",
            "tsvector",
            "tsquery",
            "xml",
            "point",
            "line",
            "lseg",
            "box",
            "path",
            "polygon",
            "circle",
            "oid",
            "regclass",
            "regproc",
            "regtype",
            "pg_lsn",
            "txid_snapshot",
            "pg_snapshot",
            "varbit",
            "bit varying",
            "int4range",
            "int8range",
            "numrange",
            "tsrange",
            "tstzrange",
            "daterange",
            "int4multirange",
            "int8multirange",
            "nummultirange",
            "tsmultirange",
            "tstzmultirange",
            "datemultirange",
            "interval",
            "xid",
            "xid8",
            "cid",
            "tid",
            "aclitem",
            "record",
            "void",
            "anyelement");

    /** Built-in names an unknown type is compared with. */
    private static final List<String> BUILT_IN_TYPES = List.of(
            "tinyint",
            "smallint",
            "mediumint",
            "int",
            "integer",
            "bigint",
            "serial",
            "bigserial",
            "boolean",
            "bool",
            "bit",
            "decimal",
            "numeric",
            "float",
            "double",
            "real",
            "char",
            "character",
            "varchar",
            "text",
            "tinytext",
            "mediumtext",
            "longtext",
            "binary",
            "varbinary",
            "blob",
            "tinyblob",
            "mediumblob",
            "longblob",
            "bytea",
            "date",
            "time",
            "datetime",
            "timestamp",
            "timestamptz",
            "year",
            "enum",
            "set",
            "json",
            "jsonb",
            "uuid",
            "money");

    private static final Pattern TYPE_NAME = Pattern.compile("(?is)\\s*([a-z_][a-z0-9_ ]*?)\\s*(?:\\(.*)?");

    private ColumnClauses() {}

    /**
     * Refuses a column whose spec words are no clause of a column definition.
     *
     * @param statement the CREATE TABLE's text, for the position of the offending word
     * @param line      the line the statement starts on
     */
    static void check(String column, List<String> specs, String statement, String file, long line) {
        int i = 0;
        while (i < specs.size()) {
            String token = specs.get(i);
            String word = firstWord(token).toUpperCase(Locale.ROOT);
            if (token.startsWith("(") || token.startsWith("'") || token.contains(" ") && FLAGS.contains(word)) {
                i++; // an expression, an identity's options, a quoted value, GENERATED ALWAYS AS IDENTITY as one token
            } else if (word.equals("REFERENCES")) {
                return; // a foreign key's own grammar (MATCH, ON DELETE ...) follows to the end
            } else if (word.equals("NOT")) {
                String next = i + 1 < specs.size() ? specs.get(i + 1).toUpperCase(Locale.ROOT) : "";
                if (!(next.equals("NULL") || next.equals("DEFERRABLE") || next.equals("ENFORCED"))) {
                    throw refuse(
                            column,
                            specs,
                            i + 1,
                            statement,
                            file,
                            line,
                            "NULL after NOT",
                            next.isEmpty() ? "the end of the column" : specs.get(i + 1));
                }
                i += 2;
            } else if (word.equals("CHARACTER")) {
                String next = i + 1 < specs.size() ? specs.get(i + 1).toUpperCase(Locale.ROOT) : "";
                if (!next.equals("SET")) {
                    throw refuse(column, specs, i + 1, statement, file, line, "SET after CHARACTER", next);
                }
                i += 3;
            } else if (word.equals("ON")) {
                i += 1; // ON UPDATE expr (MySQL), ON CONFLICT action (SQLite): the next word takes the argument
            } else if (WITH_ARGUMENT.contains(word)) {
                i += 2;
                // a DEFAULT's expression split over tokens: a cast or an operator continues it
                while (i < specs.size() && word.equals("DEFAULT") && continuesExpression(specs.get(i))) {
                    i += specs.get(i).equals("::") || isOperator(specs.get(i)) ? 2 : 1;
                }
            } else if (FLAGS.contains(word)) {
                i++;
            } else {
                throw refuse(column, specs, i, statement, file, line, EXPECTED, token);
            }
        }
    }

    private static boolean continuesExpression(String token) {
        return token.startsWith("::") || isOperator(token);
    }

    private static boolean isOperator(String token) {
        return token.equals("+") || token.equals("-") || token.equals("*") || token.equals("/") || token.equals("||");
    }

    /**
     * Refuses a declared type that is no type of the dialect and that the script did not declare
     * (see the class comment for which).
     *
     * @param userTypes the types the script declared (CREATE TYPE, CREATE DOMAIN), lower case
     */
    static void checkType(
            String column,
            String typeText,
            SqlType type,
            Dialect dialect,
            Set<String> userTypes,
            String statement,
            String file,
            long line) {
        if (type.family() != TypeFamily.OTHER || dialect == Dialect.SQLITE) {
            return;
        }
        Matcher m = TYPE_NAME.matcher(typeText);
        if (!m.matches()) {
            return;
        }
        String name = m.group(1).toLowerCase(Locale.ROOT).trim();
        if (name.contains(".") || userTypes.contains(name)) {
            return;
        }
        String nearest = nearest(name, BUILT_IN_TYPES);
        boolean refuse = switch (dialect) {
            case MYSQL -> !MYSQL_OTHER_TYPES.contains(name);
            case POSTGRESQL -> !POSTGRESQL_OTHER_TYPES.contains(name) && nearest != null;
            default -> nearest != null && !POSTGRESQL_OTHER_TYPES.contains(name);
        };
        if (!refuse) {
            return;
        }
        int at = position(statement, column, typeText.split("[\\s(]")[0]);
        throw new BadInputException(where(file, line, statement, at)
                + ": column " + column + ": expected a " + dialectName(dialect) + " type, found " + typeText
                + (nearest == null ? "" : "; did you mean " + nearest + "?"));
    }

    private static String dialectName(Dialect dialect) {
        return switch (dialect) {
            case MYSQL -> "MySQL";
            case POSTGRESQL -> "PostgreSQL";
            default -> dialect.name().toLowerCase(Locale.ROOT);
        };
    }

    private static BadInputException refuse(
            String column,
            List<String> specs,
            int index,
            String statement,
            String file,
            long line,
            String expected,
            String found) {
        String word = index < specs.size() ? specs.get(index) : "";
        int at = word.isEmpty() ? -1 : position(statement, column, word);
        String nearest = word.isEmpty() ? null : nearest(firstWord(word).toUpperCase(Locale.ROOT), SUGGESTIONS);
        return new BadInputException(where(file, line, statement, at) + ": column " + column + ": expected " + expected
                + ", found " + found + (nearest == null ? "" : "; did you mean " + nearest + "?"));
    }

    /** {@code file:line:column} of the character at {@code at} of a statement starting on {@code line}. */
    static String where(String file, long line, String statement, int at) {
        if (at < 0) {
            return file + ":" + line;
        }
        long l = line;
        int lineStart = 0;
        for (int k = 0; k < at; k++) {
            if (statement.charAt(k) == '\n') {
                l++;
                lineStart = k + 1;
            }
        }
        return file + ":" + l + ":" + (at - lineStart + 1);
    }

    /**
     * Where {@code word} stands in the column's definition: the first time it follows the column's
     * name as a whole word, or -1.
     */
    static int position(String statement, String column, String word) {
        Matcher name = Pattern.compile("(?i)[`\"\\[]?" + Pattern.quote(column) + "[`\"\\]]?\\s")
                .matcher(statement);
        int from = name.find() ? name.end() : 0;
        Matcher w = Pattern.compile("(?i)(?<![\\w$])" + Pattern.quote(word) + "(?![\\w$])")
                .matcher(statement);
        return w.find(from) ? w.start() : -1;
    }

    private static String firstWord(String token) {
        int e = 0;
        while (e < token.length() && (Character.isLetterOrDigit(token.charAt(e)) || token.charAt(e) == '_')) {
            e++;
        }
        return token.substring(0, e);
    }

    /** The candidate one or two edits away from {@code word} (one for short words), or null. */
    static String nearest(String word, List<String> candidates) {
        if (word.length() < 3) {
            return null;
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(word.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d > 0 && d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        int allowed = word.length() <= 4 ? 1 : 2;
        return bestDistance <= allowed ? best : null;
    }

    /** Damerau-Levenshtein distance (optimal string alignment): a swap of two letters is one edit. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}

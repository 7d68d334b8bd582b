package dev.wastecheck.analyzer.check;

import dev.wastecheck.analyzer.infer.DialectTypes;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.sql.IsoTimestamps;
import java.math.BigInteger;
import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One column's change of type, as three things that must agree: the DuckDB expression that
 * builds the tuned copy from the loaded values, the pair of DuckDB expressions that bring an
 * original and a tuned value to one comparable form (the check that nothing was lost), and the
 * migration clause in the source's dialect.
 *
 * <p>The comparable form is the declared type's value: for a string column its exact text (a
 * timestamp must print back to the very characters the dump held), for a number its numeric
 * value (DECIMAL(10,2) 12.00 and SMALLINT 12 are the same value), for a DATETIME the instant.
 *
 * @param index       the column's position in its table
 * @param kind        the finding that suggested the change ({@code narrow_integer}, {@code padding}, ...)
 * @param target      the new type as the dialect spells it in DDL
 * @param duckType    the same type in DuckDB, for the tuned copy
 * @param toTuned     DuckDB expression over {@link #VALUE} (the loaded value) giving the tuned value, NULL when it has none
 * @param originalKey DuckDB expression over {@link #VALUE} (the loaded value) in the comparable form
 * @param tunedKey    DuckDB expression over {@link #VALUE} (the tuned value) in the comparable form
 * @param using       how the dialect converts the column in place, over {@link #VALUE} (the quoted column); null for a plain cast
 */
public record Conversion(
        int index,
        ColumnDef column,
        FindingKind kind,
        String target,
        String duckType,
        String toTuned,
        String originalKey,
        String tunedKey,
        String using) {

    /** Why a suggested change is not in the migration. */
    public static final class Unsupported extends Exception {
        public Unsupported(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * Where a template takes its value: a control character, which no ENUM member or literal the
     * analyzer suggests can hold (they are printable), so substitution never touches user text.
     */
    public static final String VALUE = "\u0001";

    public static String apply(String template, String value) {
        return template.replace(VALUE, value);
    }

    /**
     * The DuckDB condition under which a value does not survive this change: {@code original} (the
     * loaded value) and {@code tuned} (the same value in the new type) differ in NULL-ness, or
     * in the declared type's terms.
     */
    public String mismatch(String original, String tuned) {
        return "(" + original + " IS NULL) <> (" + tuned + " IS NULL) OR (" + original + " IS NOT NULL AND ("
                + apply(originalKey, original) + " IS NULL OR " + apply(tunedKey, tuned) + " IS DISTINCT FROM "
                + apply(originalKey, original) + "))";
    }

    /**
     * The conversion for a column whose suggested type differs from its declared one.
     *
     * @throws Unsupported when tune cannot apply this kind of change safely in {@code dialect}
     */
    public static Conversion of(TableDef def, int index, ColumnDef col, ColumnReport report, Dialect dialect)
            throws Unsupported {
        return of(def, index, col, report, dialect, false);
    }

    /**
     * @param representation the user asked for a change of what the application reads
     *                       ({@code --representation}): a 0/1 integer becomes PostgreSQL's boolean
     *                       rather than the narrowest integer ({@link TuneDecision})
     */
    public static Conversion of(
            TableDef def, int index, ColumnDef col, ColumnReport report, Dialect dialect, boolean representation)
            throws Unsupported {
        String table = def.name();
        if (dialect == Dialect.DUCKDB) {
            duckdbConstraints(def, col);
        }
        SqlType plain = TypeParser.parse(col.type().declared(), dialect);
        if (col.type().family() == TypeFamily.OTHER
                || plain.family() != col.type().family()) {
            throw new Unsupported(
                    "declared " + col.type().declared() + ": tune changes only built-in scalar types (an array, "
                            + "a domain or a user-defined type carries operators and constraints that a plain type would drop)");
        }
        Conversion c = build(table, index, col, report, dialect, representation);
        if (dialect == Dialect.MYSQL) {
            MysqlClauses.check(col, c);
        }
        return c;
    }

    private static Conversion build(
            String table, int index, ColumnDef col, ColumnReport report, Dialect dialect, boolean representation)
            throws Unsupported {
        FindingKind kind =
                report.findings().isEmpty() ? null : report.findings().get(0).kind();
        if (kind == null) {
            throw new Unsupported("tune does not apply this change");
        }
        String suggested = report.suggestedType();
        SqlType declared = col.type();
        String text = "CAST(\u0001 AS VARCHAR)"; // a string column's value, whether loaded as text or bytes
        String number = numberKey(declared); // a numeric column's value, exactly
        switch (kind) {
            case NARROW_INTEGER, NARROW_DECIMAL, FLOAT_HOLDS_INTEGER, STRING_HOLDS_INTEGER -> {
                if (suggested.toLowerCase(Locale.ROOT).startsWith("bool") && representation) {
                    // Asked for by name: 0 becomes false, 1 true, and the application reads f and t.
                    return new Conversion(
                            index,
                            col,
                            kind,
                            "boolean",
                            "BOOLEAN",
                            "CASE " + number + " WHEN 0 THEN false WHEN 1 THEN true END",
                            number,
                            "CAST(CAST(\u0001 AS INTEGER) AS HUGEINT)",
                            dialect == Dialect.POSTGRESQL ? "\u0001 <> 0" : castUsing(dialect, "BOOLEAN"));
                }
                if (suggested.toLowerCase(Locale.ROOT).startsWith("bool")) {
                    // PostgreSQL, where only 0 and 1 occur. analyze names boolean as the tightest
                    // type, but as a migration it would break every query that adds, sums or
                    // compares the column with a number (quantity = 1 has no boolean operator),
                    // and the application would read t and f: by default tune takes the narrowest
                    // integer, which keeps them all (TuneDecision says so in both reports).
                    suggested = new DialectTypes(dialect)
                            .narrowestInteger(BigInteger.ZERO, BigInteger.ONE)
                            .name();
                    if (TypeParser.parse(suggested, dialect).intBits() >= declared.intBits() && declared.isInteger()) {
                        throw new Unsupported(
                                "analyze names boolean, which would break arithmetic on the column, and no "
                                        + "integer type is narrower than " + declared.declared());
                    }
                }
                String ddl = ddlType(suggested, dialect);
                SqlType t = TypeParser.parse(ddl, dialect);
                if (t.family() == TypeFamily.DECIMAL) {
                    String duck = "DECIMAL(" + t.precision() + "," + Math.max(0, t.scale()) + ")";
                    return new Conversion(
                            index,
                            col,
                            kind,
                            ddl,
                            duck,
                            "TRY_CAST(" + number + " AS " + duck + ")",
                            number,
                            number.replace("TRY_CAST", "CAST"),
                            castUsing(dialect, ddl));
                }
                if (!t.isInteger()) {
                    throw new Unsupported("the suggested type " + suggested + " is not an integer type");
                }
                if (dialect == Dialect.POSTGRESQL
                        && (declared.family() == TypeFamily.DECIMAL
                                || declared.family() == TypeFamily.FLOAT
                                || declared.family() == TypeFamily.DOUBLE)) {
                    // The values survive, the arithmetic does not: 7 / 2 is 3 for integers and
                    // 3.5 for numeric, with no error to tell the application.
                    throw new Unsupported("PostgreSQL divides integers as integers (" + col.name() + " / 2 would drop "
                            + "its fraction without an error): keep " + declared.declared()
                            + " or change the queries first");
                }
                if (t.unsigned()
                        && !declared.unsigned()
                        && declared.family() != TypeFamily.CHAR
                        && declared.family() != TypeFamily.VARCHAR
                        && declared.family() != TypeFamily.TEXT
                        && !declared.family().isBinary()) {
                    // A signed column keeps its sign: in MySQL and DuckDB, id - 10 below zero is
                    // an error on an unsigned type. The signed type twice as wide holds the range.
                    t = signedHolding(t, dialect);
                    if (t == null || t.intBits() >= declared.intBits() && declared.isInteger()) {
                        throw new Unsupported("the values fit " + suggested
                                + " but a signed type that holds them is no " + "narrower than " + declared.declared()
                                + ", and the column's arithmetic stays signed");
                    }
                    ddl = t.declared();
                }
                String duck = duckInteger(t);
                if (kind == FindingKind.STRING_HOLDS_INTEGER) {
                    return new Conversion(
                            index,
                            col,
                            kind,
                            ddl,
                            duck,
                            integer("TRY_CAST(" + text + " AS HUGEINT)", t, duck),
                            text,
                            "CAST(\u0001 AS VARCHAR)",
                            dialect == Dialect.POSTGRESQL
                                    ? pgText(declared, "\u0001") + "::" + ddl
                                    : castUsing(dialect, ddl));
                }
                // A number, kept only when it is whole: DuckDB would round 2.5 to 3.
                String whole = kind == FindingKind.NARROW_INTEGER
                        ? "TRY_CAST(\u0001 AS HUGEINT)"
                        : "(CASE WHEN " + number + " = TRY_CAST(" + number + " AS HUGEINT) THEN TRY_CAST(" + number
                                + " AS HUGEINT) END)";
                return new Conversion(
                        index,
                        col,
                        kind,
                        ddl,
                        duck,
                        integer(whole, t, duck),
                        number,
                        number.replace("TRY_CAST", "CAST"),
                        castUsing(dialect, ddl));
            }
            case NARROW_FLOAT -> {
                if (dialect == Dialect.MYSQL) {
                    throw new Unsupported("MySQL prints a FLOAT rounded to 6 significant digits: the bits survive, but "
                            + "clients and mysqldump would read other values");
                }
                return new Conversion(
                        index,
                        col,
                        kind,
                        suggested,
                        "FLOAT",
                        "TRY_CAST(\u0001 AS FLOAT)",
                        "TRY_CAST(\u0001 AS DOUBLE)",
                        "CAST(\u0001 AS DOUBLE)",
                        castUsing(dialect, suggested));
            }
            case TIMESTAMP_HOLDS_DATE -> {
                String d = declared.declared().toLowerCase(Locale.ROOT);
                if ((dialect == Dialect.MYSQL && declared.family() == TypeFamily.TIMESTAMP)
                        || d.contains("with time zone")
                        || d.contains("timestamptz")) {
                    // An instant, not a calendar day: which date it falls on depends on the zone
                    // of whoever reads it (mysqldump writes UTC), and a DATE would fix one zone.
                    throw new Unsupported(
                            declared.declared() + " stores an instant: midnight in the dump's time zone is "
                                    + "another date elsewhere, so a DATE would change what other time zones read");
                }
                return new Conversion(
                        index,
                        col,
                        kind,
                        suggested,
                        "DATE",
                        "TRY_CAST(TRY_CAST(\u0001 AS TIMESTAMP) AS DATE)",
                        "TRY_CAST(\u0001 AS TIMESTAMP)",
                        "CAST(\u0001 AS TIMESTAMP)",
                        castUsing(dialect, suggested));
            }
            case STRING_HOLDS_TIMESTAMP -> {
                String iso = IsoTimestamps.fromFinding(report.findings().get(0).detail());
                if (iso != null) {
                    // ISO-8601 text: PostgreSQL reads the T and a Z or +00:00 itself; MySQL gets
                    // the offset cut first (MysqlMigration), then reads the rest as a DATETIME literal
                    boolean zone = !IsoTimestamps.offset(iso).isEmpty();
                    return new Conversion(
                            index,
                            col,
                            kind,
                            suggested,
                            "TIMESTAMP",
                            "TRY_STRPTIME(" + text + ", '" + iso + "')",
                            text,
                            "strftime(\u0001, '" + iso + "')",
                            switch (dialect) {
                                case POSTGRESQL ->
                                    pgText(declared, "\u0001") + (zone ? "::timestamptz" : "::timestamp");
                                case DUCKDB, TRINO -> "strptime(CAST(\u0001 AS VARCHAR), '" + iso + "')";
                                default -> null;
                            });
                }
                boolean compact = report.findings().get(0).detail().contains("YYYYMMDDHHMMSS");
                String format = compact ? "%Y%m%d%H%M%S" : "%Y-%m-%d %H:%M:%S";
                String using = switch (dialect) {
                    case POSTGRESQL ->
                        compact
                                ? "(left(" + pgText(declared, "\u0001") + ", 8) || 'T' || right("
                                        + pgText(declared, "\u0001") + ", 6))::timestamp"
                                : pgText(declared, "\u0001") + "::timestamp";
                    case DUCKDB, TRINO -> "strptime(CAST(\u0001 AS VARCHAR), '" + format + "')";
                    default -> null; // MySQL reads both spellings as DATETIME literals
                };
                return new Conversion(
                        index,
                        col,
                        kind,
                        suggested,
                        "TIMESTAMP",
                        "TRY_STRPTIME(" + text + ", '" + format + "')",
                        text,
                        "strftime(\u0001, '" + format + "')",
                        using);
            }
            case STRING_HOLDS_DATE -> {
                return new Conversion(
                        index,
                        col,
                        kind,
                        suggested,
                        "DATE",
                        "CAST(TRY_STRPTIME(" + text + ", '%Y-%m-%d') AS DATE)",
                        text,
                        "strftime(\u0001, '%Y-%m-%d')",
                        switch (dialect) {
                            case POSTGRESQL -> pgText(declared, "\u0001") + "::date";
                            case DUCKDB, TRINO -> "CAST(\u0001 AS DATE)";
                            default -> null;
                        });
            }
            case STRING_HOLDS_UUID -> {
                if (dialect == Dialect.MYSQL) {
                    throw new Unsupported(
                            "MySQL keeps a UUID in BINARY(16) only through UUID_TO_BIN(), which an ALTER cannot "
                                    + "apply in place: convert it through a new column and an UPDATE");
                }
                return new Conversion(
                        index,
                        col,
                        kind,
                        suggested,
                        "UUID",
                        "TRY_CAST(" + text + " AS UUID)",
                        text,
                        "CAST(\u0001 AS VARCHAR)",
                        dialect == Dialect.POSTGRESQL ? pgText(declared, "\u0001") + "::uuid" : "CAST(\u0001 AS UUID)");
            }
            case STRING_HOLDS_DECIMAL -> {
                SqlType t = TypeParser.parse(suggested, dialect);
                String duck = "DECIMAL(" + t.precision() + "," + Math.max(0, t.scale()) + ")";
                return new Conversion(
                        index,
                        col,
                        kind,
                        suggested,
                        duck,
                        "TRY_CAST(" + text + " AS " + duck + ")",
                        text,
                        "CAST(\u0001 AS VARCHAR)",
                        dialect == Dialect.POSTGRESQL
                                ? pgText(declared, "\u0001") + "::" + suggested
                                : castUsing(dialect, suggested));
            }
            case LOW_CARDINALITY -> {
                List<String> members = suggested.toLowerCase(Locale.ROOT).startsWith("enum type")
                        ? TypeParser.quoted(suggested.substring(suggested.indexOf('(') + 1, suggested.lastIndexOf(')')))
                        : TypeParser.parse(suggested, dialect).enumValues();
                if (members.isEmpty()) {
                    throw new Unsupported("no ENUM members in " + suggested);
                }
                if (dialect == Dialect.MYSQL
                        && members.stream().map(Conversion::folded).distinct().count() < members.size()) {
                    throw new Unsupported(
                            "two members differ only in accents or case, which MySQL's default collations "
                                    + "treat as one: an ENUM cannot hold both");
                }
                String duck = "ENUM("
                        + members.stream().map(ProfilingDatabase::literal).collect(Collectors.joining(", ")) + ")";
                String target = dialect == Dialect.POSTGRESQL ? enumTypeName(table, col.name()) : suggested;
                return new Conversion(
                        index,
                        col,
                        kind,
                        target,
                        duck,
                        "TRY_CAST(" + text + " AS " + duck + ")",
                        text,
                        "CAST(\u0001 AS VARCHAR)",
                        dialect == Dialect.POSTGRESQL
                                ? pgText(declared, "\u0001") + "::text::" + target
                                : castUsing(dialect, target));
            }
            case PADDING -> {
                return new Conversion(
                        index, col, kind, suggested, "VARCHAR", text, text, "\u0001", castUsing(dialect, suggested));
            }
            case STRING_HOLDS_BOOLEAN ->
                throw new Unsupported(
                        "the column spells true and false as text; which spelling " + "means true is yours to decide");
            default -> throw new Unsupported("tune does not apply " + kind + " changes");
        }
    }

    /** DuckDB refuses to change a column under a key, or any column of a table with an index. */
    private static void duckdbConstraints(TableDef def, ColumnDef col) throws Unsupported {
        for (IndexDef ix : def.indexes()) {
            boolean key = ix.name().equals("PRIMARY KEY")
                    || ix.name().equals("UNIQUE")
                    || ix.name().equals("FOREIGN KEY");
            if (key && ix.columns().stream().anyMatch(c -> c.equalsIgnoreCase(col.name()))) {
                throw new Unsupported("DuckDB cannot change the type of a column under a " + ix.name()
                        + ": re-create the table with the new type (CREATE TABLE ... AS SELECT, then the key)");
            }
            if (!key) {
                throw new Unsupported("DuckDB cannot change a column's type while an index is on its table: drop index "
                        + ix.name() + " first and re-create it after");
            }
        }
    }

    /** The narrowest signed integer type of the dialect holding every value of unsigned {@code t}, or null. */
    public static SqlType signedHolding(SqlType t, Dialect dialect) {
        int[] widths = dialect == Dialect.MYSQL ? new int[] {1, 2, 3, 4, 8} : new int[] {1, 2, 4, 8};
        DialectTypes types = new DialectTypes(dialect);
        for (int w : widths) {
            if (w * 8 > t.intBits()) {
                return SqlType.integer(types.integerName(w, false), w * 8, false);
            }
        }
        return null;
    }

    /** A whole number {@code v} in the tuned integer type, or NULL when it does not fit (MEDIUMINT has no DuckDB twin). */
    private static String integer(String v, SqlType t, String duck) {
        if (t.intBits() != 24) {
            return "TRY_CAST(" + v + " AS " + duck + ")";
        }
        String range = t.unsigned() ? "BETWEEN 0 AND 16777215" : "BETWEEN -8388608 AND 8388607";
        return "CASE WHEN " + v + " " + range + " THEN CAST(" + v + " AS " + duck + ") END";
    }

    /** A numeric value in a type that holds it exactly: HUGEINT, a wide DECIMAL at the declared scale, or DOUBLE. */
    public static String numberKey(SqlType declared) {
        return switch (declared.family()) {
            case INTEGER -> "TRY_CAST(\u0001 AS HUGEINT)";
            case FLOAT, DOUBLE -> "TRY_CAST(\u0001 AS DOUBLE)";
            default ->
                "TRY_CAST(\u0001 AS DECIMAL(38," + Math.min(37, declared.scale() < 0 ? 18 : declared.scale()) + "))";
        };
    }

    /** PostgreSQL: the column as text, whether it is text or bytea. */
    private static String pgText(SqlType declared, String column) {
        return declared.family().isBinary() ? "convert_from(" + column + ", 'UTF8')" : column;
    }

    /** The serial pseudo-types name a type only in CREATE TABLE: an ALTER takes the integer they stand for. */
    public static String ddlType(String suggested, Dialect dialect) {
        if (dialect != Dialect.POSTGRESQL) {
            return suggested;
        }
        return switch (suggested.toLowerCase(Locale.ROOT)) {
            case "smallserial" -> "smallint";
            case "serial" -> "integer";
            case "bigserial" -> "bigint";
            default -> suggested;
        };
    }

    private static String castUsing(Dialect dialect, String type) {
        return switch (dialect) {
            case POSTGRESQL -> "\u0001::" + type;
            case DUCKDB, TRINO -> "CAST(\u0001 AS " + type + ")";
            default -> null;
        };
    }

    public static String duckInteger(SqlType t) {
        String base = switch (t.intBits()) {
            case 8 -> "TINYINT";
            case 16 -> "SMALLINT";
            case 24, 32 -> "INTEGER";
            case 64 -> "BIGINT";
            default -> "HUGEINT";
        };
        return (t.unsigned() && t.intBits() <= 64 ? "U" : "") + base;
    }

    /** A PostgreSQL enum type takes a name: the table's and the column's. */
    public static String enumTypeName(String table, String column) {
        String raw = table + "_" + column;
        String name = raw.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (!name.equals(raw) || name.length() > 50) {
            // Lower-casing or replacing characters can make two names one (a_b.c, a.b_c); so can
            // PostgreSQL's 63-byte limit: a hash of the exact names keeps them apart.
            String hash = Integer.toHexString((table + "\u0000" + column).hashCode() & 0xFFFFFF);
            name = name.substring(0, Math.min(name.length(), 50)) + "_" + hash;
        }
        return name + "_enum";
    }

    /** A member as an accent- and case-insensitive collation compares it. */
    public static String folded(String s) {
        return Normalizer.normalize(s, Normalizer.Form.NFD)
                .replaceAll("\\p{M}", "")
                .toLowerCase(Locale.ROOT)
                .stripTrailing();
    }
}

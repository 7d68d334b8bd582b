package dev.wastecheck.model.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a declared type's text ({@code int(10) unsigned}, {@code character varying(45)},
 * {@code NVARCHAR(160)}, {@code enum('G','PG')}, {@code numeric(5,2)}) into a {@link SqlType}.
 * User-defined PostgreSQL domains and enum types resolve through the map of aliases given.
 */
public final class TypeParser {
    private static final Pattern SHAPE = Pattern.compile(
            "(?is)\\s*([a-z_][a-z0-9_ .\"]*?)\\s*(?:\\((.*)\\))?\\s*((?:unsigned|signed|zerofill|\\s)*)\\s*(\\[\\])?\\s*");

    private TypeParser() {}

    public static SqlType parse(String text, Dialect dialect) {
        return parse(text, dialect, Map.of());
    }

    /**
     * @param aliases user-defined type names (lower case, without schema) to their definitions
     */
    public static SqlType parse(String text, Dialect dialect, Map<String, SqlType> aliases) {
        String declared = text.trim().replaceAll("\\s+", " ");
        String lower = declared.toLowerCase(Locale.ROOT);
        if (lower.startsWith("timestamp")) {
            return SqlType.of(declared, TypeFamily.TIMESTAMP);
        }
        if (lower.equals("time") || lower.startsWith("time(") || lower.startsWith("time ")) {
            return SqlType.of(declared, TypeFamily.TIME);
        }
        if (lower.startsWith("interval")) {
            return SqlType.of(declared, TypeFamily.OTHER);
        }
        Matcher m = SHAPE.matcher(declared);
        if (!m.matches()) {
            return SqlType.of(declared, TypeFamily.OTHER);
        }
        String base = m.group(1).toLowerCase(Locale.ROOT).replace("\"", "").trim();
        String args = m.group(2);
        String mods = m.group(3) == null ? "" : m.group(3).toLowerCase(Locale.ROOT);
        boolean array = m.group(4) != null;
        boolean unsigned = mods.contains("unsigned") || mods.contains("zerofill");
        if (array) {
            return SqlType.of(declared, TypeFamily.OTHER);
        }
        String unqualified = base.contains(".") ? base.substring(base.lastIndexOf('.') + 1) : base;
        SqlType alias = aliases.get(unqualified);
        if (alias != null) {
            return new SqlType(
                    declared,
                    alias.family(),
                    alias.intBits(),
                    alias.unsigned(),
                    alias.length(),
                    alias.precision(),
                    alias.scale(),
                    alias.enumValues());
        }
        List<Integer> nums = numbers(args);
        int first = nums.isEmpty() ? -1 : nums.get(0);
        int second = nums.size() > 1 ? nums.get(1) : -1;
        switch (unqualified) {
            case "tinyint", "int1":
                return SqlType.integer(declared, 8, unsigned);
            case "utinyint":
                return SqlType.integer(declared, 8, true);
            case "smallint", "int2", "smallserial", "serial2":
                return SqlType.integer(declared, 16, unsigned);
            case "usmallint":
                return SqlType.integer(declared, 16, true);
            case "mediumint", "int3":
                return SqlType.integer(declared, 24, unsigned);
            case "int", "integer", "int4", "serial", "serial4", "signed":
                // SQLite's INTEGER is a 64-bit rowid-capable integer.
                return SqlType.integer(declared, dialect == Dialect.SQLITE ? 64 : 32, unsigned);
            case "uinteger":
                return SqlType.integer(declared, 32, true);
            case "bigint", "int8", "bigserial", "serial8", "long":
                return SqlType.integer(declared, 64, unsigned);
            case "ubigint":
                return SqlType.integer(declared, 64, true);
            case "hugeint", "int128":
                return SqlType.integer(declared, 128, false);
            case "bool", "boolean":
                return SqlType.of(declared, TypeFamily.BOOLEAN);
            case "bit":
                return new SqlType(declared, TypeFamily.BIT, 0, false, first < 0 ? 1 : first, -1, -1, List.of());
            case "decimal", "numeric", "dec", "fixed", "number":
                return new SqlType(
                        declared,
                        TypeFamily.DECIMAL,
                        0,
                        unsigned,
                        -1,
                        first < 0 ? (dialect == Dialect.MYSQL ? 10 : -1) : first,
                        second < 0 ? (first < 0 && dialect != Dialect.MYSQL ? -1 : 0) : second,
                        List.of());
            case "money":
                return new SqlType(declared, TypeFamily.DECIMAL, 0, false, -1, 19, 2, List.of());
            case "float", "float4", "real":
                if (unqualified.equals("float") && first > 24) {
                    return SqlType.of(declared, TypeFamily.DOUBLE);
                }
                if (dialect == Dialect.SQLITE
                        || (unqualified.equals("float") && dialect == Dialect.POSTGRESQL && first < 0)) {
                    return SqlType.of(declared, TypeFamily.DOUBLE); // SQLite REAL and PG bare float are 8 bytes
                }
                return SqlType.of(declared, TypeFamily.FLOAT);
            case "double", "double precision", "float8", "double unsigned":
                return SqlType.of(declared, TypeFamily.DOUBLE);
            case "char", "character", "nchar", "national char", "bpchar":
                return new SqlType(declared, TypeFamily.CHAR, 0, false, first < 0 ? 1 : first, -1, -1, List.of());
            case "varchar", "character varying", "nvarchar", "national varchar", "varchar2", "nvarchar2", "string":
                return new SqlType(declared, TypeFamily.VARCHAR, 0, false, first, -1, -1, List.of());
            case "tinytext", "text", "mediumtext", "longtext", "clob", "ntext", "citext", "name":
                return new SqlType(declared, TypeFamily.TEXT, 0, false, textLimit(unqualified), -1, -1, List.of());
            case "binary":
                return new SqlType(declared, TypeFamily.BINARY, 0, false, first < 0 ? 1 : first, -1, -1, List.of());
            case "varbinary":
                return new SqlType(declared, TypeFamily.VARBINARY, 0, false, first, -1, -1, List.of());
            case "tinyblob", "blob", "mediumblob", "longblob", "bytea", "bytes", "varbinary(max)":
                return new SqlType(declared, TypeFamily.BLOB, 0, false, textLimit(unqualified), -1, -1, List.of());
            case "date":
                return SqlType.of(declared, TypeFamily.DATE);
            case "time", "time without time zone", "time with time zone", "timetz":
                return SqlType.of(declared, TypeFamily.TIME);
            case "datetime", "datetime2", "smalldatetime":
                return SqlType.of(declared, TypeFamily.DATETIME);
            case "timestamp", "timestamp without time zone", "timestamp with time zone", "timestamptz":
                return SqlType.of(declared, TypeFamily.TIMESTAMP);
            case "year":
                return SqlType.of(declared, TypeFamily.YEAR);
            case "enum":
                return new SqlType(declared, TypeFamily.ENUM, 0, false, -1, -1, -1, quoted(args));
            case "set":
                return new SqlType(declared, TypeFamily.SET, 0, false, -1, -1, -1, quoted(args));
            case "json", "jsonb":
                return SqlType.of(declared, TypeFamily.JSON);
            case "uuid", "uniqueidentifier":
                return SqlType.of(declared, TypeFamily.UUID);
            default:
                return SqlType.of(declared, TypeFamily.OTHER);
        }
    }

    private static int textLimit(String base) {
        return switch (base) {
            case "tinytext", "tinyblob" -> 255;
            case "text", "blob" -> 65_535;
            case "mediumtext", "mediumblob" -> 16_777_215;
            default -> -1;
        };
    }

    private static List<Integer> numbers(String args) {
        List<Integer> out = new ArrayList<>();
        if (args == null || args.contains("'")) {
            return out;
        }
        for (String part : args.split(",")) {
            String p = part.trim();
            if (p.matches("\\d+")) {
                // no engine takes a length, precision or scale beyond 2^31 - 1 (a fuzzer found the crash)
                String digits = p.replaceFirst("^0+(?=\\d)", "");
                if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException(
                            "type argument " + (p.length() > 20 ? p.substring(0, 20) + "..." : p)
                                    + " is beyond any engine's limit (2147483647)");
                }
                out.add(Integer.parseInt(p));
            } else if (p.equalsIgnoreCase("max")) {
                out.add(-1);
            }
        }
        return out;
    }

    /** The members of {@code 'a','b','it''s'}. */
    public static List<String> quoted(String args) {
        List<String> out = new ArrayList<>();
        if (args == null) {
            return out;
        }
        StringBuilder cur = null;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (cur == null) {
                if (c == '\'') {
                    cur = new StringBuilder();
                }
            } else if (c == '\\' && i + 1 < args.length()) {
                cur.append(args.charAt(++i));
            } else if (c == '\'') {
                if (i + 1 < args.length() && args.charAt(i + 1) == '\'') {
                    cur.append('\'');
                    i++;
                } else {
                    out.add(cur.toString());
                    cur = null;
                }
            } else {
                cur.append(c);
            }
        }
        return out;
    }
}

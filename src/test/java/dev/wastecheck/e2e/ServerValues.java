package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a live database holds, read through JDBC as typed values, and the check that a migration
 * changed none of them. A value is compared as what it is, whatever type holds it: a number as a
 * number (DECIMAL 12.00 and INT 12 are one value; the text '12' is that value only when it is the
 * number's own spelling, so '012' is not), a date or time as an instant ('20160607193124' in a
 * BINARY(14) and the DATETIME 2016-06-07 19:31:24 are one), anything else as text or bytes.
 */
final class ServerValues {
    private ServerValues() {}

    enum Engine {
        MARIADB,
        POSTGRESQL
    }

    /** A table's rows as the driver returns them, and its columns' JDBC types. */
    record Table(List<String> columns, List<Integer> types, List<String> typeNames, List<Object[]> rows) {}

    /** The base tables of the connection's database (MariaDB) or of its public schema (PostgreSQL). */
    static List<String> tables(Connection c, Engine engine) throws SQLException {
        String sql = engine == Engine.MARIADB
                ? "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY 1"
                : "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' "
                        + "AND c.relkind = 'r' ORDER BY 1";
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    static String quote(String table, Engine engine) {
        return engine == Engine.MARIADB
                ? "`" + table.replace("`", "``") + "`"
                : "\"" + table.replace("\"", "\"\"") + "\"";
    }

    /** Every row of every table. */
    static Map<String, Table> read(Connection c, Engine engine) throws SQLException {
        Map<String, Table> out = new LinkedHashMap<>();
        for (String t : tables(c, engine)) {
            // ONLY: an inheritance parent's own rows; each child is read as itself
            String from = (engine == Engine.POSTGRESQL ? "ONLY " : "") + quote(t, engine);
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT * FROM " + from)) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> cols = new ArrayList<>();
                List<Integer> types = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    cols.add(md.getColumnName(i));
                    types.add(md.getColumnType(i));
                    names.add(md.getColumnTypeName(i));
                }
                List<Object[]> rows = new ArrayList<>();
                while (rs.next()) {
                    Object[] row = new Object[cols.size()];
                    for (int i = 0; i < row.length; i++) {
                        Object v = rs.getObject(i + 1);
                        // types the driver has no Java class for (PostgreSQL enums) arrive as their text
                        row[i] = v == null
                                        || v instanceof Number
                                        || v instanceof String
                                        || v instanceof byte[]
                                        || v instanceof Boolean
                                        || v instanceof java.util.Date
                                        || v instanceof java.time.temporal.Temporal
                                ? v
                                : rs.getString(i + 1);
                    }
                    rows.add(row);
                }
                out.put(t, new Table(cols, types, names, rows));
            }
        }
        return out;
    }

    private enum Kind {
        NUMBER,
        INSTANT,
        TEXT,
        BYTES
    }

    private static boolean numeric(int t) {
        return switch (t) {
            case Types.TINYINT,
                    Types.SMALLINT,
                    Types.INTEGER,
                    Types.BIGINT,
                    Types.DECIMAL,
                    Types.NUMERIC,
                    Types.REAL,
                    Types.FLOAT,
                    Types.DOUBLE,
                    Types.BOOLEAN -> true;
            default -> false;
        };
    }

    private static boolean temporal(int t) {
        return t == Types.DATE || t == Types.TIME || t == Types.TIMESTAMP || t == Types.TIMESTAMP_WITH_TIMEZONE;
    }

    private static boolean binary(int t) {
        return t == Types.BINARY || t == Types.VARBINARY || t == Types.LONGVARBINARY || t == Types.BLOB;
    }

    /** How a column's values compare, from its type before and after. */
    private static Kind kind(int before, int after) {
        if (temporal(before) || temporal(after)) {
            return Kind.INSTANT;
        }
        if (numeric(before) || numeric(after)) {
            return Kind.NUMBER;
        }
        return binary(before) && binary(after) ? Kind.BYTES : Kind.TEXT;
    }

    private static final Pattern CANONICAL_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?");
    private static final DateTimeFormatter COMPACT = DateTimeFormatter.ofPattern("uuuuMMddHHmmss");
    private static final DateTimeFormatter SPACED =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss[.SSSSSS][.SSS][.S]");

    private static String text(Object v) {
        return v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString();
    }

    static String canonical(Object v, Kind kind) {
        if (v == null) {
            return "NULL";
        }
        switch (kind) {
            case NUMBER -> {
                if (v instanceof Boolean b) {
                    return b ? "1" : "0";
                }
                if (v instanceof Double || v instanceof Float) {
                    return BigDecimal.valueOf(((Number) v).doubleValue())
                            .stripTrailingZeros()
                            .toPlainString();
                }
                String s = text(v);
                return CANONICAL_NUMBER.matcher(s).matches() || v instanceof Number
                        ? new BigDecimal(s).stripTrailingZeros().toPlainString()
                        : "text:" + s;
            }
            case INSTANT -> {
                if (v instanceof java.sql.Timestamp ts) {
                    return ts.toLocalDateTime().toString();
                }
                if (v instanceof java.sql.Date d) {
                    return d.toLocalDate().atStartOfDay().toString();
                }
                if (v instanceof LocalDate d) {
                    return d.atStartOfDay().toString();
                }
                if (v instanceof java.time.temporal.Temporal || v instanceof java.util.Date) {
                    return v.toString();
                }
                String s = text(v);
                for (DateTimeFormatter f : List.of(COMPACT, SPACED)) {
                    try {
                        return LocalDateTime.parse(s, f).toString();
                    } catch (DateTimeParseException e) {
                        // the next spelling
                    }
                }
                try {
                    return LocalDate.parse(s).atStartOfDay().toString();
                } catch (DateTimeParseException e) {
                    return "text:" + s;
                }
            }
            case BYTES -> {
                return HexFormat.of().formatHex((byte[]) v);
            }
            default -> {
                return text(v);
            }
        }
    }

    /**
     * Asserts that every table holds the same rows before and after, each value compared as what
     * it is (above), rows in any order.
     */
    static void assertSameValues(Map<String, Table> before, Map<String, Table> after, String label) {
        assertThat(after.keySet()).as(label + ": the tables").isEqualTo(before.keySet());
        for (Map.Entry<String, Table> e : before.entrySet()) {
            Table b = e.getValue();
            Table a = after.get(e.getKey());
            assertThat(a.columns()).as(label + ": the columns of " + e.getKey()).isEqualTo(b.columns());
            Kind[] kinds = new Kind[b.columns().size()];
            for (int i = 0; i < kinds.length; i++) {
                kinds[i] = kind(b.types().get(i), a.types().get(i));
            }
            List<String> rb = rows(b, kinds);
            List<String> ra = rows(a, kinds);
            assertThat(ra.size()).as(label + ": rows of " + e.getKey()).isEqualTo(rb.size());
            for (int i = 0; i < rb.size(); i++) {
                if (!rb.get(i).equals(ra.get(i))) {
                    throw new AssertionError(label + ": " + e.getKey() + " (columns " + b.columns() + ", types "
                            + b.typeNames() + " -> "
                            + a.typeNames() + ") differs at sorted row " + i + ":\n  before " + abbreviate(rb.get(i))
                            + "\n  after  " + abbreviate(ra.get(i)));
                }
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }

    private static List<String> rows(Table t, Kind[] kinds) {
        List<String> out = new ArrayList<>(t.rows().size());
        for (Object[] row : t.rows()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                sb.append(i == 0 ? "" : " | ").append(canonical(row[i], kinds[i]));
            }
            out.add(sb.toString());
        }
        out.sort(null);
        return out;
    }

    /** How many values of each table a migration changed type for: the columns whose JDBC type name differs. */
    static List<String> changedColumns(Map<String, Table> before, Map<String, Table> after) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Table> e : before.entrySet()) {
            Table b = e.getValue();
            Table a = after.get(e.getKey());
            for (int i = 0; i < b.columns().size(); i++) {
                if (!b.typeNames().get(i).equals(a.typeNames().get(i))) {
                    out.add(e.getKey() + "." + b.columns().get(i) + " "
                            + b.typeNames().get(i) + " -> " + a.typeNames().get(i));
                }
            }
        }
        return out;
    }

    /** MariaDB: each table's definition as the server prints it (SHOW CREATE TABLE), and its row count. */
    static Map<String, String> mariaDbSchema(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String t : tables(c, Engine.MARIADB)) {
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + quote(t, Engine.MARIADB))) {
                rs.next();
                out.put(t, rs.getString(2));
            }
        }
        return out;
    }

    /** PostgreSQL: each public table's columns with their full types, and each view's definition. */
    static Map<String, String> postgresSchema(Connection c) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT c.relname, c.relkind::text, CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) ELSE "
                                + "(SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) "
                                + "FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) END "
                                + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' "
                                + "AND c.relkind IN ('r', 'p', 'v', 'm') ORDER BY 1")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2) + ": " + rs.getString(3));
            }
        }
        return out;
    }

    /** MariaDB: each InnoDB table's data_length + index_length after OPTIMIZE TABLE rebuilt it. */
    static Map<String, Long> innodbSizes(Connection c) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        List<String> innodb = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT table_name FROM information_schema.tables "
                                + "WHERE table_schema = DATABASE() AND engine = 'InnoDB' AND table_type = 'BASE TABLE' ORDER BY 1")) {
            while (rs.next()) {
                innodb.add(rs.getString(1));
            }
        }
        try (Statement st = c.createStatement()) {
            for (String t : innodb) {
                try (ResultSet rs = st.executeQuery("OPTIMIZE TABLE " + quote(t, Engine.MARIADB))) {
                    while (rs.next()) {
                        assertThat(rs.getString("Msg_type"))
                                .as("OPTIMIZE TABLE " + t + ": " + rs.getString("Msg_text"))
                                .isNotEqualTo("error");
                    }
                }
            }
            try (ResultSet rs = st.executeQuery(
                    "SELECT table_name, data_length + index_length FROM information_schema.tables "
                            + "WHERE table_schema = DATABASE() AND engine = 'InnoDB' AND table_type = 'BASE TABLE' ORDER BY 1")) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    /** PostgreSQL: each public table's heap (pg_relation_size) after VACUUM FULL rewrote it tightly. */
    static Map<String, Long> heapSizes(Connection c) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        try (Statement st = c.createStatement()) {
            st.execute("VACUUM FULL");
            try (ResultSet rs =
                    st.executeQuery("SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n "
                            + "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1")) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }
}

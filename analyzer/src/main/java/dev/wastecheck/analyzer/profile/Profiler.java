package dev.wastecheck.analyzer.profile;

import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.analyzer.schema.ColumnDef;
import dev.wastecheck.analyzer.schema.TypeFamily;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Profiles a table with one DuckDB query: every aggregate of every column in a single full scan,
 * exact (count(DISTINCT), not an estimate). Like DuckDB's SUMMARIZE, but asking what the type
 * inference needs: canonical spellings that round-trip, null markers, storage-model sums.
 */
public final class Profiler {
    /** Longest text value that the pattern checks look at (longer ones are not numbers or dates). */
    static final int PATTERN_MAX = 40;
    /** Spellings counted as null markers rather than real values. */
    public static final List<String> NULL_MARKERS = List.of("NA", "N/A", "NULL", "null", "\\N", "", "None", "nan", "NaN");

    private final ProfilingDatabase db;

    public Profiler(ProfilingDatabase db) {
        this.db = db;
    }

    private interface Setter extends BiConsumer<ColumnProfile, Object> {
    }

    private record Agg(int column, String sql, Setter setter) {
    }

    public List<ColumnProfile> profile(LoadedTable table) throws SQLException {
        List<ColumnDef> cols = table.def().columns();
        List<ColumnProfile> out = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            ColumnProfile p = new ColumnProfile();
            p.rows = table.rows();
            out.add(p);
        }
        if (table.relation() == null || table.rows() == 0) {
            return out;
        }
        List<Agg> aggs = new ArrayList<>();
        aggs.add(new Agg(-1, "count(*)", (p, v) -> { }));
        for (int i = 0; i < cols.size(); i++) {
            columnAggregates(i, cols.get(i), table.storage()[i], table.physicalColumn(i), aggs);
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < aggs.size(); i++) {
            if (i > 0) {
                sql.append(",\n  ");
            }
            sql.append(aggs.get(i).sql());
        }
        sql.append("\nFROM ").append(table.relation());
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
            rs.next();
            long rows = rs.getLong(1);
            for (ColumnProfile p : out) {
                p.rows = rows;
            }
            for (int i = 1; i < aggs.size(); i++) {
                Agg a = aggs.get(i);
                a.setter().accept(out.get(a.column()), rs.getObject(i + 1));
            }
        }
        return out;
    }

    private static void columnAggregates(int i, ColumnDef col, ColumnStorage storage, String c, List<Agg> aggs) {
        TypeFamily f = col.type().family();
        aggs.add(new Agg(i, "count(" + c + ")", (p, v) -> p.nonNull = asLong(v)));
        aggs.add(new Agg(i, "count(DISTINCT " + c + ")", (p, v) -> p.distinct = asLong(v)));
        if (f == TypeFamily.INTEGER) {
            String n = storage == ColumnStorage.INT64 || storage == ColumnStorage.NATIVE ? c : "TRY_CAST(" + c + " AS HUGEINT)";
            integerAggregates(i, n, aggs);
            if (storage == ColumnStorage.TEXT) {
                aggs.add(new Agg(i, "count(" + c + ") - count(" + n + ")", (p, v) -> p.castFailures = asLong(v)));
                textAggregates(i, c, "strlen(" + c + ")", aggs);
            }
            return;
        }
        if (storage == ColumnStorage.NATIVE && !(f.isString() || f == TypeFamily.OTHER)) {
            String s = "CAST(" + c + " AS VARCHAR)";
            lengthAggregates(i, s, "strlen(" + s + ")", aggs);
            nativeAggregates(i, f, c, aggs);
            return;
        }
        boolean bytes = storage == ColumnStorage.BYTES || (storage == ColumnStorage.NATIVE && f.isBinary());
        String s = bytes ? "CAST(" + c + " AS VARCHAR)" : c;
        String len = bytes ? "octet_length(" + c + ")" : "strlen(" + c + ")";
        switch (f) {
            case DECIMAL -> {
                lengthAggregates(i, s, len, aggs);
                decimalAggregates(i, s, aggs);
            }
            case FLOAT, DOUBLE -> {
                lengthAggregates(i, s, len, aggs);
                floatAggregates(i, s, aggs);
            }
            case DATE, DATETIME, TIMESTAMP, TIME, YEAR -> {
                lengthAggregates(i, s, len, aggs);
                temporalAggregates(i, f, s, aggs);
            }
            default -> textAggregates(i, s, len, aggs);
        }
    }

    private static void integerAggregates(int i, String n, List<Agg> aggs) {
        aggs.add(new Agg(i, "CAST(min(" + n + ") AS VARCHAR)", (p, v) -> p.minInt = asBig(v)));
        aggs.add(new Agg(i, "CAST(max(" + n + ") AS VARCHAR)", (p, v) -> p.maxInt = asBig(v)));
        aggs.add(new Agg(i, "sum(" + sqliteIntSize(n) + ")", (p, v) -> p.sqliteIntBytes = asLong(v)));
    }

    /** SQLite record format: serial types 8/9 (0 and 1) take no bytes; then 1, 2, 3, 4, 6 or 8. */
    static String sqliteIntSize(String n) {
        return "CASE WHEN " + n + " IS NULL THEN 0 WHEN " + n + " BETWEEN 0 AND 1 THEN 0"
                + " WHEN " + n + " BETWEEN -128 AND 127 THEN 1 WHEN " + n + " BETWEEN -32768 AND 32767 THEN 2"
                + " WHEN " + n + " BETWEEN -8388608 AND 8388607 THEN 3 WHEN " + n + " BETWEEN -2147483648 AND 2147483647 THEN 4"
                + " WHEN " + n + " BETWEEN -140737488355328 AND 140737488355327 THEN 6 ELSE 8 END";
    }

    private static void lengthAggregates(int i, String s, String len, List<Agg> aggs) {
        aggs.add(new Agg(i, "min(" + len + ")", (p, v) -> p.minLen = asLong(v)));
        aggs.add(new Agg(i, "max(" + len + ")", (p, v) -> p.maxLen = asLong(v)));
        aggs.add(new Agg(i, "sum(" + len + ")", (p, v) -> p.sumLen = asLong(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + len + " >= 127)", (p, v) -> p.long127 = asLong(v)));
        aggs.add(new Agg(i, "left(min(" + s + "), 60)", (p, v) -> p.minText = asString(v)));
        aggs.add(new Agg(i, "left(max(" + s + "), 60)", (p, v) -> p.maxText = asString(v)));
    }

    private static void textAggregates(int i, String s, String len, List<Agg> aggs) {
        lengthAggregates(i, s, len, aggs);
        aggs.add(new Agg(i, "max(length(" + s + "))", (p, v) -> p.maxChars = asLong(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE suffix(" + s + ", ' '))", (p, v) -> p.trailingSpace = asLong(v)));
        String markers = markerList();
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + s + " IN (" + markers + "))", (p, v) -> p.markers = asLong(v)));
        aggs.add(new Agg(i, "count(DISTINCT " + s + ") FILTER (WHERE " + s + " IN (" + markers + "))",
                (p, v) -> p.markerKinds = asLong(v)));
        String shortText = len + " <= " + PATTERN_MAX;
        String intOk = len + " <= 20 AND CAST(TRY_CAST(" + s + " AS BIGINT) AS VARCHAR) = " + s;
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + intOk + ")", (p, v) -> p.intCanonical = asLong(v)));
        aggs.add(new Agg(i, "CAST(min(TRY_CAST(" + s + " AS BIGINT)) FILTER (WHERE " + intOk + ") AS VARCHAR)",
                (p, v) -> p.strIntMin = asBig(v)));
        aggs.add(new Agg(i, "CAST(max(TRY_CAST(" + s + " AS BIGINT)) FILTER (WHERE " + intOk + ") AS VARCHAR)",
                (p, v) -> p.strIntMax = asBig(v)));
        String decOk = shortText + " AND regexp_full_match(" + s + ", '-?(0|[1-9][0-9]*)\\.[0-9]+')";
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + decOk + ")", (p, v) -> p.decimalCanonical = asLong(v)));
        aggs.add(new Agg(i, "max(strlen(split_part(ltrim(" + s + ", '-'), '.', 1))) FILTER (WHERE " + decOk + ")",
                (p, v) -> p.decimalIntDigits = (int) asLong(v)));
        aggs.add(new Agg(i, "min(strlen(split_part(" + s + ", '.', 2))) FILTER (WHERE " + decOk + ")",
                (p, v) -> p.decimalFracMin = (int) asLong(v)));
        aggs.add(new Agg(i, "max(strlen(split_part(" + s + ", '.', 2))) FILTER (WHERE " + decOk + ")",
                (p, v) -> p.decimalFracMax = (int) asLong(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + s + " IN ('true','false','TRUE','FALSE','t','f','yes','no','Y','N'))",
                (p, v) -> p.booleans = asLong(v)));
        aggs.add(new Agg(i, "count(DISTINCT " + s + ") FILTER (WHERE " + s + " IN ('true','false','TRUE','FALSE','t','f','yes','no','Y','N'))",
                (p, v) -> p.booleanKinds = asLong(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + roundTrip(s, len, 10, "%Y-%m-%d") + ")", (p, v) -> p.dates = asLong(v)));
        String iso = roundTrip(s, len, 19, "%Y-%m-%d %H:%M:%S");
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + iso + ")", (p, v) -> p.timestamps = asLong(v)));
        aggs.add(new Agg(i, "min(" + s + ") FILTER (WHERE " + iso + ")", (p, v) -> p.timestampMin = asString(v)));
        aggs.add(new Agg(i, "max(" + s + ") FILTER (WHERE " + iso + ")", (p, v) -> p.timestampMax = asString(v)));
        // MediaWiki's 14-character timestamps, YYYYMMDDHHMMSS.
        String mw = roundTrip(s, len, 14, "%Y%m%d%H%M%S");
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + mw + ")", (p, v) -> p.mwTimestamps = asLong(v)));
        aggs.add(new Agg(i, "min(" + s + ") FILTER (WHERE " + mw + ")", (p, v) -> p.mwTimestampMin = asString(v)));
        aggs.add(new Agg(i, "max(" + s + ") FILTER (WHERE " + mw + ")", (p, v) -> p.mwTimestampMax = asString(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + len + " = 36 AND CAST(TRY_CAST(" + s + " AS UUID) AS VARCHAR) = " + s + ")",
                (p, v) -> p.uuids = asLong(v)));
    }

    /** The value parses with the format and prints back to exactly the same text. */
    private static String roundTrip(String s, String len, int width, String format) {
        return len + " = " + width + " AND strftime(try_strptime(" + s + ", '" + format + "'), '" + format + "') = " + s;
    }

    private static void decimalAggregates(int i, String s, List<Agg> aggs) {
        String t = "trim(" + s + ")";
        String intPart = "ltrim(split_part(ltrim(" + t + ", '-+'), '.', 1), '0')";
        String frac = "rtrim(split_part(" + t + ", '.', 2), '0')";
        aggs.add(new Agg(i, "count(" + s + ") - count(TRY_CAST(" + t + " AS DOUBLE))", (p, v) -> p.castFailures = asLong(v)));
        aggs.add(new Agg(i, "max(strlen(" + intPart + "))", (p, v) -> p.usedIntDigits = (int) asLong(v)));
        aggs.add(new Agg(i, "max(strlen(" + frac + "))", (p, v) -> p.usedScale = (int) asLong(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + frac + " = '' AND TRY_CAST(" + t + " AS DOUBLE) IS NOT NULL)",
                (p, v) -> p.integral = asLong(v)));
        aggs.add(new Agg(i, "CAST(min(TRY_CAST(split_part(" + t + ", '.', 1) AS HUGEINT)) AS VARCHAR)", (p, v) -> p.minInt = asBig(v)));
        aggs.add(new Agg(i, "CAST(max(TRY_CAST(split_part(" + t + ", '.', 1) AS HUGEINT)) AS VARCHAR)", (p, v) -> p.maxInt = asBig(v)));
        // PostgreSQL numeric on disk: 1-byte short varlena header + 2-byte header + 2 bytes per base-10000 digit.
        aggs.add(new Agg(i, "sum(3 + 2 * (ceil(strlen(" + intPart + ") / 4.0) + ceil(strlen(" + frac + ") / 4.0)))",
                (p, v) -> p.pgNumericBytes = asLong(v)));
    }

    private static void floatAggregates(int i, String s, List<Agg> aggs) {
        String d = "TRY_CAST(" + s + " AS DOUBLE)";
        aggs.add(new Agg(i, "count(" + s + ") - count(" + d + ")", (p, v) -> p.castFailures = asLong(v)));
        aggs.add(new Agg(i, "count(*) FILTER (WHERE CAST(CAST(" + d + " AS FLOAT) AS DOUBLE) = " + d + ")",
                (p, v) -> p.floatRoundTrip = asLong(v)));
        String integral = d + " = trunc(" + d + ") AND abs(" + d + ") < 9007199254740992";
        aggs.add(new Agg(i, "count(*) FILTER (WHERE " + integral + ")", (p, v) -> p.integral = asLong(v)));
        aggs.add(new Agg(i, "CAST(CAST(min(" + d + ") FILTER (WHERE " + integral + ") AS HUGEINT) AS VARCHAR)", (p, v) -> p.minInt = asBig(v)));
        aggs.add(new Agg(i, "CAST(CAST(max(" + d + ") FILTER (WHERE " + integral + ") AS HUGEINT) AS VARCHAR)", (p, v) -> p.maxInt = asBig(v)));
    }

    private static void temporalAggregates(int i, TypeFamily f, String s, List<Agg> aggs) {
        String cast = switch (f) {
            case DATE -> "TRY_CAST(" + s + " AS DATE)";
            case TIME -> "TRY_CAST(" + s + " AS TIME)";
            case YEAR -> "TRY_CAST(" + s + " AS INTEGER)";
            default -> "TRY_CAST(" + s + " AS TIMESTAMP)";
        };
        aggs.add(new Agg(i, "count(" + s + ") - count(" + cast + ")", (p, v) -> p.castFailures = asLong(v)));
        aggs.add(new Agg(i, "CAST(min(" + cast + ") AS VARCHAR)", (p, v) -> p.minTemporal = asString(v)));
        aggs.add(new Agg(i, "CAST(max(" + cast + ") AS VARCHAR)", (p, v) -> p.maxTemporal = asString(v)));
        if (f == TypeFamily.DATETIME || f == TypeFamily.TIMESTAMP) {
            aggs.add(new Agg(i, "count(*) FILTER (WHERE " + cast + " = date_trunc('day', " + cast + "))",
                    (p, v) -> p.midnight = asLong(v)));
        }
        if (f == TypeFamily.YEAR) {
            aggs.add(new Agg(i, "CAST(min(" + cast + ") AS VARCHAR)", (p, v) -> p.minInt = asBig(v)));
            aggs.add(new Agg(i, "CAST(max(" + cast + ") AS VARCHAR)", (p, v) -> p.maxInt = asBig(v)));
        }
    }

    /** Typed columns DuckDB read itself (CSV, Parquet, DuckDB files). */
    private static void nativeAggregates(int i, TypeFamily f, String c, List<Agg> aggs) {
        switch (f) {
            case FLOAT, DOUBLE -> floatAggregates(i, "CAST(" + c + " AS VARCHAR)", aggs);
            case DECIMAL -> decimalAggregates(i, "CAST(" + c + " AS VARCHAR)", aggs);
            case DATE, DATETIME, TIMESTAMP, TIME -> temporalAggregates(i, f, "CAST(" + c + " AS VARCHAR)", aggs);
            default -> {
            }
        }
    }

    private static String markerList() {
        StringBuilder sb = new StringBuilder();
        for (String m : NULL_MARKERS) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(ProfilingDatabase.literal(m));
        }
        return sb.toString();
    }

    static long asLong(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n instanceof BigDecimal bd ? bd.longValue() : n.longValue();
        }
        return Long.parseLong(v.toString());
    }

    static BigInteger asBig(Object v) {
        if (v == null) {
            return null;
        }
        return new BigInteger(v.toString());
    }

    static String asString(Object v) {
        return v == null ? null : v.toString();
    }
}

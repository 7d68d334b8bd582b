package dev.wastecheck.analyzer.check;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.load.ProfilingDatabase;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code analyze --sample} proves on the server before it reports: the profile and the
 * advice came from a random part of each table, so a value outside the sample could break a
 * suggested type. Each suggested type is checked against every row on the server with the
 * predicate the migration's own guard uses ({@link LiveDataGuard}: true for a value the new
 * type would not hold as it is); a column with any such row keeps its declared type, with the
 * count as the reason. "All NULL" and "constant" are checked the same way; the other
 * observations of the sample (duplicate columns, implicit ids) say that they rest on the
 * sample. One query per table, in the session's snapshot; only counts cross the wire.
 *
 * <p>Row counts, each column's NULLs and each integer column's range are the server's, exact;
 * sizes are the sample's scaled by the table's rows on the server over the rows the sample drew
 * (an estimate); distinct counts are the sample's.
 */
public final class SampleCheck {
    private SampleCheck() {}

    /**
     * @param defs      the tables' definitions, keyed by lower-case table name (as the report names them)
     * @param relations per {@link TableDef#key()}, the relation the sample was drawn from, as the server names it
     */
    public static AnalysisReport apply(
            AnalysisReport report,
            Map<String, TableDef> defs,
            Map<String, String> relations,
            Connection server,
            Dialect dialect,
            double percent,
            int seed)
            throws SQLException {
        Map<String, Long> profiled = new LinkedHashMap<>();
        int checked = 0;
        String share = share(percent);
        // 1. Per table, one query on the server: its exact row count, and per column the
        //    count of rows the suggested type would not hold, of non-NULL values (all-NULL),
        //    of distinct values (constant).
        Map<String, Long> serverRows = new HashMap<>();
        Map<String, String> why = new HashMap<>(); // "table.column", lower case -> why the suggestion goes
        Map<String, long[]> observed = new HashMap<>(); // -> {non-NULL, distinct} on the server
        Map<String, String[]> range = new HashMap<>(); // -> an integer column's {min, max} on the server
        for (TableReport t : report.tables()) {
            profiled.put(t.name(), t.rows());
            TableDef def = defs.get(t.name().toLowerCase(Locale.ROOT));
            String relation = def == null ? null : relations.get(def.key());
            if (def == null || relation == null) {
                continue;
            }
            List<String> aggs = new ArrayList<>();
            aggs.add("COUNT(*)");
            int n = t.columns().size();
            int[] typeAt = new int[n], nullAt = new int[n], constAt = new int[n], minAt = new int[n];
            for (int i = 0; i < n; i++) {
                typeAt[i] = nullAt[i] = constAt[i] = minAt[i] = -1;
                ColumnReport c = t.columns().get(i);
                int index = columnIndex(def, c.name());
                if (index < 0) continue;
                ColumnDef col = def.columns().get(index);
                String key = key(t, c);
                String q = dialect == Dialect.POSTGRESQL
                        ? ProfilingDatabase.quote(col.name())
                        : LiveDataGuard.mysqlName(col.name());
                if (!c.suggestedType().equals(c.declaredType())) {
                    String bad = null;
                    try {
                        // the suggestion itself is checked (boolean, not the integer tune may write instead)
                        Conversion v = Conversion.of(def, index, col, c, dialect, true);
                        bad = dialect == Dialect.POSTGRESQL
                                ? LiveDataGuard.postgres(
                                        v, q, col.type().family().isBinary() ? "convert_from(" + q + ", 'UTF8')" : q)
                                : LiveDataGuard.mysql(v, q);
                    } catch (Conversion.Unsupported e) {
                        why.put(key, "it cannot be checked on the server (" + e.getMessage() + ")");
                    }
                    if (bad != null) {
                        typeAt[i] = aggs.size();
                        aggs.add("SUM(CASE WHEN " + bad + " THEN 1 ELSE 0 END)");
                    }
                    checked++;
                }
                // every column's NULLs, and an integer's range, exactly (the report's figures then
                // are the server's, not the sample's)
                nullAt[i] = aggs.size();
                aggs.add("COUNT(" + q + ")");
                if (c.has(FindingKind.ALL_NULL) || c.has(FindingKind.CONSTANT)) {
                    checked++;
                }
                if (col.type().isInteger()) {
                    minAt[i] = aggs.size();
                    aggs.add(text("MIN(" + q + ")", dialect));
                    aggs.add(text("MAX(" + q + ")", dialect));
                }
                if (c.has(FindingKind.CONSTANT)) {
                    constAt[i] = aggs.size();
                    aggs.add("COUNT(DISTINCT " + q + ")");
                }
            }
            long[] v = new long[aggs.size()];
            String[] texts = new String[aggs.size()];
            try (Statement st = server.createStatement();
                    ResultSet rs = st.executeQuery("SELECT " + String.join(", ", aggs) + " FROM " + relation)) {
                rs.next();
                for (int k = 0; k < v.length; k++) {
                    texts[k] = rs.getString(k + 1);
                    v[k] = texts[k] == null || !texts[k].matches("-?\\d{1,18}") ? 0 : Long.parseLong(texts[k]);
                }
            }
            long rows = v[0];
            serverRows.put(t.name(), rows);
            for (int i = 0; i < n; i++) {
                ColumnReport c = t.columns().get(i);
                String key = key(t, c);
                if (typeAt[i] >= 0 && v[typeAt[i]] > 0) {
                    why.put(key, v[typeAt[i]] + " of the " + rows + " rows on the server do not fit it");
                } else if (t.rows() == 0 && rows > 0 && !c.suggestedType().equals(c.declaredType())) {
                    why.putIfAbsent(
                            key, "the sample drew none of the server's " + rows + (rows == 1 ? " row" : " rows"));
                }
                observed.put(
                        key, new long[] {nullAt[i] >= 0 ? v[nullAt[i]] : -1, constAt[i] >= 0 ? v[constAt[i]] : -1});
                if (minAt[i] >= 0) {
                    range.put(key, new String[] {texts[minAt[i]], texts[minAt[i] + 1]});
                }
            }
        }
        // 2. Columns that take one type together (a key and its references, a domain) keep or
        //    lose their suggestion together: a reference must never end up narrower than its key.
        for (List<String> group : report.domains()) {
            String failed = null;
            for (String member : group) {
                if (why.containsKey(member.toLowerCase(Locale.ROOT))) {
                    failed = member;
                    break;
                }
            }
            if (failed == null) continue;
            for (String member : group) {
                why.putIfAbsent(
                        member.toLowerCase(Locale.ROOT),
                        "it takes one type with " + failed + ", whose suggestion a row on the server contradicts");
            }
        }
        // 3. The report: withdrawn suggestions with their reason, observations the server
        //    contradicts dropped, sizes scaled to the server's rows.
        List<TableReport> out = new ArrayList<>();
        int withdrawn = 0;
        for (TableReport t : report.tables()) {
            Long counted = serverRows.get(t.name());
            if (counted == null) {
                out.add(t);
                continue;
            }
            long rows = counted;
            double scale = t.rows() == 0 ? 0 : (double) rows / t.rows();
            List<ColumnReport> cols = new ArrayList<>();
            for (ColumnReport c : t.columns()) {
                String key = key(t, c);
                long[] seen = observed.getOrDefault(key, new long[] {-1, -1});
                List<Finding> findings = new ArrayList<>();
                String suggested = c.suggestedType();
                long declared = Math.round(c.declaredBytes() * scale), tight = Math.round(c.tightBytes() * scale);
                boolean withdraw = why.containsKey(key) && !suggested.equals(c.declaredType());
                for (Finding f : c.findings()) {
                    if (withdraw && !f.kind().semantic() && !f.kind().note()) continue; // the change itself
                    if (f.kind() == FindingKind.ALL_NULL && seen[0] > 0) {
                        withdrawn++;
                        continue;
                    }
                    if (f.kind() == FindingKind.CONSTANT && (seen[1] > 1 || seen[0] != rows)) {
                        withdrawn++;
                        continue;
                    }
                    String detail = f.detail().replace("in this snapshot", "in the " + share + " sample");
                    if (f.kind() == FindingKind.ALL_NULL || f.kind() == FindingKind.CONSTANT) {
                        detail += "; every row on the server agrees";
                    } else if (f.kind().semantic()) {
                        detail += " (seen in the sample only, not checked against every row)";
                    }
                    findings.add(new Finding(f.kind(), detail, Math.round(f.bytes() * scale)));
                }
                if (withdraw) {
                    withdrawn++;
                    findings.add(
                            0,
                            new Finding(
                                    FindingKind.KEPT_DECLARED,
                                    "the " + share + " sample suggested " + suggested + ", but " + why.get(key)
                                            + ": the declared type stays",
                                    0));
                    suggested = c.declaredType();
                    tight = declared;
                }
                if (!withdraw && t.rows() == 0 && rows > 0 && suggested.equals(c.declaredType())) {
                    findings.add(
                            0,
                            new Finding(
                                    FindingKind.KEPT_DECLARED,
                                    "the " + share + " sample drew none of the server's " + rows
                                            + (rows == 1 ? " row" : " rows")
                                            + ": nothing to judge by, the declared type stays",
                                    0));
                }
                String[] minMax = range.getOrDefault(key, new String[] {c.min(), c.max()});
                cols.add(new ColumnReport(
                        c.name(),
                        c.declaredType(),
                        suggested,
                        declared,
                        tight,
                        seen[0] >= 0 ? rows - seen[0] : c.nulls(),
                        c.distinct(),
                        minMax[0],
                        minMax[1],
                        findings,
                        c.distinctEstimated()));
            }
            long tableDeclared = Math.round(t.declaredBytes() * scale);
            long columnsSaved =
                    cols.stream().mapToLong(ColumnReport::wastedBytes).sum();
            out.add(new TableReport(
                    t.name(),
                    rows,
                    tableDeclared,
                    Math.max(0, tableDeclared - columnsSaved),
                    cols,
                    t.badRows(),
                    t.badValues(),
                    t.problems(),
                    t.partitionOf(),
                    t.badValuesByColumn()));
        }
        List<String> warnings = new ArrayList<>();
        warnings.add("analyzed a " + share + " random sample of each table's rows (seed " + seed + "): " + checked
                + " suggested types and observations were checked against every row on the server and " + withdrawn
                + " withdrawn; sizes are the sample's scaled to the server's row counts");
        if (report.workload() != null) {
            warnings.add("the trace was matched against the sampled rows: page hot-density and the hot rows found"
                    + " are the sample's (most hot rows are not in it); column use, skew and index-cache fields are the"
                    + " trace's own");
        }
        return report.withSample(out, warnings, new AnalysisReport.Sample(percent, seed, profiled, checked, withdrawn));
    }

    /** An aggregate read back as text in the server's own spelling. */
    private static String text(String aggregate, Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? aggregate + "::text" : "CAST(" + aggregate + " AS CHAR)";
    }

    private static String key(TableReport t, ColumnReport c) {
        return (t.name() + "." + c.name()).toLowerCase(Locale.ROOT);
    }

    private static int columnIndex(TableDef def, String name) {
        for (int i = 0; i < def.columns().size(); i++) {
            if (def.columns().get(i).name().equalsIgnoreCase(name)) return i;
        }
        return -1;
    }

    /** "10%", "0.5%". */
    static String share(double percent) {
        return BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString() + "%";
    }
}

package dev.wastecheck.cli.render;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Bytes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What every renderer orders the same way: the largest waste first. */
final class ReportFacts {
    private ReportFacts() {}

    record Col(TableReport table, ColumnReport column) {
        String qualified() {
            return table.name() + "." + column.name();
        }
    }

    static List<Col> columnsByWaste(AnalysisReport r) {
        List<Col> out = new ArrayList<>();
        for (TableReport t : r.tables()) {
            for (ColumnReport c : t.columns()) {
                if (c.wastedBytes() > 0) {
                    out.add(new Col(t, c));
                }
            }
        }
        out.sort(Comparator.comparingLong((Col c) -> c.column().wastedBytes())
                .reversed()
                .thenComparing(Col::qualified));
        return out;
    }

    record Semantic(Col col, Finding finding) {}

    static List<Semantic> semanticFindings(AnalysisReport r) {
        List<Semantic> out = new ArrayList<>();
        for (TableReport t : r.tables()) {
            for (ColumnReport c : t.columns()) {
                for (Finding f : c.findings()) {
                    if (f.kind().semantic()) {
                        out.add(new Semantic(new Col(t, c), f));
                    }
                }
            }
        }
        out.sort(Comparator.comparingLong((Semantic s) -> s.finding().bytes())
                .reversed()
                .thenComparing(s -> s.col().qualified()));
        return out;
    }

    static Map<String, Integer> findingCounts(AnalysisReport r) {
        Map<String, Integer> counts = new TreeMap<>();
        for (TableReport t : r.tables()) {
            for (ColumnReport c : t.columns()) {
                for (Finding f : c.findings()) {
                    counts.merge(f.kind().key(), 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    static List<TableReport> tablesByWaste(AnalysisReport r) {
        List<TableReport> t = new ArrayList<>(r.tables());
        t.sort(Comparator.comparingLong(TableReport::wastedBytes).reversed().thenComparing(TableReport::name));
        return t;
    }

    /** {@code 1 table}, {@code 2 tables}: a count with its noun. */
    static String count(long n, String singular, String plural) {
        return Bytes.count(n) + " " + (n == 1 ? singular : plural);
    }

    static String count(long n, String singular) {
        return count(n, singular, singular + "s");
    }
}

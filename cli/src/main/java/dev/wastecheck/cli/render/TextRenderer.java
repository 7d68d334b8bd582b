package dev.wastecheck.cli.render;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Bytes;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The terminal report: one screen, largest waste first; the other formats have every column. */
public final class TextRenderer {
    private TextRenderer() {
    }

    public static void write(AnalysisReport r, PrintWriter w, int top) {
        w.printf("wastecheck analyze: %d tables, %s rows, %s (%s), %.1f s%n", r.tables().size(), Bytes.count(r.rows()),
                r.sources().size() == 1 ? r.sources().get(0) : r.sources().size() + " files", r.dialect(), r.elapsedMillis() / 1000.0);
        w.printf("declared %s, tight %s: %s wasted (%s) in column encodings%n", Bytes.human(r.declaredBytes()),
                Bytes.human(r.tightBytes()), Bytes.human(r.wastedBytes()), Bytes.percent(r.wastedBytes(), r.declaredBytes()));
        w.printf("evidence: %s%n%n", r.basis());

        List<ReportFacts.Col> cols = ReportFacts.columnsByWaste(r);
        if (cols.isEmpty()) {
            w.println("No column is wider than its values need.");
        } else {
            int nameW = Math.min(40, Math.max(6, cols.stream().limit(top).mapToInt(c -> c.qualified().length()).max().orElse(6)));
            int typeW = Math.min(44, Math.max(8, cols.stream().limit(top).mapToInt(c -> (c.column().declaredType()
                    + " -> " + c.column().suggestedType()).length()).max().orElse(8)));
            w.printf("%-" + nameW + "s  %-" + typeW + "s  %10s  %5s  %s%n", "column", "declared -> suggested", "saves", "", "why");
            for (ReportFacts.Col c : cols.subList(0, Math.min(top, cols.size()))) {
                String types = c.column().declaredType() + " -> " + c.column().suggestedType();
                String why = c.column().findings().isEmpty() ? "" : c.column().findings().get(0).kind().key();
                w.printf("%-" + nameW + "s  %-" + typeW + "s  %10s  %5s  %s%n", cut(c.qualified(), nameW), cut(types, typeW),
                        Bytes.human(c.column().wastedBytes()), Bytes.percent(c.column().wastedBytes(), c.column().declaredBytes()), why);
            }
            if (cols.size() > top) {
                w.printf("... and %d more columns (--top N, or --format markdown|json for all)%n", cols.size() - top);
            }
        }

        List<ReportFacts.Semantic> semantic = ReportFacts.semanticFindings(r);
        if (!semantic.isEmpty()) {
            w.println();
            w.println("Observations about this snapshot (not advice to drop a column):");
            for (ReportFacts.Semantic s : semantic.subList(0, Math.min(10, semantic.size()))) {
                w.printf("  %-16s %s: %s%n", s.finding().kind().key(), s.col().qualified(), s.finding().detail());
            }
            if (semantic.size() > 10) {
                w.printf("  ... and %d more%n", semantic.size() - 10);
            }
        }

        notes(r, w);

        w.println();
        List<TableReport> tables = ReportFacts.tablesByWaste(r);
        int tw = Math.min(32, Math.max(5, tables.stream().limit(10).mapToInt(t -> t.name().length()).max().orElse(5)));
        w.printf("%-" + tw + "s  %12s  %10s  %10s  %6s%n", "table", "rows", "declared", "tight", "waste");
        for (TableReport t : tables.subList(0, Math.min(10, tables.size()))) {
            w.printf("%-" + tw + "s  %12s  %10s  %10s  %6s%n", cut(t.name(), tw), Bytes.count(t.rows()), Bytes.human(t.declaredBytes()),
                    Bytes.human(t.tightBytes()), Bytes.percent(t.wastedBytes(), t.declaredBytes()));
        }
        if (tables.size() > 10) {
            w.printf("... and %d more tables%n", tables.size() - 10);
        }

        if (r.workload() != null) {
            workload(r, w);
        }

        Map<String, Integer> counts = ReportFacts.findingCounts(r);
        if (!counts.isEmpty()) {
            w.println();
            w.println("findings: " + counts.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
        }
        long badRows = r.tables().stream().mapToLong(TableReport::badRows).sum();
        long badValues = r.tables().stream().mapToLong(TableReport::badValues).sum();
        if (badRows + badValues > 0) {
            w.println();
            w.printf("%d bad rows and %d bad values were counted, not dropped silently:%n", badRows, badValues);
            r.tables().stream().flatMap(t -> t.problems().stream().map(p -> t.name() + ": " + p)).limit(10)
                    .forEach(p -> w.println("  " + p));
        }
        if (!r.warnings().isEmpty()) {
            w.println();
            w.println("warnings:");
            r.warnings().stream().limit(10).forEach(x -> w.println("  " + x));
            if (r.warnings().size() > 10) {
                w.printf("  ... and %d more (--format json lists them all)%n", r.warnings().size() - 10);
            }
        }
        if (r.wastedBytes() > 0 && !r.dialect().equals("sqlite")) {
            w.println();
            String args = r.sources().stream().map(x -> x.matches("[\\w./:+-]+") ? x : "'" + x.replace("'", "'\\''") + "'")
                    .collect(Collectors.joining(" "));
            w.println("wastecheck tune " + args + " writes the migration, each change checked on every row.");
        }
    }

    /** How many columns refer to keys, and why the declared types stay where they do. */
    private static void notes(AnalysisReport r, PrintWriter w) {
        if (!r.references().isEmpty()) {
            Map<String, Long> by = r.references().stream().collect(Collectors.groupingBy(x -> x.evidence().name().toLowerCase(),
                    java.util.TreeMap::new, Collectors.counting()));
            long keys = r.references().stream().map(x -> x.to().toLowerCase()).distinct().count();
            w.println();
            w.printf("references: %d columns refer to %d keys (%s); each takes its key's type, and they change together%n",
                    r.references().size(), keys, by.entrySet().stream().map(e -> (e.getKey().equals("declared") ? "declared"
                            : "by " + e.getKey()) + " " + e.getValue()).collect(Collectors.joining(", ")));
        }
        Map<String, Long> kept = new java.util.TreeMap<>();
        for (TableReport t : r.tables()) {
            for (var c : t.columns()) {
                for (var f : c.findings()) {
                    if (f.kind() == dev.wastecheck.analyzer.report.FindingKind.KEPT_DECLARED) {
                        kept.merge(keptReason(f.detail()), 1L, Long::sum);
                    }
                }
            }
        }
        if (!kept.isEmpty()) {
            w.printf("kept as declared: %d columns (%s); --format json says why for each%n", kept.values().stream().mapToLong(x -> x).sum(),
                    kept.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
        }
    }

    private static String keptReason(String detail) {
        if (detail.startsWith("too little evidence")) {
            return "too little evidence";
        }
        if (detail.contains("--key-floor")) {
            return "key floor";
        }
        if (detail.startsWith("a counter")) {
            return "counters";
        }
        if (detail.contains("identifier written with digits") || detail.contains("fixed-width code")) {
            return "identifiers held as text";
        }
        if (detail.contains("free text") || detail.contains("part of a key") || detail.contains("no ENUM")) {
            return "no closed domain";
        }
        if (detail.contains("payload")) {
            return "payloads";
        }
        if (detail.contains("run out")) {
            return "growth rate";
        }
        return "other";
    }

    private static void workload(AnalysisReport r, PrintWriter w) {
        w.println();
        for (var t : r.workload().traces()) {
            w.printf("trace %s (%s): %s statements, %s resolved, %s unresolved, %s accesses%n", t.file(), t.format(),
                    Bytes.count(t.statements()), Bytes.count(t.resolved()), Bytes.count(t.unresolvedCount()), Bytes.count(t.events()));
            t.unresolved().stream().limit(3).forEach(u -> w.println("  unresolved: " + u));
        }
        w.printf("%-20s %10s %7s %7s %7s %9s %10s %12s%n", "table", "accesses", "top1%", "top5%", "top10%", "hot rows",
                "page hot", "hot part.");
        w.println("(top N%: share of keyed accesses on the hottest N% of rows; page hot: share of hot rows on pages holding any,"
                + " in the dump's order; hot part.: a partition of the rows taking 90% of accesses, with its index)");
        r.workload().access().entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue().events(), a.getValue().events())).limit(10)
                .forEach(e -> {
                    var a = e.getValue();
                    String density = a.hotRowsPlaced() > 0 ? String.format("%9.1f%%", 100 * a.pageHotDensity()) : "         -";
                    w.printf("%-20s %10s %6.1f%% %6.1f%% %6.1f%% %9s %s %12s%n", cut(e.getKey(), 20), Bytes.count(a.events()),
                            100 * a.shareTop1(), 100 * a.shareTop5(), 100 * a.shareTop10(), Bytes.count(a.hotRows()),
                            density, Bytes.human(a.hotBytes() + a.hotIndexBytes()));
                });
        for (var ia : r.workload().indexes()) {
            if (ia.cacheableFields().isEmpty()) {
                continue;
            }
            w.printf("cache in %s.%s (%s): %s%n", ia.table(), ia.index(), String.join(",", ia.columns()),
                    ia.cacheableFields().stream().map(f -> String.format("%s (%.0f%% answered)", f.column(), 100 * f.answerableShare()))
                            .collect(Collectors.joining(", ")));
        }
    }

    private static String cut(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "~";
    }
}

package dev.wastecheck.cli.render;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TraceSummary;
import dev.wastecheck.model.Bytes;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The terminal report: one screen, largest waste first; the other formats have every column. */
public final class TextRenderer {
    private TextRenderer() {}

    /** The report at 80 columns. */
    public static void write(AnalysisReport r, PrintWriter w, int top) {
        write(r, w, top, 80);
    }

    /**
     * The report with no line wider than {@code width}: tables narrow their text columns and wrap
     * them, sentences wrap with a hanging indent; no type or name is cut short.
     */
    public static void write(AnalysisReport r, PrintWriter w, int top, int width) {
        Wrap.print(
                w,
                String.format(
                        "wastecheck analyze: %s, %s, %s (%s), %.1f s",
                        ReportFacts.count(r.tables().size(), "table"),
                        ReportFacts.count(r.rows(), "row"),
                        r.sources().size() == 1
                                ? r.sources().get(0)
                                : r.sources().size() + " files",
                        r.dialect(),
                        r.elapsedMillis() / 1000.0),
                width,
                "",
                "  ");
        Wrap.print(
                w,
                String.format(
                        "declared %s, tight %s: %s wasted (%s) in column encodings",
                        Wrap.together(Bytes.human(r.declaredBytes())),
                        Wrap.together(Bytes.human(r.tightBytes())),
                        Wrap.together(Bytes.human(r.wastedBytes())),
                        Bytes.percent(r.wastedBytes(), r.declaredBytes())),
                width,
                "",
                "  ");
        Wrap.print(w, "evidence: " + r.basis(), width, "", "  ");
        w.println();

        List<ReportFacts.Col> cols = ReportFacts.columnsByWaste(r);
        if (cols.isEmpty()) {
            w.println("No column is wider than its values need.");
        } else {
            List<ReportFacts.Col> shown = cols.subList(0, Math.min(top, cols.size()));
            TextTable t = new TextTable()
                    .text("column")
                    .text("declared -> suggested")
                    .number("saves")
                    .number("")
                    .word("why");
            for (ReportFacts.Col c : shown) {
                t.row(c.qualified(), types(c), saves(c), share(c), why(c));
            }
            if (!t.fits(width)) {
                // a narrow terminal: the types go on a line of their own under each column, whole
                t = new TextTable()
                        .text("column")
                        .number("saves")
                        .number("")
                        .word("why")
                        .note("declared -> suggested");
                for (ReportFacts.Col c : shown) {
                    t.row(c.qualified(), saves(c), share(c), why(c)).note(types(c));
                }
            }
            t.print(w, width);
            if (cols.size() > top) {
                Wrap.print(
                        w,
                        String.format(
                                "... and %s (--top N, or --format markdown|json for all)",
                                ReportFacts.count(cols.size() - top, "more column")),
                        width,
                        "",
                        "    ");
            }
        }

        List<ReportFacts.Semantic> semantic = ReportFacts.semanticFindings(r);
        if (!semantic.isEmpty()) {
            w.println();
            w.println("Observations about this snapshot (not advice to drop a column):");
            for (ReportFacts.Semantic s : semantic.subList(0, Math.min(10, semantic.size()))) {
                Wrap.print(
                        w,
                        String.format(
                                "%-16s %s: %s",
                                s.finding().kind().key(),
                                s.col().qualified(),
                                s.finding().detail()),
                        width,
                        "  ",
                        "    ");
            }
            if (semantic.size() > 10) {
                w.printf("  ... and %d more%n", semantic.size() - 10);
            }
        }

        notes(r, w, width);

        w.println();
        List<TableReport> tables = ReportFacts.tablesByWaste(r);
        TextTable tt = new TextTable()
                .text("table")
                .number("rows")
                .number("declared")
                .number("tight")
                .number("waste");
        // a live source: what the server measures for the table, beside the model's value bytes
        boolean server = !r.serverBytes().isEmpty();
        // and with pgstattuple, what it holds beyond the rows: dead tuples and free space in its pages
        boolean space = !r.serverSpace().isEmpty();
        if (server) {
            tt.number("on server");
        }
        if (space) {
            tt.number("dead+free");
        }
        for (TableReport t : tables.subList(0, Math.min(10, tables.size()))) {
            String key = t.name().toLowerCase(Locale.ROOT);
            Long measured = r.serverBytes().get(key);
            AnalysisReport.ServerSpace s = r.serverSpace().get(key);
            List<String> cells = new ArrayList<>(List.of(
                    t.name(),
                    Bytes.count(t.rows()),
                    Bytes.human(t.declaredBytes()),
                    Bytes.human(t.tightBytes()),
                    Bytes.percent(t.wastedBytes(), t.declaredBytes())));
            if (server) {
                cells.add(measured == null ? "-" : Bytes.human(measured));
            }
            if (space) {
                cells.add(s == null ? "-" : Bytes.human(s.deadBytes() + s.freeBytes()));
            }
            tt.row(cells.toArray(new String[0]));
        }
        tt.print(w, width);
        if (tables.size() > 10) {
            w.printf("... and %d more tables%n", tables.size() - 10);
        }
        SpaceText.print(r, w, width); // indexes, free and dead space, the account

        if (r.workload() != null) {
            workload(r, w, width);
        }

        if (!r.indexFindings().isEmpty()) {
            w.println();
            w.println("indexes:");
            for (IndexFinding f : r.indexFindings()) {
                Wrap.print(
                        w,
                        f.table() + "." + f.index() + " (" + String.join(", ", f.columns()) + "): "
                                + f.kind().key()
                                + (f.bytes() >= 0 ? ", " + Bytes.human(f.bytes()) + " " + f.bytesBasis() : "")
                                + ": " + f.detail(),
                        width,
                        "  ",
                        "    ");
            }
        }

        Map<String, Integer> counts = ReportFacts.findingCounts(r);
        if (!counts.isEmpty()) {
            w.println();
            Wrap.print(
                    w,
                    "findings: "
                            + counts.entrySet().stream()
                                    .map(e -> e.getKey() + Wrap.NBSP + e.getValue())
                                    .collect(Collectors.joining(", ")),
                    width,
                    "",
                    "  ");
        }
        long badRows = r.tables().stream().mapToLong(TableReport::badRows).sum();
        long badValues = r.tables().stream().mapToLong(TableReport::badValues).sum();
        if (badRows + badValues > 0) {
            w.println();
            Wrap.print(
                    w,
                    String.format(
                            "%s and %s were counted, not dropped silently:",
                            ReportFacts.count(badRows, "bad row"), ReportFacts.count(badValues, "bad value")),
                    width);
            r.tables().stream()
                    .flatMap(t -> t.problems().stream().map(p -> t.name() + ": " + p))
                    .limit(10)
                    .forEach(p -> Wrap.print(w, p, width, "  ", "    "));
        }
        if (!r.warnings().isEmpty()) {
            w.println();
            w.println("warnings:");
            r.warnings().stream().limit(10).forEach(x -> Wrap.print(w, x, width, "  ", "    "));
            if (r.warnings().size() > 10) {
                w.printf(
                        "  ... and %d more (--format json lists them all)%n",
                        r.warnings().size() - 10);
            }
        }
        String next = nextStep(r);
        if (next != null) {
            w.println();
            Wrap.print(w, next, width);
        }
    }

    /**
     * The command that writes the migration for what this report found, or null when there is
     * nothing to migrate (or the source's engine has no migration). Standard input cannot be named
     * again: the same input piped to {@code tune -} is.
     */
    static String nextStep(AnalysisReport r) {
        if (r.wastedBytes() <= 0 || r.dialect().equals("sqlite") || r.dialect().equals("trino")) {
            return null;
        }
        boolean stdin = r.sources().contains("<stdin>");
        String args = r.sources().stream()
                .map(x ->
                        x.equals("<stdin>") ? "-" : x.matches("[\\w./:+-]+") ? x : "'" + x.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        return "wastecheck tune " + args + " writes the migration, each change checked on every row"
                + (stdin ? " (give it the same input on standard input)." : ".");
    }

    /** How many columns refer to keys, and why the declared types stay where they do. */
    private static void notes(AnalysisReport r, PrintWriter w, int width) {
        String refs = referencesLine(r);
        if (refs != null) {
            w.println();
            Wrap.print(w, refs, width, "", "  ");
        }
        String kept = keptLine(r);
        if (kept != null) {
            Wrap.print(w, kept, width, "", "  ");
        }
        List<String> tune = tuneNotes(r);
        if (!tune.isEmpty()) {
            w.println();
            w.println("What tune's migration does differently (its report says the same):");
            tune.stream().limit(10).forEach(l -> Wrap.print(w, l, width, "  ", "    "));
            if (tune.size() > 10) {
                w.printf("  ... and %d more (--format json lists them as tune_note)%n", tune.size() - 10);
            }
        }
    }

    /** Each suggestion tune alters or leaves out by itself, with why ({@code tune_note}). */
    static List<String> tuneNotes(AnalysisReport r) {
        List<String> out = new ArrayList<>();
        for (TableReport t : r.tables()) {
            for (ColumnReport c : t.columns()) {
                c.findings().stream()
                        .filter(f -> f.kind() == FindingKind.TUNE_NOTE)
                        .forEach(f -> out.add(t.name() + "." + c.name() + " " + c.declaredType() + " ->" + Wrap.NBSP
                                + c.suggestedType() + ": " + f.detail()));
            }
        }
        return out;
    }

    /** "references: 3 columns refer to 2 keys (...)", or null when no column refers to a key. */
    static String referencesLine(AnalysisReport r) {
        if (r.references().isEmpty()) {
            return null;
        }
        Map<String, Long> by = r.references().stream()
                .collect(Collectors.groupingBy(
                        x -> x.evidence().name().toLowerCase(), TreeMap::new, Collectors.counting()));
        long keys = r.references().stream()
                .map(x -> x.to().toLowerCase())
                .distinct()
                .count();
        int n = r.references().size();
        return String.format(
                "references: %s %s to %s (%s); each takes its key's type, and they change together",
                ReportFacts.count(n, "column"),
                n == 1 ? "refers" : "refer",
                ReportFacts.count(keys, "key"),
                by.entrySet().stream()
                        .map(e ->
                                (e.getKey().equals("declared") ? "declared" : "by " + e.getKey()) + " " + e.getValue())
                        .collect(Collectors.joining(", ")));
    }

    /** "kept as declared: 4 columns (too little evidence 3, counters 1); ...", or null when none was. */
    static String keptLine(AnalysisReport r) {
        Map<String, Long> kept = new TreeMap<>();
        for (TableReport t : r.tables()) {
            for (var c : t.columns()) {
                for (var f : c.findings()) {
                    if (f.kind() == FindingKind.KEPT_DECLARED) {
                        kept.merge(keptReason(f.detail()), 1L, Long::sum);
                    }
                }
            }
        }
        if (kept.isEmpty()) {
            return null;
        }
        return String.format(
                "kept as declared: %s (%s); --format json says why for each",
                ReportFacts.count(kept.values().stream().mapToLong(x -> x).sum(), "column"),
                kept.entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", ")));
    }

    /** One line per index with fields worth caching in its leaves ("No Bits Left Behind" §2.1.2). */
    static List<String> cacheLines(AnalysisReport r) {
        List<String> out = new ArrayList<>();
        if (r.workload() == null) {
            return out;
        }
        for (var ia : r.workload().indexes()) {
            if (ia.cacheableFields().isEmpty()) {
                continue;
            }
            out.add(String.format(
                    "cache in %s.%s (%s): %s",
                    ia.table(),
                    ia.index(),
                    String.join(",", ia.columns()),
                    ia.cacheableFields().stream()
                            .map(f -> String.format("%s (%.0f%% answered)", f.column(), 100 * f.answerableShare()))
                            .collect(Collectors.joining(", "))));
        }
        return out;
    }

    /** "trace FILE (format): N statements, ..." per trace read. */
    static String traceLine(TraceSummary t) {
        return String.format(
                "trace %s (%s): %s statements, %s resolved, %s unresolved, %s accesses",
                t.file(),
                t.format(),
                Bytes.count(t.statements()),
                Bytes.count(t.resolved()),
                Bytes.count(t.unresolvedCount()),
                Bytes.count(t.events()));
    }

    private static String keptReason(String detail) {
        if (detail.contains("% sample suggested")) {
            return "contradicted on the server";
        }
        if (detail.contains("% sample drew none")) {
            return "not in the sample";
        }
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

    private static String types(ReportFacts.Col c) {
        return c.column().declaredType() + " ->" + Wrap.NBSP + c.column().suggestedType();
    }

    private static String saves(ReportFacts.Col c) {
        return Bytes.human(c.column().wastedBytes());
    }

    private static String share(ReportFacts.Col c) {
        return Bytes.percent(c.column().wastedBytes(), c.column().declaredBytes());
    }

    private static String why(ReportFacts.Col c) {
        return c.column().findings().isEmpty()
                ? ""
                : c.column().findings().get(0).kind().key();
    }

    private static void workload(AnalysisReport r, PrintWriter w, int width) {
        w.println();
        for (var t : r.workload().traces()) {
            Wrap.print(w, traceLine(t), width, "", "  ");
            t.unresolved().stream().limit(3).forEach(u -> Wrap.print(w, "unresolved: " + u, width, "  ", "    "));
        }
        TextTable tt = new TextTable()
                .text("table")
                .number("accesses")
                .number("top1%")
                .number("top5%")
                .number("top10%")
                .number("hot rows")
                .number("page hot")
                .number("hot part.");
        r.workload().access().entrySet().stream()
                .sorted((a, b) ->
                        Long.compare(b.getValue().events(), a.getValue().events()))
                .limit(10)
                .forEach(e -> {
                    var a = e.getValue();
                    tt.row(
                            e.getKey(),
                            Bytes.count(a.events()),
                            pct(a.shareTop1()),
                            pct(a.shareTop5()),
                            pct(a.shareTop10()),
                            Bytes.count(a.hotRows()),
                            a.hotRowsPlaced() > 0 ? pct(a.pageHotDensity()) : "-",
                            Bytes.human(a.hotBytes() + a.hotIndexBytes()));
                });
        tt.print(w, width);
        Wrap.print(
                w,
                "(top N%: share of keyed accesses on the hottest N% of rows; page hot: share of hot rows on pages holding any,"
                        + " in the dump's order; hot part.: a partition of the rows taking 90% of accesses, with its index)",
                width,
                "",
                " ");
        for (String line : cacheLines(r)) {
            Wrap.print(w, line, width, "", "  ");
        }
    }

    private static String pct(double share) {
        return String.format("%.1f%%", 100 * share);
    }
}

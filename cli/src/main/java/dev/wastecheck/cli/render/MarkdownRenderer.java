package dev.wastecheck.cli.render;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.IndexSpace;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import dev.wastecheck.model.Bytes;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.stream.Collectors;

/** The Markdown report: every table and column, for pull requests and wikis. */
public final class MarkdownRenderer {
    private MarkdownRenderer() {}

    public static void write(AnalysisReport r, PrintWriter w) {
        w.println("# wastecheck analyze");
        w.println();
        w.printf(
                "%s, %s, dialect %s. Declared **%s**, tight **%s**: **%s wasted (%s)** in column encodings.%n",
                ReportFacts.count(r.tables().size(), "table"),
                ReportFacts.count(r.rows(), "row"),
                r.dialect(),
                Bytes.human(r.declaredBytes()),
                Bytes.human(r.tightBytes()),
                Bytes.human(r.wastedBytes()),
                Bytes.percent(r.wastedBytes(), r.declaredBytes()));
        w.println();
        w.println("Sources: " + r.sources().stream().map(s -> "`" + s + "`").collect(Collectors.joining(", ")));
        w.println();
        w.println("| table | rows | declared | tight | waste |");
        w.println("|---|---:|---:|---:|---:|");
        for (TableReport t : ReportFacts.tablesByWaste(r)) {
            w.printf(
                    "| %s | %s | %s | %s | %s |%n",
                    esc(t.name()),
                    Bytes.count(t.rows()),
                    Bytes.human(t.declaredBytes()),
                    Bytes.human(t.tightBytes()),
                    Bytes.percent(t.wastedBytes(), t.declaredBytes()));
        }
        for (TableReport t : ReportFacts.tablesByWaste(r)) {
            w.println();
            w.printf("## %s%n%n", esc(t.name()));
            w.printf(
                    "%s rows; declared %s, tight %s.%s%n%n",
                    Bytes.count(t.rows()),
                    Bytes.human(t.declaredBytes()),
                    Bytes.human(t.tightBytes()),
                    t.partitionOf() == null ? "" : " Partition of " + esc(t.partitionOf()) + ".");
            w.println("| column | declared | suggested | declared bytes | tight bytes | nulls | distinct | findings |");
            w.println("|---|---|---|---:|---:|---:|---:|---|");
            for (ColumnReport c : t.columns()) {
                String findings =
                        c.findings().stream().map(MarkdownRenderer::finding).collect(Collectors.joining("<br>"));
                w.printf(
                        "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        esc(c.name()),
                        esc(c.declaredType()),
                        c.suggestedType().equals(c.declaredType()) ? "" : "**" + esc(c.suggestedType()) + "**",
                        Bytes.count(c.declaredBytes()),
                        Bytes.count(c.tightBytes()),
                        Bytes.count(c.nulls()),
                        (c.distinctEstimated() ? "~" : "") + Bytes.count(c.distinct()),
                        findings);
            }
            TableSpace space = r.space().get(t.name().toLowerCase(Locale.ROOT));
            if (space != null) {
                spaceAccount(w, t, space);
            }
            if (!t.problems().isEmpty()) {
                w.println();
                w.printf("%d bad rows, %d bad values:%n%n", t.badRows(), t.badValues());
                t.problems().forEach(p -> w.println("- " + esc(p)));
            }
        }
        if (r.workload() != null) {
            workload(r, w);
        }
        if (!r.indexFindings().isEmpty()) {
            indexes(r, w);
        }
        if (!r.warnings().isEmpty()) {
            w.println();
            w.println("## Warnings");
            w.println();
            r.warnings().forEach(x -> w.println("- " + esc(x)));
        }
    }

    /** The table's account and its indexes (docs/analyze.md, "Space outside the columns"). */
    private static void spaceAccount(PrintWriter w, TableReport t, TableSpace s) {
        TableSpace.Account a = s.account(t);
        w.println();
        w.printf(
                "Space: %s tight + %s encoding waste + %s row overhead + %s indexes + %s free + %s dead = %s%s (%s).%n",
                Bytes.human(a.tightBytes()),
                Bytes.human(a.encodingWasteBytes()),
                Bytes.human(a.rowOverheadBytes()),
                Bytes.human(a.indexBytes()),
                Bytes.human(a.freeBytes()),
                Bytes.human(a.deadBytes()),
                Bytes.human(a.totalBytes()),
                s.engineBytes() > 0 ? "; the engine reports " + Bytes.human(s.engineBytes()) : "",
                esc(s.method()));
        if (!s.indexes().isEmpty()) {
            w.println();
            w.println("| index | columns | predicted | tight | measured | free | use |");
            w.println("|---|---|---:|---:|---:|---:|---|");
            for (IndexSpace ix : s.indexes()) {
                w.printf(
                        "| %s | %s | %s | %s | %s | %s | %s |%n",
                        esc(ix.name()),
                        esc(String.join(", ", ix.columns())),
                        ix.predictedBytes() < 0 ? "-" : Bytes.human(ix.predictedBytes()),
                        ix.tightBytes() < 0 ? "-" : Bytes.human(ix.tightBytes()),
                        ix.measuredBytes() < 0 ? "-" : Bytes.human(ix.measuredBytes()),
                        ix.freeBytes() < 0 ? "-" : Bytes.human(ix.freeBytes()),
                        ix.use().name().toLowerCase(Locale.ROOT));
            }
        }
        s.findings().stream()
                .filter(f -> f.kind() != FindingKind.SPACE_ACCOUNT)
                .forEach(f -> w.println("- " + f.kind().key() + ": " + esc(f.detail())));
    }

    /**
     * The redundant, unused and low-cardinality indexes, as the text report's "indexes:" lists them:
     * what dropping each frees (measured, or the storage model's prediction for a dump) and why.
     */
    private static void indexes(AnalysisReport r, PrintWriter w) {
        w.println();
        w.println("## Indexes");
        w.println();
        w.println("| index | columns | finding | bytes | basis | predicted | covered by | why |");
        w.println("|---|---|---|---:|---|---:|---|---|");
        for (IndexFinding f : r.indexFindings()) {
            w.printf(
                    "| %s.%s | %s | `%s` | %s | %s | %s | %s | %s |%n",
                    esc(f.table()),
                    esc(f.index()),
                    esc(String.join(", ", f.columns())),
                    f.kind().key(),
                    f.bytes() < 0 ? "-" : Bytes.human(f.bytes()),
                    f.bytes() < 0 ? "unknown" : esc(f.bytesBasis()),
                    f.predictedBytes() < 0 ? "-" : Bytes.human(f.predictedBytes()),
                    f.coveredBy() == null ? "" : esc(f.coveredBy()),
                    esc(f.detail()));
        }
    }

    private static void workload(AnalysisReport r, PrintWriter w) {
        w.println();
        w.println("## Workload");
        w.println();
        for (var t : r.workload().traces()) {
            w.printf(
                    "Trace `%s` (%s): %s statements, %s resolved, %s unresolved, %s accesses.%n",
                    t.file(),
                    t.format(),
                    Bytes.count(t.statements()),
                    Bytes.count(t.resolved()),
                    Bytes.count(t.unresolvedCount()),
                    Bytes.count(t.events()));
            t.unresolved().forEach(u -> w.println("- unresolved: " + esc(u)));
        }
        w.println();
        w.println(
                "| table | accesses | hottest 1% | hottest 5% | hottest 10% | hot rows | page hot-density | hot partition + index |");
        w.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        r.workload()
                .access()
                .forEach((table, a) -> w.printf(
                        "| %s | %s | %.1f%% | %.1f%% | %.1f%% | %s | %s | %s |%n",
                        esc(table),
                        Bytes.count(a.events()),
                        100 * a.shareTop1(),
                        100 * a.shareTop5(),
                        100 * a.shareTop10(),
                        Bytes.count(a.hotRows()),
                        a.hotRowsPlaced() > 0 ? String.format("%.1f%%", 100 * a.pageHotDensity()) : "n/a",
                        Bytes.human(a.hotBytes() + a.hotIndexBytes())));
        w.println();
        w.println("| index | columns | queries | fields to cache (share answered, cumulative) | left out |");
        w.println("|---|---|---:|---|---|");
        for (var ia : r.workload().indexes()) {
            w.printf(
                    "| %s.%s | %s | %s | %s | %s |%n",
                    esc(ia.table()),
                    esc(ia.index()),
                    esc(String.join(", ", ia.columns())),
                    Bytes.count(ia.queries()),
                    ia.cacheableFields().stream()
                            .map(f -> String.format("%s (%.0f%%)", esc(f.column()), 100 * f.answerableShare()))
                            .collect(Collectors.joining(", ")),
                    esc(String.join("; ", ia.leftOut())));
        }
    }

    private static String finding(Finding f) {
        return "`" + f.kind() + "` " + esc(f.detail());
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }
}

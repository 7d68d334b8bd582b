package dev.wastecheck.cli.render;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import dev.wastecheck.model.Bytes;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The text report's space outside the column values: per table its account (values, row overhead,
 * indexes, free and dead space) against the engine's own figure, then the space findings.
 */
final class SpaceText {
    private SpaceText() {}

    static void print(AnalysisReport r, PrintWriter w, int width) {
        List<TableReport> tables = r.tables().stream()
                .filter(t -> r.space().containsKey(t.name().toLowerCase(Locale.ROOT)))
                .sorted(Comparator.comparingLong((TableReport t) -> -total(r, t)))
                .toList();
        if (tables.isEmpty()) {
            return;
        }
        w.println();
        TextTable tt = new TextTable()
                .text("table")
                .number("values")
                .number("overhead")
                .number("indexes")
                .number("free")
                .number("dead")
                .number("total")
                .number("engine");
        for (TableReport t : tables.subList(0, Math.min(10, tables.size()))) {
            TableSpace s = r.space().get(t.name().toLowerCase(Locale.ROOT));
            TableSpace.Account a = s.account(t);
            tt.row(
                    t.name(),
                    Bytes.human(a.tightBytes() + a.encodingWasteBytes()),
                    Bytes.human(a.rowOverheadBytes()),
                    Bytes.human(a.indexBytes()),
                    Bytes.human(a.freeBytes()),
                    Bytes.human(a.deadBytes()),
                    Bytes.human(a.totalBytes()),
                    s.engineBytes() > 0 ? Bytes.human(s.engineBytes()) : "-");
        }
        tt.print(w, width);
        TableSpace file = r.space().get(SpaceAnalysis.FILE);
        if (file != null) {
            w.printf(
                    Locale.ROOT,
                    "file: %s in pages, %s of them free (%s)%n",
                    Bytes.human(file.dataBytes()),
                    Bytes.human(file.freeBytes()),
                    file.method());
        }
        for (TableSpace s : r.space().values()) {
            for (Finding f : s.findings()) {
                if (f.kind() != FindingKind.SPACE_ACCOUNT) {
                    Wrap.print(w, s.table() + ": " + f.kind().key() + ": " + f.detail(), width, "", "    ");
                }
            }
        }
    }

    private static long total(AnalysisReport r, TableReport t) {
        return r.space().get(t.name().toLowerCase(Locale.ROOT)).account(t).totalBytes();
    }
}

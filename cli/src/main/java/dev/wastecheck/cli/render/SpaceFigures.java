package dev.wastecheck.cli.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.report.TableSpace;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The HTML report's account chart: the largest tables' bytes split as the account splits them. */
final class SpaceFigures {
    private static final int TOP = 15;

    private SpaceFigures() {}

    static void put(ObjectNode f, AnalysisReport r) {
        ArrayNode tables = f.putArray("accountTables");
        ArrayNode tight = f.putArray("accountTight");
        ArrayNode waste = f.putArray("accountWaste");
        ArrayNode overhead = f.putArray("accountOverhead");
        ArrayNode indexes = f.putArray("accountIndexes");
        ArrayNode free = f.putArray("accountFree");
        ArrayNode dead = f.putArray("accountDead");
        List<TableReport> withSpace = r.tables().stream()
                .filter(t -> r.space().containsKey(t.name().toLowerCase(Locale.ROOT)))
                .sorted(Comparator.comparingLong(
                        (TableReport t) -> -account(r, t).totalBytes()))
                .toList();
        for (TableReport t : withSpace.subList(0, Math.min(TOP, withSpace.size()))) {
            TableSpace.Account a = account(r, t);
            tables.add(t.name());
            tight.add(a.tightBytes());
            waste.add(a.encodingWasteBytes());
            overhead.add(Math.max(0, a.rowOverheadBytes()));
            indexes.add(a.indexBytes());
            free.add(a.freeBytes());
            dead.add(a.deadBytes());
        }
    }

    private static TableSpace.Account account(AnalysisReport r, TableReport t) {
        return r.space().get(t.name().toLowerCase(Locale.ROOT)).account(t);
    }
}

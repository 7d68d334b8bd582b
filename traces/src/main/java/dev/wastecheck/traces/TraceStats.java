package dev.wastecheck.traces;

import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.access.ResolutionReport;
import dev.wastecheck.traces.heat.ColumnUse;
import dev.wastecheck.traces.heat.SkewShares;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.heat.WorkloadHeat;
import dev.wastecheck.traces.read.BadLines;
import dev.wastecheck.traces.read.TraceFormat;
import dev.wastecheck.traces.read.TraceReadOptions;
import dev.wastecheck.traces.read.TraceReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code wastecheck trace stats FILE} prints: the trace read, resolved and its heat counted: operation
 * mix, hottest tables and columns, skew per table, bad lines and unresolved statements with
 * examples.
 */
public final class TraceStats {
    private final Path file;
    private final TraceFormat format;
    private final long lines;
    private final BadLines badLines;
    private final Map<String, Long> skipped;
    private final ResolutionReport report;
    private final WorkloadHeat heat;

    private TraceStats(Path file, TraceFormat format, long lines, BadLines badLines, Map<String, Long> skipped,
                       ResolutionReport report, WorkloadHeat heat) {
        this.file = file;
        this.format = format;
        this.lines = lines;
        this.badLines = badLines;
        this.skipped = skipped;
        this.report = report;
        this.heat = heat;
    }

    /**
     * Reads and resolves a whole trace and counts its heat.
     *
     * @throws dev.wastecheck.traces.read.TraceFormatException past the allowed share of bad lines
     */
    public static TraceStats compute(Path trace, DatabaseSchema schema, TraceReadOptions options) throws IOException {
        AccessExtractor extractor = new AccessExtractor(schema);
        WorkloadHeat heat = new WorkloadHeat(schema);
        try (TraceReader r = TraceReader.open(trace, options)) {
            while (r.hasNext()) {
                extractor.extract(r.next(), heat::add);
            }
            return new TraceStats(trace, r.format(), r.lines(), r.badLines(), r.skipped(), extractor.report(), heat);
        }
    }

    public TraceFormat format() {
        return format;
    }

    public ResolutionReport report() {
        return report;
    }

    public WorkloadHeat heat() {
        return heat;
    }

    public BadLines badLines() {
        return badLines;
    }

    public void render(PrintStream out, int top) {
        out.printf(Locale.ROOT, "trace    %s%nformat   %s, %,d lines, %,d bad%n", file, format, lines, badLines.count());
        for (BadLines.Example e : badLines.examples()) {
            out.printf(Locale.ROOT, "  bad line %d: expected %s, found '%s'%n", e.line(), e.expected(), e.text());
        }
        skipped.forEach((k, v) -> out.printf(Locale.ROOT, "  skipped %,d: %s%n", v, k));
        out.printf(Locale.ROOT, "records  %,d; statements %,d: %,d resolved, %,d unresolved, %,d ignored; %,d shapes%n",
                report.records(), report.statements(), report.resolved(), report.unresolved(), report.ignoredTotal(), report.shapes());
        if (!report.ignored().isEmpty()) {
            out.printf(Locale.ROOT, "  ignored (no data access): %s%n", report.ignored());
        }
        out.printf(Locale.ROOT, "accesses %,d (%,d without a literal key)%n", heat.events(), report.eventsWithoutKey());

        out.println();
        out.println("operation mix");
        for (Operation op : Operation.values()) {
            long n = heat.operations().getOrDefault(op, 0L);
            if (n > 0) {
                out.printf(Locale.ROOT, "  %-13s %6.2f%%  %,d%n", op, 100.0 * n / Math.max(1, heat.events()), n);
            }
        }

        out.println();
        out.println("hottest tables                      accesses   share");
        List<TableHeat> tables = heat.tables();
        for (TableHeat t : tables.subList(0, Math.min(top, tables.size()))) {
            out.printf(Locale.ROOT, "  %-30s %,12d  %5.1f%%%n", t.name(), t.events(), 100.0 * t.events() / Math.max(1, heat.events()));
        }

        out.println();
        out.println("hottest columns                     references  (projected / predicate / updated / joined)  functions");
        List<String[]> cols = new ArrayList<>();
        List<Long> totals = new ArrayList<>();
        for (TableHeat t : tables) {
            for (ColumnUse c : t.columns()) {
                cols.add(new String[] {t.name() + "." + c.column(),
                        String.format(Locale.ROOT, "%,d / %,d / %,d / %,d", c.projected(), c.predicate(), c.updated(), c.joined()),
                        c.functions().isEmpty() ? "" : c.functions().toString()});
                totals.add(c.total());
            }
        }
        Integer[] order = new Integer[cols.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(totals.get(b), totals.get(a)));
        for (int i = 0; i < Math.min(top, order.length); i++) {
            String[] c = cols.get(order[i]);
            out.printf(Locale.ROOT, "  %-30s %,12d  (%s)  %s%n", c[0], totals.get(order[i]), c[1], c[2]);
        }

        out.println();
        out.println("skew: share of keyed accesses on the hottest 1% / 5% / 10% of the keys the trace touched");
        for (TableHeat t : tables) {
            String ix = t.heatIndex();
            if (ix == null) {
                continue;
            }
            SkewShares s = t.skew(ix, 0);
            out.printf(Locale.ROOT, "  %-30s %5.1f%% %5.1f%% %5.1f%%   by %s, %,d keys, %,d accesses%n", t.name(),
                    100 * s.top1(), 100 * s.top5(), 100 * s.top10(), ix, s.keys(), s.accesses());
        }

        if (report.unresolved() > 0) {
            out.println();
            out.printf(Locale.ROOT, "unresolved statements (%,d), by reason%n", report.unresolved());
            for (ResolutionReport.Reason r : report.unresolvedReasons()) {
                out.printf(Locale.ROOT, "  %,d x %s%n", r.count(), r.reason());
                for (ResolutionReport.Example e : r.examples()) {
                    out.printf(Locale.ROOT, "      line %d: %s%n", e.line(), e.statement().replace('\n', ' '));
                }
            }
        }
    }
}

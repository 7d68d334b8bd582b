package dev.wastecheck.traces;

import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.access.ResolutionReport;
import dev.wastecheck.traces.heat.ColumnUse;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.heat.WorkloadHeat;
import dev.wastecheck.traces.read.BadLines;
import dev.wastecheck.traces.read.TraceFormat;
import dev.wastecheck.traces.read.TraceFormatException;
import dev.wastecheck.traces.read.TraceReadOptions;
import dev.wastecheck.traces.read.TraceReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What {@code wastecheck trace stats FILE} reports: the trace read, resolved and its heat counted
 * (operation mix, hottest tables and columns, skew per table, bad lines and unresolved statements
 * with examples). The command line renders it.
 */
public final class TraceStats {
    private final Path file;
    private final TraceFormat format;
    private final long lines;
    private final BadLines badLines;
    private final Map<String, Long> skipped;
    private final ResolutionReport report;
    private final WorkloadHeat heat;

    private TraceStats(
            Path file,
            TraceFormat format,
            long lines,
            BadLines badLines,
            Map<String, Long> skipped,
            ResolutionReport report,
            WorkloadHeat heat) {
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
     * @throws TraceFormatException past the allowed share of bad lines
     */
    public static TraceStats compute(Path trace, DatabaseSchema schema, TraceReadOptions options) throws IOException {
        return compute(trace, schema, options, Progress.NONE);
    }

    /**
     * As {@link #compute(Path, DatabaseSchema, TraceReadOptions)}, telling {@code progress} the
     * records read so far (the total is not known before the end: -1).
     */
    public static TraceStats compute(Path trace, DatabaseSchema schema, TraceReadOptions options, Progress progress)
            throws IOException {
        AccessExtractor extractor = new AccessExtractor(schema);
        WorkloadHeat heat = new WorkloadHeat(schema);
        progress.begin("reading trace", -1);
        try (TraceReader r = TraceReader.open(trace, options)) {
            long records = 0;
            while (r.hasNext()) {
                extractor.extract(r.next(), heat::add);
                if ((++records & 4095) == 0) {
                    progress.advance(records);
                }
            }
            return new TraceStats(trace, r.format(), r.lines(), r.badLines(), r.skipped(), extractor.report(), heat);
        } finally {
            progress.end();
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

    /** The trace read. */
    public Path file() {
        return file;
    }

    /** Lines of the trace file. */
    public long lines() {
        return lines;
    }

    /** Records the reader passed over on purpose, by reason, with their counts. */
    public Map<String, Long> skipped() {
        return Map.copyOf(skipped);
    }

    /**
     * The columns of every table by references, most first: what {@code trace stats} lists as the
     * hottest columns.
     */
    public List<Column> columnsByUse() {
        List<Column> out = new ArrayList<>();
        for (TableHeat t : heat.tables()) {
            for (ColumnUse c : t.columns()) {
                out.add(new Column(t.name(), c));
            }
        }
        out.sort(Comparator.comparingLong((Column c) -> c.use().total()).reversed());
        return out;
    }

    /** A column's use with the table it belongs to. */
    public record Column(String table, ColumnUse use) {}
}

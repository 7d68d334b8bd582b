package dev.wastecheck.analyzer.index;

import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.traces.TraceStats;
import dev.wastecheck.traces.heat.ColumnUse;
import dev.wastecheck.traces.heat.IndexUse;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a trace says of each index: the statements the resolver sent through it, and the statements
 * an optimizer could send through it. Calcite resolves each statement into access events ({@code
 * traces}' StatementResolver): the index whose key prefix the statement binds by equality or range,
 * and the columns its WHERE, joins and ORDER BY compare. An index counts as used when some event went
 * through it, or when some event compares its leading column (a filter, a join, or an ORDER BY that
 * only an index can serve with a LIMIT): the resolver picks one index per statement, and the
 * server's optimizer may pick another, so only an index whose leading column no statement compares
 * is unused by the trace.
 *
 * <p>Evidence only: a table no statement touched has no evidence either way, and a trace with
 * statements Calcite could not resolve gives none at all (they may read any index).
 *
 * @param tables  per lower-case table the trace touched, its heat (events per index and column)
 * @param period  what the evidence covers, in words, or null when the trace gives none
 * @param withheld why the trace gives no evidence, or null
 */
public record TraceIndexUsage(Map<String, TableHeat> tables, String period, String withheld) {

    public static final TraceIndexUsage NONE = new TraceIndexUsage(Map.of(), null, null);

    /** Resolves the traces against the schema. */
    public static TraceIndexUsage of(List<Path> traces, DatabaseSchema schema) throws IOException {
        if (traces.isEmpty()) {
            return NONE;
        }
        Map<String, TableHeat> tables = new HashMap<>();
        List<String> covered = new ArrayList<>();
        long unresolved = 0;
        for (Path trace : traces) {
            TraceStats stats = TraceStats.compute(trace, schema, TraceReadOptions.defaults());
            unresolved += stats.report().unresolved();
            covered.add(stats.report().resolved() + " statements of " + trace.getFileName());
            for (TableHeat t : stats.heat().tables()) {
                if (t.events() > 0) {
                    tables.putIfAbsent(t.name().toLowerCase(Locale.ROOT), t);
                }
            }
        }
        if (unresolved > 0) {
            return new TraceIndexUsage(
                    Map.of(),
                    null,
                    "the trace's " + unresolved + " unresolved statements may read any index: it gives no"
                            + " evidence of unused indexes");
        }
        return new TraceIndexUsage(tables, "over the " + String.join(" and ", covered), null);
    }

    /**
     * Whether the trace used the index: 1 when a statement went or could go through it, 0 when
     * the trace touched its table and no statement compares its leading column, -1 when the trace
     * says nothing of it.
     *
     * @param traceName the name access events give it ({@code PRIMARY} for the primary key)
     */
    public int used(IndexEntry index, String traceName) {
        TableHeat heat = tables.get(index.table().toLowerCase(Locale.ROOT));
        if (heat == null || index.columns().isEmpty()) {
            return -1;
        }
        IndexUse use = heat.indexes().get(traceName);
        if (use == null) {
            for (IndexDef d : heat.schema().allIndexes()) {
                if (d.name().equalsIgnoreCase(traceName)) {
                    use = heat.indexes().get(d.name());
                }
            }
        }
        if (use != null && use.queries() > 0) {
            return 1;
        }
        String lead = index.columns().get(0);
        if (lead.isEmpty()) {
            return -1; // an expression: the events name columns, not expressions
        }
        for (ColumnUse c : heat.columns()) {
            if (c.column().equalsIgnoreCase(lead) && c.predicate() + c.joined() > 0) {
                return 1;
            }
        }
        return 0;
    }

    /** The statements the trace sent through the index, for the detail. */
    public long events(IndexEntry index) {
        TableHeat heat = tables.get(index.table().toLowerCase(Locale.ROOT));
        return heat == null ? 0 : heat.events();
    }
}

package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * One thing found about an index: redundant, unused or of too few values ("No Bits Left Behind"
 * §1 and §5 count index pages among the unused space a database holds).
 *
 * @param table      the table, as the report names it
 * @param index      the index's name, as the engine names it
 * @param columns    its key, in order ({@code title DESC}, {@code lower(email)}, {@code name(20)})
 * @param kind       {@link FindingKind#REDUNDANT_INDEX}, {@link FindingKind#UNUSED_INDEX} or
 *                   {@link FindingKind#LOW_CARDINALITY_INDEX}
 * @param detail     why, with the index that covers it or the evidence and the period it covers
 * @param bytes      the bytes the index holds (what dropping it frees), or -1 when unknown
 * @param bytesBasis where {@code bytes} comes from: {@code measured} (the server's or file's own
 *                   count) or {@code predicted} (the engine's storage model, for a dump)
 * @param predictedBytes what the engine's storage model predicts the index holds, from the rows
 *                   (analyzer/space), or -1 when not predicted: beside a measured {@code bytes}, the
 *                   model's check
 * @param coveredBy  for a redundant index, the index that serves every lookup it serves; else null
 * @param definition the statement that creates it again ({@code pg_get_indexdef}, or one built
 *                   from the catalog), for the rollback of its drop
 */
public record IndexFinding(
        String table,
        String index,
        List<String> columns,
        FindingKind kind,
        String detail,
        long bytes,
        String bytesBasis,
        long predictedBytes,
        String coveredBy,
        String definition) {
    public IndexFinding {
        columns = List.copyOf(columns);
    }

    /** The same finding with the storage model's bytes, and its bytes from them where none were measured. */
    public IndexFinding withModel(long predicted, long measured) {
        if (bytes >= 0) {
            return new IndexFinding(
                    table, index, columns, kind, detail, bytes, bytesBasis, predicted, coveredBy, definition);
        }
        long b = measured >= 0 ? measured : predicted;
        String basis = measured >= 0 ? "measured" : predicted >= 0 ? "predicted" : "unknown";
        return new IndexFinding(table, index, columns, kind, detail, b, basis, predicted, coveredBy, definition);
    }

    /** A finding tune acts on: a redundant or unused index is dropped (reversibly), a low-cardinality one only reported. */
    public boolean droppable() {
        return kind == FindingKind.REDUNDANT_INDEX || kind == FindingKind.UNUSED_INDEX;
    }
}

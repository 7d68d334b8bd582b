package dev.wastecheck.tune;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link Tune#run} did: the checked result, the migration's statements, and the sentences the
 * command prints on standard error.
 *
 * @param result       every change checked on the tuned copy, what was left out, the engines' sizes
 * @param script       the migration, as it is printed and applied
 * @param rollbackFile where the MySQL rollback script was written, or null
 * @param summary      one sentence each: changes and bytes, the trace's replay, the engines' sizes; a line
 *                     indented by spaces continues the one before it
 * @param applied      what {@code --apply} did, or null when it was not asked
 */
public record TuneReport(
        Tuner.Result result,
        SqlScript script,
        Path rollbackFile,
        List<String> summary,
        Applied applied,
        List<IndexDrop> indexDrops,
        List<Rebuild> rebuilds) {
    public TuneReport {
        summary = List.copyOf(summary);
        indexDrops = List.copyOf(indexDrops);
        rebuilds = List.copyOf(rebuilds);
    }

    /**
     * One redundant or unused index dropped ({@link IndexDrops}).
     *
     * @param table      the table
     * @param index      the index
     * @param kind       {@code redundant_index} or {@code unused_index}
     * @param statement  the statement that drops it and frees its bytes
     * @param firstStep  MySQL 8 and MariaDB 10.6+: the statement that hides it from the optimizer
     *                   first (INVISIBLE, IGNORED); else null
     * @param bytes      what the drop frees: the index's bytes, or -1 when unknown
     * @param bytesBasis {@code measured} (the server's count) or {@code predicted} (the storage model)
     * @param predictedBytes the storage model's figure beside a measured one, or -1
     * @param rollback   the statement that puts it back
     * @param script     the script that holds {@code statement}, named by its suffix beside the
     *                   migration ({@code .indexes.sql} on PostgreSQL, {@code .indexes.drop.sql} on
     *                   MySQL and MariaDB)
     * @param file       that script's path, or null when none was written (no {@code -o migration.sql})
     */
    public record IndexDrop(
            String table,
            String index,
            String kind,
            String statement,
            String firstStep,
            long bytes,
            String bytesBasis,
            long predictedBytes,
            String rollback,
            String script,
            String file) {}

    /**
     * One rebuild that gives empty page space back ({@link Rebuilds}).
     *
     * @param table       the table
     * @param index       the index REINDEX rebuilds, or null for a table's rebuild
     * @param statement   OPTIMIZE TABLE, VACUUM FULL or REINDEX INDEX CONCURRENTLY
     * @param bytesBefore what the table (or index) holds now, as the server counts it
     * @param freedBytes  what the rebuild is predicted to free
     * @param why         how the prediction was made (the InnoDB model; pgstattuple, pgstatindex)
     * @param file        the script that holds it ({@code migration.rebuild.sql}), or null when none was
     *                    written (no {@code -o migration.sql})
     */
    public record Rebuild(
            String table, String index, String statement, long bytesBefore, long freedBytes, String why, String file) {
        /** The suffix of the script that holds the statement, beside the migration. */
        public static final String SCRIPT = ".rebuild.sql";
    }

    /**
     * {@code --apply}'s outcome.
     *
     * @param succeeded every statement ran, or there was nothing to apply
     * @param messages  what to tell the user, one line each
     */
    public record Applied(boolean succeeded, List<String> messages) {
        public Applied {
            messages = List.copyOf(messages);
        }

        /** This outcome followed by another's (the index drops after the column migration). */
        public Applied and(Applied next) {
            List<String> all = new ArrayList<>(messages);
            all.addAll(next.messages());
            return new Applied(succeeded && next.succeeded(), all);
        }
    }
}

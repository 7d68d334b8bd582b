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
        Tuner.Result result, SqlScript script, Path rollbackFile, List<String> summary, Applied applied) {
    public TuneReport {
        summary = List.copyOf(summary);
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

package dev.wastecheck.autotune;

import dev.wastecheck.autotune.AutotuneReport.Evaluation;
import dev.wastecheck.autotune.AutotuneReport.Pruned;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Every candidate the search replayed, in the order it ran, and every one it pruned without a replay. */
final class CandidateLog {
    private final List<Evaluation> evaluations = new ArrayList<>();
    private final List<Pruned> pruned = new ArrayList<>();
    private final Set<String> prunedSeen = new HashSet<>();

    void add(Evaluation e) {
        evaluations.add(e);
    }

    /** A candidate ruled out by analysis; the same table, dimension and value are listed once. */
    void prune(String table, String dimension, String value, String reason) {
        if (prunedSeen.add(table + "|" + dimension + "|" + value))
            pruned.add(new Pruned(table, dimension, value, reason));
    }

    List<Evaluation> evaluations() {
        return List.copyOf(evaluations);
    }

    List<Pruned> pruned() {
        return List.copyOf(pruned);
    }
}

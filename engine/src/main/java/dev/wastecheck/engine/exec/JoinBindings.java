package dev.wastecheck.engine.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys each join-bound event looked up in a run: for an event whose key only a join binds
 * ({@code slots JOIN content ON slot_content_id = content_id}), the key literals of every lookup
 * the nested loop made, in order. With them a table's events replay without the tables that drove
 * them (autotune screens one table alone: the recorded lookups stand in for the join).
 *
 * <p>An event the nested loop ran is recorded even when its driver found no row: an empty list
 * says "this event made no lookup", which is not the same as "this event is not join-bound".
 */
final class JoinBindings {
    private final Map<Integer, List<List<String>>> byEvent = new HashMap<>();

    /** Event {@code event} runs as a nested loop: it is recorded, with no lookup yet. */
    void begin(int event) {
        byEvent.computeIfAbsent(event, k -> new ArrayList<>());
    }

    /** Records one lookup of event {@code event} (after {@link #begin}): the key literals in index order. */
    void lookup(int event, List<String> literals) {
        byEvent.get(event).add(List.copyOf(literals));
    }

    /** Per event index, the key literals of each lookup it made. */
    Map<Integer, List<List<String>>> byEvent() {
        return byEvent;
    }
}

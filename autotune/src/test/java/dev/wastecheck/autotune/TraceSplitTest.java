package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The split step: each table's training and held-out events, its share of the budget, the search's order. */
class TraceSplitTest {
    private static AccessEvent event(String table, Operation op, long time) {
        return new AccessEvent(
                table,
                op,
                "PRIMARY",
                Map.of(),
                List.of(),
                Set.of("id"),
                Set.of(),
                Set.of(),
                Set.of(),
                Map.of(),
                1,
                time,
                time);
    }

    private static final TraceSplit.IndexColumns COLUMNS =
            (table, index) -> index.equals("PRIMARY") ? List.of(table + "_id") : List.of("a", "b");

    @Test
    void eachTableGetsItsEventsOnEachSideOfTheSplitJoinBoundKeysAsTheLookupsTheyMade() {
        List<AccessEvent> events = List.of(
                event("page", Operation.POINT_LOOKUP, 0),
                event("content", Operation.POINT_LOOKUP, 1), // join-bound: two lookups on the baseline
                event("page", Operation.UPDATE, 2),
                event("Content", Operation.POINT_LOOKUP, 3), // join-bound: its driver found no row
                event("revision", Operation.POINT_LOOKUP, 4));
        TraceSplit s = TraceSplit.of(
                events,
                3,
                Map.of(1, List.of(List.of("71"), List.of("72")), 3, List.of()),
                Map.of("page.heap", 8192L),
                COLUMNS,
                1 << 20,
                8192);
        assertThat(s.trainingEvents()).containsExactlyElementsOf(events.subList(0, 3));
        assertThat(s.training("page")).extracting(AccessEvent::timeMillis).containsExactly(0L, 2L);
        assertThat(s.training("content"))
                .extracting(e -> e.key().get("content_id"))
                .containsExactly("71", "72");
        assertThat(s.training("content")).allSatisfy(e -> {
            assertThat(e.keyColumns()).containsExactly("content_id");
            assertThat(e.joinKeys()).isEmpty();
        });
        assertThat(s.heldOut("content"))
                .as("a join that made no lookup has nothing to replay")
                .isEmpty();
        assertThat(s.heldOut("revision")).hasSize(1);
        assertThat(s.training("revision"))
                .as("a table on one side only is on both, empty")
                .isEmpty();
        assertThat(s.training().keySet())
                .containsExactlyInAnyOrderElementsOf(s.heldOut().keySet());
        assertThatThrownBy(() -> s.training("page").add(events.get(0)))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void sharesFollowTheBaselinesWorkingSetWithAFloorOf64PagesLargestFirst() {
        List<AccessEvent> events = new ArrayList<>();
        for (String t : List.of("page", "revision", "text", "user"))
            for (int i = 0; i < 4; i++) events.add(event(t, Operation.POINT_LOOKUP, events.size()));
        long memory = 16L << 20;
        TraceSplit s = TraceSplit.of(
                events,
                8, // page and revision held-out events: none
                Map.of(),
                Map.of("text.heap", 3L << 20, "text.index", 1L << 20, "user.heap", 8192L),
                COLUMNS,
                memory,
                8192);
        // text: 4 MiB of a 4 MiB + 8 KiB working set; user's 8 KiB share is under the 64-page floor
        assertThat(s.share("text")).isEqualTo(Math.round(memory * (4.0 * (1 << 20)) / ((4 << 20) + 8192)));
        assertThat(s.share("user")).isEqualTo(64 * 8192L);
        assertThat(s.share("page")).isEqualTo(64 * 8192L);
        assertThat(s.tables())
                .as("only tables with held-out events, the largest share first")
                .containsExactly("text", "user");
    }

    @Test
    void screeningReplaysTheWritesOfTheTrainingsFirstHalfThenItsSecondHalfWhole() {
        List<AccessEvent> events = List.of(
                event("page", Operation.POINT_LOOKUP, 0),
                event("page", Operation.INSERT, 1),
                event("page", Operation.UPDATE, 2),
                event("page", Operation.SCAN, 3),
                event("page", Operation.POINT_LOOKUP, 4),
                event("page", Operation.DELETE, 5),
                event("page", Operation.POINT_LOOKUP, 6),
                event("page", Operation.POINT_LOOKUP, 7));
        TraceSplit s = TraceSplit.of(events, 7, Map.of(), Map.of(), COLUMNS, 1 << 20, 8192);
        // training 0..6, first half 0..2: its writes are 1 and 2; the second half 3..6 whole
        assertThat(s.screeningTraining("page"))
                .extracting(AccessEvent::timeMillis)
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    }
}

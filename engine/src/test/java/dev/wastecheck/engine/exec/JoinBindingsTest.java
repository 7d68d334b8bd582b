package dev.wastecheck.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The keys a join-bound event looked up, event by event. */
class JoinBindingsTest {
    @Test
    void recordsEachLookupsKeyInOrderAndAnEventThatMadeNone() {
        JoinBindings b = new JoinBindings();
        b.begin(4);
        List<String> key = new ArrayList<>(List.of("71", "main"));
        b.lookup(4, key);
        key.set(0, "72"); // the recorder keeps a copy
        b.lookup(4, key);
        b.begin(9); // its driver found no row: recorded, with no lookup
        assertThat(b.byEvent().get(4)).containsExactly(List.of("71", "main"), List.of("72", "main"));
        assertThat(b.byEvent().get(9)).isEmpty();
        assertThat(b.byEvent()).doesNotContainKey(5);
    }
}

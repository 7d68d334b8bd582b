package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.wastecheck.engine.table.TableDesign;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Successive halving, the search step's screen, on scores given by hand. */
class DesignSearchTest {
    private record Outcome(String design, double prefix, CandidateStatus status, String reason) {}

    private static final TableDesign NONE = TableDesign.BASELINE;
    private static final TableDesign ONE = NONE.with("cluster", "1");
    private static final TableDesign PART = NONE.with("cluster", "partition");
    private static final TableDesign UPKEEP = PART.with("demote_after", "1000").with("promote", "2");

    @Test
    void theBetterHalfGoesOnToALongerPrefixAndTheLastRungChoosesOne() throws Exception {
        // costs on the first quarter, half and all of the held-out events
        Map<TableDesign, double[]> costs = Map.of(
                NONE, new double[] {9, 9, 9},
                ONE, new double[] {5, 6, 7},
                PART, new double[] {4, 5, 3},
                UPKEEP, new double[] {8, 1, 1});
        List<Outcome> out = new ArrayList<>();
        List<String> asked = new ArrayList<>();
        TableDesign chosen = DesignSearch.halving(
                List.of(NONE, ONE, PART, UPKEEP),
                (d, prefix) -> {
                    asked.add(d.clusterLabel() + "@" + prefix);
                    return costs.get(d)[prefix == 0.25 ? 0 : prefix == 0.5 ? 1 : 2];
                },
                (d, prefix, modeled, status, reason) -> out.add(new Outcome(d.describe(), prefix, status, reason)));
        assertThat(chosen).isEqualTo(PART);
        assertThat(asked)
                .containsExactly("none@0.25", "1@0.25", "partition@0.25", "partition@0.25", "partition@0.5", "1@0.5");
        assertThat(out)
                .extracting(Outcome::prefix, Outcome::status)
                .containsExactly(
                        tuple(0.25, CandidateStatus.KEPT),
                        tuple(0.25, CandidateStatus.KEPT),
                        tuple(0.25, CandidateStatus.REJECTED),
                        tuple(0.25, CandidateStatus.REJECTED),
                        tuple(0.5, CandidateStatus.CHOSEN),
                        tuple(0.5, CandidateStatus.REJECTED));
        assertThat(out.get(3).reason())
                .isEqualTo("9.00 µs/query against 4.00 for " + PART.describe()
                        + " on the first 25% of the held-out events");
        assertThat(out.get(0).reason()).isEmpty();
    }

    @Test
    void aTieGoesToTheCandidateListedFirst() throws Exception {
        List<CandidateStatus> statuses = new ArrayList<>();
        TableDesign chosen = DesignSearch.halving(
                List.of(NONE, ONE), (d, prefix) -> 2.0, (d, prefix, modeled, status, reason) -> statuses.add(status));
        assertThat(chosen).isEqualTo(NONE);
        assertThat(statuses).containsExactly(CandidateStatus.CHOSEN, CandidateStatus.REJECTED);
    }
}

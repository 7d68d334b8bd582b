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
                    return new DesignSearch.Cost(costs.get(d)[prefix == 0.25 ? 0 : prefix == 0.5 ? 1 : 2], 0);
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
                List.of(NONE, ONE),
                (d, prefix) -> new DesignSearch.Cost(2.0, 100),
                (d, prefix, modeled, status, reason) -> statuses.add(status));
        assertThat(chosen).isEqualTo(NONE);
        assertThat(statuses).containsExactly(CandidateStatus.CHOSEN, CandidateStatus.REJECTED);
    }

    @Test
    void withinTheModelsErrorTheSmallerWorkingSetWinsBeyondItTheCheaper() throws Exception {
        // ONE is 10% dearer than NONE (within the 12% error) and holds half the memory: ONE wins.
        // PART is 20% dearer (beyond it) and smaller still: it loses on cost.
        Map<TableDesign, DesignSearch.Cost> costs = Map.of(
                NONE, new DesignSearch.Cost(1.00, 4_000_000),
                ONE, new DesignSearch.Cost(1.10, 2_000_000),
                PART, new DesignSearch.Cost(1.20, 1_000_000));
        List<Outcome> out = new ArrayList<>();
        TableDesign chosen = DesignSearch.halving(
                List.of(NONE, ONE, PART),
                (d, prefix) -> costs.get(d),
                (d, prefix, modeled, status, reason) -> out.add(new Outcome(d.describe(), prefix, status, reason)));
        assertThat(chosen).isEqualTo(ONE);
        assertThat(out)
                .extracting(Outcome::design, Outcome::prefix, Outcome::status)
                .containsExactly(
                        tuple(ONE.describe(), 0.25, CandidateStatus.KEPT),
                        tuple(NONE.describe(), 0.25, CandidateStatus.KEPT),
                        tuple(PART.describe(), 0.25, CandidateStatus.REJECTED),
                        tuple(ONE.describe(), 0.5, CandidateStatus.CHOSEN),
                        tuple(NONE.describe(), 0.5, CandidateStatus.REJECTED));
        assertThat(out.get(2).reason())
                .isEqualTo("1.20 µs/query against 1.10 for " + ONE.describe()
                        + " on the first 25% of the held-out events");
        assertThat(out.get(4).reason())
                .isEqualTo("1.00 µs/query against 1.10 for " + ONE.describe()
                        + " on the first 50% of the held-out events, within the model's 12% error: working set"
                        + " 3.81 MiB against 1.91");
    }

    @Test
    void theRuleBetweenTwoDesigns() {
        // within 12%: the smaller working set, whichever costs less
        assertThat(Autotune.preferred(1.10, 2_000, 1.00, 4_000)).isTrue();
        assertThat(Autotune.preferred(1.00, 4_000, 1.10, 2_000)).isFalse();
        // 11% dearer still within; 13% beyond it: the cheaper wins
        assertThat(Autotune.preferred(1.11, 2_000, 1.00, 4_000)).isTrue();
        assertThat(Autotune.preferred(1.13, 2_000, 1.00, 4_000)).isFalse();
        assertThat(Autotune.preferred(1.00, 4_000, 1.13, 2_000)).isTrue();
        // equal working sets: the cheaper; an exact tie keeps the incumbent (the second)
        assertThat(Autotune.preferred(1.05, 2_000, 1.00, 2_000)).isFalse();
        assertThat(Autotune.preferred(1.00, 2_000, 1.05, 2_000)).isTrue();
        assertThat(Autotune.preferred(1.00, 2_000, 1.00, 2_000)).isFalse();
    }

    @Test
    void theRankIsMeasuredFromTheCheapestSoItIsAnOrder() {
        // 1.00, 1.10, 1.20: 1.20 is within 12% of 1.10 but not of the cheapest, so it ranks after both
        record C(String name, double cost, long ws) {}
        List<C> ranked = Autotune.rank(
                List.of(new C("a", 1.00, 300), new C("b", 1.10, 200), new C("c", 1.20, 100), new C("d", 1.05, 200)),
                C::cost,
                C::ws);
        assertThat(ranked).extracting(C::name).containsExactly("d", "b", "a", "c");
    }
}

package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The finalists step's pick: never worse than the best uniform design, nor than the baseline. */
class FinalistsTest {
    @Test
    void thePerTableDesignsWinWhenTheyCostNoMoreThanTheUniformDesign() {
        Finalists.Choice c = Finalists.pick(5.0, 3.0, 3.0);
        assertThat(c.pick()).isEqualTo(Finalists.Pick.PER_TABLE);
        assertThat(c.fallback()).isNull();
    }

    @Test
    void theUniformDesignIsRecommendedWhenThePerTableDesignsCostMoreTogether() {
        Finalists.Choice c = Finalists.pick(5.0, 3.0, 3.5);
        assertThat(c.pick()).isEqualTo(Finalists.Pick.UNIFORM);
        assertThat(c.fallback())
                .isEqualTo("the per-table designs cost 3.50 µs/query together against 3.00 for the best uniform "
                        + "design: the uniform design is recommended");
    }

    @Test
    void theBaselineIsKeptWhenNoDesignBeatsIt() {
        Finalists.Choice c = Finalists.pick(2.0, 3.0, 2.5);
        assertThat(c.pick()).isEqualTo(Finalists.Pick.BASELINE);
        assertThat(c.fallback())
                .isEqualTo("no design beat the baseline together (2.00 µs/query): keep the declared design");
    }
}

package dev.wastecheck.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.autotune.AutotuneReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The autotune page's per-table rows: one slower alone than its baseline says why. */
class TuningHtmlTest {
    private static AutotuneReport.TableChoice table(String name, double modeled, double baseline) {
        return new AutotuneReport.TableChoice(
                name,
                "layout=nsm,cache=swap",
                "nsm",
                "swap",
                List.of(),
                "none",
                "off",
                List.of(),
                List.of(),
                1 << 20,
                100,
                modeled,
                baseline);
    }

    @Test
    void aTableSlowerThanItsBaselineSaysWhyAndOthersSayNothing() {
        assertThat(TuningHtml.worseNote(table("actor", 0.59, 0.50), true))
                .startsWith("slower alone than its baseline (0.59 against 0.50 µs/query)")
                .contains("one design recommended for every table");
        assertThat(TuningHtml.worseNote(table("slots", 1.46, 0.78), false))
                .contains("1.46 against 0.78")
                .contains("chosen for all tables together");
        assertThat(TuningHtml.worseNote(table("page", 0.31, 0.57), false)).isEmpty();
        assertThat(TuningHtml.worseNote(table("text", 0.50, 0.50), false)).isEmpty();
    }
}

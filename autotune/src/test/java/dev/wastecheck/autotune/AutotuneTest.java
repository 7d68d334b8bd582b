package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.Progress;
import dev.wastecheck.replay.Replay;
import dev.wastecheck.replay.ReplayOptions;
import dev.wastecheck.replay.ReplayReport;
import dev.wastecheck.traces.generate.WikiGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search on a small generated wiki (80 pages, 1,600 requests with edits, watchlists and
 * Special:ShortPages scans; a seed and scale no benchmark uses): what it recommends is never worse
 * than the best uniform design or the baseline, returns the baseline's results, replays the same
 * under {@code replay --check}, and is the same twice.
 */
class AutotuneTest {
    @TempDir
    static Path dir;

    static AutotuneOptions options;
    static AutotuneReport first;
    static final List<String> warnings = new ArrayList<>();

    @BeforeAll
    static void tune() throws Exception {
        new WikiGenerator(WikiGenerator.Config.defaults(80, 31)
                        .withRequests(1_600)
                        .withTextMedianBytes(50)
                        .withScanShare(0.01))
                .generate(dir);
        options = AutotuneOptions.of(dir.resolve("dump.sql"), dir.resolve("trace.log"), "192K")
                .withRepeat(1)
                .withCurve(false);
        first = Autotune.run(options, Progress.NONE, warnings::add);
    }

    @Test
    void theRecommendationIsNeverWorseThanTheBestUniformDesignAndReturnsTheBaselinesResults() throws Exception {
        assertThat(first.recommended().modeledUs())
                .isLessThanOrEqualTo(first.bestUniform().modeledUs());
        assertThat(first.bestUniform().modeledUs())
                .isLessThanOrEqualTo(first.baseline().modeledUs());
        assertThat(first.recommended().modeledUs())
                .as("a 192K pool: the baseline misses, a hot partition does not")
                .isLessThan(first.baseline().modeledUs() / 2);
        assertThat(first.recommended().mismatches()).isZero();
        assertThat(first.bestUniform().mismatches()).isZero();
        assertThat(first.trainEvents() + first.heldOutEvents())
                .isEqualTo(first.baseline().run().executed()
                        + first.baseline().run().skipped());
        assertThat(first.baseline().run().queries())
                .as("only the held-out events are measured")
                .isEqualTo(first.heldOutEvents());
        assertThat(first.tables()).extracting(AutotuneReport.TableChoice::table).contains("revision", "page", "text");
        assertThat(first.evaluations())
                .filteredOn(
                        e -> e.status() == CandidateStatus.REJECTED && !e.step().equals("layout=arrow"))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.reason()).contains("µs/query against"));
        // Arrow blocks are one candidate for the whole database; 1 MB blocks per table do not fit a 192K budget
        assertThat(first.evaluations())
                .filteredOn(e -> e.step().equals("layout=arrow"))
                .singleElement()
                .satisfies(e -> assertThat(e.status()).isEqualTo(CandidateStatus.REJECTED))
                .satisfies(e -> assertThat(e.reason())
                        .contains("of the 0.2 MiB budget, leaving the buffer pool less than two pages"));
        assertThat(first.recommended().config()).doesNotContain("arrow");
        // the page size is one candidate for the whole database, tried jointly for the uniform design: 4K fits a 192K
        // pool (48 pages), 16K (12) does not, and is pruned
        assertThat(first.evaluations())
                .filteredOn(e -> e.step().equals("page_size"))
                .singleElement()
                .satisfies(e -> assertThat(e.design()).contains("page_size=4K"))
                .satisfies(e -> assertThat(e.reason()).contains("against", "at page_size=8K"));
        assertThat(first.pruned())
                .filteredOn(p -> p.dimension().equals("page_size"))
                .singleElement()
                .satisfies(p -> assertThat(p.value()).isEqualTo("16K"));
        boolean small = first.evaluations().stream()
                .anyMatch(e -> e.step().equals("page_size") && e.status() == CandidateStatus.CHOSEN);
        assertThat(first.bestUniform().config().contains("page_size=4K")).isEqualTo(small);
        assertThat(first.pruned()).allSatisfy(p -> assertThat(p.reason()).isNotBlank());
        assertThat(first.ddl()).last().asString().startsWith("-- engine settings: wastecheck replay --config '");
        // the recommended settings, given to replay with the same split, return the baseline's result for every event
        ReplayReport check = Replay.run(
                ReplayOptions.of(options.data(), options.trace())
                        .withJitWarmup(false)
                        .withTrain(0.5)
                        .withMemory("192K")
                        .withConfigs("", first.recommended().config()),
                Progress.NONE,
                w -> {});
        assertThat(check.resultsDiffering()).isZero();
        assertThat(check.runs().get(1).deviceReads())
                .isEqualTo(first.recommended().run().deviceReads());
        assertThat(warnings).isEmpty();
    }

    @Test
    void theSearchReturnsTheSameRecommendationTwice() throws Exception {
        AutotuneReport second = Autotune.run(options, Progress.NONE, w -> {});
        assertThat(second.recommended().config()).isEqualTo(first.recommended().config());
        assertThat(second.tables())
                .extracting(AutotuneReport.TableChoice::design)
                .containsExactlyElementsOf(first.tables().stream()
                        .map(AutotuneReport.TableChoice::design)
                        .toList());
        assertThat(second.recommended().modeledUs())
                .as("counts, not timings: the same to the last digit")
                .isEqualTo(first.recommended().modeledUs());
        assertThat(second.evaluations())
                .extracting(AutotuneReport.Evaluation::modeledUs)
                .containsExactlyElementsOf(first.evaluations().stream()
                        .map(AutotuneReport.Evaluation::modeledUs)
                        .toList());
    }
}

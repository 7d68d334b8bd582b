package dev.wastecheck.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.traces.generate.WikiGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small replay run as a library call, below the command line: a generated MediaWiki database and
 * its trace, replayed under several configurations, every one returning the baseline's results
 * event by event, and SQLite and DuckDB returning them too.
 */
class ReplayTest {
    @TempDir
    static Path dir;

    static Path dump;
    static Path trace;
    /** Four configurations, the first the baseline, and the same events on SQLite and DuckDB. */
    static ReplayReport r;

    static List<String> warnings = new ArrayList<>();

    @BeforeAll
    static void generateAndReplay() throws Exception {
        new WikiGenerator(WikiGenerator.Config.defaults(25, 5)).generate(dir);
        dump = dir.resolve("dump.sql");
        trace = dir.resolve("trace.log");
        r = Replay.run(
                ReplayOptions.of(dump, trace)
                        .withJitWarmup(false)
                        .withConfigs(
                                "layout=nsm",
                                "layout=nsm,tight=on",
                                "layout=pax,cache=swap",
                                "layout=hpl,cluster=partition")
                        .withCompare("sqlite", "duckdb"),
                Progress.NONE,
                warnings::add);
    }

    @Test
    void everyConfigurationReturnsTheBaselinesResultsEventByEvent() {
        assertThat(warnings).isEmpty();
        assertThat(r.runs())
                .extracting(RunReport::config)
                .containsExactly(
                        "layout=nsm", "layout=nsm,tight=on", "layout=pax,cache=swap", "layout=hpl,cluster=partition");
        assertThat(r.unresolved()).isZero();
        assertThat(r.mismatches()).containsExactly(0L, 0L, 0L, 0L);
        assertThat(r.resultsDiffering()).isZero();
        RunReport nsm = r.runs().get(0);
        // every event is executed or skipped (a scan, or a key only a join binds), in every run alike
        assertThat(nsm.executed() + nsm.skipped()).isEqualTo(r.events());
        assertThat(nsm.executed()).isGreaterThan(r.events() / 2);
        assertThat(r.runs()).allSatisfy(x -> assertThat(x.executed()).isEqualTo(nsm.executed()));
        assertThat(r.runs()).allSatisfy(x -> assertThat(x.rowsReturned()).isEqualTo(nsm.rowsReturned()));
        // the measured share is what is left after the 10% warm-up
        assertThat(nsm.queries()).isBetween(nsm.executed() * 85 / 100, nsm.executed() * 95 / 100);
        // a tight type is never wider than the declared one's field, so the heap never grows
        assertThat(r.runs().get(1).heapBytes()).isLessThanOrEqualTo(nsm.heapBytes());
        assertThat(r.runs().get(2).cacheBytes()).isPositive();
        assertThat(r.runs().get(3).moved()).isNotEmpty();
        assertThat(r.runs().get(3).moved().values()).allMatch(n -> n > 0);
        assertThat(r.device()).contains("NVMe");
    }

    @Test
    void sqliteAndDuckDbReturnWhatTheEngineReturns() {
        assertThat(r.sqlRuns()).extracting(ReplayReport.SqlRun::engine).containsExactly("sqlite", "duckdb");
        assertThat(r.sqlRuns()).allSatisfy(s -> {
            assertThat(s.mismatches()).as(s.engine()).isZero();
            assertThat(s.queries()).as(s.engine()).isEqualTo(r.runs().get(0).executed());
            assertThat(s.throughputQps()).as(s.engine()).isPositive();
        });
    }

    @Test
    void onlyTheEventsOnTheTablesAskedForAreReplayed() throws Exception {
        ReplayReport revision = Replay.run(
                ReplayOptions.of(dump, trace).withJitWarmup(false).withTables("REVISION"), Progress.NONE, w -> {});
        assertThat(revision.tables()).containsExactly("REVISION");
        assertThat(revision.events()).isPositive().isLessThan(r.events());
        assertThat(revision.mismatches()).containsExactly(0L);
        // revision's heap alone: the other tables the trace touches are not loaded
        assertThat(revision.runs().get(0).heapBytes())
                .isPositive()
                .isLessThan(r.runs().get(0).heapBytes());
    }

    @Test
    void warmUpRoundsRunAsTheMeasuredOnesAndAreNotReported() throws Exception {
        List<String> tasks = new ArrayList<>();
        Progress seen = new Progress() {
            @Override
            public void begin(String task, long total) {
                if (task.startsWith("replay ")) tasks.add(task.substring("replay ".length()));
            }

            @Override
            public void advance(long done) {}

            @Override
            public void end() {}
        };
        ReplayReport two = Replay.run(
                ReplayOptions.of(dump, trace)
                        .withJitWarmup(false)
                        .withTables("revision")
                        .withConfigs("layout=nsm", "layout=pax")
                        .withRepeat(2)
                        .withWarmupRounds(1),
                seen,
                w -> {});
        // the warm-up round first, rotated as a round before the first would be, then the two measured rounds
        assertThat(tasks)
                .containsExactly(
                        "layout=pax warm-up 1",
                        "layout=nsm warm-up 1",
                        "layout=nsm #1",
                        "layout=pax #1",
                        "layout=pax #2",
                        "layout=nsm #2");
        assertThat(two.mismatches()).containsExactly(0L, 0L);
        for (RunReport x : two.runs()) {
            assertThat(x.repeats()).isEqualTo(2);
            // the reported cost is the median of the measured rounds, each of them kept in round order
            assertThat(x.costPerQueryUsByRound()).hasSize(2);
            assertThat(Arrays.stream(x.costPerQueryUsByRound()).min().orElseThrow())
                    .isPositive();
            assertThat(x.costPerQueryUs()).isEqualTo(Stats.median(x.costPerQueryUsByRound()));
            // the JVM's work beside each measured round: HotSpot tells its compile and collection times
            assertThat(x.jitCompileMsByRound()).hasSize(2);
            assertThat(x.gcMsByRound()).hasSize(2);
            assertThat(Arrays.stream(x.jitCompileMsByRound()).min().orElseThrow())
                    .isNotNegative();
            assertThat(Arrays.stream(x.gcMsByRound()).min().orElseThrow()).isNotNegative();
        }
        double[] base = two.runs().get(0).costPerQueryUsByRound();
        double[] pax = two.runs().get(1).costPerQueryUsByRound();
        assertThat(two.runs().get(1).speedupVsFirst()).isEqualTo(Stats.median(Stats.ratios(base, pax)));
    }

    @Test
    void optionsThatCannotBeReplayedAreBadInputNamingWhatIsWrong() {
        assertThatThrownBy(() -> Replay.run(ReplayOptions.of(dump, trace).withTables("nosuch"), Progress.NONE, w -> {}))
                .isInstanceOf(BadInputException.class)
                .hasMessage("--tables nosuch: " + dump + " has no such table");
        assertThatThrownBy(() ->
                        Replay.run(ReplayOptions.of(dump, trace).withConfigs("layout=zip"), Progress.NONE, w -> {}))
                .isInstanceOf(BadInputException.class)
                .hasMessageContaining("layout");
        assertThatThrownBy(() -> Replay.run(ReplayOptions.of(dump, dir.resolve("none.log")), Progress.NONE, w -> {}))
                .isInstanceOf(BadInputException.class)
                .hasMessageEndingWith("none.log: no such trace file");
        assertThatThrownBy(() -> Replay.run(
                        ReplayOptions.of(dump, trace).withCacheFields(Map.of("page.nosuch", "page_id")),
                        Progress.NONE,
                        w -> {}))
                .isInstanceOf(BadInputException.class)
                .hasMessage("--cache-fields page.nosuch: page has no index nosuch");
        assertThatThrownBy(() -> ReplayOptions.of(dump, trace).withWarmupRounds(-1))
                .isInstanceOf(BadInputException.class)
                .hasMessage("--warmup-rounds must be at least 0, got -1");
    }
}

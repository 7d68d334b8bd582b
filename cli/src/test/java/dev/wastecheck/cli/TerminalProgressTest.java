package dev.wastecheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the progress bar says: bytes in a unit that shows them, phases by name, replays counted with short labels. */
class TerminalProgressTest {
    @Test
    void aSmallFileCountsInKilobytesOrBytesNotZeroMegabytes() {
        assertThat(TerminalProgress.byteUnit(437_147)).isEqualTo(1024); // the shipped wiki dump: 426 KB, not 0/0 MB
        assertThat(TerminalProgress.byteUnit(900)).isEqualTo(1);
        assertThat(TerminalProgress.byteUnit(60L << 20)).isEqualTo(1 << 20);
    }

    @Test
    void phasesAreNumberedAndNamedAndReplaysCountedWithShortLabels() {
        TerminalProgress p = new TerminalProgress(80);
        assertThat(p.label("reading")).isEqualTo("step 1: reading");
        assertThat(p.label("profiling")).isEqualTo("step 2: profiling");
        String config = "layout=pax,cache=swap,cache_size=0.5,cluster=partition,tight=on,split=cold,memory=16M";
        String first = p.label("replay " + config);
        String second = p.label("replay " + config);
        assertThat(first)
                .startsWith("run 1, 0m00s: replay layout=")
                .endsWith("~")
                .hasSizeLessThanOrEqualTo(36);
        assertThat(second).startsWith("run 2, ");
    }

    @Test
    void aSearchShowsItsStageNOfMAndTheTimeTheRestShouldTake() {
        TerminalProgress p = new TerminalProgress(80);
        p.stage("revision layout", 0, 40);
        assertThat(p.label("replay layout=pax")).isEqualTo("search 1/40: revision layout");
        // 10 of 40 stages done: the 30 left at the same rate; the estimate comes from the stages, not one run
        long t0 = System.nanoTime();
        p.stage("text cluster", 10, 40);
        String label = p.label("replay layout=nsm", t0 + 20_000_000_000L);
        assertThat(label).startsWith("search 11/40 ~1m").endsWith(": text cluster");
        assertThat(label.length()).isLessThanOrEqualTo(40);
        p.stage("a_table_with_a_very_long_name_indeed compress", 39, 40);
        assertThat(p.label("loading layout=nsm", t0 + 40_000_000_000L))
                .startsWith("search 40/40 ~")
                .endsWith("~")
                .hasSizeLessThanOrEqualTo(40);
    }
}

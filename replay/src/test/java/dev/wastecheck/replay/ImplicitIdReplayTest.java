package dev.wastecheck.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.Progress;
import dev.wastecheck.traces.generate.WikiGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code id=implicit} ("No Bits Left Behind" §4.2) on a small generated wiki: every event returns
 * what the stored-id design returns (the replay's {@code --check}, event by event, reads of the id
 * columns included), in every page layout, with a hot partition kept by reference (§3.1) and with
 * a vertical split.
 */
class ImplicitIdReplayTest {
    @TempDir
    static Path dir;

    @Test
    void implicitIdsAnswerWhatStoredIdsAnswerEventByEvent() throws Exception {
        new WikiGenerator(WikiGenerator.Config.defaults(40, 11)).generate(dir);
        List<String> warnings = new ArrayList<>();
        ReplayReport r = Replay.run(
                ReplayOptions.of(dir.resolve("dump.sql"), dir.resolve("trace.log"))
                        .withJitWarmup(false)
                        .withConfigs(
                                "layout=nsm",
                                "layout=nsm,id=implicit",
                                "layout=pax,tight=on,id=implicit",
                                "layout=hpl,tight=int,cluster=partition,hot=refs,id=implicit",
                                "layout=nsm,tight=int,split=cold,revision.id=implicit"),
                Progress.NONE,
                warnings::add);
        assertThat(warnings).isEmpty();
        assertThat(r.unresolved()).isZero();
        assertThat(r.mismatches()).containsExactly(0L, 0L, 0L, 0L, 0L);
        assertThat(r.resultsDiffering()).isZero();
        RunReport stored = r.runs().get(0), implicit = r.runs().get(1);
        assertThat(implicit.settings()).contains("id=implicit");
        assertThat(implicit.executed()).isEqualTo(stored.executed()).isGreaterThan(r.events() / 2);
        assertThat(implicit.rowsReturned()).isEqualTo(stored.rowsReturned());
        // 40 pages make tables of a few heap pages, which 4 to 8 bytes a row do not shrink by a page: bytes per record
        // are ImplicitIdTest's, and docs/benchmarks.md measures the heaps at scale 1000
        // the address maps of the pages read are part of the working set; declared BIGINT UNSIGNED keys (rev_id)
        // load as text, so the implicit id replaces them once tight=int has made them integers (EngineSchemas.tight)
        assertThat(implicit.workingSetByStructure()).containsKey("page.id_map").doesNotContainKey("revision.id_map");
        for (int k = 2; k < 5; k++)
            assertThat(r.runs().get(k).workingSetByStructure().keySet())
                    .as(r.runs().get(k).config())
                    .containsAnyOf("revision.id_map", "revision.hot_id_map");
        assertThat(r.runs().get(3).moved()).isNotEmpty();
    }
}

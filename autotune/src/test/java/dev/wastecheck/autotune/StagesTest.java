package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.Progress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search's stages: counted in advance, reported in order, never past the total. */
class StagesTest {
    @Test
    void stagesAreCountedInAdvanceAndReportedInOrderUpToTheTotal() {
        List<String> seen = new ArrayList<>();
        Progress recording = new Progress() {
            @Override
            public void begin(String task, long total) {}

            @Override
            public void advance(long done) {}

            @Override
            public void end() {}

            @Override
            public void stage(String name, int done, int total) {
                seen.add(done + "/" + total + " " + name);
            }
        };
        int dims = Dimension.values().length;
        Stages s = Stages.of(recording, 3);
        assertThat(s.total()).isEqualTo(4 * dims + 2);
        for (int i = 0; i < s.total(); i++) s.next("stage " + i);
        s.next("one too many"); // an extra stage stays within the total rather than showing 41 of 40
        s.finish();
        assertThat(seen).startsWith("0/" + s.total() + " stage 0", "1/" + s.total() + " stage 1");
        assertThat(seen.get(seen.size() - 2)).isEqualTo((s.total() - 1) + "/" + s.total() + " one too many");
        assertThat(seen.get(seen.size() - 1)).isEqualTo(s.total() + "/" + s.total() + " done");
    }
}

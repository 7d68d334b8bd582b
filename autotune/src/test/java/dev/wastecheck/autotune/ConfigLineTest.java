package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.engine.table.TableDesign;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recommendation's {@code --config} line replays the designs that were measured, table keys on top of shared ones. */
class ConfigLineTest {
    @Test
    void aTableKeepsTheDefaultsTheSharedDesignSetsOtherwise() {
        TableDesign shared = TableDesign.BASELINE
                .with("cluster", "partition")
                .with("hot", "refs")
                .with("demote_after", "5000")
                .with("cache", "swap")
                .with("cache_size", "0.3");
        TableDesign revision = TableDesign.BASELINE.with("cluster", "partition").with("layout", "pax");
        TableDesign actor = TableDesign.BASELINE;
        EngineConfig c = EngineConfig.builder("recommended", 16L << 20)
                .design(shared)
                .tables(Map.of("revision", revision, "actor", actor))
                .build();
        String line = Finalists.configLine(c);
        assertThat(line).contains("revision.hot=read", "revision.demote_after=0", "revision.cache=off");
        EngineConfig back = EngineConfig.parse(line, EngineConfig.defaults(16L << 20));
        assertThat(back.design()).isEqualTo(shared);
        assertThat(back.design("revision")).isEqualTo(revision);
        assertThat(back.design("actor")).isEqualTo(actor);
        assertThat(back.design("page")).isEqualTo(shared);
    }

    @Test
    void aPageSizeOtherThanTheDefaultIsWrittenAndReadBack() {
        TableDesign shared = TableDesign.BASELINE.with("cluster", "partition").with("layout", "pax");
        EngineConfig c = EngineConfig.builder("best uniform", 8L << 20)
                .design(shared)
                .pageSize(4 << 10)
                .build();
        String line = Finalists.configLine(c);
        assertThat(line).contains("page_size=4K");
        EngineConfig back = EngineConfig.parse(line, EngineConfig.defaults(8L << 20));
        assertThat(back.pageSize()).isEqualTo(4 << 10);
        assertThat(back.design()).isEqualTo(shared);
        assertThat(Finalists.configLine(EngineConfig.builder("best uniform", 8L << 20)
                        .design(shared)
                        .build()))
                .as("the default size is left out")
                .doesNotContain("page_size");
    }

    @Test
    void hotByReferenceIsKeptWhicheverKeyComesFirst() {
        TableDesign a = TableDesign.BASELINE.with("hot", "refs").with("cluster", "partition");
        TableDesign b = TableDesign.BASELINE.with("cluster", "partition").with("hot", "refs");
        assertThat(a).isEqualTo(b);
        assertThat(a.describe()).contains("cluster=partition,hot=refs");
        // without a partition the key changes nothing the design describes
        assertThat(TableDesign.BASELINE.with("hot", "refs").describe()).isEqualTo(TableDesign.BASELINE.describe());
    }
}

package dev.wastecheck.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;
import org.junit.jupiter.api.Test;

class EngineConfigTest {
    private static final EngineConfig BASE = EngineConfig.defaults(64L << 20);

    @Test
    void layoutArrowTakesFreezeAndColdAfter() {
        EngineConfig a = EngineConfig.parse("layout=arrow,cold_after=250", BASE);
        assertThat(a.arrow()).isTrue();
        assertThat(a.freeze()).isTrue();
        assertThat(a.coldAfter()).isEqualTo(250);
        assertThat(a.describe()).startsWith("layout=arrow,freeze=on,cold_after=250,cache=off");
        assertThat(a.arrowStorage()).isNotNull();
        EngineConfig hot = EngineConfig.parse("layout=arrow,freeze=off", BASE);
        assertThat(hot.freeze()).isFalse();
        assertThat(hot.describe()).startsWith("layout=arrow,freeze=off,cache=off");
        assertThat(EngineConfig.parse("layout=pax", a).arrow())
                .as("another layout leaves Arrow")
                .isFalse();
        assertThat(BASE.arrowStorage()).isNull();
    }

    @Test
    void layoutArrowIsALayoutValueEveryTableGets() {
        EngineConfig a = EngineConfig.parse("revision.tight=on,layout=arrow", BASE);
        assertThat(a.design().layout()).isEqualTo(Layout.ARROW);
        assertThat(a.design("revision").layout()).isEqualTo(Layout.ARROW);
        assertThat(a.design().describe()).startsWith("layout=arrow,cache=off");
        assertThat(EngineConfig.builder("built", 64L << 20)
                        .design(TableDesign.BASELINE.with("layout", "arrow"))
                        .build())
                .isEqualTo(EngineConfig.parse("layout=arrow", BASE).withLabel("built"));
        assertThatThrownBy(() -> Layout.ARROW.newPage(null)).hasMessageContaining("not pages");
    }

    @Test
    void layoutArrowIsASettingOfTheWholeDatabase() {
        EngineConfig a = EngineConfig.parse("layout=arrow,freeze=off,cluster=partition,revision.tight=on", BASE);
        assertThat(a.arrow()).isTrue();
        assertThat(a.design("revision").tight()).isNotEmpty();
        // every table's description names the blocks, not the pages they replace
        assertThat(a.describe())
                .startsWith("layout=arrow,freeze=off,cache=off,cluster=partition")
                .contains("; revision: layout=arrow,freeze=off,cache=off,cluster=partition,tight=on");
        assertThatThrownBy(() -> EngineConfig.parse("revision.layout=arrow", BASE))
                .hasMessageContaining("applies to every table");
        assertThatThrownBy(() -> EngineConfig.parse("layout=arrow,split=cold", BASE))
                .hasMessageContaining("split applies to pages");
        assertThat(EngineConfig.parse("layout=arrow", BASE).withMemory(4L << 20).arrow())
                .isTrue();
        assertThat(EngineConfig.parse("layout=arrow,layout=pax", BASE).arrow())
                .as("the last layout wins")
                .isFalse();
    }

    @Test
    void keysOverrideTheBaselineAndTheRestIsKept() {
        EngineConfig c = EngineConfig.parse(
                "layout=HPL, cache=swap,cache_size=25%,cluster=0.54,tight=on,memory=4M,page_size=16K", BASE);
        assertThat(c.layout()).isEqualTo(Layout.HPL);
        assertThat(c.cache()).isEqualTo(CachePolicy.SWAP);
        assertThat(c.cacheSize()).isEqualTo(0.25);
        assertThat(c.clusterFraction()).isEqualTo(0.54);
        assertThat(c.partition()).isFalse();
        assertThat(c.tight()).isTrue();
        assertThat(c.memoryBytes()).isEqualTo(4L << 20);
        assertThat(c.pageSize()).isEqualTo(16384);
        EngineConfig p = EngineConfig.parse("cluster=partition", BASE);
        assertThat(p.partition()).isTrue();
        assertThat(p.layout()).isEqualTo(Layout.NSM);
        assertThat(p.memoryBytes()).isEqualTo(64L << 20);
        assertThat(EngineConfig.parse("", BASE).label()).isEqualTo("baseline");
        assertThat(EngineConfig.parseSize("m", "1.5G")).isEqualTo(1610612736L);
        assertThat(EngineConfig.parseSize("m", "512KiB")).isEqualTo(512L << 10);
    }

    @Test
    void mistakesSayWhatWasExpected() {
        assertThatThrownBy(() -> EngineConfig.parse("layout=columnar", BASE))
                .hasMessageContaining("expected nsm, pax, hpl or arrow");
        assertThatThrownBy(() -> EngineConfig.parse("freeze=on", BASE)).hasMessageContaining("layout=arrow only");
        assertThatThrownBy(() -> EngineConfig.parse("layout=arrow,cold_after=-3", BASE))
                .hasMessageContaining("a number of events");
        assertThatThrownBy(() -> EngineConfig.parse("layout=arrow,freeze=maybe", BASE))
                .hasMessageContaining("expected on or off");
        assertThatThrownBy(() -> EngineConfig.parse("cache_size=2", BASE)).hasMessageContaining("fraction from 0 to 1");
        assertThatThrownBy(() -> EngineConfig.parse("colour=red", BASE)).hasMessageContaining("--config key 'colour'");
        assertThatThrownBy(() -> EngineConfig.parse("memory", BASE)).hasMessageContaining("expected KEY=VALUE");
        assertThatThrownBy(() -> EngineConfig.parse("page_size=3000", BASE)).hasMessageContaining("4K, 8K, 16K or 32K");
        assertThatThrownBy(() -> EngineConfig.parse("memory=8K", BASE)).hasMessageContaining("fewer than two pages");
    }

    @Test
    void aTableKeySetsOneTableAndTightTakesClasses() {
        EngineConfig c = EngineConfig.parse(
                "cluster=partition,revision.tight=int+time,text.split=cold,revision.promote=2,tight=dict", BASE);
        assertThat(c.design("page").partition()).isTrue();
        assertThat(c.design("page").tightLabel()).isEqualTo("dict");
        assertThat(c.design("REVISION").tight())
                .containsExactly(TableDesign.TightClass.INT, TableDesign.TightClass.TIME);
        assertThat(c.design("revision").promoteAfter()).isEqualTo(2);
        assertThat(c.design("revision").partition())
                .as("keys for every table apply first")
                .isTrue();
        assertThat(c.design("text").split().mode()).isEqualTo("cold");
        assertThat(c.describe())
                .contains("; revision: layout=nsm,cache=off,cluster=partition,promote=2,tight=int+time")
                .contains("; text: ")
                .contains("split=cold");
        assertThatThrownBy(() -> EngineConfig.parse("revision.memory=4M", BASE)).hasMessageContaining("TABLE.KEY");
        assertThatThrownBy(() -> EngineConfig.parse("tight=ints", BASE)).hasMessageContaining("int, dict, time, bool");
        assertThatThrownBy(() -> EngineConfig.parse("demote_after=-3", BASE)).hasMessageContaining("expected a count");
    }
}

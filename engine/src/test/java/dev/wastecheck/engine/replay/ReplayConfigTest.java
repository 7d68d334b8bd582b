package dev.wastecheck.engine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;
import org.junit.jupiter.api.Test;

class ReplayConfigTest {
    private static final ReplayConfig BASE = ReplayConfig.defaults(64L << 20);

    @Test
    void layoutArrowTakesFreezeAndColdAfter() {
        ReplayConfig a = ReplayConfig.parse("layout=arrow,cold_after=250", BASE);
        assertThat(a.arrow()).isTrue();
        assertThat(a.freeze()).isTrue();
        assertThat(a.coldAfter()).isEqualTo(250);
        assertThat(a.describe()).startsWith("layout=arrow,freeze=on,cold_after=250,cache=off");
        assertThat(a.arrowStorage()).isNotNull();
        ReplayConfig hot = ReplayConfig.parse("layout=arrow,freeze=off", BASE);
        assertThat(hot.freeze()).isFalse();
        assertThat(hot.describe()).startsWith("layout=arrow,freeze=off,cache=off");
        assertThat(ReplayConfig.parse("layout=pax", a).arrow())
                .as("another layout leaves Arrow")
                .isFalse();
        assertThat(BASE.arrowStorage()).isNull();
    }

    @Test
    void layoutArrowIsALayoutValueEveryTableGets() {
        ReplayConfig a = ReplayConfig.parse("revision.tight=on,layout=arrow", BASE);
        assertThat(a.design().layout()).isEqualTo(Layout.ARROW);
        assertThat(a.design("revision").layout()).isEqualTo(Layout.ARROW);
        assertThat(a.design().describe()).startsWith("layout=arrow,cache=off");
        assertThat(ReplayConfig.builder("built", 64L << 20)
                        .design(TableDesign.BASELINE.with("layout", "arrow"))
                        .build())
                .isEqualTo(ReplayConfig.parse("layout=arrow", BASE).withLabel("built"));
        assertThatThrownBy(() -> Layout.ARROW.newPage(null)).hasMessageContaining("not pages");
    }

    @Test
    void layoutArrowIsASettingOfTheWholeDatabase() {
        ReplayConfig a = ReplayConfig.parse("layout=arrow,freeze=off,cluster=partition,revision.tight=on", BASE);
        assertThat(a.arrow()).isTrue();
        assertThat(a.design("revision").tight()).isNotEmpty();
        // every table's description names the blocks, not the pages they replace
        assertThat(a.describe())
                .startsWith("layout=arrow,freeze=off,cache=off,cluster=partition")
                .contains("; revision: layout=arrow,freeze=off,cache=off,cluster=partition,tight=on");
        assertThatThrownBy(() -> ReplayConfig.parse("revision.layout=arrow", BASE))
                .hasMessageContaining("applies to every table");
        assertThatThrownBy(() -> ReplayConfig.parse("layout=arrow,split=cold", BASE))
                .hasMessageContaining("split applies to pages");
        assertThat(ReplayConfig.parse("layout=arrow", BASE).withMemory(4L << 20).arrow())
                .isTrue();
        assertThat(ReplayConfig.parse("layout=arrow,layout=pax", BASE).arrow())
                .as("the last layout wins")
                .isFalse();
    }

    @Test
    void keysOverrideTheBaselineAndTheRestIsKept() {
        ReplayConfig c = ReplayConfig.parse(
                "layout=HPL, cache=swap,cache_size=25%,cluster=0.54,tight=on,memory=4M,page_size=16K", BASE);
        assertThat(c.layout()).isEqualTo(Layout.HPL);
        assertThat(c.cache()).isEqualTo(CachePolicy.SWAP);
        assertThat(c.cacheSize()).isEqualTo(0.25);
        assertThat(c.clusterFraction()).isEqualTo(0.54);
        assertThat(c.partition()).isFalse();
        assertThat(c.tight()).isTrue();
        assertThat(c.memoryBytes()).isEqualTo(4L << 20);
        assertThat(c.pageSize()).isEqualTo(16384);
        ReplayConfig p = ReplayConfig.parse("cluster=partition", BASE);
        assertThat(p.partition()).isTrue();
        assertThat(p.layout()).isEqualTo(Layout.NSM);
        assertThat(p.memoryBytes()).isEqualTo(64L << 20);
        assertThat(ReplayConfig.parse("", BASE).label()).isEqualTo("baseline");
        assertThat(ReplayConfig.parseSize("m", "1.5G")).isEqualTo(1610612736L);
        assertThat(ReplayConfig.parseSize("m", "512KiB")).isEqualTo(512L << 10);
    }

    @Test
    void mistakesSayWhatWasExpected() {
        assertThatThrownBy(() -> ReplayConfig.parse("layout=columnar", BASE))
                .hasMessageContaining("expected nsm, pax, hpl or arrow");
        assertThatThrownBy(() -> ReplayConfig.parse("freeze=on", BASE)).hasMessageContaining("layout=arrow only");
        assertThatThrownBy(() -> ReplayConfig.parse("layout=arrow,cold_after=-3", BASE))
                .hasMessageContaining("a number of events");
        assertThatThrownBy(() -> ReplayConfig.parse("layout=arrow,freeze=maybe", BASE))
                .hasMessageContaining("expected on or off");
        assertThatThrownBy(() -> ReplayConfig.parse("cache_size=2", BASE)).hasMessageContaining("fraction from 0 to 1");
        assertThatThrownBy(() -> ReplayConfig.parse("colour=red", BASE)).hasMessageContaining("--config key 'colour'");
        assertThatThrownBy(() -> ReplayConfig.parse("memory", BASE)).hasMessageContaining("expected KEY=VALUE");
        assertThatThrownBy(() -> ReplayConfig.parse("page_size=3000", BASE)).hasMessageContaining("4K, 8K, 16K or 32K");
        assertThatThrownBy(() -> ReplayConfig.parse("memory=8K", BASE)).hasMessageContaining("fewer than two pages");
    }

    @Test
    void aTableKeySetsOneTableAndTightTakesClasses() {
        ReplayConfig c = ReplayConfig.parse(
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
        assertThatThrownBy(() -> ReplayConfig.parse("revision.memory=4M", BASE)).hasMessageContaining("TABLE.KEY");
        assertThatThrownBy(() -> ReplayConfig.parse("tight=ints", BASE)).hasMessageContaining("int, dict, time, bool");
        assertThatThrownBy(() -> ReplayConfig.parse("demote_after=-3", BASE)).hasMessageContaining("expected a count");
    }
}

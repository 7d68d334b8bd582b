package dev.wastecheck.traces.heat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.traces.access.AccessExtractor;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WorkloadHeatTest {
    static final DatabaseSchema SCHEMA = DdlCatalog.parse("""
            CREATE TABLE t (id int NOT NULL, name varchar(20) NOT NULL, v int, w int, ts binary(14),
              PRIMARY KEY (id), UNIQUE KEY by_name (name), KEY by_v (v));
            """).schema();

    @Test
    void skewSharesCountTheHottestTuplesOfTheWholeTable() {
        AccessExtractor x = new AccessExtractor(SCHEMA);
        WorkloadHeat p = new WorkloadHeat(SCHEMA);
        // key 1 read 91 times, keys 2..10 once each: 100 accesses on 10 keys of a 100-row table
        for (int i = 0; i < 91; i++) {
            x.extract("SELECT v FROM t WHERE id = 1", Dialect.MYSQL).forEach(p::add);
        }
        for (int k = 2; k <= 10; k++) {
            x.extract("SELECT v, w FROM t WHERE id = " + k, Dialect.MYSQL).forEach(p::add);
        }
        x.extract("SELECT YEAR(ts) FROM t WHERE v > 3", Dialect.MYSQL).forEach(p::add);
        x.extract("UPDATE t SET w = 1 WHERE name = 'a'", Dialect.MYSQL).forEach(p::add);
        TableHeat t = p.table("t").orElseThrow();
        assertThat(t.events()).isEqualTo(102);
        assertThat(t.heatIndex()).isEqualTo("PRIMARY");
        SkewShares s = t.skew("PRIMARY", 100);
        assertThat(s.top1()).isCloseTo(0.91, within(1e-9));
        assertThat(s.top5()).isCloseTo(0.95, within(1e-9));
        assertThat(s.top10()).isCloseTo(1.0, within(1e-9));
        assertThat(t.skew("PRIMARY", 0).top10())
                .as("over the 10 keys touched: the hottest 1 key")
                .isCloseTo(0.91, within(1e-9));
        assertThat(t.hottestShares("PRIMARY", 100, 0.01, 0.05, 0.10, 0.001, 1.0))
                .as("the curve is the same computation as the shares")
                .containsExactly(s.top1(), s.top5(), s.top10(), 0.91, 1.0);
        assertThat(t.hottestShares("by_v", 100, 0.5))
                .as("no keyed access: no share")
                .containsExactly(0.0);
        assertThat(t.hotKeys("PRIMARY", 0.9)).containsExactly(List.of("1"));
        assertThat(t.tupleCounts("by_name")).containsEntry(List.of("a"), 1L);
        assertThat(t.eventsWithoutKey()).isEqualTo(1);
        IndexUse pk = t.index("PRIMARY");
        assertThat(pk.queries()).isEqualTo(100);
        assertThat(pk.projectedColumns()).containsEntry("v", 100L).containsEntry("w", 9L);
        assertThat(pk.answerableShare(Set.of("v"))).isCloseTo(0.91, within(1e-9));
        assertThat(pk.answerableShare(Set.of("v", "w"))).isEqualTo(1.0);
        assertThat(t.index("by_v").queries()).isEqualTo(1);
        ColumnUse ts = t.columns().stream()
                .filter(c -> c.column().equals("ts"))
                .findFirst()
                .orElseThrow();
        assertThat(ts.functions()).containsEntry("YEAR", 1L);
        ColumnUse w = t.columns().stream()
                .filter(c -> c.column().equals("w"))
                .findFirst()
                .orElseThrow();
        assertThat(w.updated()).isEqualTo(1);
        assertThat(t.unreferencedColumns()).isEmpty();
    }

    @Test
    void pageHotDensityAveragesOverPagesHoldingHotTuples() {
        PageHotDensity d = new PageHotDensity(100);
        // 10-byte rows, 10 per page; page 1 holds 1 hot row, page 2 holds 5, page 3 none
        for (int i = 0; i < 30; i++) {
            d.row(i == 3 || (i >= 10 && i < 15), 10);
        }
        assertThat(d.pages()).isEqualTo(3);
        assertThat(d.pagesWithHot()).isEqualTo(2);
        assertThat(d.density()).isCloseTo((0.1 + 0.5) / 2, within(1e-9));
        assertThat(d.hotRows()).isEqualTo(6);
    }

    @Test
    void eventsAreCountedPerTable() {
        WorkloadHeat p = new WorkloadHeat(SCHEMA);
        AccessEvent e = new AccessExtractor(SCHEMA)
                .extract("SELECT v FROM t WHERE id = 1", Dialect.MYSQL)
                .get(0);
        p.add(e);
        assertThat(p.events()).isEqualTo(1);
        assertThat(p.tables()).hasSize(1);
    }
}
